package scxml

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// Namespaces of the elements and attributes the package reads and writes.
const (
	// SCXMLNamespace is the W3C SCXML namespace, of the root element and
	// every element of the state machine.
	SCXMLNamespace = "http://www.w3.org/2005/07/scxml"

	// Namespace is fsmforge's namespace, for what SCXML has no place for:
	// game actions, the stencil, tests, values, orders, stack operations,
	// any-state transitions, and the chart's own IDs and names. Write binds
	// it to the prefix "ff".
	Namespace = "https://fsmforge.dev/scxml"

	// QtNamespace is the namespace of Qt Creator's SCXML editor, whose
	// <qt:editorinfo> elements keep the layout. Write binds it to the
	// prefix "qt", the only one Qt Creator recognises.
	QtNamespace = "http://www.qt.io/2015/02/scxml-ext"

	// qtRuntimeNamespace is the namespace of Qt SCXML's own extensions,
	// which some files bind to "qt" instead; its editorinfo is read too.
	qtRuntimeNamespace = "http://theqtcompany.com/scxml/2015/06/"
)

// Names of fsmforge's attributes (in [Namespace]) and their values.
const (
	attrID          = "id"             // state, parallel, final, history, initial, transition: the chart's ID when it is not the SCXML id (or the default ID)
	attrName        = "name"           // state, parallel, final, history, initial: the chart's name when it is not the SCXML id
	attrKind        = "kind"           // state: start, choice, end, anyState
	attrInitial     = "initial"        // state, parallel, final: "true" on a further initial state; scxml: "none" for a chart without one
	attrImplicit    = "implicit"       // final: "true" on the final state Write adds for transitions that end the machine
	attrStencil     = "stencil"        // scxml: the stencil's name
	attrVersion     = "stencilVersion" // scxml: the stencil's version
	attrChain       = "chain"          // scxml: "true" when the machine chains (chart.Chart.Chain)
	attrChainLimit  = "chainLimit"     // scxml: the chain's limit (chart.Chart.ChainLimit)
	attrStatechart  = "statechart"     // scxml: "true" when the chart runs as a statechart (chart.Chart.Statechart)
	attrFallback    = "fallback"       // scxml: the state agents of a deleted state go to on reload (chart.Chart.Fallback)
	attrTest        = "test"           // transition: the test, when event or cond cannot hold it as is
	attrEvent       = "event"          // transition: the event of a plain chart, when the event attribute cannot hold it as is
	attrLabel       = "label"          // transition: the label, when it is not the one made of event and cond
	attrValue       = "value"          // transition: the test's argument; ff:action: the value
	attrOrder       = "order"          // transition: the rank, when it is not the position
	attrStack       = "stack"          // transition: push or return
	attrProperty    = "property"       // ff:action: the stencil's action property
	elemAction      = "action"         // <ff:action property="..." value="..."/> in <onentry>, <onexit>, <transition>
	kindStart       = "start"
	kindChoice      = "choice"
	kindEnd         = "end"
	kindAnyState    = "anyState"
	valueTrue       = "true"
	initialNone     = "none"
	qtEditorInfo    = "editorinfo"
	qtGeometry      = "geometry"
	qtSceneGeometry = "scenegeometry"
)

// defaultTransitionID is the ID a transition without ff:id takes: the
// chart ID of the state (or the SCXML id of the any-state element) it is
// written in, '#', and its position among that element's transitions.
func defaultTransitionID(owner string, k int) string {
	return owner + "#" + strconv.Itoa(k)
}

// label is the label of a plain chart's transition without ff:label: the
// event, and the condition in brackets, its runs of white space made
// single spaces.
func label(event, cond string) string {
	cond = chart.NormalizeSpace(cond)
	switch {
	case cond == "":
		return event
	case event == "":
		return "[" + cond + "]"
	}
	return event + " [" + cond + "]"
}

// token makes s one SCXML event descriptor (or one condition name): its
// runs of white space become '_'.
func token(s string) string {
	if !strings.ContainsFunc(s, unicode.IsSpace) {
		return s
	}
	return strings.Join(strings.Fields(s), "_")
}

// ncName makes s a valid XML NCName, the form of an SCXML id: characters
// that cannot be in one become '_', runs of white space one '_', and an
// '_' goes before a first character that cannot start one. It returns
// "state" for "".
func ncName(s string) string {
	s = token(strings.TrimSpace(s))
	if s == "" {
		return "state"
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case i == 0 && !nameStart(r):
			b.WriteByte('_')
			if nameChar(r) {
				b.WriteRune(r)
			}
		case nameChar(r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// nameStart and nameChar are a safe subset of XML's NameStartChar and
// NameChar without ':'.
func nameStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func nameChar(r rune) bool {
	return nameStart(r) || r == '-' || r == '.' || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc)
}

// xmlSafe reports whether s can be written in an XML attribute and read
// back unchanged: valid UTF-8 of XML's characters.
func xmlSafe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !(r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			return false
		}
	}
	return true
}
