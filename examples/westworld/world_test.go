package westworld

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/message"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// run runs a world for n updates and returns what was said and the trace.
func run(t *testing.T, opts Options, n int) (said, trace string) {
	t.Helper()
	var out, tr bytes.Buffer
	opts.Out = &out
	w := NewWorld(opts)
	for range n {
		if err := w.Update(); err != nil {
			t.Fatalf("update %d: %v", w.Updates(), err)
		}
		if err := w.WriteTrace(&tr); err != nil {
			t.Fatal(err)
		}
	}
	return out.String(), tr.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the run; diff it with go test -update and git diff\ngot:\n%s", path, got)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		n    int
	}{
		{"bob_solo", Options{Solo: true}, 20},
		{"seed1", Options{Seed: 1}, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			said, trace := run(t, tt.opts, tt.n)
			golden(t, tt.name+".trace", trace)
			golden(t, tt.name+".txt", said)
		})
	}
}

func TestSameSeedSameRun(t *testing.T) {
	a, _ := run(t, Options{Seed: 7}, 60)
	b, _ := run(t, Options{Seed: 7}, 60)
	if a != b {
		t.Error("two runs with seed 7 differ")
	}
	differ := false
	for seed := uint64(8); seed < 12 && !differ; seed++ {
		c, _ := run(t, Options{Seed: seed}, 60)
		differ = c != a
	}
	if !differ {
		t.Error("seeds 7 to 11 all give the same run: the seed is not used")
	}
}

// TestBobAlone checks Buckland's WestWorld1 numbers: three nuggets fill his
// pockets, thirst 5 sends him to the saloon, 5 in the bank sends him home,
// and he sleeps while his fatigue is above 5.
func TestBobAlone(t *testing.T) {
	w := NewWorld(Options{Solo: true})
	bob := w.Bob
	wantStates := []string{
		"EnterMineAndDigForNugget", // not tired: off to the mine
		"EnterMineAndDigForNugget", // 1 nugget
		"EnterMineAndDigForNugget", // 2
		"VisitBankAndDepositGold",  // 3: pockets full
		"EnterMineAndDigForNugget", // deposited 3, not rich
		"QuenchThirst",             // thirst 5 after a nugget
		"EnterMineAndDigForNugget", // drank: thirst 0, savings 1
	}
	for i, want := range wantStates {
		if err := w.Update(); err != nil {
			t.Fatal(err)
		}
		if got := bob.FSM.Current().(interface{ String() string }).String(); got != want {
			t.Fatalf("update %d: state %s, want %s", i+1, got, want)
		}
	}
	if bob.MoneyInBank != 1 || bob.Thirst != 0 || bob.GoldCarried != 1 {
		t.Errorf("after 7 updates: bank %d thirst %d gold %d, want 1 0 1", bob.MoneyInBank, bob.Thirst, bob.GoldCarried)
	}
	for w.Updates() < 200 && !bob.FSM.IsInState(GoHomeAndSleepTilRested) {
		if err := w.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if !bob.Rich() || bob.Location != Shack {
		t.Fatalf("Bob went home with %d in the bank, at the %s", bob.MoneyInBank, bob.Location)
	}
	for bob.Fatigued() {
		f := bob.Fatigue
		w.Update()
		if bob.Fatigue != f-1 || !bob.FSM.IsInState(GoHomeAndSleepTilRested) {
			t.Fatalf("asleep with fatigue %d: now %d in %v", f, bob.Fatigue, bob.FSM.Current())
		}
	}
	w.Update()
	if !bob.FSM.IsInState(EnterMineAndDigForNugget) {
		t.Errorf("rested Bob is in %v, want the mine", bob.FSM.Current())
	}
	if w.Dispatcher.Len() != 0 {
		t.Errorf("solo Bob queued %d telegrams", w.Dispatcher.Len())
	}
}

// TestStew follows the messages: Bob's homecoming reaches Elsa at once, her
// StewReady reaches her 1.5 s (two updates) later and Bob right after, and
// Bob goes back to sleep after eating.
func TestStew(t *testing.T) {
	w := NewWorld(Options{Seed: 1})
	bob, elsa := w.Bob, w.Elsa
	for !bob.FSM.IsInState(GoHomeAndSleepTilRested) || bob.Location != Shack || w.Updates() == 0 {
		if err := w.Update(); err != nil {
			t.Fatal(err)
		}
		if w.Updates() > 100 {
			t.Fatal("Bob never went home")
		}
	}
	home := w.Updates()
	if !elsa.FSM.IsInState(CookStew) || !elsa.Cooking {
		t.Fatalf("update %d: Bob is home, Elsa is in %v", home, elsa.FSM.Current())
	}
	pending := w.Dispatcher.AppendPending(nil)
	want := Telegram{Sender: Elsa, Receiver: Elsa, Msg: StewReady, DispatchTime: float64(home-1)*SecondsPerUpdate + StewDelay}
	if len(pending) != 1 || pending[0] != want {
		t.Fatalf("pending = %+v, want %+v", pending, want)
	}
	w.Update()
	if !elsa.Cooking {
		t.Fatalf("update %d: the stew came out after 0.8 s", w.Updates())
	}
	w.Update()
	if elsa.Cooking || !elsa.FSM.IsInState(DoHouseWork) && !elsa.FSM.IsInState(VisitBathroom) {
		t.Fatalf("update %d: stew not served; Elsa in %v", w.Updates(), elsa.FSM.Current())
	}
	if !bob.FSM.IsInState(EatStew) || bob.FSM.Previous() != GoHomeAndSleepTilRested {
		t.Fatalf("update %d: Bob in %v after %v, want EatStew after sleeping", w.Updates(), bob.FSM.Current(), bob.FSM.Previous())
	}
	w.Update()
	if !bob.FSM.IsInState(GoHomeAndSleepTilRested) {
		t.Errorf("after the stew Bob is in %v, want back asleep", bob.FSM.Current())
	}
}

// TestBathroomBlip checks that the outhouse is a blip: within one update
// Elsa goes, comes back and carries on with what she was doing.
func TestBathroomBlip(t *testing.T) {
	visits := 0
	for seed := range uint64(20) {
		var out bytes.Buffer
		w := NewWorld(Options{Seed: seed, Out: &out})
		elsa := w.Elsa
		for range 200 {
			out.Reset()
			// World.Update written out, to see Elsa's state just before her own update.
			now := float64(w.updates) * SecondsPerUpdate
			w.updates++
			w.Dispatcher.SetTime(now)
			w.Bob.Update()
			before := elsa.FSM.Current()
			elsa.Update()
			if elsa.FSM.IsInState(VisitBathroom) {
				t.Fatalf("seed %d, update %d: Elsa is still in the outhouse after an update", seed, w.Updates())
			}
			if strings.Contains(out.String(), "Elsa: Off to the outhouse") {
				visits++
				if elsa.FSM.Current() != before {
					t.Fatalf("seed %d, update %d: Elsa went to the outhouse from %v and came back to %v", seed, w.Updates(), before, elsa.FSM.Current())
				}
			}
			w.report(w.Dispatcher.DispatchDelayed(now))
			if len(w.errs) > 0 {
				t.Fatal(w.errs)
			}
		}
	}
	// One update in ten: about 20 × 200 / 10.
	if visits < 200 || visits > 500 {
		t.Errorf("%d outhouse visits in 4000 updates, want about 400", visits)
	}
}

func TestUnknownReceiverIsAnError(t *testing.T) {
	w := NewWorld(Options{Solo: true})
	w.send(0, MinerBob, Elsa, HiHoneyImHome) // no Elsa in a solo world
	err := w.Update()
	if err == nil || !strings.Contains(err.Error(), "unknown receiver Elsa") {
		t.Errorf("Update() = %v, want an unknown-receiver error", err)
	}
	if !errors.Is(err, message.ErrUnknownReceiver) {
		t.Errorf("errors.Is(%v, ErrUnknownReceiver) = false", err)
	}
	if err := w.Update(); err != nil {
		t.Errorf("the error was reported twice: %v", err)
	}
}

func TestColor(t *testing.T) {
	said, _ := run(t, Options{Seed: 1, Color: true}, 30)
	for _, want := range []string{ansiRed + "Miner Bob: ", ansiGreen + "Elsa: ", ansiYellow + "-> telegram"} {
		if !strings.Contains(said, want) {
			t.Errorf("coloured output has no %q", want)
		}
	}
	plain, _ := run(t, Options{Seed: 1}, 30)
	if strings.Contains(plain, "\x1b[") {
		t.Error("uncoloured output has escapes")
	}
}
