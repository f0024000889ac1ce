// Package tablecrowd runs a compiled state table (package table) for many
// entities on package crowd's worker pool: a [Crowd] is a [crowd.Machine]
// whose state functions do, entity by entity, what [table.Agent.Update]
// does for one agent.
//
// It is a package of its own so that package table, and package gogen
// which imports it, do not bring a worker pool into their users'
// programs: only a game that runs crowds imports crowd.
//
// # Outline
//
// [New] makes a Crowd from a flat [table.Table], the game's [table.Host]
// and the machine's [crowd.Options]. The machine has one state per table
// state (crowd.StateID(q) is table.StateID q, with the same name), each
// entity's data stored in the bucket of its state and updated by the
// machine's workers. [Crowd.Add] puts an entity in the initial state,
// [Crowd.Post] posts it a message by its crowd ID, [Crowd.Step] updates
// every entity once, and [Crowd.Machine] gives the machine itself for
// counts, iteration, removal and workers. An entity whose update goes to
// Final leaves the machine after the step, and the machine's OnFinal hook
// sees it go: the crowd's removal is setDeletePending in the article's
// AIObject. Statechart tables (nested states) are refused: run their
// entities as agents ([table.Agent]).
//
// # Same as agents
//
// Each entity's update in a step is [table.Agent.Update], done by the
// state function of the entity's state: the same tests asked in the same
// order, the same entry actions, the same chaining, stack and errors. New
// reads the table once through its exported accessors (the states, their
// transitions in order, the any-state transitions, which tests are
// messages, the entry actions, the options) into the crowd's own arrays.
// A crowd and as many agents, given the same messages at the same times,
// make the same host calls entity by entity and end each step in the same
// states (the package's tests check this entity by entity). In particular:
//
//   - Entry actions are performed at the transition, in the step that takes
//     it, by the state function of the state the entity leaves, before the
//     entity moves to its new bucket; a state function does not look at
//     crowd's prev. [Crowd.Add] performs the initial state's entry actions,
//     as [table.NewAgent] does, before the entity joins the machine.
//   - Messages: the flags of an entity's messages are kept beside the
//     machine, by crowd ID (8 bytes and a bit per ID up to the largest;
//     IDs above the machine's [crowd.Options.MaxID] are refused by Add). A
//     message posted between steps is seen by the next step and cleared
//     after it, used or not, as after an agent's update. A message posted
//     during a step (by the host or by OnFinal) is delivered after the
//     step, for the next one, even to an entity not yet updated, since
//     which entities a step has updated depends on its workers; one for an
//     entity that leaves in the step is dropped. There is no Receive.
//   - The stack is supported with the agent's limits; a table that pushes
//     or returns costs 1 + 2×its stack limit bytes more per ID.
//   - With [table.Options.Chain], a step may take several transitions for
//     an entity; the entity goes from the bucket it was in to the last
//     state's (the machine's Transitions count that move, not the states
//     between).
//   - A [*table.StackError] or a [*machine.ChainError] leaves the entity
//     where its update stopped, as for an agent, and makes Step return an
//     [*Error] that counts them and holds the first few by ID, with the
//     adds that failed.
//   - A host that panics makes Step panic with a [*crowd.PanicError]; the
//     entities not updated (or whose update the machine undid) keep their
//     messages for the next step, which updates them: no message is lost,
//     and an undone update's entry actions are performed again.
//
// # Describing, watching, saving
//
// [Crowd.Describe] returns the table's [machine.Description] with Kind
// [machine.KindTableCrowd]: the same states, triggers and transitions, so that
// a tool draws the crowd as it draws the table, and a save of the crowd is
// told apart from one of agents of the same table (the fingerprint covers
// the kind). [Crowd.Observe] attaches a [machine.Observer] told of every
// transition an entity takes, as an observed [table.Agent] reports it,
// with the entity's crowd ID; the workers report in batches to a
// [machine.BatchObserver] (a [machine.Recorder] is one). With no observer
// attached, a step pays one check per transition taken.
//
// [Crowd.Snapshot] fills a [Snapshot]: the machine's [crowd.Snapshot], the
// stacks that are not empty and the messages posted and not yet seen, by
// ID. [Crowd.Restore] puts one back into a crowd made by New with the same
// table and options, which then goes on exactly as the saved one would
// have: the same host calls, states, bucket order, errors and OnFinal
// calls. It checks the whole snapshot first and changes nothing if any of
// it does not fit. [Snapshot.AppendBinary] and [Snapshot.UnmarshalBinary]
// write and read its binary form, the entities' data through the game's
// [machine.Codec]; [Snapshot.Remap] renumbers its states for a table whose
// states changed, by name.
//
// # Reloading
//
// [Crowd.Reload] moves a running crowd onto a new version of its table (the
// designer saved the drawing again), as [table.Reload] moves agents: each
// entity keeps its ID, data, stack and messages, and its state by name
// through a [machine.Mapping] ([machine.MappingBetween] of the two tables'
// descriptions); one in a state that is gone goes to the mapping's
// fallback, reported in its Moved. [Crowd.PrepareReload] does the work and
// returns a commit that cannot fail, to call at the frame boundary, so that
// a game checks everything (other crowds' reloads, its host's binding to
// the new table) before it changes anything. Every reload moves the crowd
// in place, on the same machine, redefined ([crowd.Machine.Redefine]):
// no entity's data is copied, and a reload costs time proportional to the
// table, plus a little per entity that changes state ID (about 2.5 µs for
// a million goombas when a state is renamed and one added, 2.3 ms when
// the state of 60,000 of them is removed). The crowd then goes on exactly
// as one restored from its [Snapshot], remapped, would.
//
// # Steps, workers and the host
//
// Adds asked for during a step wait for its end, and are carried out in
// order of ID after the step's messages are delivered; a step's result
// does not depend on the number of workers. The host is called from
// several workers at once, for distinct entities: it must be safe for
// concurrent use on distinct entities, and keep no pointer to an entity's
// data after a call, since the data moves.
//
// # Costs
//
// A Step allocates nothing in steady state. Each entity costs what its
// update costs, plus the machine's share (see package crowd) and, for an
// entity in a state that tests messages in a step after messages were
// posted, a bit read by ID. On BenchmarkCrowdGoomba (the game's own pass
// through the machine's Each included), a frame of 1024 goombas costs
// about 1.05× the same frame on a slice of agents with one worker, and
// 1.9× with two: too little work to share. With 65536, about 1.0× with one
// worker and 1.1× with two (two cores shared with other work; medians of
// 15 runs). The Goomba's update is small; the machine's share weighs less
// in larger ones.
package tablecrowd
