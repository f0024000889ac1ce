// Package reload is hot reload for a game in development: when a designer
// saves a drawing, the running game follows within a frame or two, every
// agent where it was, without a restart.
//
// The designer-pipeline article ("Visual Finite State Machine AI
// Systems") promises that no programming stands between a drawing and the
// AI running in the game; reload takes away the restart too. Engines'
// users ask for it, and the editors they have reset the running state
// (Unity's state machines go back to their initial state), throw when a
// state was deleted (XState's fast refresh), or refuse any structural
// change (godot-statecharts). Here a new version keeps the agents' state
// by name, and says what it could not keep.
//
// # Use
//
// A game makes one Reloader, Loads each drawing (read and compiled now: a
// game cannot start without a working version), says what runs its table
// (Drawing.Run: the agents, with Agents; a crowd, since a
// *tablecrowd.Crowd is a Target; the game's own binding of IDs by name,
// with Func or a method PrepareReload of its level), and calls Frame once
// a frame, between updates:
//
//	r := reload.New(reload.Options{Log: os.Stderr, Viewer: v})
//	d, err := r.Load("art/goomba.vdx", reload.Config{Read: chart.ReadOptions{Stencil: st}})
//	host, err := bind(d.Table()) // the host's test and property IDs, looked up by name
//	agents := makeAgents(d.Table())
//	// A new version numbers its tests anew: the host binds them again, and
//	// a version that lost one the game answers is refused.
//	d.Run("host", reload.Func(func(t *table.Table, _ *machine.Mapping) (func(), error) {
//		h, err := bind(t)
//		if err != nil {
//			return nil, err
//		}
//		return func() { host = h }, nil
//	}))
//	d.Run("goombas", reload.Agents(viewer.Each(&agents)))
//	for tick := uint64(0); ; tick++ {
//		r.Frame(tick) // swaps in a new version, if one is ready
//		update(agents, host)
//	}
//
// On a change, the Reloader's goroutine re-imports, checks and compiles
// the drawing, off the game's goroutine. The next Frame, on the game's
// goroutine at its frame boundary, swaps the new table into every target,
// or into none: each target readies its move (PrepareReload, which
// changes nothing), then all commit. The agents keep their state, stack,
// statechart configuration, history, queued events and pending timers,
// mapped by name (see machine.Mapping). A state drawn as the same shape
// under another name is a rename: its agents follow it. An agent in a
// state that is gone goes to the fallback: the new version's initial
// state, unless the drawing names another (chart.Chart's Fallback) or the
// game does (Config.Fallback). Frame returns a Report of each reload, and
// logs it (Options.Log): the phases and their times, the states renamed,
// added and removed, and which agents went to the fallback, from which
// state.
//
// A version that does not read, does not compile or does not fit the
// game (a target refuses it, say because the game's host answers a test
// the drawing lost) never replaces a working one: the Report carries the
// errors, with file, position and hint (a *RefusedError wrapping the
// diag.List), the log and the viewer show them, and the game runs on.
//
// # Watching files
//
// Editors save in different ways: in place, in several writes; to a
// temporary file renamed over the drawing; after removing it. The
// Reloader watches the drawing's folder, not the file. After a change it
// waits until the file has stayed unchanged for Options.Settle, reads it,
// reads it again if it changed meanwhile, and does not deliver a version
// that changed while it compiled. A file that does not read (XML cut
// short: perhaps the editor is still writing) waits Options.Grace for the
// rest of the save before its errors are reported. Saving the same
// content again reloads nothing.
//
// Without a Notifier, the Reloader polls: it stats each drawing every
// Options.Poll (5 ms), and sees a change of its size, its modification
// time or its identity (a file renamed over it). That works on every
// platform and file system, network mounts and containers' bind mounts
// included, where notifications often do not arrive; the fsmforge command
// polls. A tool that writes a file keeping its size and modification time
// (cp -p, rsync -t, an archive unpacked) is seen only by a Notifier, or
// by Refresh. The module github.com/fsmforge/fsmforge/reload/fsnotify
// gives a Notifier made with the fsnotify library (inotify on Linux,
// kqueue on the BSDs and macOS, ReadDirectoryChangesW on Windows, FEN on
// illumos), which notices a save at once; it is a module of its own so
// that this one keeps to the standard library. A drawing loaded through a
// symbolic link is watched in its target's folder too.
//
// Tests and games that reload on a key press set Options.Manual and call
// Refresh, which reads every changed drawing at once and returns when the
// next Frame can swap it in: with the same edits before the same frames,
// a run is the same run.
//
// # Development and release
//
// Generated Go code (fsmforge gen) is compiled into the game and cannot
// be swapped at run time. Design with tables and reload, and ship the
// generated code: the two run alike, step for step, which gogen's
// differential tests check for every drawing they generate. A game
// switches between them in one line when its levels take their brains as
// a value, as examples/goomba's do:
//
//	brains, _ := goomba.TableBrains(d.Table()) // while designing: the drawing, reloaded
//	brains := goomba.GenBrains()                // for release: the generated code
//
// # Cost
//
// Frame costs an atomic load when nothing changed. A swap costs a
// snapshot and a restore per agent (table.PrepareReload), and for a crowd
// a renumbering of its states in place (crowd.Machine.Redefine): a few
// microseconds, and a pass over the entities of removed states. Every
// Report's Phases say how long each step took, from the file's
// modification time to the end of the swap; BenchmarkReload measures
// them for a 1,000-state drawing run by 10,000 agents and a
// 1,000,000-entity crowd.
package reload
