package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// saveDemos are the demos with -save-at and -load, with the arguments of a
// run and its number of steps.
var saveDemos = []struct {
	name  string
	args  []string
	steps int
}{
	{"westworld", []string{"-n", "40", "-seed", "3"}, 40},
	{"westworld", []string{"-n", "30", "-trace"}, 30},
	{"westworld", []string{"-solo"}, 20},
	{"formation", []string{"-frames", "40"}, 40},
	{"formation", []string{"-frames", "30", "-seed", "9", "-ships", "20", "-size", "2"}, 30},
	{"crowd", []string{"-entities", "20000", "-steps", "30", "-workers", "2"}, 30},
	{"guard", []string{"-guards", "3", "-ticks", "100"}, 100},
	{"guard", []string{"-guards", "2", "-ticks", "70", "-seed", "64"}, 70},
	{"goomba", []string{"-ticks", "40"}, 40},
	{"goomba", []string{"-ticks", "40", "-code", "gen"}, 40},
}

// TestDemoContinues saves each demo after a random step, loads the save in
// a new run, and checks that the two runs print, put together, exactly
// what the run that never stopped prints.
func TestDemoContinues(t *testing.T) {
	for i, d := range saveDemos {
		rng := rand.New(rand.NewPCG(16, uint64(i))) // each subtest its own: they run in parallel
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"demo", d.name}, d.args...)
			code, whole, stderr := cli(t, args...)
			if code != 0 {
				t.Fatalf("fsmforge %v: exit %d: %s", args, code, stderr)
			}
			ks := []int{1, d.steps}
			for range 3 {
				ks = append(ks, 1+rng.IntN(d.steps))
			}
			for _, k := range ks {
				path := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d.save", d.name, k))
				saveArgs := append(append([]string{}, args...), "-save-at", strconv.Itoa(k), "-save", path)
				code, before, stderr := cli(t, saveArgs...)
				if code != 0 {
					t.Fatalf("fsmforge %v: exit %d: %s", saveArgs, code, stderr)
				}
				loadArgs := append(append([]string{}, args...), "-load", path)
				code, after, stderr := cli(t, loadArgs...)
				if code != 0 {
					t.Fatalf("fsmforge %v: exit %d: %s", loadArgs, code, stderr)
				}
				if noSpeed(before+after) != noSpeed(whole) {
					t.Errorf("saved after step %d: the two runs print\n%s\n--- load ---\n%s\nwant\n%s", k, before, after, whole)
				}
			}
		})
	}
}

// noSpeed leaves out the crowd demo's speed line, measured on the wall
// clock: the one line of a demo that differs from run to run.
func noSpeed(out string) string {
	var keep []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(line, "speed: ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}
