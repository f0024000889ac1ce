package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fsmforge/fsmforge/table"
)

func runInspect(args []string, stdout, stderr io.Writer) error {
	f := newFlags("inspect", `Usage: fsmforge inspect [-stencil FILE] [-lenient] [-minimize] FILE

Prints a state table readably: its options, action properties,
tests, states with their entry actions and transitions in the order they
are tried, and the destination table (test × state) as the article
"Visual Finite State Machine AI Systems" lays it out. FILE is a compiled
table (binary or JSON), shown as it is, or a drawing, compiled first with
the reading and compiling flags.

Flags:
`)
	rf := addReadFlags(f)
	cf := addCompileFlags(f)
	files, err := f.parseFiles(args, stdout, 1, 1)
	if err != nil {
		return err
	}
	ro, opt, err := options(f, rf, cf)
	if err != nil {
		return err
	}
	t, _, err := loadMachine("inspect", files[0], ro, opt, stderr)
	if err != nil {
		return err
	}
	return printTable(stdout, t)
}

// printTable writes t for people.
func printTable(w io.Writer, t *table.Table) error {
	o := t.Options()
	update := "one transition per update"
	if o.Chain {
		limit := o.ChainLimit
		if limit == 0 {
			limit = t.NumStates()
		}
		update = fmt.Sprintf("updates chain, at most %d transitions", limit)
	}
	stack := o.StackLimit
	if stack == 0 {
		stack = table.MaxStack
	}
	fmt.Fprintf(w, "table %q: %s, %s, %s\n", t.Name(), plural(t.NumStates(), "state"), plural(t.NumTests(), "test"), plural(t.NumProperties(), "property"))
	if t.Statechart() {
		update = strings.Replace(strings.Replace(update, "transition", "microstep", 1), "updates chain", "updates run to a stable configuration", 1)
		fmt.Fprintf(w, "a statechart: %s; queues of %d events, %d pending sends\n", update, cmpOr(o.QueueLimit, table.DefaultQueueLimit), cmpOr(o.TimerLimit, table.DefaultTimerLimit))
	} else {
		fmt.Fprintf(w, "%s; stack of %d; initial state %s\n", update, stack, t.StateName(t.Initial()))
	}

	if t.NumProperties() > 0 {
		fmt.Fprintln(w, "\naction properties:")
		for p := range table.PropertyID(t.NumProperties()) {
			vals := make([]string, t.NumValues(p))
			for v := range vals {
				vals[v] = t.Value(p, table.ValueID(v))
			}
			fmt.Fprintf(w, "  %d %s: %s\n", p, t.Property(p), strings.Join(vals, ", "))
		}
	}

	fmt.Fprintln(w, "\ntests:")
	for id := range table.TestID(t.NumTests()) {
		kind := "polled"
		if t.Test(id).Message {
			kind = "message"
		}
		fmt.Fprintf(w, "  %d %s (%s)\n", id, t.Test(id), kind)
	}

	if t.Statechart() {
		printStatechart(w, t)
		return nil
	}

	first := true
	for tr := range t.Transitions(table.AnyState) {
		if first {
			fmt.Fprintln(w, "\nin any state, tried first:")
			first = false
		}
		fmt.Fprintf(w, "      %s\n", describeTransition(t, tr))
	}

	fmt.Fprintln(w, "\nstates:")
	for s := range table.StateID(t.NumStates()) {
		fmt.Fprintf(w, "  %d %s", s, t.StateName(s))
		if s == t.Initial() {
			fmt.Fprint(w, " (initial)")
		}
		var acts []string
		for a := range t.Actions(s) {
			acts = append(acts, t.Property(a.Property)+"="+t.Value(a.Property, a.Value))
		}
		if len(acts) > 0 {
			fmt.Fprintf(w, ": entry %s", strings.Join(acts, " "))
		}
		fmt.Fprintln(w)
		for tr := range t.Transitions(s) {
			fmt.Fprintf(w, "      %s\n", describeTransition(t, tr))
		}
	}

	// The destination table, tests down, states across.
	fmt.Fprintln(w, "\ndestinations (test × state; . none, -1 final, R return, * push):")
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for s := range table.StateID(t.NumStates()) {
		fmt.Fprintf(tw, "%d\t", s)
	}
	fmt.Fprintln(tw, "\t")
	for id := range table.TestID(t.NumTests()) {
		fmt.Fprintf(tw, "%d\t", id)
		for s := range table.StateID(t.NumStates()) {
			fmt.Fprintf(tw, "%s\t", cell(t, id, s))
		}
		fmt.Fprintf(tw, "\t  %s\n", t.Test(id))
	}
	return tw.Flush()
}

// cell renders the destination of s on test id.
func cell(t *table.Table, id table.TestID, s table.StateID) string {
	for tr := range t.Transitions(s) {
		if tr.Test != id || tr.From != s {
			continue
		}
		c := dest(tr.To)
		if tr.Push {
			c = "*" + c
		}
		return c
	}
	return "."
}

func dest(to table.StateID) string {
	switch to {
	case table.Final:
		return "-1"
	case table.Return:
		return "R"
	}
	return fmt.Sprint(int(to))
}

// describeTransition renders a transition as "hitByPlayer -> dying".
func describeTransition(t *table.Table, tr table.Transition) string {
	var b strings.Builder
	b.WriteString(t.Test(tr.Test).String())
	b.WriteString(" -> ")
	switch tr.To {
	case table.Final:
		b.WriteString("(final)")
	case table.Return:
		b.WriteString("(return)")
	default:
		b.WriteString(t.StateName(tr.To))
	}
	if tr.Push && tr.From == table.AnyState {
		b.WriteString(", pushing the state it leaves")
	} else if tr.Push {
		b.WriteString(", pushing " + t.StateName(tr.From))
	}
	return b.String()
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// printStatechart prints a statechart table's states as a tree: each
// state indented under its parent, with its kind, entry and exit actions,
// default transition and transitions; then the any-state transitions.
func printStatechart(w io.Writer, t *table.Table) {
	if d, ok := t.Default(table.NoState); ok {
		fmt.Fprintf(w, "\nstart %s\n", strings.TrimPrefix(describeChartTransition(t, d), "(no event) "))
	}
	fmt.Fprintln(w, "\nstates:")
	for s := range table.StateID(t.NumStates()) {
		depth := 0
		for p := t.Parent(s); p != table.NoState; p = t.Parent(p) {
			depth++
		}
		indent := strings.Repeat("  ", depth+1)
		fmt.Fprintf(w, "%s%d %s", indent, s, t.StateName(s))
		if k := t.Kind(s); k != table.KindBasic {
			fmt.Fprintf(w, " (%s)", k)
		}
		fmt.Fprintln(w)
		var entry, exit []string
		for a := range t.Actions(s) {
			entry = append(entry, t.ActionString(a))
		}
		for a := range t.ExitActions(s) {
			exit = append(exit, t.ActionString(a))
		}
		if len(entry) > 0 {
			fmt.Fprintf(w, "%s    entry: %s\n", indent, strings.Join(entry, "; "))
		}
		if len(exit) > 0 {
			fmt.Fprintf(w, "%s    exit: %s\n", indent, strings.Join(exit, "; "))
		}
		if d, ok := t.Default(s); ok {
			fmt.Fprintf(w, "%s    default %s\n", indent, strings.TrimPrefix(describeChartTransition(t, d), "(no event) "))
		}
		for tr := range t.Transitions(s) {
			fmt.Fprintf(w, "%s    %s\n", indent, describeChartTransition(t, tr))
		}
	}
	first := true
	for tr := range t.Transitions(table.AnyState) {
		if first {
			fmt.Fprintln(w, "\nin any state, tried after the states' own:")
			first = false
		}
		fmt.Fprintf(w, "    %s\n", describeChartTransition(t, tr))
	}
}

// describeChartTransition renders a statechart transition as
// "noise [seesPlayer] -> aim, stand / raise x".
func describeChartTransition(t *table.Table, tr table.Transition) string {
	var on []string
	if tr.Test != table.NoTest && t.Test(tr.Test).Message {
		on = append(on, t.Test(tr.Test).String())
	}
	for _, e := range tr.Events {
		on = append(on, t.Test(e).String())
	}
	var b strings.Builder
	b.WriteString(strings.Join(on, " "))
	var cond []string
	if tr.Test != table.NoTest && !t.Test(tr.Test).Message {
		cond = append(cond, t.Test(tr.Test).String())
	}
	if c := t.CondString(tr.Cond); c != "" {
		cond = append(cond, c)
	}
	if len(cond) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("[" + strings.Join(cond, " && ") + "]")
	}
	if b.Len() == 0 {
		b.WriteString("(no event)")
	}
	b.WriteString(" -> ")
	if tr.To == table.NoState {
		b.WriteString("(no target)")
	} else {
		names := []string{t.StateName(tr.To)}
		for _, s := range tr.Also {
			names = append(names, t.StateName(s))
		}
		b.WriteString(strings.Join(names, ", "))
	}
	if tr.Internal {
		b.WriteString(" (internal)")
	}
	if len(tr.Actions) > 0 {
		var acts []string
		for _, a := range tr.Actions {
			acts = append(acts, t.ActionString(a))
		}
		b.WriteString(" / " + strings.Join(acts, "; "))
	}
	return b.String()
}
