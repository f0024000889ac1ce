package gogen_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/gogen"
	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
)

var randomCharts = flag.Int("random-charts", 12, "random statecharts TestRandomStatecharts generates and compares")

// The driver's work per chart: randomScripts seeded scripts of
// randomFrames frames each (difftest.RunChart).
const (
	randomScripts = 4
	randomFrames  = 1500
)

// randcheckDir is where the generated packages and the driver appear, by
// the go command's -overlay, relative to the module root. Nothing is
// written there.
const randcheckDir = "gogen/internal/randcheck"

// TestRandomStatecharts is the differential test of the generated code on
// random hierarchical charts: for the first -random-charts seeds whose
// chart (difftest.RandomChart: internal/scref.Generate's, half of them
// with pushes and returns) compiles, it generates package gSEED (with
// Options.Observe for seeds 2 and 3 modulo 4, whose machines difftest then
// observes beside table.Agent's), with an adapter to difftest.ChartMachine, and a driver test that
// recompiles each chart from its seed, checks that the table is the one
// the code was generated from, and runs difftest.RunChart on the
// generated machine and table.Agent (which saves both mid-run, compares
// the bytes, and runs machines restored from them beside). The files live in a temporary
// directory, laid over gogen/internal/randcheck by `go test -overlay`,
// and the whole lot builds and runs in one go command.
func TestRandomStatecharts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated code with the go command; skipped with -short")
	}
	if *randomCharts < 1 {
		t.Skipf("-random-charts=%d: no chart to compare", *randomCharts)
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		p, err := exec.LookPath("go")
		if err != nil {
			t.Skipf("the go command is not found (%v): cannot build the generated code", err)
		}
		goCmd = p
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	put := func(rel string, src []byte) {
		t.Helper()
		name := filepath.Join(tmp, strings.ReplaceAll(rel, "/", "_"))
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(root, filepath.FromSlash(rel))] = name
	}

	var list bytes.Buffer // the driver's charts
	var imports []string
	skipped := 0
	n := 0
	wantObserved := 0
	for seed := uint64(0); n < *randomCharts; seed++ {
		res, err := compile.Compile(difftest.RandomChart(seed))
		if err != nil {
			skipped++ // as scref's TestDifferential skips them
			continue
		}
		pkg := fmt.Sprintf("g%d", seed)
		observe := seed%4 >= 2
		if observe {
			wantObserved++
		}
		src, err := gogen.Generate(res.Table, gogen.Options{Package: pkg, Command: fmt.Sprintf("TestRandomStatecharts seed %d", seed), Observe: observe})
		if err != nil {
			t.Fatalf("seed %d: Generate: %v", seed, err)
		}
		adapter, err := randomAdapter(pkg, src)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		put(randcheckDir+"/"+pkg+"/"+pkg+"_fsm.go", src)
		put(randcheckDir+"/"+pkg+"/adapter.go", adapter)
		bin, err := res.Table.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(bin)
		imports = append(imports, fmt.Sprintf("\t%q\n", "github.com/fsmforge/fsmforge/"+randcheckDir+"/"+pkg))
		fmt.Fprintf(&list, "\t{%d, %q, %s.NewRandChart},\n", seed, hex.EncodeToString(sum[:]), pkg)
		n++
	}
	driver := strings.NewReplacer("IMPORTS\n", strings.Join(imports, ""), "CHARTS\n", list.String(),
		"SCRIPTS", fmt.Sprint(randomScripts), "FRAMES", fmt.Sprint(randomFrames)).Replace(randomDriver)
	src, err := format.Source([]byte(driver))
	if err != nil {
		t.Fatalf("the driver does not parse: %v\n%s", err, driver)
	}
	put(randcheckDir+"/randcheck_test.go", src)
	js, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayFile, js, 0o644); err != nil {
		t.Fatal(err)
	}

	// go test -c, then the binary run in tmp: a test runs in its package's
	// directory, which does not exist.
	start := time.Now()
	bin := filepath.Join(tmp, "randcheck.test")
	build := exec.Command(goCmd, "test", "-c", "-overlay="+overlayFile, "-vet=off", "-o", bin, "./"+randcheckDir)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c of the generated code: %v\n%s", err, out)
	}
	built := time.Since(start)
	cmd := exec.Command(bin, "-test.count=1", "-test.failfast", "-test.v", "-test.run=^TestRandom$")
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	var steps, charts, saves int
	var observed, observedSteps, events int // of the charts generated with Options.Observe
	var stack difftest.ChartStats           // of the charts that use the stack
	stackCharts := 0
	for line := range strings.Lines(string(out)) {
		var seed uint64
		var st, up int
		if _, e := fmt.Sscanf(line, "randcheck: seed %d: %d updates, %d microsteps", &seed, &up, &st); e == nil {
			steps += st
			charts++
		}
		var sv int
		if _, e := fmt.Sscanf(line, "randcheck: seed %d: %d saves restored", &seed, &sv); e == nil {
			saves += sv
		}
		var ev int
		if _, e := fmt.Sscanf(line, "randcheck: seed %d: %d microsteps observed, %d events", &seed, &st, &ev); e == nil {
			observed++
			observedSteps += st
			events += ev
		}
		var x difftest.ChartStats
		var limit int
		if _, e := fmt.Sscanf(line, "randcheck: seed %d: stack limit %d, %d overflows, %d underflows, %d pushes, %d pops, depth %d",
			&seed, &limit, &x.Overflows, &x.Underflows, &x.Pushes, &x.Pops, &x.MaxDepth); e == nil {
			stack.Add(x)
			stackCharts++
		}
	}
	if err != nil {
		t.Fatalf("the driver found a difference, or failed (difftest.RandomChart(SEED) of chart_seed_SEED makes the chart again): %v\n%s", err, out)
	}
	if charts != n {
		t.Fatalf("the driver reported %d charts, want %d:\n%s", charts, n, out)
	}
	// Every script saves and restores at least once (difftest.RunChart).
	if saves < charts*randomScripts {
		t.Errorf("%d saves restored in %d charts' %d scripts each; want one per script at least", saves, charts, randomScripts)
	}
	// Every microstep of an observed machine is an event, compared with
	// table.Agent's.
	if observed != wantObserved || events != observedSteps {
		t.Errorf("%d charts observed, %d events for %d microsteps; want %d charts observed and an event per microstep", observed, events, observedSteps, wantObserved)
	}
	// With the default charts, the stack is used in every way the runtime
	// has: pushes, pops, and both errors.
	if *randomCharts >= 12 && (stackCharts < 3 || stack.Overflows == 0 || stack.Underflows == 0 || stack.Pushes == 0 || stack.Pops == 0) {
		t.Errorf("%d charts use the stack, through %+v; want at least 3, with overflows, underflows, pushes and pops", stackCharts, stack)
	}
	t.Logf("%d charts (seeds 0 to %d, %d not compiled), %d microsteps compared, %d saves restored mid-run, %d charts with the stack (%d updates with a push, %d with a pop, %d overflows, %d underflows, %d deep at most), %d observed (%d events compared); built in %v, ran in %v\n%s",
		charts, n+skipped-1, skipped, steps, saves, stackCharts, stack.Pushes, stack.Pops, stack.Overflows, stack.Underflows, stack.MaxDepth, observed, events,
		built.Round(time.Millisecond), (elapsed - built).Round(time.Millisecond), out)
}

// randomAdapter returns the adapter of generated package pkg (source src)
// to difftest.ChartMachine: NewRandChart, over a host that forwards the
// generated Host's methods to the difftest.Host by ID.
func randomAdapter(pkg string, src []byte) ([]byte, error) {
	f, err := parser.ParseFile(token.NewFileSet(), pkg+"_fsm.go", src, 0)
	if err != nil {
		return nil, err
	}
	var methods strings.Builder
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			it, ok := ts.Type.(*ast.InterfaceType)
			if ts.Name.Name != "Host" || !ok {
				continue
			}
			for _, m := range it.Methods.List {
				ft := m.Type.(*ast.FuncType)
				name := m.Names[0].Name
				switch {
				case ft.Params.NumFields() == 0 && ft.Results.NumFields() == 1:
					// A polled test without values: TestNAME is its ID.
					fmt.Fprintf(&methods, "func (h randHost) %s() bool { return h.h.Test(table.TestID(Test%s)) }\n", name, name)
				case ft.Params.NumFields() == 1 && ft.Results.NumFields() == 0:
					// A property: PropertyNAME is its ID, the value its ValueID.
					typ, ok := ft.Params.List[0].Type.(*ast.Ident)
					if !ok {
						return nil, fmt.Errorf("host method %s: a parameter type the adapter does not know", name)
					}
					fmt.Fprintf(&methods, "func (h randHost) %s(v %s) { h.h.Do(table.PropertyID(Property%s), table.ValueID(v)) }\n", name, typ.Name, name)
				default:
					return nil, fmt.Errorf("host method %s: a kind the adapter does not know", name)
				}
			}
		}
	}
	// A table without messages has no Post (and RunChart posts nothing).
	post := "\tpanic(\"the table has no messages\")\n"
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Post" && fd.Recv != nil {
			post = "\tmsg, ok := Test(ev).Message()\n\tif !ok {\n\t\tpanic(\"not a message\")\n\t}\n\treturn g.m.Post(msg)\n"
		}
	}
	// A machine with the stack has Depth and a StackError.
	stackErr, depth := "", ""
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Depth" && fd.Recv != nil {
			stackErr, depth = randomStackErr, randomDepth
		}
	}
	// A machine generated with Options.Observe has Observe and Observer.
	observeImport, observe := "", ""
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Observe" && fd.Recv != nil {
			observeImport, observe = "\t\"github.com/fsmforge/fsmforge/machine\"\n", randomObserve
		}
	}
	a := strings.NewReplacer("PKG", pkg, "METHODS\n", methods.String(), "POST", post,
		"STACKERR\n", stackErr, "DEPTH\n", depth, "MACHINE\n", observeImport, "OBSERVE\n", observe).Replace(randomAdapterSrc)
	return format.Source([]byte(a))
}

// randomAdapterSrc is the adapter of a generated package, as the
// adapters of gogen/internal/npcgen and w3cgen.
const randomAdapterSrc = `package PKG

import (
	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
MACHINE
	"github.com/fsmforge/fsmforge/table"
)

// randHost is the generated Host over the scripted difftest.Host.
type randHost struct{ h *difftest.Host }

METHODS

// randGen is the generated Machine as a difftest.ChartMachine.
type randGen struct {
	m Machine
	h randHost
}

// NewRandChart starts the generated Machine on h.
func NewRandChart(h *difftest.Host) difftest.ChartMachine {
	g := &randGen{h: randHost{h}}
	g.m = NewMachine(g.h)
	return g
}

var randIDs = difftest.GenIDs[State, Test]{Final: Final, NoState: NoState, NoTest: NoTest}

func (g *randGen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return randIDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *randGen) Post(ev table.TestID) error {
POST}

func (g *randGen) SetTime(now float64)        { g.m.SetTime(now) }
func (g *randGen) NextTimer() (float64, bool) { return g.m.NextTimer() }
func (g *randGen) In(s table.StateID) bool    { return g.m.In(State(min(s, 255))) }
func (g *randGen) State() table.StateID       { return randIDs.State(g.m.State()) }
func (g *randGen) Done() bool                 { return g.m.Done() }

func (g *randGen) Active(dst []table.StateID) []table.StateID {
	var buf [NumStates]State
	return randIDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *randGen) Save() ([]byte, error) {
	var s Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *randGen) Load(b []byte, h *difftest.Host) (difftest.ChartMachine, error) {
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreMachine(&s)
	if err != nil {
		return nil, err
	}
	return &randGen{m: m, h: randHost{h}}, nil
}

func (g *randGen) Err(err error) difftest.ChartErr {
STACKERR
	return difftest.GenErr(randIDs, err, ErrQueueFull, ErrChainLimit, func(ce *ChainError) (int, []State, int, State) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}
DEPTH
OBSERVE
`

// randomStackErr and randomDepth are the adapter's parts for a machine
// with the stack: its StackError described, at the start of Err, and
// Depth.
const (
	randomStackErr = `	if x, ok := difftest.GenStackErr(randIDs, err, ErrStackOverflow, ErrStackUnderflow, func(se *StackError) (bool, State, Test, int) {
		return se.Overflow, se.State, se.Test, se.Limit
	}); ok {
		return x
	}
`
	randomDepth = `
func (g *randGen) Depth() int { return g.m.Depth() }
`
)

// randomObserve is the adapter's part for a machine generated with
// Options.Observe: it makes it a difftest.Observable.
const randomObserve = `
func (g *randGen) Observe(o machine.Observer, entity uint64) { g.m.Observe(o, entity) }
func (g *randGen) Observer() (machine.Observer, uint64)      { return g.m.Observer() }
`

// randomDriver is the driver test: for each chart, its seed, the SHA-256
// of the table the code was generated from, and its adapter.
const randomDriver = `package randcheck

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/table"
IMPORTS
)

var charts = []struct {
	seed uint64
	sum  string
	gen  func(*difftest.Host) difftest.ChartMachine
}{
CHARTS
}

func TestRandom(t *testing.T) {
	for _, c := range charts {
		res, err := compile.Compile(difftest.RandomChart(c.seed))
		if err != nil {
			t.Fatalf("seed %d: %v", c.seed, err)
		}
		bin, err := res.Table.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(bin); hex.EncodeToString(sum[:]) != c.sum {
			t.Fatalf("seed %d: the table compiled again is not the one the code was generated from", c.seed)
		}
		var total difftest.ChartStats
		t.Run(fmt.Sprintf("chart_seed_%d", c.seed), func(t *testing.T) {
			for s := range uint64(SCRIPTS) {
				st := difftest.RunChart(t, res.Table, c.gen, FRAMES, c.seed<<8|s)
				total.Add(st)
			}
		})
		if t.Failed() {
			return
		}
		fmt.Printf("randcheck: seed %d: %d updates, %d microsteps, %d states, chain %v, %d finals, %d full queues, %d chain limits, %d updates with timers\n",
			c.seed, total.Updates, total.Steps, res.Table.NumStates(), res.Table.Options().Chain, total.Finals, total.QueueFull, total.Chains, total.Timers)
		fmt.Printf("randcheck: seed %d: %d saves restored\n", c.seed, total.Saves)
		if total.Causes != nil { // observed
			fmt.Printf("randcheck: seed %d: %d microsteps observed, %d events\n", c.seed, total.Steps, total.Events)
		}
		if difftest.UsesStack(res.Table) {
			fmt.Printf("randcheck: seed %d: stack limit %d, %d overflows, %d underflows, %d pushes, %d pops, depth %d\n",
				c.seed, cmp.Or(res.Table.Options().StackLimit, table.MaxStack), total.Overflows, total.Underflows, total.Pushes, total.Pops, total.MaxDepth)
		}
	}
}
`
