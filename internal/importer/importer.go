// Package importer holds the little logic the importers (chart/visio,
// chart/drawio, chart/graphml) share besides reading the file (package
// internal/source) and scanning its XML (internal/xmlscan): allocating
// what they decode in blocks, interning the chart's strings, ranking
// transitions by the orders drawn, checking what the nesting of a
// statechart asks of it, reading the drawing's settings of how the
// machine runs, telling pseudo-states by the words of their names, and
// wording messages: the problems found, the stencil's names and version,
// counts, text shortened.
//
// # Sections
//
//   - Allocation: [Block] hands out values and slices cut from blocks.
//   - Strings: [Strings] clones a chart's strings out of the file once.
//   - Transitions: [RankOrders], [Unordered], [Else].
//   - Nesting: [CheckNesting] ([Nesting], [StencilInitialHint]), and its
//     pieces package internal/statesmith uses too:
//     [CheckHistoryTransitions], [NoInitials], [HistoryInNoState].
//   - Stencils' statecharts: [MarkInitialAncestors] (the initial-state
//     master's meaning), [IgnoredTest] (a test on a start's or a
//     history's transition).
//   - Problems: [Problem], [AppendDiagnostics].
//   - Stencils: [TestNames], [Version].
//   - Settings: [ParseFlag], [ParseChainLimit], [MaxChainLimit].
//   - Text: [Words], [TerminatorKind], [Shorten], [SplitBehaviour],
//     [Plural], [IsAre].
package importer

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// blockSize is the number of values in a Block's blocks.
const blockSize = 256

// Block hands out values and exact-size slices of T cut from blocks of 256
// values (or of a larger slice's size), so that a large drawing's many
// small values cost few allocations. A block stays alive as long as one of
// its values. The zero value is ready to use; it is not safe for
// concurrent use.
type Block[T any] struct {
	free []T
}

// New returns a pointer to a zero T.
func (b *Block[T]) New() *T {
	if len(b.free) == 0 {
		b.free = make([]T, blockSize)
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
}

// Keep returns a copy of s whose length and capacity are len(s), or nil
// when s is empty.
func (b *Block[T]) Keep(s []T) []T {
	if len(s) == 0 {
		return nil
	}
	if len(b.free) < len(s) {
		b.free = make([]T, max(blockSize, len(s)))
	}
	out := b.free[:len(s):len(s)]
	copy(out, s)
	b.free = b.free[len(s):]
	return out
}

// Strings interns the strings of a chart read from a file held in memory:
// each distinct string is cloned out of the file once, so that the chart
// shares one copy of a repeated string and does not keep the file alive.
// The zero value is ready to use; it is not safe for concurrent use.
type Strings struct {
	m map[string]string
}

// Clone returns s, cloned the first time it is seen.
func (x *Strings) Clone(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := x.m[s]; ok {
		return v
	}
	if x.m == nil {
		x.m = make(map[string]string)
	}
	v := strings.Clone(s)
	x.m[v] = v
	return v
}

// Pos returns p with its strings cloned: File, Page, Shape and ShapeName.
func (x *Strings) Pos(p diag.Pos) diag.Pos {
	p.File = x.Clone(p.File)
	p.Page = x.Clone(p.Page)
	p.Shape = x.Clone(p.Shape)
	p.ShapeName = x.Clone(p.ShapeName)
	return p
}

// TestNames lists the names of the stencil's tests, in its order.
func TestNames(st *chart.Stencil) []string {
	names := make([]string, len(st.Tests))
	for i, t := range st.Tests {
		names[i] = t.Name
	}
	return names
}

// Version returns the stencil's version for a message, or "unnumbered".
func Version(st *chart.Stencil) string {
	if st.Version == "" {
		return "unnumbered"
	}
	return st.Version
}

// Words splits a name into lower-case words at non-letters and digits and
// at changes of case: "com.lucidchart.UMLStartBlock20" gives com,
// lucidchart, uml, start, block, 20.
func Words(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	flush := func(i int) {
		if i > start {
			out = append(out, strings.ToLower(string(rs[start:i])))
		}
		start = i
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		p := rs[i-1]
		switch {
		case unicode.IsDigit(r) != unicode.IsDigit(p):
			flush(i)
		case unicode.IsUpper(r) && unicode.IsLower(p):
			flush(i)
		case unicode.IsUpper(r) && unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
		}
	}
	flush(len(rs))
	return out
}

// TerminatorKind tells what a flowchart's terminator shape (the rounded
// box that starts or ends a flowchart) stands for by its text: the start
// for "start" or "begin", the end for "end", "stop" or "finish" (the first
// of those words in text), a normal state otherwise.
func TerminatorKind(text string) chart.StateKind {
	for _, w := range Words(text) {
		switch w {
		case "start", "begin":
			return chart.StartState
		case "end", "stop", "finish":
			return chart.EndState
		}
	}
	return chart.NormalState
}

// Shorten returns s, or its first n-3 characters and "..." when it has
// more than n; n must be at least 3.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s // n runes take at least n bytes
	}
	i, cut := 0, -1
	for k := range s {
		if i == n-3 {
			cut = k
		}
		if i == n {
			return s[:cut] + "..."
		}
		i++
	}
	return s
}

// SplitBehaviour splits a state's text into its name and the behaviour
// written under it (UML's "entry / action", StateSmith's "enter / ..."):
// the lines from the first line after the first that holds a '/'. Line
// breaks are "\n", "\r\n", "\r" or U+2028; the name's lines are joined
// into one, its white space normalised; the behaviour is trimmed.
func SplitBehaviour(text string) (name, behaviour string) {
	lines := strings.Split(lineBreaks.Replace(strings.TrimSpace(text)), "\n")
	for i := 1; i < len(lines); i++ {
		if strings.Contains(lines[i], "/") {
			return chart.NormalizeSpace(strings.Join(lines[:i], " ")), strings.TrimSpace(strings.Join(lines[i:], "\n"))
		}
	}
	return chart.NormalizeSpace(text), ""
}

var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n")

// ParseFlag reads a yes-or-no setting of a drawing (the chart's Chain, an
// edge's final mark): "1", "true" or "yes" is on; "0", "false", "no" or
// nothing is off, in any case and with white space around it; ok is
// false for any other value, which the importer warns about.
func ParseFlag(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes":
		return true, true
	case "0", "false", "no", "":
		return false, true
	}
	return false, false
}

// MaxChainLimit is the largest ChainLimit a drawing may set.
const MaxChainLimit = 65535

// ParseChainLimit reads the chart's ChainLimit as a drawing sets it: a
// whole number from 0 (the number of states) to [MaxChainLimit], white
// space around it ignored; ok is false for any other value, nothing
// included (an importer that reads nothing as the default checks for it
// first).
func ParseChainLimit(v string) (n int, ok bool) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > MaxChainLimit {
		return 0, false
	}
	return n, true
}

// Plural returns n and noun, an s added unless n is 1: "1 shape", "3
// shapes".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// IsAre returns the verb that agrees with [Plural] of n: "is" for 1,
// "are" otherwise.
func IsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
