// Package fsm holds finite state machines that run one entity at a time.
//
// It offers two machines, named for what decides a transition:
//
//   - [GuardMachine]: the graph decides. States carry ordered, guarded
//     transitions; [GuardMachine.Update] takes the first one whose guard
//     holds and keeps going while guards hold, as in the XNA article's
//     formation enemy. The graph ([Graph]) is built once and shared; each
//     entity's machine is a small value. [Flow] is the same machine in the
//     article's closure form, for a single entity.
//   - [BehaviorMachine]: the states decide. Each state is a [Behavior] with
//     Enter, Execute, Exit and OnMessage; Execute runs every update and calls
//     ChangeState when it is time to go, as in Buckland's West World. The
//     machine keeps the previous state (for a "state blip") and a global
//     state that runs alongside the current one.
//
// # Choosing
//
// Use a GuardMachine when the conditions that move an entity can be written
// next to the graph: they can then be listed ([Graph.Transitions]), drawn and
// checked, and hundreds of entities share one graph. Use a BehaviorMachine
// when each state is a piece of behaviour that knows where to go next, and
// entities talk through telegrams (package message).
//
// # Guarded chains
//
// Update chains transitions while a guard fires. A guard cycle (A → B → A
// with both guards true) would loop for ever, so a chain stops after
// [Graph.ChainLimit] transitions (by default the number of states) and Update
// returns a [*ChainError] that names the states visited. Every Exit and Enter
// on the way ran; the machine stays in the last state it entered.
//
// # Re-entrancy
//
// States and guards call back into their own machine: a BehaviorMachine's
// Execute and OnMessage change state, and an action may send a telegram that
// comes back to the same machine. The calls that would recurse without end are
// refused with [ErrReentrant] and change nothing:
//
//   - [GuardMachine.Update] and [GuardMachine.Goto] from inside the same
//     machine's update (a guard, Enter, Exit or OnTransition);
//   - [BehaviorMachine.Update] from inside the same machine's update (an
//     Execute, or an Enter, Exit or OnMessage that it leads to) or change of
//     state;
//   - [BehaviorMachine.ChangeState] and [BehaviorMachine.RevertToPreviousState]
//     from inside the same machine's change of state (an Enter or Exit, or an
//     OnMessage that it leads to). Change state from Execute or OnMessage.
//
// A machine that refused a call keeps working. A GuardMachine whose guard
// panicked before any transition was taken keeps refusing updates with
// ErrReentrant, since the update it was in never finished (an update that
// takes no transition has no defer); one whose action, or a guard of the
// state it entered, panicked keeps working, in the state it entered. A
// BehaviorMachine whose Enter or Exit panicked outside an update keeps
// working.
//
// # Costs
//
// [Graph.New] allocates nothing. [GuardMachine.Update] allocates nothing
// unless it returns a ChainError; it costs one function call per guard tried
// and one per action run. Building a graph allocates a few times, not once
// per state or transition, and building a [Flow] of up to 8 states allocates
// only the Flow.
// BehaviorMachine methods are a few interface calls and allocate nothing.
//
// # Identity
//
// States of a Graph are identified by a small [StateID] (their index) and by
// a unique name ([Graph.LookupState], [Graph.StateName]); a machine is plain
// data (current and previous StateID, its [Snapshot]), so games can list
// and save it and bring it back with [Graph.Restore] (or [Flow.Restore]).
package fsm
