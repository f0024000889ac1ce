package cond

import (
	"strings"
	"testing"
)

// The guards of the benchmarks, by size.
var benchGuards = []struct{ name, guard string }{
	{"terms=1", "seesPlayer"},
	{"terms=4", "seesPlayer && !tired"},
	{"terms=9", "In(Alert) || (hp < 10 && !healing) && ammo > 0"},
	{"terms=127", strings.Repeat("a && !b || ", 31) + "c && d"},
}

func BenchmarkParse(b *testing.B) {
	for _, bg := range benchGuards {
		b.Run(bg.name, func(b *testing.B) {
			b.SetBytes(int64(len(bg.guard)))
			for b.Loop() {
				if _, err := Parse(bg.guard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEval evaluates a guard of 9 terms, beside the baseline: the
// same condition hand-written in Go over the same test function.
func BenchmarkEval(b *testing.B) {
	e, err := Parse("In(Alert) || (hp < 10 && !healing) && ammo > 0")
	if err != nil {
		b.Fatal(err)
	}
	answers := map[string]bool{"hp < 10": true, "ammo > 0": true, "Alert": false}
	test := func(name string) bool { return answers[name] }
	var sink bool
	b.Run("terms=9", func(b *testing.B) {
		for b.Loop() {
			sink = e.Eval(test, test)
		}
	})
	b.Run("terms=9/baseline=go", func(b *testing.B) {
		for b.Loop() {
			alert, hp, healing, ammo := test("Alert"), test("hp < 10"), test("healing"), test("ammo > 0")
			sink = alert || (hp && !healing) && ammo
		}
	})
	_ = sink
}
