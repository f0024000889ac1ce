package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// cli runs the command line and returns its exit status and output.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	code = exitCode(run(context.Background(), args, strings.NewReader(""), &out, &errw), &errw)
	return code, out.String(), errw.String()
}

func TestCLI(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		stdout     []string // each must appear
		stderr     []string
		noStdout   bool
		exactLines int // if > 0, the number of stdout lines
	}{
		{args: nil, code: 2, stderr: []string{"fsmforge: no command", "Usage:"}, noStdout: true},
		{args: []string{"frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`, "fsmforge demo"}, noStdout: true},
		{args: []string{"-h"}, code: 0, stdout: []string{"fsmforge demo [NAME]"}},
		{args: []string{"help"}, code: 0, stdout: []string{"fsmforge version"}},
		{args: []string{"version"}, code: 0, stdout: []string{"fsmforge v", "go1."}},
		{args: []string{"version", "-h"}, code: 0, stdout: []string{"Usage: fsmforge version"}},
		{args: []string{"version", "extra"}, code: 2, stderr: []string{`unexpected argument "extra"`}},
		{args: []string{"demo"}, code: 0, stdout: []string{"=== fsmforge demo westworld", "=== fsmforge demo formation", "Miner Bob:", "Elsa:", "frame  24 |", "=== fsmforge demo goomba", "goombas left; the gen run gave the same", "=== fsmforge demo crowd", "step   60 |"}},
		{args: []string{"demo", "-h"}, code: 0, stdout: []string{"westworld", "formation"}},
		{args: []string{"demo", "-x"}, code: 2, stderr: []string{"flag provided but not defined: -x"}},
		{args: []string{"demo", "nope"}, code: 2, stderr: []string{`unknown demo "nope"`, "westworld"}},
		{args: []string{"demo", "westworld"}, code: 0, stdout: []string{"HiHoneyImHome", "StewReady", "Elsa: Stew's ready!"}},
		{args: []string{"demo", "westworld", "-solo"}, code: 0, stdout: []string{"Miner Bob:"}},
		{args: []string{"demo", "westworld", "-solo", "-trace"}, code: 0, stdout: []string{"20\tMiner Bob\t"}, exactLines: 20},
		{args: []string{"demo", "westworld", "-trace", "-n", "5"}, code: 0, stdout: []string{"5\tElsa\tDoHouseWork\tshack\t-"}, exactLines: 10},
		{args: []string{"demo", "westworld", "-n", "-1"}, code: 2, stderr: []string{"cannot be negative"}},
		{args: []string{"demo", "westworld", "-bogus"}, code: 2, stderr: []string{"-bogus", "-seed"}},
		{args: []string{"demo", "westworld", "-h"}, code: 0, stdout: []string{"-solo", "-trace", "-seed", "-n"}},
		{args: []string{"demo", "formation", "-frames", "3", "-ships", "2", "-seed", "9"}, code: 0, stdout: []string{"frame   3 |"}, exactLines: 3},
		{args: []string{"demo", "formation", "-ships", "0"}, code: 2, stderr: []string{"-ships 0: must be at least 1"}},
		{args: []string{"demo", "formation", "-h"}, code: 0, stdout: []string{"-frames", "-ships", "-seed"}},
		{args: []string{"demo", "crowd", "-entities", "5000", "-steps", "20", "-every", "10"}, code: 0, stdout: []string{"step   10 |", "step   20 |", "ns per entity-update"}},
		{args: []string{"demo", "crowd", "-workers", "0"}, code: 2, stderr: []string{"-workers 0: must be at least 1"}},
		{args: []string{"demo", "crowd", "-h"}, code: 0, stdout: []string{"-entities", "-steps", "-workers", "-seed"}},
		{args: []string{"demo", "goomba", "-ticks", "30", "-code", "gen"}, code: 0, stdout: []string{"the goombas run the Go code generated from the drawing", "goomba 3 walkRight -> death on hitByPlayer (stomped) at x=29", "goomba 3 removed", "the table run gave the same"}},
		{args: []string{"demo", "goomba", "-code", "lua"}, code: 2, stderr: []string{`-code "lua": want table or gen`}},
		{args: []string{"demo", "goomba", "-goombas", "0"}, code: 2, stderr: []string{"-goombas 0: want 1 to 20"}},
		{args: []string{"demo", "formation", "stray"}, code: 2, stderr: []string{`unexpected argument "stray"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, tt.args...)
			checkOutput(t, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			if tt.noStdout && stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if n := strings.Count(stdout, "\n"); tt.exactLines > 0 && n != tt.exactLines {
				t.Errorf("stdout has %d lines, want %d", n, tt.exactLines)
			}
			if tt.code == 0 && stderr != "" {
				t.Errorf("a successful run wrote to stderr: %s", stderr)
			}
		})
	}
}

// checkOutput checks a command's exit status, and that stdout and stderr
// hold each of the wanted strings.
func checkOutput(t *testing.T, code int, stdout, stderr string, wantCode int, wantOut, wantErr []string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("exit status = %d, want %d\nstdout: %s\nstderr: %s", code, wantCode, stdout, stderr)
	}
	for _, want := range wantOut {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout has no %q:\n%s", want, stdout)
		}
	}
	for _, want := range wantErr {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr has no %q:\n%s", want, stderr)
		}
	}
}

// The CLI's solo trace is the package's golden trace.
func TestSoloTraceMatchesGolden(t *testing.T) {
	want, err := os.ReadFile("../../examples/westworld/testdata/bob_solo.trace")
	if err != nil {
		t.Fatal(err)
	}
	_, got, _ := cli(t, "demo", "westworld", "-solo", "-trace")
	if got != string(want) {
		t.Errorf("demo westworld -solo -trace differs from bob_solo.trace:\n%s", got)
	}
}

func TestSeedRepeats(t *testing.T) {
	for _, demo := range [][]string{{"demo", "westworld", "-seed", "42"}, {"demo", "formation", "-seed", "42"}} {
		_, a, _ := cli(t, demo...)
		_, b, _ := cli(t, demo...)
		if a != b {
			t.Errorf("%v: two runs differ", demo)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, []string{"demo"}, nil, &out, &out); err != context.Canceled {
		t.Errorf("run with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestNoColorWhenPiped(t *testing.T) {
	_, stdout, _ := cli(t, "demo", "westworld")
	if strings.Contains(stdout, "\x1b[") {
		t.Error("colour escapes written to a buffer")
	}
	if colorful(&bytes.Buffer{}) {
		t.Error("colorful(buffer) = true")
	}
}
