package viewer_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// A game registers its machines, serves the viewer, and calls Frame once
// per frame; here the API answers what the page asks first.
func Example() {
	var b table.Builder
	b.Name = "door"
	open := b.AddMessage("open", "")
	closed := b.AddState("closed")
	opened := b.AddState("opened")
	b.AddTransition(table.Transition{From: closed, Test: open, To: opened})
	t, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	doors := []table.Agent[int]{table.NewAgent(t, 0, nil), table.NewAgent(t, 1, nil)}

	v := viewer.New(viewer.Options{})
	v.Add("doors", viewer.TableAgents(t, viewer.Each(&doors)), nil)
	srv := httptest.NewServer(v.Handler()) // a game calls v.Start() instead
	defer srv.Close()
	for tick := range uint64(3) {
		v.Frame(tick) // with no page open, this returns at once
		for i := range doors {
			doors[i].Update(nil)
		}
	}
	resp, err := http.Get(srv.URL + "/api/machines")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	io.Copy(os.Stdout, resp.Body)
	// Output:
	// [{"id":0,"name":"doors","kind":"table","states":2,"agents":0,"version":1}]
}

// A designer's simulated agent: its tests hold as told, a step is an
// update, and its view lists what it did.
func ExampleSim() {
	var b table.Builder
	b.AddProperty("Light", "off", "on")
	dark := b.AddTest("dark", "")
	day := b.AddState("day", b.Action("Light", "off"))
	night := b.AddState("night", b.Action("Light", "on"))
	b.AddTransition(table.Transition{From: day, Test: dark, To: night})
	t, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := viewer.NewSim(t, 0.5)
	s.Hold(0, int32(dark), true)
	s.Step()
	var a viewer.Agent
	s.Agent(0, &a)
	fmt.Println(t.StateName(table.StateID(a.State)), a.Actions, a.Time)
	// Output:
	// night [Light=on] 0.5
}

// A game reloads a drawing while it runs: it moves its agents onto the new
// table at a frame boundary and tells the viewer, which shows the new
// version from the next frame. A drawing that does not compile is shown
// as refused.
func ExampleViewer_Reloaded() {
	door := func(states ...string) *table.Table {
		var b table.Builder
		b.Name = "door"
		open := b.AddMessage("open", "")
		closed := b.AddState(states[0])
		for _, s := range states[1:] {
			b.AddTransition(table.Transition{From: closed, Test: open, To: b.AddState(s)})
		}
		t, err := b.Build()
		if err != nil {
			panic(err)
		}
		return t
	}
	t := door("closed", "opened")
	doors := []table.Agent[int]{table.NewAgent(t, 0, nil)}
	v := viewer.New(viewer.Options{})
	m := v.Add("doors", viewer.TableAgents(t, viewer.Each(&doors)), nil)
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()

	v.Refused(m, errors.New("door.drawio:3:1: drawio: a transition with no target"))
	show := func() {
		resp, err := http.Get(srv.URL + "/api/machines")
		if err != nil {
			fmt.Println(err)
			return
		}
		defer resp.Body.Close()
		io.Copy(os.Stdout, resp.Body)
	}
	show()

	nt := door("closed", "ajar")
	mp, err := table.Reload(nt, doors, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	v.Reloaded(m, viewer.TableAgents(nt, viewer.Each(&doors)), nil, "door.drawio: "+mp.String())
	v.Frame(1) // the viewer shows the new version from here
	show()
	// Output:
	// [{"id":0,"name":"doors","kind":"table","states":2,"agents":0,"version":1,"refused":"door.drawio:3:1: drawio: a transition with no target"}]
	// [{"id":0,"name":"doors","kind":"table","states":2,"agents":0,"version":2}]
}
