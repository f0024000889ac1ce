package table_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/table"
)

// lamp is the entity of the statechart examples: what its host is asked.
type lamp struct{ dark bool }

type lampHost struct{}

func (lampHost) Test(l *lamp, t table.TestID) bool         { return l.dark }
func (lampHost) Do(*lamp, table.PropertyID, table.ValueID) {}

// ExampleBuilder_statechart builds a statechart by code: a lamp that is
// off, or on, where "on" is a compound state with a shallow history
// (dim or bright), left after 2 s of game time by a state timer; the
// switch is an event, and "dark" a condition the host is asked about.
func ExampleBuilder_statechart() {
	var b table.Builder
	b.Name = "lamp"
	b.Options.Chain = true // run each update to a stable configuration
	toggle, timeUp := b.AddMessage("toggle", ""), b.AddMessage("on.after.1", "")
	dark := b.AddTest("dark", "")
	timer := b.AddTimer("on.after.1")

	off := b.AddState("off")
	on := b.AddState("on", b.Send(timeUp, 2, timer)) // the state timer: a send on entry...
	b.SetExit(on, b.Cancel(timer))                   // ...cancelled on exit
	history := b.AddState("history")
	b.Nest(history, on)
	b.SetKind(history, table.KindHistory)
	dim := b.AddState("dim")
	b.Nest(dim, on)
	bright := b.AddState("bright")
	b.Nest(bright, on)
	b.SetDefault(table.Transition{From: history, Test: table.NoTest, To: dim})

	b.AddTransition(table.Transition{From: off, Test: toggle, To: history})
	b.AddTransition(table.Transition{From: on, Test: toggle, To: off})
	b.AddTransition(table.Transition{From: on, Test: timeUp, To: off})
	b.AddTransition(table.Transition{From: dim, Test: table.NoTest, Cond: table.Cond{{Op: table.CondTest, Test: dark}}, To: bright})
	t, err := b.Build()
	if err != nil {
		panic(err)
	}

	l := &lamp{}
	a := table.NewAgent[*lamp](t, l, lampHost{})
	show := func(now float64, what string) {
		var names []string
		for _, s := range a.AppendActive(nil) {
			names = append(names, t.StateName(s))
		}
		fmt.Printf("%.1f s, %s: %s\n", now, what, strings.Join(names, " "))
	}
	step := func(now float64, post bool, what string) {
		a.SetTime(now)
		if post {
			a.Post(toggle)
		}
		a.Update(lampHost{})
		show(now, what)
	}
	show(0, "start")
	step(0.5, true, "toggle")
	l.dark = true
	step(1.0, false, "dark")
	step(1.5, true, "toggle")
	step(2.0, true, "toggle: history")
	step(4.5, false, "timer")
	// Output:
	// 0.0 s, start: off
	// 0.5 s, toggle: on dim
	// 1.0 s, dark: on bright
	// 1.5 s, toggle: off
	// 2.0 s, toggle: history: on bright
	// 4.5 s, timer: off
}
