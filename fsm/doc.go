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
// returns a [*machine.ChainError] that names the states visited. Every Exit and Enter
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
// BehaviorMachine methods are a few interface calls and allocate nothing; a
// machine tied to a [Behaviors] registry also finds the ID of the state it
// changes to (up to 8 comparisons, or a map look-up), and the first time a
// pair of states is seen records it, with a lock and a few allocations.
//
// # Identity
//
// States of a Graph are identified by a small [StateID] (their index) and by
// a unique name ([Graph.LookupState], [Graph.StateName]); a machine is plain
// data (current and previous StateID, its [Snapshot]), so games can list
// and save it and bring it back with [Graph.Restore] (or [Flow.Restore]).
//
// A BehaviorMachine's states are values of the game's types. To give them
// IDs and names, register them in a [Behaviors] registry
// ([Behaviors.Add]) and make the machines with [Behaviors.New]: such a
// machine says its state as an ID ([BehaviorMachine.State]), saves and
// restores by ID ([BehaviorMachine.Snapshot], [BehaviorMachine.Restore],
// a [BehaviorSnapshot]), and refuses to change to a state not registered
// ([ErrUnregistered]). [NewBehaviorMachine] makes a machine tied to no
// registry, for games that need none of that.
//
// # Describing and watching
//
// Every machine can be listed and watched in the vocabulary of package
// machine, as the other runtimes are:
//
//   - [Graph.Describe] (and [Flow.Describe]) returns the graph as a
//     [machine.Description]: its states, and its transitions in the order
//     guards are tried, each with its guard's Go name as its Condition
//     ("formation.(*Ship).tooClose"; empty for a function literal).
//     [Behaviors.Describe] lists a registry's states and, since a
//     BehaviorMachine's transitions are code, the pairs of states its
//     machines have gone between so far, in the order first seen.
//   - [Graph.Observe] (and [Flow.Observe], [Behaviors.Observe]) attaches a
//     [machine.Observer], such as the flight recorder [machine.Recorder],
//     told of every transition as a [machine.Event]: a guard's with
//     [machine.CauseGuard] and the index of its transition in Describe's
//     list; a Goto or a ChangeState with [machine.CauseCall]. With no
//     observer attached, a transition costs one comparison more, and an
//     update that takes none nothing.
//
// [Graph.OnTransition] stays beside Observe: it is the game's own hook,
// with the entity typed, where an observer gets numbers. Both may be set;
// OnTransition runs first.
//
// # Saving
//
// [Snapshot] and [BehaviorSnapshot] are plain data, and have a binary form
// (AppendBinary, MarshalBinary and UnmarshalBinary): a version byte and
// each state ID as a varint, 3 or 4 bytes for machines of up to 127
// states. UnmarshalBinary checks the form; Restore checks the IDs against
// the graph or the registry.
package fsm
