package scref_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/scref"
)

// printer is a host that prints the game actions; no test holds.
type printer struct{}

func (printer) Test(string) bool          { return false }
func (printer) Do(property, value string) { fmt.Printf("  %s=%s\n", property, value) }

// A door that remembers, through a history state, whether it was
// locked when the power went off.
func ExampleNew() {
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	c := &chart.Chart{Name: "door", Statechart: true,
		States: []chart.State{
			{ID: "on", Name: "on"},
			{ID: "h", Name: "h", Kind: chart.HistoryState, Parent: "on"},
			{ID: "open", Name: "open", Parent: "on", Entry: []chart.Action{{Property: "door", Value: "open"}}},
			{ID: "locked", Name: "locked", Parent: "on", Entry: []chart.Action{{Property: "door", Value: "locked"}}},
			{ID: "off", Name: "off"},
		},
		Transitions: []chart.Transition{
			{ID: "t1", From: "h", Order: 1, Target: to("open")},
			{ID: "t2", From: "open", Order: 1, Event: "lock", Target: to("locked")},
			{ID: "t3", From: "on", Order: 1, Event: "power.off", Target: to("off")},
			{ID: "t4", From: "off", Order: 1, Event: "power.on", Target: to("h")},
		}}
	in, err := scref.New(c, scref.Options{Chain: true}, printer{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range []string{"lock", "power.off", "power.on"} {
		in.Post(e)
		fmt.Println(e + ":")
		in.Update(printer{})
		fmt.Println(" ", in.AppendConfiguration(nil))
	}
	// Output:
	//   door=open
	// lock:
	//   door=locked
	//   [on locked]
	// power.off:
	//   [off]
	// power.on:
	//   door=locked
	//   [on locked]
}
