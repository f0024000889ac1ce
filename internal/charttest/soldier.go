package charttest

import "github.com/fsmforge/fsmforge/chart"

// Soldier is a statechart built as the SCXML importer would build it,
// with every feature of nesting: states nested four deep (combat >
// engage > weapon > reload > eject), a parallel state with two regions, shallow and deep history
// with default transitions, a final state inside a compound, a start
// pseudo-state whose transition enters two regions, entry and exit
// actions, raise, send and cancel, guards, an internal transition, and
// transitions without target on a simple and on a compound state.
func Soldier() *chart.Chart {
	st := func(id, parent string, kind chart.StateKind, initial bool) chart.State {
		return chart.State{ID: id, Name: id, Parent: parent, Kind: kind, Initial: initial}
	}
	game := func(p, v string) chart.Action { return chart.Action{Property: p, Value: v} }
	raise := func(e string) chart.Action { return chart.Action{Kind: chart.RaiseAction, Event: e} }
	send := func(e string, delay float64, timer string) chart.Action {
		return chart.Action{Kind: chart.SendAction, Event: e, Delay: delay, Timer: timer}
	}
	cancel := func(timer string) chart.Action { return chart.Action{Kind: chart.CancelAction, Timer: timer} }
	c := &chart.Chart{Name: "soldier", Statechart: true, States: []chart.State{
		st("idle", "", chart.NormalState, true),
		st("combat", "", chart.NormalState, false),
		{ID: "combat#initial", Kind: chart.StartState, Initial: true, Parent: "combat"},
		st("combat.hist", "combat", chart.HistoryState, false),
		st("combat.deep", "combat", chart.DeepHistoryState, false),
		st("engage", "combat", chart.ParallelState, false),
		st("weapon", "engage", chart.NormalState, false),
		st("aim", "weapon", chart.NormalState, true),
		st("fire", "weapon", chart.NormalState, false),
		st("reload", "weapon", chart.NormalState, false),
		st("eject", "reload", chart.NormalState, true),
		st("insert", "reload", chart.NormalState, false),
		st("reloaded", "reload", chart.EndState, false),
		st("cover", "engage", chart.NormalState, false),
		st("cover.seek", "cover", chart.NormalState, true),
		st("cover.hold", "cover", chart.NormalState, false),
		st("retreat", "combat", chart.NormalState, false),
		st("dead", "", chart.EndState, false),
	}}
	set := func(id string, entry, exit []chart.Action) {
		for i := range c.States {
			if c.States[i].ID == id {
				c.States[i].Entry, c.States[i].Exit = entry, exit
			}
		}
	}
	set("idle", []chart.Action{game("Animation", "idle")}, nil)
	set("combat", []chart.Action{send("tick", 0.5, "combatTimer")}, []chart.Action{cancel("combatTimer")})
	set("aim", []chart.Action{raise("aimed")}, nil)
	set("fire", []chart.Action{game("Animation", "shoot"), {Kind: chart.RaiseAction, Event: "ammo.empty", Guard: "ammo == 0"}}, nil)
	set("eject", []chart.Action{send("ejected", 1, "")}, nil)
	set("cover.hold", nil, []chart.Action{cancel("peekTimer")})
	order := map[string]int{}
	tr := func(from, event, guard, to string, also []string, actions ...chart.Action) chart.Transition {
		order[from]++
		t := chart.Transition{ID: from + "#" + string(rune('0'+order[from])), From: from, Order: order[from],
			Event: event, Guard: guard, Test: event, Label: event, Also: also, Actions: actions,
			Target: chart.Target{State: to}}
		if event == "" {
			t.Test = guard
		}
		if guard != "" {
			t.Label = chart.NormalizeSpace(event + " [" + guard + "]")
		}
		if to == "" {
			t.Target.Kind = chart.ToNone
		}
		return t
	}
	c.Transitions = []chart.Transition{
		tr("idle", "enemy.seen", "visible && !stunned", "combat", nil, raise("alert")),
		tr("idle", "resume", "", "combat.hist", nil),
		tr("combat#initial", "", "", "aim", []string{"cover.seek"}),
		tr("combat.hist", "", "", "engage", nil),
		tr("combat.deep", "", "", "reload", nil),
		tr("aim", "aimed", "inRange", "fire", nil),
		tr("fire", "ammo.empty", "", "reload", nil),
		tr("eject", "ejected", "", "insert", nil),
		tr("insert", "inserted", "", "reloaded", nil),
		tr("reload", "done.state.reload", "", "aim", nil, game("Animation", "aim")),
		tr("cover.seek", "cover.found", "", "cover.hold", nil, send("peek", 1.5, "peekTimer")),
		tr("cover.hold", "peek", "", "", nil, raise("peeked"), send("peek", 1.5, "peekTimer")),
		tr("combat", "tick", "", "", nil, send("tick", 0.5, "combatTimer")),
		tr("combat", "hurt", "health < 30", "retreat", nil, cancel("peekTimer")),
		tr("combat", "enemy.lost", "", "idle", nil, game("Animation", "search")),
		tr("combat", "killed", "", "dead", nil),
		tr("retreat", "healed", "", "combat.deep", nil),
	}
	c.Transitions[13].Internal = true
	return c
}
