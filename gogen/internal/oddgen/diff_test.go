package oddgen

import (
	"errors"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// host is OddHost in the tests: it hands every call to the scripted host.
type host struct{ h *difftest.Host }

func (o host) ask(t OddTest) bool          { return o.h.Test(table.TestID(t)) }
func (o host) set(p OddProperty, v uint16) { o.h.Do(table.PropertyID(p), table.ValueID(v)) }
func (o host) Type() bool                  { return o.ask(OddTestType) }
func (o host) X2Fast() bool                { return o.ask(OddTest2Fast) }
func (o host) IsReady() bool               { return o.ask(OddTestIsReady) }
func (o host) Range() bool                 { return o.ask(OddTestRange) }
func (o host) GoTo(v OddGoTo)              { o.set(OddPropertyGoTo, uint16(v)) }
func (o host) Mood(v OddMood)              { o.set(OddPropertyMood, uint16(v)) }
func (o host) Level(v OddLevel) bool {
	switch v {
	case OddLevel1:
		return o.ask(OddTestLevel1)
	case OddLevel2:
		return o.ask(OddTestLevel2)
	}
	panic("oddgen: Level(" + v.String() + ")")
}

// TestDifferential runs the generated machine and table.Agent on the same
// table through the same random frames.
func TestDifferential(t *testing.T) {
	tbl := fixtures.Odd()
	var total difftest.Stats
	for seed := range uint64(8) {
		st := difftest.Run(t, tbl, newGen, 2000, seed)
		total.Steps += st.Steps
		total.Finals += st.Finals
		total.StackErrors += st.StackErrors
		total.ChainErrors += st.ChainErrors
		total.Reentrant += st.Reentrant
		total.Saves += st.Saves
	}
	t.Logf("%+v", total)
	if total.Steps < 1000 || total.Finals == 0 || total.StackErrors == 0 || total.ChainErrors == 0 || total.Reentrant == 0 || total.Saves < 100 {
		t.Errorf("the runs went through %+v; want transitions, finishes, stack and chain errors, reentrant calls and saves", total)
	}
}

type gen struct {
	m OddMachine
	h host
}

func newGen(h *difftest.Host) difftest.Machine {
	o := host{h}
	return &gen{m: NewOddMachine(o), h: o}
}

func tableState(s OddState) table.StateID {
	switch s {
	case OddFinal:
		return table.Final
	case OddReturn:
		return table.Return
	case OddNoState:
		return table.NoState
	}
	return table.StateID(s)
}

func tableTest(t OddTest) table.TestID {
	if t == OddNoTest {
		return table.NoTest
	}
	return table.TestID(t)
}

func tableResult(r OddResult) table.Result {
	return table.Result{From: tableState(r.From), To: tableState(r.To), Test: tableTest(r.Test), Steps: r.Steps}
}

func message(id table.TestID) OddMessage {
	msg, ok := OddTest(id).Message()
	if !ok || int(id) >= OddNumTests {
		panic("not a message: " + id.String())
	}
	return msg
}

func (g *gen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return tableResult(r), err
}

func (g *gen) Receive(id table.TestID) (table.Result, error) {
	r, err := g.m.Receive(g.h, message(id))
	return tableResult(r), err
}

func (g *gen) Post(id table.TestID) { g.m.Post(message(id)) }
func (g *gen) State() table.StateID { return tableState(g.m.State()) }
func (g *gen) Done() bool           { return g.m.Done() }
func (g *gen) Depth() int           { return g.m.Depth() }
func (g *gen) String() string       { return g.m.String() }

func (g *gen) Snapshot() table.Snapshot {
	var s OddSnapshot
	g.m.Snapshot(&s)
	out := table.Snapshot{State: tableState(s.State), Done: s.Done}
	for _, q := range s.Stack {
		out.Stack = append(out.Stack, tableState(q))
	}
	for _, msg := range s.Posted {
		out.Posted = append(out.Posted, tableTest(msg.Test()))
	}
	return out
}

func (g *gen) Restore(s table.Snapshot) error {
	in := OddSnapshot{State: OddState(min(s.State, 255)), Done: s.Done}
	for _, q := range s.Stack {
		in.Stack = append(in.Stack, OddState(min(q, 255)))
	}
	for _, id := range s.Posted {
		msg, ok := OddTest(min(id, 255)).Message()
		if !ok {
			return errors.New("not a message")
		}
		in.Posted = append(in.Posted, msg)
	}
	m, err := RestoreOddMachine(&in)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *gen) Save() ([]byte, error) {
	var s OddSnapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *gen) Load(b []byte) error {
	var s OddSnapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return err
	}
	m, err := RestoreOddMachine(&s)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *gen) Err(err error) difftest.Err {
	var se *OddStackError
	var ce *OddChainError
	switch {
	case err == nil:
		return difftest.Err{}
	case errors.As(err, &se):
		kind := "underflow"
		if errors.Is(err, ErrOddStackOverflow) {
			kind = "overflow"
		} else if !errors.Is(err, ErrOddStackUnderflow) {
			kind = "underflow, but not ErrOddStackUnderflow"
		}
		return difftest.Err{Kind: kind, State: tableState(se.State), Test: tableTest(se.Test), Limit: se.Limit, Overflow: se.Overflow}
	case errors.As(err, &ce):
		if !errors.Is(err, ErrOddChainLimit) {
			return difftest.Err{Kind: "chain, but not ErrOddChainLimit"}
		}
		var path []table.StateID
		for _, q := range ce.Path {
			path = append(path, tableState(q))
		}
		return difftest.Err{Kind: "chain", State: tableState(ce.At), Test: tableTest(ce.Test), Limit: ce.Limit, Path: path, Visited: ce.Visited}
	case errors.Is(err, ErrOddNotStarted):
		return difftest.Err{Kind: "not started"}
	case errors.Is(err, ErrOddReentrant):
		return difftest.Err{Kind: "reentrant"}
	}
	return difftest.Err{Kind: "unexpected: " + err.Error()}
}

// TestChainError checks the chain error's message and that the next update
// carries on.
func TestChainError(t *testing.T) {
	h := host{&difftest.Host{T: fixtures.Odd(), Holds: make([]bool, OddNumTests)}}
	h.h.Holds[OddTestType] = true
	h.h.Holds[OddTest2Fast] = true
	m := NewOddMachine(h)
	r, err := m.Update(h)
	const want = `oddgen: table "odd one": 4 transitions in one update and a test still holds (a cycle?): idle → walk left → 2nd wind → idle → walk left, then test "2 fast" holds; the machine stays in walk left`
	var ce *OddChainError
	if !errors.As(err, &ce) || err.Error() != want {
		t.Fatalf("Update() error:\n%v\nwant:\n%s", err, want)
	}
	if r.Steps != 4 || r.Test != OddTestType || m.State() != OddStateWalkLeft || ce.At != m.State() {
		t.Errorf("Update() = %+v in %v; want 4 steps, in walk left", r, m.State())
	}
	if r, err := m.Update(h); r.Steps != 4 || !errors.Is(err, ErrOddChainLimit) {
		t.Errorf("next Update() = %+v, %v; want 4 more steps and the error again", r, err)
	}
	for _, c := range []struct{ got, want string }{
		{OddStateÉtat.String(), "État ☃"}, {OddState2ndWind.String(), "2nd wind"}, {OddStateSelect.String(), "select"},
		{OddTestLevel2.String(), "level=2"}, {OddMessagePing.String(), "ping!"}, {OddGoTo2ndFloor.String(), "2nd floor"},
		{OddMoodHappy.String(), "happy!"}, {OddPropertyGoTo.String(), "go-to"}, {OddLevel1.String(), "1"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
	if !strings.Contains(ErrOddNotStarted.Error(), "NewOddMachine") {
		t.Errorf("ErrOddNotStarted = %v", ErrOddNotStarted)
	}
}
