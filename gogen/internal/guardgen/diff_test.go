package guardgen

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs the generated guard and table.Agent on the same
// table through the same random frames: same host calls, results, errors,
// states, stacks and snapshots.
func TestDifferential(t *testing.T) {
	tbl := fixtures.Guard()
	var total difftest.Stats
	for seed := range uint64(8) {
		st := difftest.Run(t, tbl, newGen, 2000, seed)
		total.Steps += st.Steps
		total.Finals += st.Finals
		total.StackErrors += st.StackErrors
		total.Reentrant += st.Reentrant
		total.Saves += st.Saves
	}
	t.Logf("%+v", total)
	if total.Steps < 1000 || total.Finals == 0 || total.StackErrors == 0 || total.Reentrant == 0 || total.Saves < 100 {
		t.Errorf("the runs went through %+v; want transitions, finishes, stack errors, reentrant calls and saves", total)
	}
}

// gen is the generated Machine as a difftest.Machine.
type gen struct {
	m   Machine
	bot *Bot
}

func newGen(h *difftest.Host) difftest.Machine {
	bot := &Bot{
		Ask: func(t Test) bool { return h.Test(table.TestID(t)) },
		Set: func(p Property, v uint16) { h.Do(table.PropertyID(p), table.ValueID(v)) },
	}
	return &gen{m: NewMachine(bot), bot: bot}
}

func tableState(s State) table.StateID {
	switch s {
	case Final:
		return table.Final
	case Return:
		return table.Return
	case NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func tableTest(t Test) table.TestID {
	if t == NoTest {
		return table.NoTest
	}
	return table.TestID(t)
}

func tableResult(r Result) table.Result {
	return table.Result{From: tableState(r.From), To: tableState(r.To), Test: tableTest(r.Test), Steps: r.Steps}
}

func message(id table.TestID) Message {
	msg, ok := Test(id).Message()
	if !ok || int(id) >= NumTests {
		panic("not a message: " + id.String())
	}
	return msg
}

func (g *gen) Update() (table.Result, error) {
	r, err := g.m.Update(g.bot)
	return tableResult(r), err
}

func (g *gen) Receive(id table.TestID) (table.Result, error) {
	r, err := g.m.Receive(g.bot, message(id))
	return tableResult(r), err
}

func (g *gen) Post(id table.TestID) { g.m.Post(message(id)) }
func (g *gen) State() table.StateID { return tableState(g.m.State()) }
func (g *gen) Done() bool           { return g.m.Done() }
func (g *gen) Depth() int           { return g.m.Depth() }
func (g *gen) String() string       { return g.m.String() }

func (g *gen) Snapshot() table.Snapshot {
	var s Snapshot
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
	in := Snapshot{State: State(min(s.State, 255)), Done: s.Done}
	for _, q := range s.Stack {
		in.Stack = append(in.Stack, State(min(q, 255)))
	}
	for _, id := range s.Posted {
		msg, ok := Test(min(id, 255)).Message()
		if !ok {
			return errors.New("not a message")
		}
		in.Posted = append(in.Posted, msg)
	}
	m, err := RestoreMachine(&in)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *gen) Save() ([]byte, error) {
	var s Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *gen) Load(b []byte) error {
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return err
	}
	m, err := RestoreMachine(&s)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *gen) Err(err error) difftest.Err {
	var se *StackError
	switch {
	case err == nil:
		return difftest.Err{}
	case errors.As(err, &se):
		kind := "underflow"
		if errors.Is(err, ErrStackOverflow) {
			kind = "overflow"
		} else if !errors.Is(err, ErrStackUnderflow) {
			kind = "underflow, but not ErrStackUnderflow"
		}
		return difftest.Err{Kind: kind, State: tableState(se.State), Test: tableTest(se.Test), Limit: se.Limit, Overflow: se.Overflow}
	case errors.Is(err, ErrNotStarted):
		return difftest.Err{Kind: "not started"}
	case errors.Is(err, ErrReentrant):
		return difftest.Err{Kind: "reentrant"}
	}
	return difftest.Err{Kind: "unexpected: " + err.Error()}
}

// TestMachine checks what the differential test does not reach: the zero
// machine, error messages, Post's panic, and the data.
func TestMachine(t *testing.T) {
	bot := &Bot{Ask: func(Test) bool { return false }, Set: func(Property, uint16) {}}
	var zero Machine
	if r, err := zero.Update(bot); err != ErrNotStarted || r.From != NoState || r.To != NoState || r.Test != NoTest {
		t.Errorf("zero.Update() = %+v, %v; want NoState, ErrNotStarted", r, err)
	}
	if _, err := zero.Receive(bot, MessageNoise); err != ErrNotStarted {
		t.Errorf("zero.Receive() error = %v, want ErrNotStarted", err)
	}
	if zero.State() != NoState || zero.String() != "none" || zero.Done() || zero.Depth() != 0 {
		t.Errorf("zero machine: %v %q %t %d", zero.State(), zero.String(), zero.Done(), zero.Depth())
	}

	// A return with an empty stack.
	m, err := RestoreMachine(&Snapshot{State: StateInvestigate, Posted: []Message{MessageAllClear}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Update(bot)
	const want = `guardgen: table "guard": state "investigate", test "all clear": return with an empty stack (no transition pushed a state to return to); the transition was not taken`
	var se *StackError
	if !errors.As(err, &se) || !errors.Is(err, ErrStackUnderflow) || err.Error() != want || r.Moved() || r.Test != TestAllClear {
		t.Errorf("Update() = %+v, %v; want %s", r, err, want)
	}
	// A push onto a full stack.
	m, _ = RestoreMachine(&Snapshot{State: StatePatrol, Stack: []State{StatePatrol, StatePatrol, StatePatrol}})
	m.Post(MessageNoise)
	if _, err := m.Update(bot); !errors.Is(err, ErrStackOverflow) || !strings.Contains(err.Error(), "push onto a full stack (3 states") || m.String() != "patrol (stack 3)" {
		t.Errorf("Update() error = %v in %s; want an overflow at 3 in patrol", err, m.String())
	}
	for _, s := range []*Snapshot{nil, {State: NumStates}, {Stack: make([]State, StackLimit+1)}, {Stack: []State{Final}}, {Posted: []Message{NumMessages}}} {
		if _, err := RestoreMachine(s); err == nil || !strings.HasPrefix(err.Error(), `guardgen: table "guard": RestoreMachine: `) {
			t.Errorf("RestoreMachine(%+v) error = %v", s, err)
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "Post(Message(4)): not a message") {
				t.Errorf("Post(4) panicked with %v", r)
			}
		}()
		m.Post(NumMessages)
	}()

	// Names and data.
	for _, c := range []struct{ got, want string }{
		{StateStunned.String(), "stunned"}, {Final.String(), "final"}, {Return.String(), "return"}, {State(9).String(), "State(9)"},
		{TestHealthLow.String(), "health=low"}, {MessageHitSword.String(), "hit=sword"}, {HealthHigh.String(), "high"},
		{PropertyAlertLevel.String(), "Alert level"}, {AlertLevelWary.String(), "wary"}, {NoTest.String(), "no test"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
	tbl := fixtures.Guard()
	for q := range State(NumStates) {
		var tests []Test
		for tr := range tbl.Transitions(table.StateID(q)) {
			tests = append(tests, Test(tr.Test))
			if d := Dest[int(tr.Test)*NumStates+int(q)]; tableState(d) != tr.To {
				t.Errorf("Dest for %v, %v = %v, want %v", q, Test(tr.Test), d, tr.To)
			}
			if push := DestPush[(int(tr.Test)*NumStates+int(q))/8]>>((int(tr.Test)*NumStates+int(q))%8)&1 != 0; push != tr.Push {
				t.Errorf("DestPush for %v, %v = %t", q, Test(tr.Test), push)
			}
		}
		if !equal(tests, Transitions[q]) {
			t.Errorf("Transitions[%v] = %v, want %v", q, Transitions[q], tests)
		}
	}
	if AnyTransitions[0] != (Transition{TestNoise, StateInvestigate, true}) {
		t.Errorf("AnyTransitions[0] = %+v", AnyTransitions[0])
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAllocations checks that updates allocate nothing.
func TestAllocations(t *testing.T) {
	bot := &Bot{Ask: func(t Test) bool { return t == TestSeesPlayer }, Set: func(Property, uint16) {}}
	m := NewMachine(bot)
	if n := testing.AllocsPerRun(100, func() {
		m.Post(MessageNoise)
		m.Update(bot)
		m.Post(MessageAllClear)
		m.Update(bot)
	}); n != 0 {
		t.Errorf("Update allocates %v times, want 0", n)
	}
}

// FuzzRestore reads arbitrary bytes as a save of the guard in both
// runtimes: the generated code must accept exactly the saves table.Agent
// accepts (UnmarshalBinary then the restore), without panicking, and the
// machines restored must save the same bytes.
func FuzzRestore(f *testing.F) {
	for _, s := range []Snapshot{
		{State: StatePatrol},
		{State: StateAttack, Stack: []State{StateChase, StateInvestigate}, Posted: []Message{MessageNoise, MessageHitSword}},
		{State: StateFlee, Done: true},
	} {
		b, _ := s.AppendBinary(nil)
		f.Add(b)
	}
	tbl := fixtures.Guard()
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Snapshot
		var as table.Snapshot
		gerr := s.UnmarshalBinary(b)
		var g Machine
		if gerr == nil {
			g, gerr = RestoreMachine(&s)
		}
		aerr := as.UnmarshalBinary(b)
		var a table.Agent[int]
		if aerr == nil {
			a, aerr = table.RestoreAgent(tbl, 0, &as)
		}
		if (gerr == nil) != (aerr == nil) {
			t.Fatalf("%x: generated: %v; table: %v", b, gerr, aerr)
		}
		if gerr != nil {
			return
		}
		var gs Snapshot
		g.Snapshot(&gs)
		gb, err1 := gs.AppendBinary(nil)
		a.Snapshot(&as)
		ab, err2 := as.AppendBinary(nil)
		if err1 != nil || err2 != nil || !bytes.Equal(gb, ab) {
			t.Fatalf("%x restored: generated saves %x, %v; table %x, %v", b, gb, err1, ab, err2)
		}
	})
}
