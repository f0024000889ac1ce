package compile_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

const (
	goombaVDX     = "../examples/goomba/goomba.vdx"
	goombaStencil = "../examples/goomba/goomba.stencil.json"
)

// stencil loads the Goomba stencil.
func stencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil(goombaStencil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// state returns a normal state for tests, its entry actions written
// "Property=value", positioned at shape id of file "t".
func state(id, name string, entry ...string) chart.State {
	s := chart.State{ID: id, Name: name, Pos: diag.Pos{File: "t", Shape: id, ShapeName: name}}
	for _, e := range entry {
		p, v, _ := strings.Cut(e, "=")
		s.Entry = append(s.Entry, chart.Action{Property: p, Value: v, Pos: s.Pos})
	}
	return s
}

func initial(s chart.State) chart.State { s.Initial = true; return s }

func kind(k chart.StateKind, s chart.State) chart.State {
	s.Kind = k
	s.Initial = k == chart.StartState
	return s
}

// trans returns a transition for tests: from a state ID, or "*" for any
// state; test "name" or "name=value"; to a state ID, "final" or "return".
func trans(id, from, test, to string) chart.Transition {
	t := chart.Transition{ID: id, From: from, Pos: diag.Pos{File: "t", Shape: id, ShapeName: test}}
	if from == "*" {
		t.From, t.AnyState = "", true
	}
	t.Test, t.Value, _ = strings.Cut(test, "=")
	switch to {
	case "final":
		t.Target.Kind = chart.ToFinal
	case "return":
		t.Target.Kind = chart.ToReturn
	default:
		t.Target = chart.Target{Kind: chart.ToState, State: to}
	}
	return t
}

func push(t chart.Transition) chart.Transition { t.Push = true; return t }

// uml returns a transition of a plain diagram, its label read as the
// importer reads it.
func uml(id, from, label, to string) chart.Transition {
	t := trans(id, from, "", to)
	t.Label = label
	t.Pos.ShapeName = label
	rest := label
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		t.Action = strings.TrimSpace(rest[i+1:])
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '['); i >= 0 {
		if j := strings.LastIndexByte(rest, ']'); j > i {
			t.Guard = strings.TrimSpace(rest[i+1 : j])
			rest = rest[:i] + rest[j+1:]
		}
	}
	t.Event = strings.TrimSpace(rest)
	t.Test = t.Event
	if t.Test == "" {
		t.Test = t.Guard
	}
	return t
}

// goombaChart is the designer-pipeline article's Goomba, built by code with the stencil st (or
// none), with more states and transitions.
func goombaChart(st *chart.Stencil, states []chart.State, transitions ...chart.Transition) *chart.Chart {
	return &chart.Chart{
		Name:    "goomba",
		File:    "t",
		Stencil: st,
		States: append([]chart.State{
			initial(state("1", "walkLeft", "XMovement=left", "Animation=moveLeft")),
			state("2", "walkRight", "XMovement=right", "Animation=moveRight"),
			state("3", "death", "XMovement=death", "Animation=death"),
		}, states...),
		Transitions: append([]chart.Transition{
			trans("4", "1", "hitTriggerLeft", "2"),
			trans("5", "2", "hitTriggerRight", "1"),
			trans("6", "1", "hitByPlayer", "3"),
			trans("7", "2", "hitByPlayer", "3"),
			trans("8", "3", "animationDone", "final"),
		}, transitions...),
	}
}

// render renders diagnostics as the command-line tool does: the
// diagnostic on a line, its hint indented below.
func render(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error())
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("\thint: " + d.Hint + "\n")
		}
	}
	return b.String()
}

// checkResult checks what every Compile result must satisfy: a table iff
// no errors, an error iff errors, every diagnostic rendering with a
// package prefix, and compile's with a sentinel error and hint or not.
func checkResult(t testing.TB, r *compile.Result, err error) {
	t.Helper()
	if r == nil {
		t.Fatalf("Compile = nil, %v", err)
	}
	hasErr := r.Diagnostics.HasErrors()
	if (err != nil) != hasErr || (r.Table == nil) != hasErr {
		t.Fatalf("Compile = table %v, error %v, with diagnostics\n%s", r.Table != nil, err, render(r.Diagnostics))
	}
	if err != nil {
		var l diag.List
		if !errors.As(err, &l) || l.Warnings() != nil || len(l) == 0 {
			t.Errorf("Compile error %T %v is not a list of errors", err, err)
		}
	}
	for _, d := range r.Diagnostics {
		msg := d.Message
		if d.Error() == "" || !(strings.HasPrefix(msg, "compile: ") || strings.Contains(msg, ": ")) || msg != strings.TrimSpace(msg) {
			t.Errorf("diagnostic %#v renders as %q", d, d.Error())
		}
		if strings.HasPrefix(msg, "compile: ") && d.Err == nil {
			t.Errorf("diagnostic %q has no sentinel error", d.Error())
		}
		if strings.HasPrefix(msg, "compile: ") && strings.ToLower(msg[9:10]) != msg[9:10] {
			t.Errorf("diagnostic %q is not lower-case", msg)
		}
	}
	if r.Table == nil {
		return
	}
	b1, err1 := r.Table.MarshalBinary()
	var back table.Table
	if err1 != nil || back.UnmarshalBinary(b1) != nil {
		t.Fatalf("the table does not round-trip: %v", err1)
	}
	if b2, _ := back.MarshalBinary(); !bytes.Equal(b1, b2) {
		t.Errorf("the table's binary form is not stable")
	}
	if len(r.Pos) != r.Table.NumStates() {
		t.Errorf("len(Pos) = %d, want %d", len(r.Pos), r.Table.NumStates())
	}
	for id, s := range r.States {
		if s != table.Final && !r.Table.HasState(s) {
			t.Errorf("States[%q] = %v, not a state", id, s)
		}
	}
}

// sentinels lists the package's sentinel errors, to name them in failures.
var sentinels = []error{compile.ErrWrongStencil, compile.ErrBadStencil, compile.ErrUnknownTest, compile.ErrUnknownAction, compile.ErrUnknownValue,
	compile.ErrNoTest, compile.ErrNoInitial, compile.ErrTwoInitials, compile.ErrDuplicateName, compile.ErrDuplicateID,
	compile.ErrName, compile.ErrMissingState, compile.ErrTransition, compile.ErrSameTest, compile.ErrShadowed, compile.ErrNoPush,
	compile.ErrUnreachable, compile.ErrNoWayOut, compile.ErrIgnored, compile.ErrLowered, compile.ErrLimit, compile.ErrOptions}

func sentinelName(err error) string {
	if i := slices.Index(sentinels, err); i >= 0 {
		return err.Error()
	}
	return "?"
}
