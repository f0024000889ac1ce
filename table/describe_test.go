package table_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// describeLines renders a description's transitions one per line, for
// comparison: "from --trigger [cond]--> to, to" with final, return and
// push marks.
func describeLines(d *machine.Description) []string {
	var lines []string
	for _, tr := range d.Transitions {
		trig := "-"
		if tr.Trigger >= 0 {
			trig = d.Triggers[tr.Trigger].Name
		}
		if tr.Condition != "" {
			trig += " [" + tr.Condition + "]"
		}
		var to []string
		for _, q := range tr.To {
			to = append(to, d.StateName(q))
		}
		line := d.StateName(tr.From) + " --" + trig + "-->"
		if len(to) > 0 {
			line += " " + strings.Join(to, ", ")
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{tr.Final, "final"}, {tr.Return, "return"}, {tr.Push, "push"}} {
			if f.on {
				line += " " + f.name
			}
		}
		lines = append(lines, line)
	}
	return lines
}

func TestDescribe(t *testing.T) {
	npc, _, _ := guardChart(t)
	for _, tc := range []struct {
		name     string
		t        *table.Table
		kind     machine.Kind
		initial  string
		states   string // name:kind:parent
		triggers string
		lines    []string
	}{
		{"goomba", goombaTable(t), machine.KindTable, "walkLeft",
			"walkLeft:atomic:none walkRight:atomic:none dying:atomic:none",
			"hitTriggerLeft:test hitTriggerRight:test hitByPlayer:message animationDone:test",
			[]string{
				"walkLeft --hitByPlayer--> dying", "walkLeft --hitTriggerLeft--> walkRight",
				"walkRight --hitByPlayer--> dying", "walkRight --hitTriggerRight--> walkLeft",
				"dying --animationDone--> final"}},
		{"any-state and stack", mustSpec(t, "a x b push\nb !m return\n* !o a\nb y=1 final"), machine.KindTable, "a",
			"a:atomic:none b:atomic:none", "x:test m:message o:message y=1:test",
			[]string{
				"a --x--> b push",
				"b --o--> a", "b --m--> return", "b --y=1--> final"}},
		{"statechart", npc, machine.KindStatechart, "patrol",
			"patrol:atomic:none alert:compound:none alertHistory:deep history:alert combat:parallel:alert " +
				"weapon:compound:combat aim:atomic:weapon fire:atomic:weapon movement:compound:combat stand:atomic:movement chase:atomic:movement",
			"noise:event calm:event giveUp:event seesPlayer:test",
			[]string{
				"patrol --noise--> alertHistory",
				"alert --giveUp--> patrol", "alert --calm--> patrol",
				"aim --- [seesPlayer]--> fire",
				"fire --- [!seesPlayer]--> aim",
				"stand --- [In(aim)]--> chase"}},
		{"statechart stack", stackChart(t), machine.KindStatechart, "patrol",
			"patrol:compound:none legA:atomic:patrol legB:atomic:patrol fight:atomic:none", "next:event alarm:event done:event",
			[]string{
				"patrol --alarm--> fight push", "patrol --next--> fight push",
				"legA --next--> legB",
				"legB --done--> return",
				"fight --alarm--> fight push", "fight --done--> return", "fight --next--> fight push"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.t.Describe()
			if err := d.Check(); err != nil {
				t.Fatal(err)
			}
			var states, triggers []string
			for _, s := range d.States {
				states = append(states, fmt.Sprintf("%s:%s:%s", s.Name, s.Kind, d.StateName(s.Parent)))
			}
			for _, tr := range d.Triggers {
				triggers = append(triggers, tr.Name+":"+tr.Kind.String())
			}
			if d.Name != tc.t.Name() || d.Kind != tc.kind || d.StateName(d.Initial) != tc.initial {
				t.Errorf("Describe: name %q, kind %v, initial %q; want %q, %v, %q", d.Name, d.Kind, d.StateName(d.Initial), tc.t.Name(), tc.kind, tc.initial)
			}
			if got := strings.Join(states, " "); got != tc.states {
				t.Errorf("states:\n got %s\nwant %s", got, tc.states)
			}
			if got := strings.Join(triggers, " "); got != tc.triggers {
				t.Errorf("triggers:\n got %s\nwant %s", got, tc.triggers)
			}
			if got := describeLines(&d); !slices.Equal(got, tc.lines) {
				t.Errorf("transitions:\n got %q\nwant %q", got, tc.lines)
			}
			if fp := tc.t.Fingerprint(); fp != machine.Fingerprint(&d) || fp != tc.t.Fingerprint() {
				t.Errorf("Fingerprint() = %#x, machine.Fingerprint = %#x", fp, machine.Fingerprint(&d))
			}
		})
	}
}

// TestFingerprint checks that a table's fingerprint survives its
// encodings and changes with its definition.
func TestFingerprint(t *testing.T) {
	for _, tb := range []*table.Table{goombaTable(t), mustNPC(t), sampleChart(t)} {
		data, err := tb.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back table.Table
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		if back.Fingerprint() != tb.Fingerprint() {
			t.Errorf("%s: decoded, fingerprint %#x; want %#x", tb.Name(), back.Fingerprint(), tb.Fingerprint())
		}
		// Decoding into a table whose fingerprint was worked out forgets it.
		if err := back.UnmarshalBinary(mustBinary(t, goombaV2(t))); err != nil || back.Fingerprint() != goombaV2(t).Fingerprint() {
			t.Errorf("%s: decoded over: %v, fingerprint %#x", tb.Name(), err, back.Fingerprint())
		}
	}
	if goombaTable(t).Fingerprint() == goombaV2(t).Fingerprint() {
		t.Error("two versions of the Goomba have one fingerprint")
	}
}

func mustBinary(tb testing.TB, t *table.Table) []byte {
	data, err := t.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
