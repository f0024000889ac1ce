package goomba

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// The designer's drawing and the programmers' stencil, as files beside
// this one: goomba.vdx was drawn with the masters goomba.stencil.json
// names.
var (
	//go:embed goomba.vdx
	drawing []byte
	//go:embed goomba.stencil.json
	stencil []byte
)

// Load reads the Goomba drawing with its stencil and compiles it into a
// table, as a game that loads drawings at run time does.
func Load() (*table.Table, error) {
	_, res, err := Drawing()
	if err != nil {
		return nil, err
	}
	return res.Table, nil
}

// Stencil returns the programmers' stencil the Goomba is drawn with,
// goomba.stencil.json, which every drawing of it (goomba.vdx, .vsdx,
// .drawio, .scxml) is read with.
func Stencil() (*chart.Stencil, error) {
	return chart.ReadStencil(bytes.NewReader(stencil), "goomba.stencil.json")
}

// Drawing reads the Goomba drawing with its stencil and compiles it: the
// chart, with where the designer drew each state, and what compile made
// of it.
func Drawing() (*chart.Chart, *compile.Result, error) {
	st, err := Stencil()
	if err != nil {
		return nil, nil, err
	}
	c, err := visio.Read(bytes.NewReader(drawing), visio.Options{File: "goomba.vdx", Stencil: st})
	if err != nil {
		return nil, nil, err
	}
	res, err := compile.Compile(c, compile.Options{Stencil: st})
	if err != nil {
		return nil, nil, err
	}
	return c, res, nil
}

// tableHost answers the table's tests and performs its entry actions on a
// goomba, through IDs bound by name: once, and again when a new version of
// the drawing is reloaded (Level.PrepareReload).
type tableHost struct {
	t                          *table.Table
	left, right, done          table.TestID
	hit                        table.TestID // the message hitByPlayer
	movement, animation        table.PropertyID
	movementValues, animValues []string
}

func bind(t *table.Table) (*tableHost, error) {
	h := &tableHost{t: t}
	hit, ok := t.LookupTest("hitByPlayer", "")
	if !ok || !t.Test(hit).Message {
		return nil, fmt.Errorf("goomba: table %q has no message hitByPlayer", t.Name())
	}
	h.hit = hit
	for _, b := range []struct {
		name string
		id   *table.TestID
	}{{"hitTriggerLeft", &h.left}, {"hitTriggerRight", &h.right}, {"animationDone", &h.done}} {
		id, ok := t.LookupTest(b.name, "")
		if !ok {
			return nil, fmt.Errorf("goomba: table %q has no test %q", t.Name(), b.name)
		}
		*b.id = id
	}
	for _, b := range []struct {
		name   string
		id     *table.PropertyID
		values *[]string
	}{{"XMovement", &h.movement, &h.movementValues}, {"Animation", &h.animation, &h.animValues}} {
		id, ok := t.LookupProperty(b.name)
		if !ok {
			return nil, fmt.Errorf("goomba: table %q has no entry-action property %q", t.Name(), b.name)
		}
		*b.id = id
		for v := range t.NumValues(id) {
			*b.values = append(*b.values, t.Value(id, table.ValueID(v)))
		}
	}
	return h, nil
}

func (h *tableHost) Test(g *Goomba, id table.TestID) bool {
	switch id {
	case h.left:
		return g.hitTriggerLeft()
	case h.right:
		return g.hitTriggerRight()
	case h.done:
		return g.animationDone()
	}
	return false
}

func (h *tableHost) Do(g *Goomba, p table.PropertyID, v table.ValueID) {
	switch p {
	case h.movement:
		g.setMovement(h.movementValues[v])
	case h.animation:
		g.setAnimation(h.animValues[v])
	}
}

// TableBrains returns the brains that run t with package table's Agent,
// for [NewLevel] and [LoadLevel].
func TableBrains(t *table.Table) (Brains, error) {
	h, err := bind(t)
	if err != nil {
		return Brains{}, err
	}
	// The brains share h, which a reload binds to the new table: brains
	// made after it run the new one.
	return Brains{
		host: h,
		New: func(g *Goomba) (Brain, error) {
			return &tableBrain{a: table.NewAgent(h.t, g, table.Host[*Goomba](h)), h: h}, nil
		},
		Restore: func(g *Goomba, saved []byte) (Brain, error) {
			var s table.Snapshot
			if err := s.UnmarshalBinary(saved); err != nil {
				return nil, err
			}
			a, err := table.RestoreAgent(h.t, g, &s)
			return &tableBrain{a: a, h: h}, err
		},
	}, nil
}

type tableBrain struct {
	a table.Agent[*Goomba]
	h *tableHost
}

func (b *tableBrain) Update(*Goomba) (Step, error) { return b.step(b.a.Update(b.h)) }
func (b *tableBrain) Hit(*Goomba) (Step, error)    { return b.step(b.a.Receive(b.h, b.h.hit)) }
func (b *tableBrain) State() string                { return b.a.Name() }
func (b *tableBrain) Done() bool                   { return b.a.Done() }

// Observe attaches o to the agent, entity its events' number.
func (b *tableBrain) Observe(o machine.Observer, entity uint64) { b.a.Observe(o, entity) }

func (b *tableBrain) AppendSave(p []byte) ([]byte, error) {
	var s table.Snapshot
	b.a.Snapshot(&s)
	return s.AppendBinary(p)
}

func (b *tableBrain) step(r table.Result, err error) (Step, error) {
	t := b.a.Table()
	st := Step{Moved: r.Moved(), From: t.StateName(r.From), To: "(final)"}
	if !r.Final() {
		st.To = t.StateName(r.To)
	}
	if r.Moved() {
		st.Test = t.Test(r.Test).Name
	}
	return st, err
}
