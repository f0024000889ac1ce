package chart

import (
	"fmt"
	"strconv"
)

// Severity says how bad a [Diagnostic] is. The zero value is Error, so a
// Diagnostic built without one stops a build.
type Severity uint8

const (
	// Error: the chart cannot be used as drawn; a build must stop.
	Error Severity = iota
	// Warning: the chart can be used, but something in the drawing was
	// ignored or looks like a mistake.
	Warning
	// Note: information, such as a page that was skipped on purpose.
	Note
)

var severityNames = [...]string{Error: "error", Warning: "warning", Note: "note"}

// String returns "error", "warning" or "note".
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText encodes the severity as its String, for JSON.
func (s Severity) MarshalText() ([]byte, error) {
	if int(s) >= len(severityNames) {
		return nil, fmt.Errorf("chart: invalid severity %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes "error", "warning" or "note".
func (s *Severity) UnmarshalText(b []byte) error {
	return unmarshalName(b, severityNames[:], "severity", s)
}

// Diagnostic is one problem found in a drawing or a stencil, where it was
// found, and a hint on what to do about it. Message is lower-case and starts
// with the name of the package that found it ("visio: ..."). Hint, when not
// empty, is a sentence for people, shown by the command-line tool under the
// message. Err, when not nil, is a sentinel error of the package that found
// the problem, for [errors.Is].
type Diagnostic struct {
	Pos      Pos      `json:"pos"`            // where the problem is
	Severity Severity `json:"severity"`       // Error, Warning or Note
	Message  string   `json:"message"`        // "visio: ...", lower-case
	Hint     string   `json:"hint,omitempty"` // what to do about it, for people
	Err      error    `json:"-"`              // a sentinel error, or nil
}

// Error renders the diagnostic on one line: the position, the severity
// unless it is an error, and the message (not the hint):
//
//	goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft": visio: ...
//	goomba.vdx:60:3: page "Page-1", shape 20: warning: visio: ...
func (d Diagnostic) Error() string {
	s := d.Pos.String()
	if s != "" {
		s += ": "
	}
	if d.Severity != Error {
		s += d.Severity.String() + ": "
	}
	return s + d.Message
}

// Unwrap returns Err.
func (d Diagnostic) Unwrap() error { return d.Err }

// Diagnostics is a list of diagnostics, in the order they were found (for
// an importer, document order). As an error it stands for its errors; its
// warnings and notes are kept beside them but do not make it fail. Use
// [Diagnostics.Err] to turn a list into an error only when it holds errors.
type Diagnostics []Diagnostic

// Error renders the first diagnostic of severity Error (or the first one, if
// none is an error), followed by "(and N more)" when the list has N other
// errors.
func (l Diagnostics) Error() string {
	if len(l) == 0 {
		return "chart: no diagnostics"
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

// Unwrap returns the diagnostics as errors, for [errors.Is] and [errors.As].
func (l Diagnostics) Unwrap() []error {
	errs := make([]error, len(l))
	for i, d := range l {
		errs[i] = d
	}
	return errs
}

// HasErrors reports whether a diagnostic of the list has severity Error.
func (l Diagnostics) HasErrors() bool {
	for i := range l {
		if l[i].Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the diagnostics of severity Error, in order, in a new
// slice (nil if there are none).
func (l Diagnostics) Errors() Diagnostics {
	return l.filter(func(s Severity) bool { return s == Error })
}

// Warnings returns the diagnostics that do not stop a build, warnings and
// notes, in order, in a new slice (nil if there are none).
func (l Diagnostics) Warnings() Diagnostics {
	return l.filter(func(s Severity) bool { return s != Error })
}

func (l Diagnostics) filter(keep func(Severity) bool) Diagnostics {
	var out Diagnostics
	for _, d := range l {
		if keep(d.Severity) {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the list's errors as an error (a Diagnostics holding only
// them), or nil when the list has none. Warnings and notes are left out.
func (l Diagnostics) Err() error {
	if errs := l.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// unmarshalName sets *v to the index of b in names.
func unmarshalName[T ~uint8](b []byte, names []string, what string, v *T) error {
	for i, n := range names {
		if n == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("chart: unknown %s %q", what, b)
}
