// Package formation is the formation-flying enemy of the XNA article's
// Astralia, in a small squadron: the article's six states (idle, follow,
// lead, rally, patrol, attack) and seven guarded transitions on an
// [fsm.Graph] built once and shared by every ship, with the ships talking
// through a double-buffered [message.Board].
//
// A new ship starts idle. If it heard a leader rallying last frame it asks to
// join and follows; otherwise it takes the lead and rallies, announcing
// itself every frame until its formation is full, then patrols. A patrol
// that sights the enemy attacks until the enemy is gone. Leaders can be shot
// down while attacking: the dying leader names a successor, which takes the
// lead and rallies again, and a new ship is sent to replace the lost one.
// Everything a ship learns from another arrives through the board, one frame
// later: a leader that receives more requests than it has room for turns the
// latecomers away, and they lead formations of their own.
//
// Randomness (where the enemy shows up, who is shot down) comes from a
// seeded source, so a seed always flies the same sortie. Run it with
//
//	go run ./cmd/fsmforge demo formation -ships 12 -frames 40 -seed 1
package formation
