package drawio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// LibraryEntry is an entry of a draw.io custom shape library: a shape (or
// a group of cells) as an mxGraphModel, the size of its preview, and the
// title draw.io shows when the pointer rests on it.
type LibraryEntry struct {
	XML   string `json:"xml"`   // an mxGraphModel, uncompressed
	W     int    `json:"w"`     // width of the preview, in pixels
	H     int    `json:"h"`     // height of the preview, in pixels
	Title string `json:"title"` // shown on hover in the Shapes panel
}

// Library returns the entries of the draw.io shape library of a stencil,
// one per master: the state, the initial state (when the stencil has
// one), the transition (an edge), the message handler (when it has one),
// then those of statecharts the stencil has: the composite state and the
// parallel state, containers (container=1) with a heading for their name,
// the parallel state holding two dashed regions drawn with the composite
// master (or the state master); the start, a small filled circle; the
// history and the deep history, small circles labelled H and H*. Each
// shape is a cell wrapped in a UserObject whose attributes are what Read
// looks for: AttrRole naming the master, AttrStencil and AttrVersion
// naming the stencil, and every property of the master's role with its
// default value (an action's first drop-list value, the first test; the
// name empty, so that the label names the state; a pseudo-state's name,
// which its label does not give, empty; a pseudo-state has no actions). The
// tooltip of each shape lists the values of its drop-lists; a
// transition's label shows its test.
//
// It returns an error when a property of the stencil cannot be an
// attribute of a draw.io shape (see [Write]).
func Library(st *chart.Stencil) ([]LibraryEntry, error) {
	if st == nil {
		return nil, writeErr("no stencil to make a library of")
	}
	wr := &writer{c: &chart.Chart{Stencil: st}, st: st}
	if err := wr.check(); err != nil {
		return nil, err
	}
	m := st.Masters
	entries := []LibraryEntry{wr.libState(m.State, styleState, "a state")}
	if m.Initial != "" {
		entries = append(entries, wr.libState(m.Initial, styleInitial, "the state the machine starts in"))
	}
	entries = append(entries, wr.libTransition())
	if m.AnyState != "" {
		entries = append(entries, wr.libHandler())
	}
	if m.Composite != "" {
		entries = append(entries, wr.libComposite())
	}
	if m.Parallel != "" {
		entries = append(entries, wr.libParallel())
	}
	if m.Start != "" {
		entries = append(entries, wr.libStart())
	}
	if m.History != "" {
		entries = append(entries, wr.libHistory(m.History, false))
	}
	if m.DeepHistory != "" {
		entries = append(entries, wr.libHistory(m.DeepHistory, true))
	}
	return entries, nil
}

// The sizes of the containers of a library.
const (
	compositeW, compositeH = 240, 160
	parallelW, parallelH   = 280, 230
	regionW, regionH       = 240, 80
)

// libModel wraps cells in an mxGraphModel, after its root and layer.
func libModel(cells string) string {
	return `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` + cells + `</root></mxGraphModel>`
}

// libStateCell returns the cell of a shape of a state master: label,
// master, the name property empty, each action at its first value, the
// tooltip; cell ID id in parent, drawn with style in geo.
func (wr *writer) libStateCell(label, master, tooltip, id, parent, style, geo string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<UserObject label="%s" %s %s=""`, esc(label), wr.stencilAttrs(master), wr.props.Name)
	for _, a := range wr.st.Actions {
		first := ""
		if len(a.Values) > 0 {
			first = a.Values[0]
		}
		fmt.Fprintf(&b, ` %s="%s"`, a.Name, esc(first))
	}
	fmt.Fprintf(&b, ` tooltip="%s" id="%s">`, esc(tooltip), id)
	fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="%s">%s</mxCell></UserObject>`, style, parent, geo)
	return b.String()
}

// libGeo is the geometry of a vertex of a library entry.
func libGeo(x, y, w, h int) string {
	if x == 0 && y == 0 {
		return fmt.Sprintf(`<mxGeometry width="%d" height="%d" as="geometry"/>`, w, h)
	}
	return fmt.Sprintf(`<mxGeometry x="%d" y="%d" width="%d" height="%d" as="geometry"/>`, x, y, w, h)
}

// libState is the entry of the state or initial-state master.
func (wr *writer) libState(master, style, what string) LibraryEntry {
	cell := wr.libStateCell(master, master, stateTooltip(wr.st, wr.props), "2", "1", style, libGeo(0, 0, stateW, stateH))
	return LibraryEntry{XML: libModel(cell), W: stateW, H: stateH,
		Title: fmt.Sprintf("%s (stencil %s): %s; type its name as the label, pick its entry actions in Edit Data (Ctrl+M)", master, wr.st.Name, what)}
}

// libTransition is the entry of the transition master, an edge.
func (wr *writer) libTransition() LibraryEntry {
	st, p := wr.st, wr.props
	test := ""
	if len(st.Tests) > 0 {
		test = st.Tests[0].Name
	}
	const edgeW, edgeH = 160, 40
	var b strings.Builder
	fmt.Fprintf(&b, `<UserObject label="%%%s%%" placeholders="1" %s %s="%s" %s="" %s="" %s="%s" %s="0" tooltip="%s" id="2">`,
		esc(p.Test), wr.stencilAttrs(st.Masters.Transition), p.Test, esc(test), p.Value, p.Order, p.Stack, chart.StackNone, p.Final,
		esc(transitionTooltip(st, p)))
	fmt.Fprintf(&b, `<mxCell style="%s" edge="1" parent="1"><mxGeometry width="%d" height="%d" relative="1" as="geometry">`+
		`<mxPoint y="%d" as="sourcePoint"/><mxPoint x="%d" y="%d" as="targetPoint"/></mxGeometry></mxCell></UserObject>`,
		styleTransition, edgeW, edgeH, edgeH/2, edgeW, edgeH/2)
	return LibraryEntry{XML: libModel(b.String()), W: edgeW, H: edgeH,
		Title: fmt.Sprintf("%s (stencil %s): connect its ends to states (a loose end ends the machine: set %s to 1 when it should); pick its %s in Edit Data (Ctrl+M)",
			st.Masters.Transition, st.Name, p.Final, p.Test)}
}

// libHandler is the entry of the message-handler master.
func (wr *writer) libHandler() LibraryEntry {
	m := wr.st.Masters.AnyState
	var b strings.Builder
	fmt.Fprintf(&b, `<UserObject label="%s" %s tooltip="%s" id="2">`, esc(m), wr.stencilAttrs(m),
		esc("Transitions drawn from this shape apply in every state"))
	fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="1">%s</mxCell></UserObject>`, styleHandler, libGeo(0, 0, stateW, stateH))
	return LibraryEntry{XML: libModel(b.String()), W: stateW, H: stateH,
		Title: fmt.Sprintf("%s (stencil %s): the transitions drawn from it apply in any state", m, wr.st.Name)}
}

// libComposite is the entry of the composite master: a container with a
// heading.
func (wr *writer) libComposite() LibraryEntry {
	st := wr.st
	m := st.Masters.Composite
	mark, drawn := "mark the one entered first with the initial state's shape", "the one entered first drawn as an initial state"
	if st.Masters.Start != "" {
		mark = "draw a start in it, with a transition to the one entered first"
		drawn = "and a start, with a transition to the one entered first"
		if st.Masters.Initial != "" {
			mark += " (or, where the machine starts, draw that one as an initial state)"
			drawn += ", or that one drawn as an initial state where the machine starts"
		}
	}
	tooltip := stateTooltip(st, wr.props) + "\nThe states dropped in it are its states: " + mark
	cell := wr.libStateCell(m, m, tooltip, "2", "1", styleComposite, libGeo(0, 0, compositeW, compositeH))
	return LibraryEntry{XML: libModel(cell), W: compositeW, H: compositeH,
		Title: fmt.Sprintf("%s (stencil %s): a compound state: drop its states in it (%s), and a history if it needs one; type its name in its heading, pick its entry actions in Edit Data (Ctrl+M)",
			m, st.Name, drawn)}
}

// libParallel is the entry of the parallel master: a container with a
// heading, holding two dashed regions drawn with the composite master
// (or the state master).
func (wr *writer) libParallel() LibraryEntry {
	st := wr.st
	m, region := st.Masters.Parallel, st.Masters.Composite
	if region == "" {
		region = st.Masters.State
	}
	tooltip := stateTooltip(st, wr.props) + "\nThe states dropped in it are its regions, all active at once"
	cells := wr.libStateCell(m, m, tooltip, "2", "1", styleParallel, libGeo(0, 0, parallelW, parallelH))
	regionTip := stateTooltip(st, wr.props) + "\nA region of the parallel state it is in: drop its states in it"
	for k, y := range []int{40, 40 + regionH + 10} {
		cells += wr.libStateCell("Region "+strconv.Itoa(k+1), region, regionTip, strconv.Itoa(3+k), "2", styleRegion, libGeo(20, y, regionW, regionH))
	}
	return LibraryEntry{XML: libModel(cells), W: parallelW, H: parallelH,
		Title: fmt.Sprintf("%s (stencil %s): a parallel state: each state dropped in it is a region, all active at once (two are drawn, %q shapes); type its name in its heading, pick its entry actions in Edit Data (Ctrl+M)",
			m, st.Name, region)}
}

// libHistory is the entry of the history or deep-history master: a small
// circle labelled H or H*.
func (wr *writer) libHistory(master string, deep bool) LibraryEntry {
	label, what := "H", "a shallow history (H): a transition to it enters the state of its compound state that was active when it was last left"
	if deep {
		label, what = "H*", "a deep history (H*): a transition to it enters every state of its compound state that was active when it was last left"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<UserObject label="%s" %s %s="" tooltip="%s" id="2">`, label, wr.stencilAttrs(master), wr.props.Name, esc(historyTooltip(wr.props, deep)))
	fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="1">%s</mxCell></UserObject>`, styleHistory, libGeo(0, 0, pseudoSize, pseudoSize))
	return LibraryEntry{XML: libModel(b.String()), W: pseudoSize, H: pseudoSize,
		Title: fmt.Sprintf("%s (stencil %s): %s; drop it in that compound state, and draw one transition without a %s from it to the state to enter the first time",
			master, wr.st.Name, what, wr.props.Test)}
}

// libStart is the entry of the start master: a small filled circle,
// without a label.
func (wr *writer) libStart() LibraryEntry {
	m := wr.st.Masters.Start
	var b strings.Builder
	fmt.Fprintf(&b, `<UserObject label="" %s %s="" tooltip="%s" id="2">`, wr.stencilAttrs(m), wr.props.Name, esc(startTooltip(wr.props)))
	fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="1">%s</mxCell></UserObject>`, styleStart, libGeo(0, 0, pseudoSize, pseudoSize))
	return LibraryEntry{XML: libModel(b.String()), W: pseudoSize, H: pseudoSize,
		Title: fmt.Sprintf("%s (stencil %s): a start (UML's initial state): drop it in a compound state, or at the top, and draw one transition without a %s from it to the state the compound state (or the machine) starts in",
			m, wr.st.Name, wr.props.Test)}
}

// WriteLibrary writes the draw.io custom shape library of a stencil (see
// [Library]): an <mxlibrary> element holding the JSON array of its
// entries, the format draw.io's File > Open Library reads. Designers draw
// charts with its shapes; [Read] with the stencil reads them. The output
// is deterministic. It returns Library's error, or w's.
func WriteLibrary(w io.Writer, st *chart.Stencil) error {
	entries, err := Library(st)
	if err != nil {
		return err
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(entries); err != nil {
		return err
	}
	// The JSON is the text of an XML element: escape it as such.
	text := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(strings.TrimSpace(js.String()))
	_, err = io.WriteString(w, "<mxlibrary>"+text+"</mxlibrary>\n")
	return err
}
