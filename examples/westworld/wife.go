package westworld

import "github.com/fsmforge/fsmforge/fsm"

// Wife is Elsa: her state machine, where she is and whether the stew is on.
type Wife struct {
	ID       EntityID
	Location Location
	Cooking  bool
	FSM      *fsm.BehaviorMachine[*Wife, Telegram]

	world *World
}

// Update runs Elsa's state machine, her global state first.
func (w *Wife) Update() { w.world.note(w.FSM.Update()) }

func (w *Wife) say(format string, args ...any) { w.world.say(w.ID, format, args...) }

func (w *Wife) change(s fsm.Behavior[*Wife, Telegram]) { w.world.note(w.FSM.ChangeState(s)) }

type wifeState = fsm.NopBehavior[*Wife, Telegram]

// Elsa's states.
var (
	WifesGlobalState wifesGlobalState
	DoHouseWork      doHouseWork
	VisitBathroom    visitBathroom
	CookStew         cookStew
)

// wifesGlobalState runs every update beside Elsa's current state: one time
// in ten she needs the outhouse, and Bob's homecoming starts the stew
// whatever she is doing.
type wifesGlobalState struct{ wifeState }

func (wifesGlobalState) String() string { return "WifesGlobalState" }

func (wifesGlobalState) Execute(w *Wife) {
	if w.world.rng.Float64() < 0.1 && !w.FSM.IsInState(VisitBathroom) {
		w.change(VisitBathroom)
	}
}

func (wifesGlobalState) OnMessage(w *Wife, t Telegram) bool {
	if t.Msg != HiHoneyImHome {
		return false
	}
	w.world.received(t)
	w.say("Welcome home, Bob! Ah'll fix you some of mah country stew")
	w.change(CookStew)
	return true
}

type doHouseWork struct{ wifeState }

func (doHouseWork) String() string { return "DoHouseWork" }

func (doHouseWork) Enter(w *Wife) { w.say("Back to the chores") }

func (doHouseWork) Execute(w *Wife) {
	switch w.world.rng.IntN(3) {
	case 0:
		w.say("Sweepin' the porch")
	case 1:
		w.say("Scrubbin' the pots")
	case 2:
		w.say("Airin' out the quilts")
	}
}

type visitBathroom struct{ wifeState }

func (visitBathroom) String() string { return "VisitBathroom" }

func (visitBathroom) Enter(w *Wife) { w.say("Off to the outhouse a spell") }

func (visitBathroom) Execute(w *Wife) {
	w.say("Ahh, much better")
	w.world.note(w.FSM.RevertToPreviousState())
}

func (visitBathroom) Exit(w *Wife) { w.say("Back from the outhouse") }

type cookStew struct{} // writes all four methods

func (cookStew) String() string { return "CookStew" }

func (cookStew) Enter(w *Wife) {
	// Re-entered after an outhouse visit, the stew is already in.
	if !w.Cooking {
		w.say("Stew's on the stove")
		w.world.send(StewDelay, w.ID, w.ID, StewReady)
		w.Cooking = true
	}
}

func (cookStew) Execute(w *Wife) { w.say("Stirrin' the pot") }

func (cookStew) Exit(w *Wife) { w.say("Ladlin' out the stew") }

func (cookStew) OnMessage(w *Wife, t Telegram) bool {
	if t.Msg != StewReady {
		return false
	}
	w.world.received(t)
	w.say("Stew's ready! Come an' get it")
	w.world.send(0, w.ID, MinerBob, StewReady)
	w.Cooking = false
	w.change(DoHouseWork)
	return true
}
