package compile_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// script is a host whose answers come from a seeded random source, and
// which logs what the agent asks and does, so that two agents given the
// same seed can be compared.
type script struct {
	rng *rand.Rand
	log []string
}

func (s *script) Test(_ *script, id table.TestID) bool {
	ok := s.rng.IntN(3) == 0
	s.log = append(s.log, fmt.Sprintf("test %d %v", id, ok))
	return ok
}

func (s *script) Do(_ *script, p table.PropertyID, v table.ValueID) {
	s.log = append(s.log, fmt.Sprintf("do %d=%d", p, v))
}

// run runs an agent of tb for steps updates, receiving a random message
// now and then, and returns the log: tests asked, actions done, results.
func run(tb *table.Table, seed uint64, steps int) []string {
	h := &script{rng: rand.New(rand.NewPCG(seed, 1))}
	var messages []table.TestID
	for id := range table.TestID(tb.NumTests()) {
		if tb.Test(id).Message {
			messages = append(messages, id)
		}
	}
	a := table.NewAgent(tb, h, h)
	for range steps {
		var res table.Result
		var err error
		if len(messages) > 0 && h.rng.IntN(4) == 0 {
			m := messages[h.rng.IntN(len(messages))]
			h.log = append(h.log, fmt.Sprintf("receive %d", m))
			res, err = a.Receive(h, m)
		} else {
			res, err = a.Update(h)
		}
		kind := ""
		for _, e := range []error{table.ErrStackOverflow, table.ErrStackUnderflow, machine.ErrChainLimit} {
			if errors.Is(err, e) {
				kind = e.Error()
			}
		}
		h.log = append(h.log, fmt.Sprintf("moved %v final %v steps %d test %d %s", res.Moved(), res.Final(), res.Steps, res.Test, kind))
		if a.Done() {
			break
		}
	}
	return h.log
}

// TestMinimize compiles a patroller drawn with its states twice: the
// minimised table has the Goomba's three states, and runs as the original.
func TestMinimize(t *testing.T) {
	st := stencil(t)
	c := &chart.Chart{Name: "twice", Stencil: st, States: []chart.State{
		state("1", "walkLeft", "XMovement=left", "Animation=moveLeft"),
		state("2", "walkRight", "XMovement=right", "Animation=moveRight"),
		initial(state("3", "walkLeft2", "XMovement=left", "Animation=moveLeft")),
		state("4", "walkRight2", "XMovement=right", "Animation=moveRight"),
		state("5", "death", "XMovement=death", "Animation=death"),
		state("6", "death2", "XMovement=death", "Animation=death"),
		state("7", "stunned", "XMovement=death", "Animation=death"), // death's actions, another way out
	}, Transitions: []chart.Transition{
		trans("11", "1", "hitTriggerLeft", "2"), trans("12", "1", "hitByPlayer", "5"),
		trans("13", "2", "hitTriggerRight", "3"), trans("14", "2", "hitByPlayer", "6"),
		trans("15", "3", "hitTriggerLeft", "4"), trans("16", "3", "hitByPlayer", "6"),
		trans("17", "4", "hitTriggerRight", "1"), trans("18", "4", "hitByPlayer", "5"),
		trans("19", "5", "animationDone", "final"), trans("20", "6", "animationDone", "final"),
		trans("21", "7", "animationDone", "1"), trans("22", "5", "hitTriggerLeft", "7"), trans("23", "6", "hitTriggerLeft", "7"),
	}}
	orig, err := compile.Compile(c, compile.Options{})
	checkResult(t, orig, err)
	min, err := compile.Compile(c, compile.Options{Minimize: true})
	checkResult(t, min, err)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range min.Merged {
		got = append(got, fmt.Sprintf("%s(%d)<-%s", m.Kept, m.State, strings.Join(m.Merged, ",")))
	}
	// walkLeft2 is initial: it is kept, in the place of walkLeft, the
	// first of its class.
	want := []string{"walkLeft2(0)<-walkLeft", "walkRight(1)<-walkRight2", "death(2)<-death2"}
	if !slices.Equal(got, want) {
		t.Errorf("Merged = %v, want %v", got, want)
	}
	if n := min.Table.NumStates(); n != 4 {
		t.Errorf("NumStates = %d, want 4", n)
	}
	if min.States["1"] != 0 || min.States["3"] != 0 || min.States["6"] != 2 || min.States["7"] != 3 || min.Table.Initial() != 0 {
		t.Errorf("States = %v, initial %v", min.States, min.Table.Initial())
	}
	if min.Merged[0].Pos.Shape != "3" || !slices.Equal(min.Merged[0].MergedPos, []diag.Pos{c.States[0].Pos}) || min.Pos[0].Shape != "3" {
		t.Errorf("positions: %+v, Pos %v", min.Merged[0], min.Pos)
	}
	for seed := range uint64(50) {
		a, b := run(orig.Table, seed, 40), run(min.Table, seed, 40)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d: the minimised table runs differently:\n%s\nwant\n%s", seed, strings.Join(b, "\n"), strings.Join(a, "\n"))
		}
	}
}

// TestMinimizeAnyState: an any-state transition is skipped in its own
// destination, so its destination is not merged with a state that looks
// the same.
func TestMinimizeAnyState(t *testing.T) {
	st := stencil(t)
	c := goombaChart(st, []chart.State{state("9", "stunned", "XMovement=death", "Animation=death"), state("10", "stunned2", "XMovement=death", "Animation=death")},
		trans("11", "*", "hitTriggerRight", "9"),
		trans("12", "9", "animationDone", "1"), trans("13", "10", "animationDone", "1"), trans("14", "3", "hitTriggerLeft", "10"))
	r, err := compile.Compile(c, compile.Options{Minimize: true})
	checkResult(t, r, err)
	if len(r.Merged) != 0 {
		t.Errorf("Merged = %+v, want none", r.Merged)
	}
}

// TestMinimizeLucidchart minimises the Lucidchart diagram: its four
// "Retorna ao usuário" states all end the machine on completion, and three
// states lead to them on completion.
func TestMinimizeLucidchart(t *testing.T) {
	r, err := compile.Compile(readFile(t, lucid, nil), compile.Options{Minimize: true})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Merged {
		got = append(got, m.Kept+" <- "+strings.Join(m.Merged, ", "))
	}
	want := []string{
		"Retorna ao usuário <- Retorna ao usuário#2, Retorna ao usuário#3, Retorna ao usuário#4",
		// Each leads to one of the above on completion.
		"Pesquisa Receitas <- Pesquisa uma receita, Registra no BD",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Merged = %q, want %q", got, want)
	}
}

// randomChart draws a random chart: few actions and tests, so that states
// often look alike.
func randomChart(rng *rand.Rand, st *chart.Stencil) *chart.Chart {
	n := 2 + rng.IntN(30)
	c := &chart.Chart{Name: "random", Stencil: st}
	moves := []string{"left", "right"}
	tests := []string{"hitTriggerLeft", "animationDone", "hitTriggerRight", "hitByPlayer"}
	for i := range n {
		s := state(strconv.Itoa(i), "s"+strconv.Itoa(i), "XMovement="+moves[rng.IntN(2)])
		c.States = append(c.States, s)
	}
	c.States[rng.IntN(n)].Initial = true
	id := n
	add := func(from string) {
		used := map[string]bool{}
		for range rng.IntN(4) {
			test := tests[rng.IntN(len(tests))]
			if used[test] {
				continue
			}
			used[test] = true
			to := strconv.Itoa(rng.IntN(n))
			switch rng.IntN(12) {
			case 0:
				to = "final"
			case 1:
				to = "return"
			}
			tr := trans(strconv.Itoa(id), from, test, to)
			tr.Push = to != "final" && to != "return" && rng.IntN(4) == 0
			c.Transitions = append(c.Transitions, tr)
			id++
		}
	}
	for i := range n {
		add(strconv.Itoa(i))
	}
	if rng.IntN(3) == 0 {
		add("*")
	}
	return c
}

// naiveClasses partitions the states of tb by Moore's algorithm, the
// slow way, from the table's own view of the states.
func naiveClasses(tb *table.Table) []int {
	n := tb.NumStates()
	class := make([]int, n)
	anyInto := make([]string, n)
	k := 0
	for tr := range tb.Transitions(table.AnyState) {
		if tb.HasState(tr.To) {
			anyInto[tr.To] += strconv.Itoa(k) + ","
		}
		k++
	}
	for {
		sigs := map[string]int{}
		next := make([]int, n)
		for q := range n {
			var b strings.Builder
			fmt.Fprintf(&b, "%s|", anyInto[q])
			for a := range tb.Actions(table.StateID(q)) {
				fmt.Fprintf(&b, "%d=%d,", a.Property, a.Value)
			}
			b.WriteByte('|')
			for tr := range tb.Transitions(table.StateID(q)) {
				to := tr.To.String()
				if tb.HasState(tr.To) {
					to = "c" + strconv.Itoa(class[tr.To])
				}
				fmt.Fprintf(&b, "%d %v %s,", tr.Test, tr.Push, to)
			}
			key := b.String()
			if _, ok := sigs[key]; !ok {
				sigs[key] = len(sigs)
			}
			next[q] = sigs[key]
		}
		if slices.Equal(next, class) {
			return class
		}
		class = next
	}
}

// TestMinimizeRandom minimises random charts: the classes are Moore's, and
// agents run the minimised tables as the originals.
func TestMinimizeRandom(t *testing.T) {
	st := stencil(t)
	rng := rand.New(rand.NewPCG(4, 2004))
	for i := range 300 {
		c := randomChart(rng, st)
		orig, err := compile.Compile(c, compile.Options{})
		checkResult(t, orig, err)
		min, err := compile.Compile(c, compile.Options{Minimize: true})
		checkResult(t, min, err)
		if err != nil {
			t.Fatalf("chart %d: %v", i, err)
		}
		naive := naiveClasses(orig.Table)
		for _, p := range c.States {
			for _, q := range c.States {
				same := naive[orig.States[p.ID]] == naive[orig.States[q.ID]]
				if same != (min.States[p.ID] == min.States[q.ID]) {
					t.Fatalf("chart %d: states %s and %s: Moore says same %v, Minimize %v", i, p.ID, q.ID, same, !same)
				}
			}
		}
		if min.Table.StateName(min.Table.Initial()) != orig.Table.StateName(orig.Table.Initial()) {
			t.Errorf("chart %d: the initial state was not kept", i)
		}
		for seed := range uint64(5) {
			a, b := run(orig.Table, seed, 30), run(min.Table, seed, 30)
			if !slices.Equal(a, b) {
				t.Fatalf("chart %d, seed %d: the minimised table runs differently:\n%s\nwant\n%s", i, seed, strings.Join(b, "\n"), strings.Join(a, "\n"))
			}
		}
	}
}
