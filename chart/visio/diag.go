package visio

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// maxRepeats is how many diagnostics of one kind (of one message, whatever
// it quotes) a reading lists: a drawing made to flood its reader, or a
// badly broken one, may have a problem in each of a million shapes.
// Those past it are counted, and one more diagnostic says how many.
const maxRepeats = 100

// repeats caps the diagnostics of each kind at maxRepeats. The zero value
// is ready to use.
type repeats struct {
	count map[string]int // diagnostics of each kind so far
	over  map[string]int // index in more of the kinds over the cap
	more  []overflow     // in the order they went over
}

// overflow is a kind of diagnostic over the cap: the first left out, and
// how many were.
type overflow struct {
	first diag.Diagnostic
	n     int
}

// add appends d, of the given kind (its message's format), to list, or
// counts it when maxRepeats of its kind are listed already.
func (r *repeats) add(list *diag.List, d diag.Diagnostic, kind string) {
	if r.count == nil {
		r.count = make(map[string]int)
	}
	c := r.count[kind] + 1
	r.count[kind] = c
	if c <= maxRepeats {
		*list = append(*list, d)
		return
	}
	i, ok := r.over[kind]
	if !ok {
		if r.over == nil {
			r.over = make(map[string]int)
		}
		i = len(r.more)
		r.over[kind] = i
		r.more = append(r.more, overflow{first: d})
	}
	r.more[i].n++
}

// flush appends to list, for each kind over the cap, a diagnostic at the
// first left out that says how many were, and starts over.
func (r *repeats) flush(list *diag.List) {
	for _, o := range r.more {
		d := o.first
		d.Message = fmt.Sprintf("visio: %d more of this kind are not listed (the first %d are), from this one on: %s",
			o.n, maxRepeats, strings.TrimPrefix(d.Message, "visio: "))
		*list = append(*list, d)
	}
	*r = repeats{}
}

// finding is a diagnostic found before its turn to be listed, with its
// kind for repeats.
type finding struct {
	d    diag.Diagnostic
	kind string
	test string // for a finding about the transition's test (aboutTest), the test, if any
}

// newDiagnostic returns a diagnostic of severity sev at at, its message the
// package's prefix and format applied to args.
func newDiagnostic(sev diag.Severity, at diag.Pos, hint, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Pos: at, Severity: sev, Message: "visio: " + fmt.Sprintf(format, args...), Hint: hint}
}

// diag lists a diagnostic of the chart, within the cap of its kind.
func (in *interp) diag(sev diag.Severity, at diag.Pos, hint, format string, args ...any) {
	in.rep.add(&in.c.Diagnostics, newDiagnostic(sev, at, hint, format, args...), format)
}

// addf appends a diagnostic to list, within the cap of its kind: for the
// lists of a sheet that are all listed, in their order.
func (in *interp) addf(list *diag.List, sev diag.Severity, at diag.Pos, hint, format string, args ...any) {
	in.rep.add(list, newDiagnostic(sev, at, hint, format, args...), format)
}

// The kinds, for repeats, of the problems of package internal/importer's
// checks ([interp.report]).
const (
	kindIgnoredTest = "importer.IgnoredTest"
	kindRegionMark  = "importer.MarkInitialAncestors"
)

// report lists the problems a check of package internal/importer found,
// within the cap of kind, the check's.
func (in *interp) report(ps []importer.Problem, kind string) {
	for _, p := range ps {
		in.rep.add(&in.c.Diagnostics, diag.Diagnostic{Pos: p.Pos, Severity: p.Severity, Message: "visio: " + p.Message, Hint: p.Hint}, kind)
	}
}
