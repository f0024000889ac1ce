package compile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
)

// maxRepeated is how many diagnostics of one kind (one sentinel error and
// one severity) a Check or a Compile lists; one more diagnostic, after
// them, says how many it left out.
const maxRepeated = 10

// repeatKey is a kind of diagnostic.
type repeatKey struct {
	err error
	sev diag.Severity
}

// repeated counts the diagnostics of one kind.
type repeated struct {
	n       int // diagnostics of the kind found
	summary int // index in lowering.diags of the "and N more" diagnostic, once added
}

// morePhrases says what the diagnostics of a kind left out are about,
// by a noun and what follows it: "and 99,989 more states sharing an ID
// with another".
var morePhrases = map[error][2]string{
	ErrDuplicateID:   {"state", "sharing an ID with another"},
	ErrDuplicateName: {"state", "sharing a name with another"},
	ErrName:          {"name", "missing, too long or not UTF-8"},
	ErrUnknownTest:   {"transition", "using a test the stencil does not have"},
	ErrUnknownAction: {"entry action", "on a property the stencil does not have, or set twice"},
	ErrUnknownValue:  {"value", "not in the drop-list"},
	ErrNoTest:        {"transition", "without a test"},
	ErrMissingState:  {"transition", "from or to a state the chart does not have"},
	ErrTransition:    {"transition", "that cannot be lowered as drawn"},
	ErrSameTest:      {"transition", "on a test an earlier transition from the same state takes"},
	ErrShadowed:      {"transition", "never taken, as an any-state transition on the same test is tried first"},
	ErrNoPush:        {"transition", "returning to the top of a stack no transition pushes to"},
	ErrUnreachable:   {"unreachable state", ""},
	ErrNoWayOut:      {"state", "with no way out"},
	ErrIgnored:       {"part", "of the chart ignored"},
	ErrBadStencil:    {"problem", "of the stencil"},
}

// listed reports whether the compiler lists the next diagnostic of
// severity sev wrapping err: the first maxRepeated of a kind are; the
// others are counted in one diagnostic added after them, whose message
// summarize writes once they are all counted. Every diagnostic of the
// compiler goes through it.
func (x *lowering) listed(sev diag.Severity, err error) bool {
	k := repeatKey{err, sev}
	if x.repeats == nil {
		x.repeats = make(map[repeatKey]*repeated)
	}
	r := x.repeats[k]
	if r == nil {
		r = &repeated{}
		x.repeats[k] = r
	}
	r.n++
	if r.n <= maxRepeated {
		return true
	}
	if r.n == maxRepeated+1 {
		r.summary = len(x.diags)
		x.diags = append(x.diags, diag.Diagnostic{Pos: x.chartPos(), Severity: sev, Err: err,
			Hint: fmt.Sprintf("the first %d are listed: fix them, and check again for the others", maxRepeated)})
	}
	return false
}

// summarize writes the message of each diagnostic that counts those of
// its kind left out: "and 99,989 more states sharing an ID with another".
// (Each kind writes its own diagnostic: the map's order does not matter.)
func (x *lowering) summarize() {
	for k, r := range x.repeats {
		more := r.n - maxRepeated
		if more < 1 {
			continue
		}
		p, ok := morePhrases[k.err]
		if !ok {
			p = [2]string{"diagnostic", "of this kind"}
			if k.err != nil {
				p[1] += " (" + strings.TrimPrefix(k.err.Error(), "compile: ") + ")"
			}
		}
		noun := p[0]
		if more > 1 {
			noun += "s"
		}
		x.diags[r.summary].Message = strings.TrimSuffix("compile: and "+commas(more)+" more "+noun+" "+p[1], " ")
	}
}

// commas renders n with thousands separated: "99,989".
func commas(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
