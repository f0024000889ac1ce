package message

import (
	"fmt"
	"math"
	"strconv"
)

// sentinel is the type of the package's sentinel errors: its reason is also
// used, without the package prefix, inside longer messages.
type sentinel struct{ reason string }

func (e *sentinel) Error() string { return "message: " + e.reason }

// Sentinel errors of the [Dispatcher], for [errors.Is]. Except for
// ErrDuplicate, returned as is, the errors returned are [*TelegramError]
// values (or a [TelegramErrors] list of them) that wrap one of these and say
// which telegram was concerned.
var (
	// ErrUnknownReceiver: the receiver is not registered (or was unregistered
	// before a delayed telegram fell due). The telegram was not delivered.
	ErrUnknownReceiver error = &sentinel{"unknown receiver"}

	// ErrUnhandled: the telegram was delivered, but the receiver's handler
	// returned false. Buckland logs "Message not handled".
	ErrUnhandled error = &sentinel{"telegram not handled"}

	// ErrDuplicate: an identical telegram is already pending within the
	// dispatcher's DuplicateWindow; this one was dropped. Dispatch returns it
	// as is, not inside a TelegramError.
	ErrDuplicate error = &sentinel{"duplicate telegram dropped"}

	// ErrBadDelay: the delay is NaN or infinite, the dispatch time it gives
	// overflows, or the delay is too small for the precision of game time:
	// Time() + delay rounds to Time(), or to a time more than a thousandth
	// of the delay away from the time asked for (a float64 counts in steps
	// of about Time() × 2⁻⁵², 16384 at 10²⁰). Nothing was queued.
	ErrBadDelay error = &sentinel{"delay is NaN or infinite, or too large for the game time (use a finite delay; 0 or less sends at once)"}

	// ErrDepthLimit: an immediate telegram was sent by a handler already
	// [DispatcherOptions.MaxDepth] deliveries deep (or after another was
	// refused so in the same cascade of immediate deliveries). It was not
	// delivered.
	ErrDepthLimit error = &sentinel{"immediate telegrams nested too deep"}

	// ErrBadTime: the time given to DispatchDelayed is NaN or infinite.
	// Nothing was changed.
	ErrBadTime error = &sentinel{"time is NaN or infinite"}
)

// TelegramError reports a telegram that [Dispatcher.Dispatch] or
// [Dispatcher.DispatchDelayed] could not queue or deliver, or that its
// receiver did not handle. Err is [ErrUnknownReceiver], [ErrUnhandled] or
// [ErrBadDelay], or an error that says more and matches [ErrBadDelay] or
// [ErrDepthLimit]; errors.Is matches them through Unwrap. Find the receiver
// with [errors.As]:
//
//	var te *message.TelegramError[EntityID, MsgType]
//	if errors.As(err, &te) && errors.Is(te, message.ErrUnknownReceiver) {
//		forget(te.Telegram.Receiver)
//	}
type TelegramError[ID, K comparable] struct {
	Telegram Telegram[ID, K] // DispatchTime: when it was or would have been due
	Err      error
}

// Error names the telegram and the problem, for example
// "message: telegram HiHoneyImHome from Bob to Elsa at t=3: unknown receiver Elsa".
func (e *TelegramError[ID, K]) Error() string {
	t := &e.Telegram
	head := fmt.Sprintf("message: telegram %v from %v to %v at t=%g: ", t.Msg, t.Sender, t.Receiver, t.DispatchTime)
	switch err := e.Err.(type) {
	case *sentinel:
		if err == ErrUnknownReceiver {
			return head + fmt.Sprintf("unknown receiver %v (register it with Dispatcher.Register before sending to it)", t.Receiver)
		}
		return head + err.reason
	case interface{ reason() string }:
		return head + err.reason()
	}
	return head + fmt.Sprint(e.Err)
}

// Unwrap returns Err.
func (e *TelegramError[ID, K]) Unwrap() error { return e.Err }

// TelegramErrors is the list of problems met by one
// [Dispatcher.DispatchDelayed] call, in delivery order. It is never empty
// when returned as an error. [errors.Is] and [errors.As] look into each
// element.
type TelegramErrors[ID, K comparable] []*TelegramError[ID, K]

// Error returns the first error's message, followed by "(and N more)" when
// there are others.
func (l TelegramErrors[ID, K]) Error() string {
	switch len(l) {
	case 0:
		return "message: no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more)", l[0].Error(), len(l)-1)
}

// Unwrap returns the elements, for [errors.Is] and [errors.As].
func (l TelegramErrors[ID, K]) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// timeError reports a bad time given to DispatchDelayed.
type timeError float64

func (e timeError) Error() string {
	return "message: Dispatcher.DispatchDelayed: time " + strconv.FormatFloat(float64(e), 'g', -1, 64) + " is NaN or infinite"
}

func (e timeError) Is(target error) bool { return target == ErrBadTime }

// precisionError reports a delay too small for the precision of game time.
type precisionError struct{ delay, now float64 }

func (e *precisionError) Error() string { return "message: " + e.reason() }

func (e *precisionError) reason() string {
	step := math.Nextafter(math.Abs(e.now), math.Inf(1)) - math.Abs(e.now)
	return "delay " + strconv.FormatFloat(e.delay, 'g', -1, 64) +
		" is too small for game time " + strconv.FormatFloat(e.now, 'g', -1, 64) +
		", which a float64 counts there in steps of " + strconv.FormatFloat(step, 'g', 3, 64) +
		" (use a delay of at least " + strconv.FormatFloat(500*step, 'g', 3, 64) +
		", or 0 to send at once, or keep game time small, counting it from the start of the level)"
}

// Is makes errors.Is(err, ErrBadDelay) true.
func (e *precisionError) Is(target error) bool { return target == ErrBadDelay }

// depthError reports an immediate telegram refused for depth.
type depthError struct {
	limit int
	cut   bool // refused because another was, deeper in the same cascade
}

func (e depthError) Error() string { return "message: " + e.reason() }

func (e depthError) reason() string {
	if e.cut {
		return "immediate telegram not delivered: sent after another was refused for nesting " + strconv.Itoa(e.limit) +
			" deliveries deep in the same cascade (a handler that keeps answering at once?); send it with a delay, or raise DispatcherOptions.MaxDepth"
	}
	return "immediate telegram not delivered: sent by a handler already " + strconv.Itoa(e.limit) +
		" deliveries deep, the most DispatcherOptions.MaxDepth allows (a handler that keeps answering at once?); send it with a delay, or raise MaxDepth"
}

// Is makes errors.Is(err, ErrDepthLimit) true.
func (e depthError) Is(target error) bool { return target == ErrDepthLimit }

// Sentinel errors of [Dispatcher.Restore] and [Board.Restore], for
// [errors.Is]. The errors returned are [*SnapshotError] values, which match
// ErrBadSnapshot and, where it applies, [ErrBadTime], [ErrBadOrder] or
// [ErrDuplicate].
var (
	// ErrBadSnapshot: the snapshot holds something the dispatcher or the
	// board could not have produced. Nothing was changed.
	ErrBadSnapshot error = &sentinel{"bad snapshot"}

	// ErrBadOrder: the pending telegrams of a snapshot are not in delivery
	// order. Nothing was changed.
	ErrBadOrder error = &sentinel{"pending telegrams out of delivery order"}
)

// SnapshotError reports a snapshot refused by [Dispatcher.Restore] or
// [Board.Restore]: which of its values is wrong, and how. The dispatcher or
// board was not changed. errors.Is(err, [ErrBadSnapshot]) is true, and Err
// matches [ErrBadTime], [ErrBadOrder] or [ErrDuplicate] where one applies.
//
// It also reports a binary form that [DispatcherSnapshot.Decode] or
// [BoardSnapshot.Decode] could not read, or a snapshot that AppendBinary
// could not write: Err then says at which byte and wraps the codec's
// error, if a codec refused.
type SnapshotError struct {
	Op    string // "Dispatcher.Restore", "Board.Restore", "DispatcherSnapshot.Decode"...
	Field string // the snapshot's field: "Time", "Pending", "Last" or "Current", or empty for the whole
	Index int    // the index in Field of the telegram at fault, -1 when the problem is Field as a whole
	Err   error  // what is wrong
}

// Error names the value and the problem, for example
// "message: Dispatcher.Restore: Pending[3]: telegram StewReady from Elsa to
// Bob due at t=NaN is NaN or infinite".
func (e *SnapshotError) Error() string {
	where := e.Field
	if e.Index >= 0 {
		where += "[" + strconv.Itoa(e.Index) + "]"
	}
	msg := fmt.Sprint(e.Err)
	if r, ok := e.Err.(interface{ reason() string }); ok {
		msg = r.reason()
	}
	if where == "" {
		return "message: " + e.Op + ": " + msg
	}
	return "message: " + e.Op + ": " + where + ": " + msg
}

// Unwrap returns Err.
func (e *SnapshotError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrBadSnapshot) true.
func (e *SnapshotError) Is(target error) bool { return target == ErrBadSnapshot }

// snapshotProblem says what is wrong with a value of a snapshot, and
// matches the sentinel is.
type snapshotProblem struct {
	is   error
	text string
}

func (e snapshotProblem) Error() string        { return "message: " + e.text }
func (e snapshotProblem) reason() string       { return e.text }
func (e snapshotProblem) Is(target error) bool { return target == e.is }

// describe names a telegram in an error.
func describe[ID, K any](msg K, from, to ID) string {
	return fmt.Sprintf("telegram %v from %v to %v", msg, from, to)
}

func fmtTime(t float64) string { return strconv.FormatFloat(t, 'g', -1, 64) }
