package scxml

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// Hints of the diagnostics of executable content.
const (
	hintActions = "a chart's actions are <raise>, <send> to the machine itself, <cancel> and <ff:action property=\"...\" value=\"...\"/>: " + lenientHint
	hintSend    = "a chart's <send> names its event (event), may wait (delay=\"1s\", \"500ms\") and be named for <cancel> (id): " + lenientHint
)

// The values of <send>'s type and target that send to the machine itself.
const (
	scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
	targetInternal = "#_internal"
)

// actions reads the executable content in n (an <onentry>, <onexit> or
// <transition>) of state r, in document order. What a chart cannot
// express is reported and left out. The actions of an <if>, <elseif> and
// <else> get guards (Action.Guard): the branch's condition and the
// negations of those before it.
func (in *interp) actions(n *node, r *srec) []chart.Action {
	if len(n.kids) == 0 {
		return nil
	}
	out := in.content(n, n.kids, r, "", make([]chart.Action, 0, len(n.kids)))
	if len(out) == 0 {
		return nil
	}
	return out
}

// content appends to out the actions of kids, the executable content in
// n, each guarded by guard ("" for none).
func (in *interp) content(n *node, kids []*node, r *srec, guard string, out []chart.Action) []chart.Action {
	for _, k := range kids {
		var a chart.Action
		ok := false
		switch {
		case isEditorInfo(k):
		case k.space == Namespace && k.local == elemAction:
			a, ok = in.gameAction(k, r)
		case k.space == Namespace:
			in.other(k, r)
		case k.space == in.doc.ns && !executable[k.local]:
			in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "SCXML allows executable content here", "%s cannot be in %s", in.tag(k), in.where(n, r))
		case in.isSCXML(k, "raise"):
			a, ok = in.raise(k, r, in.where(n, r))
		case in.isSCXML(k, "send"):
			a, ok = in.send(k, r, in.where(n, r))
		case in.isSCXML(k, "cancel"):
			a, ok = in.cancel(k, r, in.where(n, r))
		case in.isSCXML(k, "if"):
			out = in.ifContent(k, r, guard, out)
		case in.isSCXML(k, "log"):
			in.diag(diag.Note, in.pos(k, r), ErrUnsupported, "a chart has no log: the game's host can log the actions it performs",
				"%s in %s is left out", in.tag(k), in.where(n, r))
		default:
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, hintActions,
				"%s in %s: executable content cannot be expressed in a chart; left out", in.tag(k), in.where(n, r))
		}
		if ok {
			a.Guard = guard
			out = append(out, a)
		}
	}
	return out
}

// ifContent appends the actions of <if> n: each branch's (the <if>'s
// own, then after each <elseif> and <else>) guarded by its condition and
// the negations of the conditions before it.
func (in *interp) ifContent(n *node, r *srec, guard string, out []chart.Action) []chart.Action {
	at := in.pos(n, r)
	in.attrs(n, at, []string{"cond"}, nil)
	c, ok := n.attr("", "cond")
	if c = strings.TrimSpace(c); !ok || c == "" {
		in.diag(diag.Error, at, ErrUnsupported, `write <if cond="...">`, "%s without a condition", in.tag(n))
		return out
	}
	var before []string // the conditions of the branches so far
	branch, start := c, 0
	flush := func(end int) {
		g := guard
		for _, b := range before {
			g = and(g, "!("+b+")")
		}
		if branch != "" {
			g = and(g, branch)
		}
		out = in.content(n, n.kids[start:end], r, g, out)
	}
	elsed := false
	for i, k := range n.kids {
		if !in.isSCXML(k, "elseif") && !in.isSCXML(k, "else") {
			continue
		}
		kat := in.pos(k, r)
		if elsed {
			in.diag(diag.Error, kat, ErrUnsupported, "put <else> last", "%s after <else>", in.tag(k))
			return out
		}
		flush(i)
		before = append(before, branch)
		start = i + 1
		if in.isSCXML(k, "else") {
			in.attrs(k, kat, nil, nil)
			branch, elsed = "", true
			continue
		}
		in.attrs(k, kat, []string{"cond"}, nil)
		kc, ok := k.attr("", "cond")
		if branch = strings.TrimSpace(kc); !ok || branch == "" {
			in.diag(diag.Error, kat, ErrUnsupported, `write <elseif cond="...">`, "%s without a condition", in.tag(k))
			return out
		}
	}
	flush(len(n.kids))
	return out
}

// and returns the guard "a && b", or b when a is "", with parentheses
// around a side that holds ||.
func and(a, b string) string {
	if a == "" {
		return b
	}
	group := func(s string) string {
		if strings.Contains(s, "||") {
			return "(" + s + ")"
		}
		return s
	}
	return group(a) + " && " + group(b)
}

// where names element n of state r for messages: `<onentry> of state "a"`.
func (in *interp) where(n *node, r *srec) string { return in.tag(n) + " of " + r.what() }

// gameAction reads an <ff:action> of state r: a game action.
func (in *interp) gameAction(n *node, r *srec) (chart.Action, bool) {
	at := in.pos(n, r)
	in.attrs(n, at, []string{attrProperty, attrValue}, nil)
	prop, _ := n.attr("", attrProperty)
	value, _ := n.attr("", attrValue)
	prop, value = strings.TrimSpace(prop), strings.TrimSpace(value)
	switch {
	case prop == "":
		in.diag(diag.Error, at, ErrUnsupported, `write <ff:action property="..." value="..."/>`, "<ff:action> without a property")
		return chart.Action{}, false
	case value == "":
		in.diag(diag.Warning, at, nil, "pick a value, or remove the action", "action %s has no value; ignored", prop)
		return chart.Action{}, false
	}
	if in.st != nil {
		p, ok := in.st.Action(prop)
		if !ok {
			names := make([]string, len(in.st.Actions))
			for i, a := range in.st.Actions {
				names[i] = a.Name
			}
			hint := "stencil " + strconv.Quote(in.st.Name) + " has no action properties"
			if len(names) > 0 {
				hint = "the stencil's action properties are " + strings.Join(names, ", ")
			}
			in.diag(diag.Error, at, nil, hint, "%s: action property %q is not in stencil %q", r.what(), prop, in.st.Name)
			return chart.Action{}, false
		}
		if !slices.Contains(p.Values, value) {
			in.diag(diag.Error, at, nil, "pick one of "+strings.Join(p.Values, ", "),
				"%s: %s value %q is not in the drop-list of stencil %q", r.what(), prop, value, in.st.Name)
			return chart.Action{}, false
		}
	}
	return chart.Action{Property: prop, Value: value, Pos: at}, true
}

// eventName reads the event attribute of n, a <raise> or <send>: one
// event name. It reports an event that is missing or not a name.
func (in *interp) eventName(n *node, r *srec, where string) (string, bool) {
	at := in.pos(n, r)
	e, ok := n.attr("", "event")
	e = strings.TrimSpace(e)
	switch {
	case !ok || e == "":
		in.diag(diag.Error, at, ErrUnsupported, `write event="..."`, "%s in %s has no event", in.tag(n), where)
		return "", false
	case strings.ContainsFunc(e, unicode.IsSpace):
		in.diag(diag.Error, at, ErrUnsupported, "an event's name has no spaces: write one event", "%s in %s: event %q is not one name", in.tag(n), where, e)
		return "", false
	}
	return e, true
}

// raise reads <raise event="..."/>: an event on the internal queue.
func (in *interp) raise(n *node, r *srec, where string) (chart.Action, bool) {
	at := in.pos(n, r)
	in.attrs(n, at, []string{"event"}, nil)
	if in.noContent(n, where) {
		return chart.Action{}, false
	}
	e, ok := in.eventName(n, r, where)
	return chart.Action{Kind: chart.RaiseAction, Event: e, Pos: at}, ok
}

// noContent reports children of a <raise> or <cancel>, which have none;
// it returns true when there are.
func (in *interp) noContent(n *node, where string) bool {
	if len(n.kids) == 0 {
		return false
	}
	in.diag(diag.Error, in.pos(n.kids[0], nil), ErrUnsupported, "remove it", "%s cannot be in %s in %s", in.tag(n.kids[0]), in.tag(n), where)
	return true
}

// send reads <send>: an event the machine sends itself, on its external
// queue, after a delay; or, with target="#_internal" and no delay, on its
// internal queue, as <raise> does. What sends elsewhere, or needs a data
// model, is reported and left out.
func (in *interp) send(n *node, r *srec, where string) (chart.Action, bool) {
	at := in.pos(n, r)
	in.attrs(n, at, []string{"event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay", "delayexpr", "namelist"}, nil)
	if why := in.sendUnsupported(n); why != "" {
		in.diag(in.leniency(), at, ErrUnsupported, hintSend, "<send> in %s: %s; left out", where, why)
		return chart.Action{}, false
	}
	e, ok := in.eventName(n, r, where)
	if !ok {
		return chart.Action{}, false
	}
	a := chart.Action{Kind: chart.SendAction, Event: e, Pos: at}
	if v, ok := n.attr("", "delay"); ok {
		d, err := parseDelay(v)
		if err != "" {
			in.diag(diag.Error, at, ErrUnsupported, `write a time in seconds or milliseconds: "1s", "0.5s", "500ms"`,
				"<send> in %s: delay %q %s", where, v, err)
			return chart.Action{}, false
		}
		a.Delay = d
	}
	a.Timer, _ = n.attr("", "id")
	a.Timer = strings.TrimSpace(a.Timer)
	if v, _ := n.attr("", "target"); v == targetInternal {
		a.Kind, a.Timer = chart.RaiseAction, ""
	}
	return a, true
}

// sendUnsupported says what of <send> n a chart cannot express, or "".
func (in *interp) sendUnsupported(n *node) string {
	for _, x := range [...]string{"eventexpr", "targetexpr", "typeexpr", "delayexpr", "idlocation", "namelist"} {
		if _, ok := n.attr("", x); ok {
			return x + " needs a data model, which a chart does not have"
		}
	}
	if len(n.kids) > 0 {
		return "its " + in.tag(n.kids[0]) + " needs a data model, which a chart does not have"
	}
	if v, ok := n.attr("", "type"); ok && v != scxmlProcessor && v != "scxml" {
		return "type " + strconv.Quote(v) + " is not SCXML's event processor: a chart sends events to itself only"
	}
	target, ok := n.attr("", "target")
	switch {
	case !ok:
	case target != targetInternal:
		return "target " + strconv.Quote(target) + " is not the machine itself: a chart sends events to itself only"
	case hasAttr(n, "delay"):
		return "it puts a delayed event on the internal queue (target \"#_internal\"), which SCXML does not allow"
	case hasAttr(n, "id"):
		return "it names an event on the internal queue (target \"#_internal\"), which cannot be cancelled"
	}
	return ""
}

func hasAttr(n *node, local string) bool {
	_, ok := n.attr("", local)
	return ok
}

// parseDelay reads a CSS2 time, as SCXML's delay: a number of seconds
// ("1s", "0.5s", ".5s") or milliseconds ("500ms"), not negative. It
// returns the delay in seconds, or what is wrong with it.
func parseDelay(v string) (float64, string) {
	s := strings.TrimSpace(v)
	ms := false
	switch {
	case strings.HasSuffix(s, "ms"):
		s, ms = s[:len(s)-2], true
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	default:
		return 0, `is not a time: it has no unit, "s" or "ms"`
	}
	if s == "" || s == "." || strings.Trim(s, "0123456789.") != "" || strings.Count(s, ".") > 1 {
		return 0, "is not a time: its number is not digits with at most one dot"
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, "is not a time: its number is out of range"
	}
	if ms {
		return f / 1000, ""
	}
	return f, ""
}

// cancel reads <cancel sendid="..."/>: the pending <send> whose id it
// names is taken back.
func (in *interp) cancel(n *node, r *srec, where string) (chart.Action, bool) {
	at := in.pos(n, r)
	in.attrs(n, at, []string{"sendid", "sendidexpr"}, nil)
	if in.noContent(n, where) {
		return chart.Action{}, false
	}
	if hasAttr(n, "sendidexpr") {
		in.diag(in.leniency(), at, ErrUnsupported, `name the <send> with sendid="...": `+lenientHint,
			"<cancel> in %s: sendidexpr needs a data model, which a chart does not have; left out", where)
		return chart.Action{}, false
	}
	id, _ := n.attr("", "sendid")
	if id = strings.TrimSpace(id); id == "" {
		in.diag(diag.Error, at, ErrUnsupported, `write sendid="...", the id of the <send> it cancels`, "<cancel> in %s has no sendid", where)
		return chart.Action{}, false
	}
	return chart.Action{Kind: chart.CancelAction, Timer: id, Pos: at}, true
}
