package w3c

import (
	"bytes"
	"fmt"

	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/table"
)

// Outcome is how a test ran.
type Outcome struct {
	// Final is the top-level final state the machine ended in ("pass",
	// "fail"), or "" when it did not end.
	Final string
	// Updates counts the agent's updates; Time is the game time at the
	// end, in seconds.
	Updates int
	Time    float64
}

// Passed reports whether a test passed: it ended in pass.
func (o Outcome) Passed() bool { return o.Final == "pass" }

// maxUpdates bounds a run: the tests take a handful.
const maxUpdates = 1000

// Run runs a converted test, doc, as a game would run the machine: read
// by fsmforge's SCXML importer, compiled into a table that takes
// macrosteps (Chain), and run by one agent, updated until it ends. When
// an update changes nothing, the game time jumps to the next pending
// send (a test's delays are game time, not wall time); with none
// pending, the run stops. An error is a test that cannot be read,
// compiled or run.
func Run(name string, doc []byte) (Outcome, error) {
	c, err := scxml.Read(bytes.NewReader(doc), scxml.Options{File: name})
	if err != nil {
		return Outcome{}, err
	}
	res, err := compile.Compile(c, compile.Options{Chain: true})
	if err != nil {
		return Outcome{}, err
	}
	var o Outcome
	a := table.NewAgent[struct{}](res.Table, struct{}{}, nullHost{})
	for ; o.Updates < maxUpdates && !a.Done(); o.Updates++ {
		r, err := a.Update(nullHost{})
		if err != nil {
			return o, fmt.Errorf("%s: update %d: %w", name, o.Updates+1, err)
		}
		if r.Moved() {
			continue
		}
		due, ok := a.NextTimer()
		if !ok {
			break
		}
		o.Time = due
		a.SetTime(due)
	}
	if a.Done() {
		o.Final = a.Name()
	}
	return o, nil
}

// nullHost is the host of a test: no test holds (the null data model has
// none; In() is the agent's), and there are no game actions.
type nullHost struct{}

func (nullHost) Test(struct{}, table.TestID) bool             { return false }
func (nullHost) Do(struct{}, table.PropertyID, table.ValueID) {}
