package drawio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
// one), the transition (an edge) and the message handler (when it has
// one). Each is one cell wrapped in a UserObject whose attributes are
// what Read looks for: AttrRole naming the master, AttrStencil and
// AttrVersion naming the stencil, and every property of the master's
// role with its default value (an action's first drop-list value, the
// first test; the name empty, so that the label names the state). The
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
	p := wr.props
	model := func(cell string) string {
		return `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` + cell + `</root></mxGraphModel>`
	}
	state := func(master, style, what string) LibraryEntry {
		var b strings.Builder
		fmt.Fprintf(&b, `<UserObject label="%s" %s %s=""`, esc(master), wr.stencilAttrs(master), p.Name)
		for _, a := range st.Actions {
			first := ""
			if len(a.Values) > 0 {
				first = a.Values[0]
			}
			fmt.Fprintf(&b, ` %s="%s"`, a.Name, esc(first))
		}
		fmt.Fprintf(&b, ` tooltip="%s" id="2">`, esc(stateTooltip(st, p)))
		fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="1"><mxGeometry width="%d" height="%d" as="geometry"/></mxCell></UserObject>`, style, stateW, stateH)
		return LibraryEntry{XML: model(b.String()), W: stateW, H: stateH,
			Title: fmt.Sprintf("%s (stencil %s): %s; type its name as the label, pick its entry actions in Edit Data (Ctrl+M)", master, st.Name, what)}
	}
	entries := []LibraryEntry{state(st.Masters.State, styleState, "a state")}
	if st.Masters.Initial != "" {
		entries = append(entries, state(st.Masters.Initial, styleInitial, "the state the machine starts in"))
	}
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
	entries = append(entries, LibraryEntry{XML: model(b.String()), W: edgeW, H: edgeH,
		Title: fmt.Sprintf("%s (stencil %s): connect its ends to states (a loose end ends the machine: set %s to 1 when it should); pick its %s in Edit Data (Ctrl+M)",
			st.Masters.Transition, st.Name, p.Final, p.Test)})
	if m := st.Masters.AnyState; m != "" {
		var b strings.Builder
		fmt.Fprintf(&b, `<UserObject label="%s" %s tooltip="%s" id="2">`, esc(m), wr.stencilAttrs(m),
			esc("Transitions drawn from this shape apply in every state"))
		fmt.Fprintf(&b, `<mxCell style="%s" vertex="1" parent="1"><mxGeometry width="%d" height="%d" as="geometry"/></mxCell></UserObject>`, styleHandler, stateW, stateH)
		entries = append(entries, LibraryEntry{XML: model(b.String()), W: stateW, H: stateH,
			Title: fmt.Sprintf("%s (stencil %s): the transitions drawn from it apply in any state", m, st.Name)})
	}
	return entries, nil
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
