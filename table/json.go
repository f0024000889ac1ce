package table

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonFormat names the JSON form in its "format" member.
const jsonFormat = "fsmforge table"

// The JSON form, for people: everything by name. IDs are positions in the
// properties, tests and states arrays. The destination table is not
// written: the states' transitions say the same thing.
type jsonTable struct {
	Format     string         `json:"format"`
	Version    int            `json:"version"`
	Name       string         `json:"name"`
	Options    jsonOptions    `json:"options"`
	Properties []jsonProperty `json:"properties"`
	Tests      []jsonTest     `json:"tests"`
	Initial    string         `json:"initial"`
	Any        []jsonTrans    `json:"any"`
	States     []jsonState    `json:"states"`

	// A statechart's (version 2).
	Timers   []string    `json:"timers,omitempty"`
	Defaults []jsonTrans `json:"defaults,omitempty"`
}

type jsonOptions struct {
	Chain      bool `json:"chain"`
	ChainLimit int  `json:"chainLimit"`
	StackLimit int  `json:"stackLimit"`
	QueueLimit int  `json:"queueLimit,omitempty"`
	TimerLimit int  `json:"timerLimit,omitempty"`
}

type jsonProperty struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

type jsonTest struct {
	Name    string `json:"name"`
	Value   string `json:"value,omitempty"`
	Message bool   `json:"message,omitempty"`
}

type jsonState struct {
	Name        string       `json:"name"`
	Actions     []jsonAction `json:"actions"`
	Transitions []jsonTrans  `json:"transitions"`

	// A statechart's (version 2).
	Kind    string       `json:"kind,omitempty"`    // StateKind's String; "" for basic
	Parent  string       `json:"parent,omitempty"`  // the parent's name
	Initial bool         `json:"initial,omitempty"` // marked with SetInitial
	Exit    []jsonAction `json:"exit,omitempty"`
}

// jsonAction is a game action (property and value) or, in a statechart, a
// raise, send or cancel (kind, event, timer, delay).
type jsonAction struct {
	Property string     `json:"property,omitempty"`
	Value    string     `json:"value,omitempty"`
	Kind     string     `json:"kind,omitempty"` // ActionKind's String; "" for a game action
	Event    string     `json:"event,omitempty"`
	Timer    string     `json:"timer,omitempty"`
	Delay    float64    `json:"delay,omitempty"`
	Cond     []jsonCond `json:"cond,omitempty"`
}

// jsonTrans is a transition: its test (name and value) and exactly one of
// to (a state's name), final or return; in a statechart, the test may be
// "" (none) and so may the target.
type jsonTrans struct {
	Test   string `json:"test"`
	Value  string `json:"value,omitempty"`
	To     string `json:"to,omitempty"`
	Final  bool   `json:"final,omitempty"`
	Return bool   `json:"return,omitempty"`
	Push   bool   `json:"push,omitempty"`

	// A statechart's (version 2).
	From     string       `json:"from,omitempty"` // for defaults: the state entered; "" for the start
	Events   []jsonTest   `json:"events,omitempty"`
	Cond     []jsonCond   `json:"cond,omitempty"`
	Also     []string     `json:"also,omitempty"`
	Internal bool         `json:"internal,omitempty"`
	Actions  []jsonAction `json:"actions,omitempty"`
}

// jsonCond is a term of a condition: "test" (with test and value), "in"
// (with state), "not", "and", "or", "true", "false".
type jsonCond struct {
	Op    string `json:"op"`
	Test  string `json:"test,omitempty"`
	Value string `json:"value,omitempty"`
	State string `json:"state,omitempty"`
}

// MarshalJSON returns the table's JSON form: a readable document that
// names every state, test, property and value (see the package
// documentation); [Table.UnmarshalJSON] reads it back into an identical
// table. Use [json.MarshalIndent] for people. It returns an error only for
// a zero Table.
func (t *Table) MarshalJSON() ([]byte, error) {
	if t.sc != nil {
		return t.marshalChartJSON()
	}
	if len(t.spans) == 0 {
		return nil, errZeroTable
	}
	j := jsonTable{
		Format:     jsonFormat,
		Version:    formatVersion,
		Name:       t.name,
		Options:    jsonOptions{Chain: t.opts.Chain, ChainLimit: t.opts.ChainLimit, StackLimit: t.opts.StackLimit},
		Properties: make([]jsonProperty, len(t.props)),
		Tests:      make([]jsonTest, len(t.tests)),
		Initial:    t.states[t.initial].name,
		Any:        make([]jsonTrans, len(t.any)),
		States:     make([]jsonState, len(t.states)),
	}
	for i, p := range t.props {
		j.Properties[i] = jsonProperty{Name: p.name, Values: p.values}
	}
	for i, tt := range t.tests {
		j.Tests[i] = jsonTest(tt)
	}
	for i, tr := range t.any {
		j.Any[i] = t.jsonTrans(tr)
	}
	for q, s := range t.states {
		js := jsonState{Name: s.name, Actions: make([]jsonAction, len(s.actions)), Transitions: []jsonTrans{}}
		for i, a := range s.actions {
			js.Actions[i] = jsonAction{Property: t.props[a.Property].name, Value: t.props[a.Property].values[a.Value]}
		}
		for tr := range t.Transitions(StateID(q)) {
			js.Transitions = append(js.Transitions, t.jsonTrans(tr))
		}
		j.States[q] = js
	}
	return json.Marshal(j)
}

func (t *Table) jsonTrans(tr Transition) jsonTrans {
	tt := t.tests[tr.Test]
	j := jsonTrans{Test: tt.Name, Value: tt.Value, Push: tr.Push}
	switch tr.To {
	case Final:
		j.Final = true
	case Return:
		j.Return = true
	default:
		j.To = t.states[tr.To].name
	}
	return j
}

// UnmarshalJSON decodes a table in the JSON form written by
// [Table.MarshalJSON], replacing t's contents, and validates it as
// [Builder.Build] does. Unknown members, an unknown format or version, and
// names that do not resolve are errors; problems with the table are
// returned as a [diag.List] wrapping [ErrInvalid], problems with the JSON
// itself as encoding/json reports them. On error t is left unchanged. t must
// not be in use by agents.
func (t *Table) UnmarshalJSON(data []byte) error {
	var j jsonTable
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("table: JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("table: JSON: more data after the table")
	}
	var x errs
	if j.Format == jsonFormat && j.Version == chartVersion {
		nt, err := unmarshalChartJSON(&j)
		if err != nil {
			return err
		}
		*t = *nt
		return nil
	}
	if j.Format != jsonFormat || j.Version != formatVersion {
		x.add(-1, ErrVersion, "", "format %q version %d; this package reads %q versions %d and %d", j.Format, j.Version, jsonFormat, formatVersion, chartVersion)
		return x.err()
	}
	nt := &Table{
		name:   j.Name,
		opts:   Options{Chain: j.Options.Chain, ChainLimit: j.Options.ChainLimit, StackLimit: j.Options.StackLimit},
		props:  make([]property, len(j.Properties)),
		tests:  make([]Test, len(j.Tests)),
		states: make([]state, len(j.States)),
		any:    make([]Transition, 0, len(j.Any)),
	}
	for i, p := range j.Properties {
		nt.props[i] = property{name: p.Name, values: p.Values}
	}
	tests := make(map[Test]TestID, len(j.Tests))
	for i, tt := range j.Tests {
		nt.tests[i] = Test(tt)
		key := Test{Name: tt.Name, Value: tt.Value}
		if _, dup := tests[key]; !dup {
			tests[key] = TestID(i)
		}
	}
	states := make(map[string]StateID, len(j.States))
	for q := len(j.States) - 1; q >= 0; q-- { // the first of duplicates wins; validate reports them
		states[j.States[q].Name] = StateID(q)
	}
	props := make(map[string]PropertyID, len(j.Properties))
	for p := len(j.Properties) - 1; p >= 0; p-- {
		props[j.Properties[p].Name] = PropertyID(p)
	}
	if q, ok := states[j.Initial]; ok {
		nt.initial = q
	} else {
		x.invalid("", "initial state %q is not a state of the table", j.Initial)
	}
	trans := func(where string, from StateID, jt jsonTrans) (Transition, bool) {
		tr := Transition{From: from, Push: jt.Push}
		good := true
		id, ok := tests[Test{Name: jt.Test, Value: jt.Value}]
		if !ok {
			x.invalid(where, "test %q is not in the tests array", Test{Name: jt.Test, Value: jt.Value}.String())
			good = false
		}
		tr.Test = id
		n := 0
		if jt.To != "" {
			n++
			if tr.To, ok = states[jt.To]; !ok {
				x.invalid(where, "destination %q is not a state of the table", jt.To)
				good = false
			}
		}
		if jt.Final {
			n++
			tr.To = Final
		}
		if jt.Return {
			n++
			tr.To = Return
		}
		if n != 1 {
			x.invalid(where, "has %d of to, final and return; a transition has exactly one", n)
			good = false
		}
		return tr, good
	}
	for i, jt := range j.Any {
		if tr, ok := trans(fmt.Sprintf("any-state transition %d", i), AnyState, jt); ok {
			nt.any = append(nt.any, tr)
		}
	}
	var own []Transition
	for q, js := range j.States {
		nt.states[q] = state{name: js.Name, actions: make([]Action, len(js.Actions))}
		for i, ja := range js.Actions {
			where := fmt.Sprintf("state #%d %q, entry action %d", q, js.Name, i)
			p, ok := props[ja.Property]
			if !ok {
				x.invalid(where, "%q is not a property of the table", ja.Property)
				continue
			}
			v, ok := nt.LookupValue(p, ja.Value)
			if !ok {
				x.invalid(where, "%q is not a value of property %q", ja.Value, ja.Property)
				continue
			}
			nt.states[q].actions[i] = Action{Property: p, Value: v}
		}
		for i, jt := range js.Transitions {
			if tr, ok := trans(fmt.Sprintf("state #%d %q, transition %d", q, js.Name, i), StateID(q), jt); ok {
				own = append(own, tr)
			}
		}
	}
	if err := x.err(); err != nil {
		return err
	}
	nt.layOut(&x, own)
	if err := x.err(); err != nil {
		return err
	}
	if err := nt.setUp(); err != nil {
		return err
	}
	*t = *nt
	return nil
}
