// Package message carries messages between game entities, in two styles:
//
//   - [Board]: a double-buffered board that entities pull their messages
//     from, one frame late (the XNA article's MessageManager).
//   - [Dispatcher]: Buckland's telegram dispatcher, which pushes each
//     [Telegram] into the receiver's [Handler], at once or after a delay in
//     game time (Programming Game AI by Example, chapter 2).
//
// Both are generic over the game's entity ID type and its message-type
// enumeration: Board[EntityID, MsgType], Dispatcher[EntityID, MsgType]. Both
// have zero values ready to use, take time from the caller rather than the
// wall clock, allocate nothing per message once warm, and are not safe for
// concurrent use. (A Payload or Extra is an interface value: a pointer or a
// small integer stores without allocating, but boxing a larger value, such as
// a struct, allocates in the caller; send a pointer into the game's own data.)
//
// # Board: double buffering
//
// During a frame, entities send messages ([Board.Send] a [Message]); they
// land in the current frame and nobody acting on them sees them yet. The game loop calls
// [Board.Swap] once per frame: the current frame becomes the last frame,
// visible all at once through [Board.Last], and a new empty frame starts.
// So every entity acts on the complete set of last frame's messages, whatever
// order entities are updated in, and a message sent while handling one is
// never seen in the same frame. [Board.Current] lets an entity peek at the
// frame being sent (the article's FindFuture… queries).
//
// # Board: why pull
//
// Nothing is called back: each entity asks the board, when it chooses, for
// the messages that concern it ([Frame.To]) and may skip some depending on
// others. There is nothing to register or unregister, and a message to an
// entity that never asks costs only its slot.
//
// # Board: cost of queries
//
// Where the article scans every message for every query, each [Frame] is
// indexed as it is filled: for each destination, sender and type, a chain
// links the frame's messages with that key in send order. [Frame.To],
// [Frame.From] and [Frame.OfType] cost one map look-up plus O(matches);
// [Frame.OfTypeTo] and [Frame.OfTypeFrom] walk the shorter of the two chains;
// only [Frame.Where] and [Frame.All] visit every message. If every entity
// reads its own messages, a frame costs O(messages), not
// O(entities × messages). [Board.Swap] forgets only the keys the cleared
// frame used, so it too is linear in that frame's messages.
//
// Queries return an [iter.Seq] in send order that allocates nothing when
// ranged over; keep results with
//
//	mine = slices.AppendSeq(mine[:0], board.Last().To(self))
//
// # Dispatcher: time
//
// A Dispatcher never reads a clock. [Dispatcher.SetTime] and
// [Dispatcher.DispatchDelayed] take the game time (seconds, ticks, as a
// float64), and [Dispatcher.Dispatch] with a positive delay queues the
// telegram for Time() + delay. Call DispatchDelayed(now) once per frame or
// tick: it delivers every telegram due by now (DispatchTime ≤ now).
//
// A float64 counts large times coarsely: at 10²⁰ it moves in steps of
// 16384, so 10²⁰ + 1 is 10²⁰. Dispatch refuses ([ErrBadDelay]) a positive
// delay that the game time cannot count: one for which Time() + delay rounds
// to Time() (it would be delivered at once), or to a time more than a
// thousandth of the delay away from the time asked for. Keep game time
// small (seconds or ticks since the level started) and this never happens.
//
// # Dispatcher: ordering
//
// Due telegrams are delivered in order of dispatch time; telegrams with the
// same dispatch time are delivered in the order they were sent. The queue is
// a binary min-heap on (time, send sequence), so a replay with the same
// inputs delivers the same telegrams in the same order.
//
// # Dispatcher: duplicate window
//
// Buckland's dispatcher drops a telegram when an identical one (same sender,
// receiver and message) is already queued less than 0.25 s away. Here that
// rule is [DispatcherOptions.DuplicateWindow], off by default; West World
// sets 0.25. Dispatch reports a dropped telegram by returning [ErrDuplicate]
// (a plain sentinel, so dropping allocates nothing). Unlike the
// original, whose std::set also merged different telegrams that merely shared
// a dispatch time, telegrams that differ are always kept.
//
// # Dispatcher: re-entrancy
//
// Handlers run synchronously and may dispatch again. An immediate dispatch
// from a handler is delivered at once, recursively, at most
// [DispatcherOptions.MaxDepth] deliveries deep (64 by default): past that, a
// handler that answers itself at once, or a ring of them, gets an error
// matching [ErrDepthLimit] instead of a stack overflow, and the rest of that
// cascade of immediate telegrams is refused too. Each refused telegram is
// returned to its sender and reported again by the call that started the
// cascade (an outer Dispatch, or DispatchDelayed), so none is lost unseen.
// A delayed dispatch from a
// handler during [Dispatcher.DispatchDelayed] is queued but waits for the
// next DispatchDelayed call, even if already due, so a handler that keeps
// re-sending to itself cannot hang the loop. Handlers may register and
// unregister entities; a telegram to an entity unregistered before it falls
// due is dropped and reported ([ErrUnknownReceiver]).
//
// # Saves
//
// [Dispatcher.Snapshot] and [Board.Snapshot] copy a dispatcher's or a
// board's state into plain data, a [DispatcherSnapshot] or a
// [BoardSnapshot]; [Dispatcher.Restore] and [Board.Restore] load it into
// another (or the same) dispatcher or board, and the run goes on exactly as
// the one that was saved: the same telegrams delivered at the same times
// in the same order with the same errors, the same answers to every query.
//
//   - A DispatcherSnapshot holds the game time and the pending telegrams,
//     in delivery order (by due time, then in the order they were sent), as
//     [Telegram] values. Handlers and [DispatcherOptions] are not part of
//     it: the game makes its dispatcher with the same options and registers
//     its entities again. Restore checks the whole snapshot first and
//     refuses, changing nothing, one the dispatcher could not have made
//     (times NaN or infinite, telegrams out of order, duplicates within the
//     window): a [*SnapshotError] names the telegram by its index.
//   - A BoardSnapshot holds the messages of the last frame and of the
//     current one, in send order, as [Message] values; Restore rebuilds the
//     indexes.
//
// Both are taken between updates, not from a handler. Snapshots taken into
// the same value again allocate nothing; Restore copies what it is given.
//
// Extra and Payload values are carried as they are: a snapshot holds the
// same interface values, neither copied nor encoded.
//
// # Saves: binary forms
//
// [DispatcherSnapshot.AppendBinary] and [BoardSnapshot.AppendBinary] write
// a snapshot as bytes, and [DispatcherSnapshot.Decode] and
// [BoardSnapshot.Decode] read it back. The game's own values go through a
// [Codec] it gives: one [machine.Codec] for its entity IDs, one for its
// message types ([IntCodec] serves both when they are integers), and one
// for the Extra and Payload values that are not nil. A telegram takes 8
// bytes for its time and, with IDs and types of less than 64, 7 more, plus
// its Extra's bytes. Decode checks the form, says at which telegram and
// byte it stopped, and refuses a count larger than its input could hold
// before allocating for it; Restore then checks the telegrams.
//
// Size in memory: a DispatcherSnapshot is 32 bytes plus one Telegram per
// pending telegram, 2·size(ID) + size(K) rounded up to 8, plus 24 bytes
// (DispatchTime and Extra): 32 bytes with uint16 IDs and uint8 message
// types, 40 with uint32 IDs and uint16 types. A BoardSnapshot is 48 bytes
// plus one Message per message, size(K) + 2·size(ID) + 1 rounded up to 8,
// plus 16 (Payload): 24 bytes with uint16 IDs and uint8 types, 32 with
// uint32 IDs and uint16 types. Add what the Extra values and payloads point
// to, which belongs to the game.
//
// Cost: taking a DispatcherSnapshot puts the queue in delivery order (a
// bucket sort on the due times, linear for the usual spreads of time, and
// a plain copy when the queue already is in order, as it is after the
// previous snapshot), then copies the telegrams; restoring one is a copy
// (the dispatcher keeps the queue in the snapshot's order, which is a
// valid heap) plus, with a duplicate window, rebuilding the index of
// pending telegrams by (sender, receiver, message) in bulk: hashing each
// telegram's triple, a radix sort of the hashes, and filling the index in
// their order, from its first slot to its last. A Board costs a copy to
// save and, to restore, what sending its messages again costs.
// BenchmarkDispatcherSnapshot and BenchmarkBoardSnapshot measure them
// beside a copy of the same data; BenchmarkDispatcherSave measures a
// million telegrams saved to bytes and restored from them: on a shared
// 2-core machine, about 50 ns a telegram to save, 37 to restore, 115 to
// restore with a duplicate window (which rebuilds the index).
//
// # Errors
//
// Problems with telegrams are returned, never logged: a [*TelegramError]
// names the telegram and wraps a sentinel ([ErrUnknownReceiver],
// [ErrUnhandled], [ErrBadDelay], [ErrDepthLimit]); DispatchDelayed returns a
// [TelegramErrors] list of them, and so does a Dispatch whose delivery led to
// refused telegrams. A dropped duplicate is the bare [ErrDuplicate]. A
// snapshot refused by Restore gives a [*SnapshotError]. Panics are
// kept for programmer errors: a nil handler, a negative DuplicateWindow or
// MaxDepth, a NaN or infinite time given to SetTime (the time itself comes from the
// program, not from a telegram), more than 2³¹ messages in one frame,
// Snapshot or Restore called from a handler.
package message
