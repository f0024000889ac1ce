package diag

import (
	"fmt"
	"slices"
	"strconv"
)

// Severity says how bad a [Diagnostic] is. The zero value is Error, so a
// Diagnostic built without one stops a build.
type Severity uint8

const (
	// Error: the input cannot be used as it is; a build must stop.
	Error Severity = iota
	// Warning: the input can be used, but something in it was ignored or
	// looks like a mistake.
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
		return nil, fmt.Errorf("diag: invalid severity %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes "error", "warning" or "note".
func (s *Severity) UnmarshalText(b []byte) error {
	if i := slices.Index(severityNames[:], string(b)); i >= 0 {
		*s = Severity(i)
		return nil
	}
	return fmt.Errorf("diag: unknown severity %q", b)
}

// Diagnostic is one problem, where it was found, and a hint on what to do
// about it. Message is lower-case and starts with the name of the package
// that found it ("visio: ...", "table: ..."). Hint, when not empty, is a
// sentence for people, shown by the command-line tool under the message.
// Err, when not nil, is a sentinel error of the package that found the
// problem, for [errors.Is].
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
