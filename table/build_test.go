package table_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// TestGoombaLayout checks the article's layout: deduplicated tests, each
// state's ordered tests and entry actions, and the destination table
// indexed by test and state.
func TestGoombaLayout(t *testing.T) {
	tbl := goombaTable(t)
	if tbl.NumStates() != 3 || tbl.NumTests() != 4 || tbl.NumProperties() != 2 || tbl.Initial() != walkLeft || tbl.Name() != "goomba" {
		t.Fatalf("goomba: %d states, %d tests, %d properties, initial %v, name %q",
			tbl.NumStates(), tbl.NumTests(), tbl.NumProperties(), tbl.Initial(), tbl.Name())
	}
	// Rows are tests, columns states: the cell for test t and state q.
	want := [][]table.StateID{
		hitTriggerLeft:  {walkRight, table.NoState, table.NoState},
		hitTriggerRight: {table.NoState, walkLeft, table.NoState},
		hitByPlayer:     {dying, dying, table.NoState},
		animationDone:   {table.NoState, table.NoState, table.Final},
	}
	for id, row := range want {
		for q, d := range row {
			if got := tbl.Dest(table.TestID(id), table.StateID(q)); got != d {
				t.Errorf("Dest(%s, %s) = %v, want %v", tbl.Test(table.TestID(id)), tbl.StateName(table.StateID(q)), got, d)
			}
		}
	}
	if got := tbl.Dest(9, 0); got != table.NoState {
		t.Errorf("Dest(out of range) = %v, want NoState", got)
	}
	var got []string
	for q := range table.StateID(tbl.NumStates()) {
		var acts []string
		for a := range tbl.Actions(q) {
			acts = append(acts, tbl.Property(a.Property)+"="+tbl.Value(a.Property, a.Value))
		}
		var trs []string
		for tr := range tbl.Transitions(q) {
			trs = append(trs, fmt.Sprintf("%s→%s", tbl.Test(tr.Test), tbl.StateName(tr.To)))
		}
		got = append(got, fmt.Sprintf("%s %v %v", tbl.StateName(q), acts, trs))
	}
	wantStates := []string{
		"walkLeft [XMovement=left Animation=moveLeft] [hitByPlayer→dying hitTriggerLeft→walkRight]",
		"walkRight [XMovement=right Animation=moveRight] [hitByPlayer→dying hitTriggerRight→walkLeft]",
		"dying [XMovement=death Animation=death] [animationDone→final]",
	}
	if !slices.Equal(got, wantStates) {
		t.Errorf("states:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantStates, "\n"))
	}
	if tt := tbl.Test(hitByPlayer); !tt.Message || tt.Name != "hitByPlayer" {
		t.Errorf("Test(hitByPlayer) = %+v", tt)
	}
	if tbl.Test(99) != (table.Test{}) || tbl.StateName(99) != "#99" || tbl.Property(9) != "property #9" || tbl.Value(0, 9) != "value #9" {
		t.Error("out-of-range names are not the IDs' strings")
	}
	if _, ok := tbl.LookupState("flying"); ok {
		t.Error("LookupState(flying) found a state")
	}
}

// TestBuildDeterministic: the same calls give byte-identical tables.
func TestBuildDeterministic(t *testing.T) {
	a, _ := buildGoomba()
	b, _ := buildGoomba()
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	aj, _ := a.MarshalJSON()
	bj, _ := b.MarshalJSON()
	if !slices.Equal(ab, bb) || !slices.Equal(aj, bj) {
		t.Error("two builds of the goomba encode differently")
	}
}

func TestBuilderDeduplicates(t *testing.T) {
	var b table.Builder
	x1, x2 := b.AddTest("x", ""), b.AddTest("x", "")
	v1, v2 := b.AddTest("x", "1"), b.AddMessage("m", "")
	if x1 != x2 || x1 == v1 || v2 != b.AddMessage("m", "") {
		t.Errorf("AddTest IDs %v %v %v %v: want the same name and value to share an ID", x1, x2, v1, v2)
	}
}

// TestBuildErrors checks that bad input to the Builder is reported, with
// where and what, and never panics.
func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *table.Builder)
		want  string
	}{
		{"no states", func(b *table.Builder) {}, "table: no states: a table needs at least one"},
		{"duplicate state", func(b *table.Builder) { b.AddState("a"); b.AddState("a") },
			`table: state #1 "a": the name is also state #0's; state names are unique`},
		{"empty state name", func(b *table.Builder) { b.AddState("") }, `table: state #0 "": name is empty`},
		{"long name", func(b *table.Builder) { b.AddState(strings.Repeat("n", 256)) }, "name is 256 bytes long; at most 255"},
		{"bad UTF-8", func(b *table.Builder) { b.AddState("a\xff") }, "name is not valid UTF-8"},
		{"initial", func(b *table.Builder) { b.AddState("a"); b.SetInitial(4) }, "initial state #4 is not a state of the table (it has 1)"},
		{"unknown test", func(b *table.Builder) {
			a := b.AddState("a")
			b.AddTransition(table.Transition{From: a, Test: 3, To: a})
		}, `table: transition "a" --test #3--> "a": test #3 is not a test of the table (it has 0)`},
		{"unknown source", func(b *table.Builder) {
			b.AddState("a")
			b.AddTransition(table.Transition{From: 5, Test: b.AddTest("x", ""), To: 0})
		}, "source #5 is not a state of the table (it has 1)"},
		{"unknown destination", func(b *table.Builder) {
			a := b.AddState("a")
			b.AddTransition(table.Transition{From: a, Test: b.AddTest("x", ""), To: 9})
		}, `state #0 "a", transition 0: destination #9 is not a state of the table (it has 1), Final or Return`},
		{"NoState destination", func(b *table.Builder) {
			a := b.AddState("a")
			b.AddTransition(table.Transition{From: a, Test: b.AddTest("x", ""), To: table.NoState})
		}, "destination is NoState; use a state, Final or Return"},
		{"two transitions on one test", func(b *table.Builder) {
			a, c := b.AddState("a"), b.AddState("c")
			x := b.AddTest("x", "")
			b.AddTransition(table.Transition{From: a, Test: x, To: c})
			b.AddTransition(table.Transition{From: a, Test: x, To: a})
		}, `state "a" already has a transition on this test, which is always tried first: this one could never be taken`},
		{"push to final", func(b *table.Builder) {
			a := b.AddState("a")
			b.AddTransition(table.Transition{From: a, Test: b.AddTest("x", ""), To: table.Final, Push: true})
		}, "pushes, but goes to final: a push is only useful with a transition to a state"},
		{"push to return", func(b *table.Builder) {
			b.AddState("a")
			b.AddTransition(table.Transition{From: table.AnyState, Test: b.AddTest("x", ""), To: table.Return, Push: true})
		}, "any-state transition 0: pushes, but goes to return"},
		{"duplicate any-state test", func(b *table.Builder) {
			a := b.AddState("a")
			x := b.AddTest("x", "")
			b.AddTransition(table.Transition{From: table.AnyState, Test: x, To: a})
			b.AddTransition(table.Transition{From: table.AnyState, Test: x, To: table.Final})
		}, `any-state transition 1: test "x" is already used by an earlier any-state transition`},
		{"message and polled", func(b *table.Builder) { b.AddState("a"); b.AddTest("x", "1"); b.AddMessage("x", "1") },
			`table: test "x=1": is used both as a message and as a polled test`},
		{"too many messages", func(b *table.Builder) {
			b.AddState("a")
			for i := range 65 {
				b.AddMessage(fmt.Sprint("m", i), "")
			}
		}, "65 message tests; at most 64"},
		{"unknown property", func(b *table.Builder) { b.AddState("a", b.Action("Speed", "fast")) },
			`table: state #0 "a", entry action 0: no property named "Speed" (add it with AddProperty before using it)`},
		{"unknown property, action unused", func(b *table.Builder) { b.AddState("a"); b.Action("Speed", "fast") },
			`table: no property named "Speed" (add it with AddProperty before using it)`},
		{"unknown value", func(b *table.Builder) {
			b.AddProperty("Speed", "slow")
			b.AddState("a", b.Action("Speed", "fast"))
		}, `table: state #0 "a", entry action 0: property "Speed" has no value "fast"`},
		{"property set twice", func(b *table.Builder) {
			b.AddProperty("Speed", "slow", "fast")
			b.AddState("a", b.Action("Speed", "slow"), b.Action("Speed", "fast"))
		}, `state #0 "a", entry action 1: sets property "Speed" again`},
		{"action out of range", func(b *table.Builder) {
			b.AddProperty("Speed", "slow")
			b.AddState("a", table.Action{Property: 0, Value: 5}, table.Action{Property: 2})
		}, `entry action 0: value #5 is not a value of property "Speed" (it has 1) (and 1 more)`},
		{"empty property", func(b *table.Builder) { b.AddProperty("Speed"); b.AddState("a") },
			`property #0 "Speed": has 0 values; a property has 1 to 65535`},
		{"duplicate value", func(b *table.Builder) { b.AddProperty("Speed", "x", "x"); b.AddState("a") },
			`value "x" appears twice (#0 and #1)`},
		{"duplicate property", func(b *table.Builder) { b.AddProperty("S", "x"); b.AddProperty("S", "y"); b.AddState("a") },
			`property #1 "S": the name is also property #0's`},
		{"stack limit", func(b *table.Builder) { b.AddState("a"); b.Options.StackLimit = 17 }, "StackLimit 17; use 0 (the default, 16) to 16"},
		{"chain limit", func(b *table.Builder) { b.AddState("a"); b.Options.ChainLimit = -1 }, "ChainLimit -1"},
		{"too many cells", func(b *table.Builder) {
			for i := range 1100 {
				b.AddState(fmt.Sprint("s", i))
				b.AddTest(fmt.Sprint("t", i), "")
			}
		}, "1100 tests × 1100 states make a destination table of 1210000 cells; at most 1048576"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b table.Builder
			tc.build(&b)
			tbl, err := b.Build()
			if err == nil {
				t.Fatalf("Build() = %v, nil; want an error containing %q", tbl, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build() error:\n%s\nwant it to contain:\n%s", err, tc.want)
			}
			var list diag.List
			if !errors.As(err, &list) || !errors.Is(err, table.ErrInvalid) || strings.HasPrefix(list[0].Message, "table: byte ") {
				t.Errorf("Build() error %T is not a diag.List of ErrInvalid without offsets", err)
			}
		})
	}
}

// TestBuildReportsEveryProblem makes several different mistakes in one
// Builder and checks that Build reports each of them, once: alone, and all
// together.
func TestBuildReportsEveryProblem(t *testing.T) {
	// Each mistake is made on a builder holding states a and b, property P
	// with value x, and polled test t from a to b.
	mistakes := []struct {
		name string
		make func(b *table.Builder)
		want string
	}{
		{"unknown property", func(b *table.Builder) { b.AddState("s1", b.Action("Speed", "fast")) },
			`"s1", entry action 0: no property named "Speed"`},
		{"unknown value", func(b *table.Builder) { b.AddState("s2", b.Action("P", "y")) },
			`"s2", entry action 0: property "P" has no value "y"`},
		{"duplicate state", func(b *table.Builder) { b.AddState("a") },
			`"a": the name is also state #0's`},
		{"unknown test", func(b *table.Builder) { b.AddTransition(table.Transition{From: 0, Test: 999, To: 1}) },
			"test #999 is not a test of the table"},
		{"push to final", func(b *table.Builder) {
			b.AddTransition(table.Transition{From: 1, Test: b.AddTest("u", ""), To: table.Final, Push: true})
		}, "pushes, but goes to final"},
		{"message and polled", func(b *table.Builder) { b.AddTest("v", ""); b.AddMessage("v", "") },
			`test "v": is used both as a message and as a polled test`},
		{"initial", func(b *table.Builder) { b.SetInitial(99) },
			"initial state #99 is not a state of the table"},
		{"same test twice", func(b *table.Builder) {
			w := b.AddTest("w", "")
			b.AddTransition(table.Transition{From: 0, Test: w, To: 1})
			b.AddTransition(table.Transition{From: 0, Test: w, To: 0})
		}, `state "a" already has a transition on this test`},
	}
	base := func() *table.Builder {
		b := &table.Builder{Name: "mistakes"}
		b.AddProperty("P", "x")
		a := b.AddState("a", b.Action("P", "x"))
		s := b.AddState("b")
		b.AddTransition(table.Transition{From: a, Test: b.AddTest("t", ""), To: s})
		return b
	}
	if _, err := base().Build(); err != nil {
		t.Fatalf("Build() of the base = %v, want nil", err)
	}
	// check reports whether list holds exactly one problem containing each
	// of wants, and nothing else.
	check := func(t *testing.T, err error, wants ...string) {
		t.Helper()
		var list diag.List
		if !errors.As(err, &list) {
			t.Fatalf("Build() = %v, want a diag.List", err)
		}
		var got []string
		for _, e := range list {
			got = append(got, e.Error())
		}
		for _, want := range wants {
			n := 0
			for _, g := range got {
				if strings.Contains(g, want) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("Build() reports %q %d times, want once; it reports:\n%s", want, n, strings.Join(got, "\n"))
			}
		}
		if len(list) != len(wants) {
			t.Errorf("Build() = %d problems, want %d:\n%s", len(list), len(wants), strings.Join(got, "\n"))
		}
	}
	var all []string
	for _, m := range mistakes {
		t.Run(m.name, func(t *testing.T) {
			b := base()
			m.make(b)
			_, err := b.Build()
			check(t, err, m.want)
		})
		all = append(all, m.want)
	}
	t.Run("all", func(t *testing.T) {
		b := base()
		for _, m := range mistakes {
			m.make(b)
		}
		_, err := b.Build()
		check(t, err, all...)
	})
}

func TestErrorList(t *testing.T) {
	var b table.Builder
	for range diag.Max + 10 {
		b.AddState("same")
	}
	_, err := b.Build()
	var list diag.List
	if !errors.As(err, &list) || len(list) != diag.Max {
		t.Fatalf("%d duplicate names: %d errors, want %d (%d and a last one saying it stopped)", diag.Max+10, len(list), diag.Max, diag.Max-1)
	}
	if last := list[diag.Max-1]; last.Severity != diag.Note || !strings.Contains(last.Message, "the rest are left out") {
		t.Errorf("last error %q", last.Error())
	}
	if want := fmt.Sprintf("(and %d more)", diag.Max-2); !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Error() = %q, want it to end with %q", err, want)
	}
}
