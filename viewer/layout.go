package viewer

import (
	"math"
	"strconv"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/layout"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Drawing is the designer's drawing of a machine, so that the viewer
// draws it where the designer did: the chart an importer read (with its
// states' boxes) and which state of the machine each of the chart's states
// became. [FromCompile] makes one from what package compile returns.
type Drawing struct {
	Chart  *chart.Chart
	States map[string]machine.StateID // chart state ID → the machine's state
}

// FromCompile returns the drawing of the table r compiled from c.
func FromCompile(c *chart.Chart, r *compile.Result) *Drawing {
	d := &Drawing{Chart: c, States: make(map[string]machine.StateID, len(r.States))}
	for id, q := range r.States {
		if q != table.Final {
			d.States[id] = machine.StateID(q)
		}
	}
	return d
}

// Layout is where each state of a machine is drawn, by state ID, in the
// drawing's pixels (draw.io's: 1/96 inch, Y down), and the size of the
// whole.
type Layout struct {
	States []Box    `json:"states"`
	Width  float64  `json:"width"`
	Height float64  `json:"height"`
	From   string   `json:"from"`            // "drawing" or "layout": the designer's boxes, or the layered layout's
	Labels []string `json:"labels"`          // each transition's label, by index in the description
	Pages  []string `json:"pages,omitempty"` // the page each state was drawn on, when the drawing has several
}

// Box is a state's place in a Layout.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// layoutOf returns the layout of the machine d describes: the drawing's
// boxes when it has one for every state, else the layered layout of the
// description.
func layoutOf(d *machine.Description, dr *Drawing) Layout {
	l := Layout{States: make([]Box, len(d.States)), Labels: labels(d)}
	if dr != nil && dr.Chart != nil && fromDrawing(&l, dr) {
		l.From = "drawing"
	} else {
		fromLayout(&l, d)
		l.From = "layout"
	}
	for _, b := range l.States {
		l.Width, l.Height = math.Max(l.Width, b.X+b.W), math.Max(l.Height, b.Y+b.H)
	}
	l.Width, l.Height = l.Width+layout.Margin, l.Height+layout.Margin
	return l
}

// fromDrawing sets l's boxes from the drawing and reports whether it had
// one for every state. A state that several of the chart's states became
// (minimised) takes the first one's.
func fromDrawing(l *Layout, dr *Drawing) bool {
	set := make([]bool, len(l.States))
	pages := make([]string, len(l.States))
	for i := range dr.Chart.States {
		s := &dr.Chart.States[i]
		q, ok := dr.States[s.ID]
		if !ok || s.Box == nil || q < 0 || int(q) >= len(l.States) || set[q] {
			continue
		}
		l.States[q] = Box{s.Box.X, s.Box.Y, s.Box.W, s.Box.H}
		set[q] = true
		pages[q] = s.Pos.Page
	}
	multi := false
	for q, ok := range set {
		if !ok {
			return false
		}
		multi = multi || pages[q] != pages[0]
	}
	if multi {
		l.Pages = pages
	}
	return true
}

// fromLayout lays out the description as a chart: its states by ID, nested
// as they nest, its transitions to each of their targets.
func fromLayout(l *Layout, d *machine.Description) {
	c := &chart.Chart{States: make([]chart.State, len(d.States))}
	for i, s := range d.States {
		st := chart.State{ID: strconv.Itoa(i), Name: s.Name, Initial: machine.StateID(i) == d.Initial}
		if s.Parent >= 0 {
			st.Parent = strconv.Itoa(int(s.Parent))
		}
		c.States[i] = st
	}
	for _, t := range d.Transitions {
		for _, to := range t.To {
			c.Transitions = append(c.Transitions, chart.Transition{From: strconv.Itoa(int(t.From)), Target: chart.Target{Kind: chart.ToState, State: strconv.Itoa(int(to))}})
		}
	}
	layout.Layered(c, layout.Options{})
	for i, s := range c.States {
		l.States[i] = Box{s.Box.X, s.Box.Y, s.Box.W, s.Box.H}
	}
}

// labels returns each transition's label: its trigger, then its
// condition in brackets.
func labels(d *machine.Description) []string {
	out := make([]string, len(d.Transitions))
	for i, t := range d.Transitions {
		s := ""
		if t.Trigger >= 0 && int(t.Trigger) < len(d.Triggers) {
			s = d.Triggers[t.Trigger].Name
		}
		if t.Condition != "" {
			if s != "" {
				s += " "
			}
			s += "[" + t.Condition + "]"
		}
		out[i] = s
	}
	return out
}
