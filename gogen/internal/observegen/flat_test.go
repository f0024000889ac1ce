package observegen

import (
	"errors"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// The flat machines as difftest.Machine, with hosts that hand every call
// to the scripted difftest.Host: the adapters of guardgen and oddgen, and
// Observe and Observer, which make them difftest.Observable.

// guardHost is GuardHost over the scripted host.
type guardHost struct{ h *difftest.Host }

func (g guardHost) ask(t GuardTest) bool          { return g.h.Test(table.TestID(t)) }
func (g guardHost) set(p GuardProperty, v uint16) { g.h.Do(table.PropertyID(p), table.ValueID(v)) }
func (g guardHost) SeesPlayer() bool              { return g.ask(GuardTestSeesPlayer) }
func (g guardHost) Speed(v GuardSpeed)            { g.set(GuardPropertySpeed, uint16(v)) }
func (g guardHost) Weapon(v GuardWeapon)          { g.set(GuardPropertyWeapon, uint16(v)) }
func (g guardHost) AlertLevel(v GuardAlertLevel)  { g.set(GuardPropertyAlertLevel, uint16(v)) }
func (g guardHost) Health(v GuardHealth) bool {
	switch v {
	case GuardHealthLow:
		return g.ask(GuardTestHealthLow)
	case GuardHealthHigh:
		return g.ask(GuardTestHealthHigh)
	}
	panic("observegen: Health(" + v.String() + ")")
}
func (g guardHost) Distance(v string) bool {
	if v != "near" {
		panic("observegen: Distance(" + v + ")")
	}
	return g.ask(GuardTestDistanceNear)
}

// oddHost is OddHost over the scripted host.
type oddHost struct{ h *difftest.Host }

func (o oddHost) ask(t OddTest) bool          { return o.h.Test(table.TestID(t)) }
func (o oddHost) set(p OddProperty, v uint16) { o.h.Do(table.PropertyID(p), table.ValueID(v)) }
func (o oddHost) Type() bool                  { return o.ask(OddTestType) }
func (o oddHost) X2Fast() bool                { return o.ask(OddTest2Fast) }
func (o oddHost) IsReady() bool               { return o.ask(OddTestIsReady) }
func (o oddHost) Range() bool                 { return o.ask(OddTestRange) }
func (o oddHost) GoTo(v OddGoTo)              { o.set(OddPropertyGoTo, uint16(v)) }
func (o oddHost) Mood(v OddMood)              { o.set(OddPropertyMood, uint16(v)) }
func (o oddHost) Level(v OddLevel) bool {
	switch v {
	case OddLevel1:
		return o.ask(OddTestLevel1)
	case OddLevel2:
		return o.ask(OddTestLevel2)
	}
	panic("observegen: Level(" + v.String() + ")")
}

func (g *guardGen) Observe(o machine.Observer, entity uint64) { g.m.Observe(o, entity) }
func (g *guardGen) Observer() (machine.Observer, uint64)      { return g.m.Observer() }
func (g *oddGen) Observe(o machine.Observer, entity uint64)   { g.m.Observe(o, entity) }
func (g *oddGen) Observer() (machine.Observer, uint64)        { return g.m.Observer() }

// guardGen is the generated GuardMachine as a difftest.Machine.
type guardGen struct {
	m GuardMachine
	h guardHost
}

func newGuardGen(h *difftest.Host) difftest.Machine {
	o := guardHost{h}
	return &guardGen{m: NewGuardMachine(o), h: o}
}

func guardTableState(s GuardState) table.StateID {
	switch s {
	case GuardFinal:
		return table.Final
	case GuardReturn:
		return table.Return
	case GuardNoState:
		return table.NoState
	}
	return table.StateID(s)
}

func guardTableTest(t GuardTest) table.TestID {
	if t == GuardNoTest {
		return table.NoTest
	}
	return table.TestID(t)
}

func guardTableResult(r GuardResult) table.Result {
	return table.Result{From: guardTableState(r.From), To: guardTableState(r.To), Test: guardTableTest(r.Test), Steps: r.Steps}
}

func guardMessage(id table.TestID) GuardMessage {
	msg, ok := GuardTest(id).Message()
	if !ok || int(id) >= GuardNumTests {
		panic("not a message: " + id.String())
	}
	return msg
}

func (g *guardGen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return guardTableResult(r), err
}

func (g *guardGen) Receive(id table.TestID) (table.Result, error) {
	r, err := g.m.Receive(g.h, guardMessage(id))
	return guardTableResult(r), err
}

func (g *guardGen) Post(id table.TestID) { g.m.Post(guardMessage(id)) }
func (g *guardGen) State() table.StateID { return guardTableState(g.m.State()) }
func (g *guardGen) Done() bool           { return g.m.Done() }
func (g *guardGen) Depth() int           { return g.m.Depth() }
func (g *guardGen) String() string       { return g.m.String() }

func (g *guardGen) Snapshot() table.Snapshot {
	var s GuardSnapshot
	g.m.Snapshot(&s)
	out := table.Snapshot{State: guardTableState(s.State), Done: s.Done}
	for _, q := range s.Stack {
		out.Stack = append(out.Stack, guardTableState(q))
	}
	for _, msg := range s.Posted {
		out.Posted = append(out.Posted, guardTableTest(msg.Test()))
	}
	return out
}

func (g *guardGen) Restore(s table.Snapshot) error {
	in := GuardSnapshot{State: GuardState(min(s.State, 255)), Done: s.Done}
	for _, q := range s.Stack {
		in.Stack = append(in.Stack, GuardState(min(q, 255)))
	}
	for _, id := range s.Posted {
		msg, ok := GuardTest(min(id, 255)).Message()
		if !ok {
			return errors.New("not a message")
		}
		in.Posted = append(in.Posted, msg)
	}
	m, err := RestoreGuardMachine(&in)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *guardGen) Save() ([]byte, error) {
	var s GuardSnapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *guardGen) Load(b []byte) error {
	var s GuardSnapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return err
	}
	m, err := RestoreGuardMachine(&s)
	if err == nil {
		g.m = m
	}
	return err
}

func (g *guardGen) Err(err error) difftest.Err {
	var se *GuardStackError
	switch {
	case err == nil:
		return difftest.Err{}
	case errors.As(err, &se):
		kind := "underflow"
		if errors.Is(err, ErrGuardStackOverflow) {
			kind = "overflow"
		} else if !errors.Is(err, ErrGuardStackUnderflow) {
			kind = "underflow, but not ErrGuardStackUnderflow"
		}
		return difftest.Err{Kind: kind, State: guardTableState(se.State), Test: guardTableTest(se.Test), Limit: se.Limit, Overflow: se.Overflow}
	case errors.Is(err, ErrGuardNotStarted):
		return difftest.Err{Kind: "not started"}
	case errors.Is(err, ErrGuardReentrant):
		return difftest.Err{Kind: "reentrant"}
	}
	return difftest.Err{Kind: "unexpected: " + err.Error()}
}

// oddGen is the generated OddMachine as a difftest.Machine.
type oddGen struct {
	m OddMachine
	h oddHost
}

func newOddGen(h *difftest.Host) difftest.Machine {
	o := oddHost{h}
	return &oddGen{m: NewOddMachine(o), h: o}
}

func oddTableState(s OddState) table.StateID {
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

func oddTableTest(t OddTest) table.TestID {
	if t == OddNoTest {
		return table.NoTest
	}
	return table.TestID(t)
}

func oddTableResult(r OddResult) table.Result {
	return table.Result{From: oddTableState(r.From), To: oddTableState(r.To), Test: oddTableTest(r.Test), Steps: r.Steps}
}

func oddMessage(id table.TestID) OddMessage {
	msg, ok := OddTest(id).Message()
	if !ok || int(id) >= OddNumTests {
		panic("not a message: " + id.String())
	}
	return msg
}

func (g *oddGen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return oddTableResult(r), err
}

func (g *oddGen) Receive(id table.TestID) (table.Result, error) {
	r, err := g.m.Receive(g.h, oddMessage(id))
	return oddTableResult(r), err
}

func (g *oddGen) Post(id table.TestID) { g.m.Post(oddMessage(id)) }
func (g *oddGen) State() table.StateID { return oddTableState(g.m.State()) }
func (g *oddGen) Done() bool           { return g.m.Done() }
func (g *oddGen) Depth() int           { return g.m.Depth() }
func (g *oddGen) String() string       { return g.m.String() }

func (g *oddGen) Snapshot() table.Snapshot {
	var s OddSnapshot
	g.m.Snapshot(&s)
	out := table.Snapshot{State: oddTableState(s.State), Done: s.Done}
	for _, q := range s.Stack {
		out.Stack = append(out.Stack, oddTableState(q))
	}
	for _, msg := range s.Posted {
		out.Posted = append(out.Posted, oddTableTest(msg.Test()))
	}
	return out
}

func (g *oddGen) Restore(s table.Snapshot) error {
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

func (g *oddGen) Save() ([]byte, error) {
	var s OddSnapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *oddGen) Load(b []byte) error {
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

func (g *oddGen) Err(err error) difftest.Err {
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
		return difftest.Err{Kind: kind, State: oddTableState(se.State), Test: oddTableTest(se.Test), Limit: se.Limit, Overflow: se.Overflow}
	case errors.As(err, &ce):
		if !errors.Is(err, ErrOddChainLimit) {
			return difftest.Err{Kind: "chain, but not ErrOddChainLimit"}
		}
		var path []table.StateID
		for _, q := range ce.Path {
			path = append(path, oddTableState(q))
		}
		return difftest.Err{Kind: "chain", State: oddTableState(ce.At), Test: oddTableTest(ce.Test), Limit: ce.Limit, Path: path, Visited: ce.Visited}
	case errors.Is(err, ErrOddNotStarted):
		return difftest.Err{Kind: "not started"}
	case errors.Is(err, ErrOddReentrant):
		return difftest.Err{Kind: "reentrant"}
	}
	return difftest.Err{Kind: "unexpected: " + err.Error()}
}
