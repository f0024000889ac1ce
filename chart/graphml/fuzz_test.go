package graphml_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// FuzzRead feeds the reader arbitrary files, without a stencil, with the
// goomba stencil and with the soldier stencil (which names the masters of
// statecharts, testdata/soldier.stencil.json): it
// must not panic or hang, it must return a chart or an error that is a
// diag.List, every diagnostic must render, and every chart must
// hold together (see charttest.CheckChart). The corpus starts from the
// drawings of testdata, the fixtures of ../../../shared/fixtures/graphml
// when that folder is there, and drawings built by the tests.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./chart/graphml
func FuzzRead(f *testing.F) {
	charttest.AddFiles(f, "testdata/*.graphml", "testdata/*.graphmlz", "../../../shared/fixtures/graphml/*.graphml")
	start := node("s", "$initial_state", "shape=ellipse", "box=-5,0,20,20")
	f.Add([]byte(doc(start, node("off", "OFF"),
		group("on", "ON", []string{"role=State"}, node("on::s", "$initial_state"), node("on::a", "A\nenter / x();", "role=Initial State", "xm=left"),
			node("alias", "$PARENT_ALIAS"), edge("on::e0", "on::s", "on::a", ""), edge("on::e1", "alias", "off", "2. power", "role=Transition", "test=hitByPlayer")),
		group("n", "$NOTES", nil, node("n1", "old")), node("h", "on hit", "role=Message Handler"),
		edge("e1", "s", "off", "", "arrows=standard,none"), edge("e2", "off", "on", "power [x] / y", "role=Transition", "test=animationDone", "stack=push"),
		edge("e3", "h", "off", "", "role=Transition", "test=hitByPlayer", "order=2", "stack=return"))))
	f.Add([]byte(strings.Replace(doc(node("a", "A"), node("b", "B"), edge("e", "a", "b", "go")), `<graph edgedefault="directed" id="G">`,
		`<key attr.name="fsmforgeFallback" attr.type="string" for="graph" id="fb"><default>A</default></key><graph edgedefault="directed" id="G"><data key="fb">B</data>`, 1)))
	f.Add([]byte(doc(group("m", "$STATEMACHINE: M", nil, node("c", "$choice: c"), node("d", "[*]")), edge("e", "c", "d", "1. x"))))
	f.Add([]byte(doc(node("s", "$initial_state"), group("g", "G\nEV / x++;\ndo / consume_event = true;", nil, node("a", "A"), node("x", "exit : 1"), node("n", "entry:2"),
		node("al", "$PARENT_ALIAS"), node("c", "$choice"), edge("g1", "a", "x", "(EV, GO)"), edge("g2", "n", "c", ""), edge("g3", "c", "a", "else"),
		edge("g4", "al", "g", "1.5. EV [else]")), node("b", "B\n$mod / prefix.auto();"), node("h", "H"), node("k", "$RenderConfig"),
		edge("e1", "s", "g", "via entry 2"), edge("e2", "g", "b", "via exit 1\n2. do / x()"), edge("e3", "b", "s", "| a [b] / c | d"))))
	f.Add([]byte(doc(node("i", "INIT"), node("a", "A\nentry / x"), node("h", "H*"), edge("e1", "i", "a", "| go [ok] / run, log | stop"),
		edge("e2", "a", "h", "back"), edge("e3", "a", "a", "2.5. tick\n/ act"))))
	f.Add([]byte(doc(node("s", "[*]"), group("g", "G", nil, node("gs", "init"), node("a", "A"), node("h", "H"), node("d", "H*"), node("f", "final", "shape=ellipse"),
		folder("k", "K", node("k1", "K1")), edge("g0", "gs", "a", ""), edge("g1", "a", "f", "done"), edge("g2", "d", "k", "")),
		edge("e0", "s", "g", ""), edge("e1", "g", "h", "back"), edge("e2", "g", "k1", ""))))
	f.Add([]byte(doc(node("s", "$initial_state"), group("g", "G", nil, node("gs", "$initial_state"), node("h", "$H"), node("a", "A"),
		group("b", "B", nil, node("bc", "$HC"), node("b1", "B1")), group("p", "P", nil, group("l", "$ORTHO 1 : L", nil, node("l1", "L1")), group("r", "$ORTHO 2 : R", nil, node("r1", "R1"))),
		node("al", "$PARENT_ALIAS"), edge("g0", "gs", "a", ""), edge("g1", "h", "b", ""), edge("g2", "al", "b1", "EV"), edge("g3", "a", "p", "GO")),
		edge("e0", "s", "g", ""), edge("e1", "b1", "h", "BACK"))))
	f.Add([]byte(doc(node("i", "idle", "role=Initial State"), group("c", "C", []string{"role=Composite State", "an=idle"},
		node("a", "A", "role=Initial State"), node("h", "H", "role=History"), node("d", "H*", "role=Deep History"),
		group("p", "P", []string{"role=Parallel State"}, group("l", "L", []string{"role=Composite State"}, node("l1", "L1", "role=Initial State")),
			node("r", "R", "role=State")), edge("c1", "d", "p", "", "role=Transition", "test=alarm"), edge("c2", "a", "p", "", "role=Transition", "test=inRange")),
		node("x", "X", "role=Parallel State"), node("y", "Y", "role=History"),
		edge("e1", "i", "h", "", "role=Transition", "test=enemySeen"), edge("e2", "c", "x", "", "role=Transition", "test=lowHealth"))))
	f.Add([]byte(doc(node("t", "", "role=Start", "shape=ellipse", "box=0,0,20,20"), node("i", "idle", "role=State", "an=idle"),
		group("c", "C", []string{"role=Composite State"}, node("cs", "", "role=Start", "an=run"), node("a", "A", "role=State"), node("h", "H", "role=History"),
			group("p", "P", []string{"role=Parallel State"}, node("ps", "", "role=Start"), group("l", "L", []string{"role=Initial State"}, node("l1", "L1", "role=Initial State")),
				group("r", "R", []string{"role=Composite State"}, node("r1", "R1", "role=Initial State"))),
			group("g", "", []string{"role=Start"}, node("g1", "G1", "role=State")), edge("c0", "cs", "a", "", "role=Transition", "test=inRange"),
			edge("c1", "ps", "l", "", "role=Transition"), edge("c2", "a", "cs", "", "role=Transition", "test=aimed")),
		node("u", "", "role=Start"), edge("e0", "t", "i", "", "role=Transition"), edge("e1", "t", "c", "", "role=Transition"),
		edge("e2", "i", "c", "", "role=Transition", "test=enemySeen"), edge("e3", "i", "u", "", "role=Transition", "test=alarm"))))
	f.Add([]byte(nest(4)))
	f.Add([]byte("\x1F\x8B"))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><graphml><graph><node id="a"/><edge source="a" target="a"/></graph></graphml>`))

	stencils := []*chart.Stencil{nil, charttest.Stencil(f), soldierStencil(f)}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, stencil := range stencils {
			c, err := graphml.Read(bytes.NewReader(data), graphml.Options{File: "fuzz.graphml", Stencil: stencil, MaxDepth: 20, MaxElements: 1000})
			charttest.CheckChart(t, c, err)
		}
	})
}

// TestMain bounds the time the fuzzer spends minimizing each input that
// reaches new code (see charttest.ShortMinimize).
func TestMain(m *testing.M) {
	charttest.ShortMinimize()
	os.Exit(m.Run())
}
