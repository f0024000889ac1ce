package diag

import (
	"fmt"
	"io"
	"slices"
)

// List is a list of diagnostics, in the order they were found (for an
// importer, document order; see [List.Sort]). As an error it stands for
// its errors; its warnings and notes are kept beside them but do not make
// it fail. Use [List.Err] to turn a list into an error only when it holds
// errors.
type List []Diagnostic

// Max is the most diagnostics [List.Add] keeps in a list: the last one
// kept is then a note that the rest were left out.
const Max = 200

// Error renders the first diagnostic of severity Error (or the first one,
// if none is an error), followed by "(and N more)" when the list has N
// other errors.
func (l List) Error() string {
	if len(l) == 0 {
		return "diag: no diagnostics"
	}
	first, errs := -1, 0
	for i := range l {
		if l[i].Severity == Error {
			if first < 0 {
				first = i
			}
			errs++
		}
	}
	if first < 0 {
		return l[0].Error()
	}
	if errs == 1 {
		return l[first].Error()
	}
	return fmt.Sprintf("%s (and %d more)", l[first].Error(), errs-1)
}

// Unwrap returns the diagnostics of severity Error, for [errors.Is] and
// [errors.As]: as an error the list stands for its errors, and a warning's
// sentinel does not make it match. A list of warnings alone unwraps to
// them, so that errors.As still finds its diagnostics.
func (l List) Unwrap() []error {
	var errs []error
	for _, d := range l {
		if d.Severity == Error {
			errs = append(errs, d)
		}
	}
	if errs == nil {
		for _, d := range l {
			errs = append(errs, d)
		}
	}
	return errs
}

// Add appends d to the list, unless the list is full: at [Max]-1
// diagnostics it appends a note that the rest are left out instead, and
// from then on appends nothing. A list built with Add alone never holds
// more than Max diagnostics.
func (l *List) Add(d Diagnostic) {
	switch n := len(*l); {
	case n < Max-1:
		*l = append(*l, d)
	case n == Max-1:
		*l = append(*l, Diagnostic{Pos: d.Pos, Severity: Note, Message: fmt.Sprintf("diag: more than %d problems; the rest are left out", Max-1),
			Hint: "mend these and look again"})
	}
}

// Full reports whether [List.Add] has stopped adding to the list.
func (l List) Full() bool { return len(l) >= Max }

// HasErrors reports whether a diagnostic of the list has severity Error.
func (l List) HasErrors() bool {
	for i := range l {
		if l[i].Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the diagnostics of severity Error, in order, in a new
// slice (nil if there are none).
func (l List) Errors() List {
	return l.filter(func(s Severity) bool { return s == Error })
}

// Warnings returns the diagnostics that do not stop a build, warnings and
// notes, in order, in a new slice (nil if there are none).
func (l List) Warnings() List {
	return l.filter(func(s Severity) bool { return s != Error })
}

// Print writes each diagnostic on a line of its own after indent, as
//
//	goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft": compile: ...
//
// and its hint, if any, on the next line, one tab further in.
func (l List) Print(w io.Writer, indent string) {
	for _, d := range l {
		fmt.Fprintf(w, "%s%s\n", indent, d.Error())
		if d.Hint != "" {
			fmt.Fprintf(w, "%s\thint: %s\n", indent, d.Hint)
		}
	}
}

func (l List) filter(keep func(Severity) bool) List {
	var out List
	for _, d := range l {
		if keep(d.Severity) {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the list's errors as an error (a List holding only them),
// or nil when the list has none. Warnings and notes are left out.
func (l List) Err() error {
	if errs := l.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// Sort orders the list by position ([Pos.Compare]: file, line, column),
// keeping the order in which they were found among diagnostics at the
// same place.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b Diagnostic) int { return a.Pos.Compare(b.Pos) })
}
