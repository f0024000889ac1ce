// Package fsnotify gives package reload a [reload.Notifier] made with the
// fsnotify library (github.com/fsnotify/fsnotify): the operating system
// tells the Reloader of a save at once, where polling notices it within
// [reload.Options].Poll, at the cost of a stat of each drawing per poll.
// [New] makes one:
//
//	n, err := fsnotify.New()
//	if err != nil {
//		log.Printf("%v; polling", err) // n is nil: the Reloader polls
//	}
//	r := reload.New(reload.Options{Notifier: n}) // r.Close closes n
//
// # Platforms
//
// fsnotify watches through inotify on Linux, kqueue on the BSDs and
// macOS, ReadDirectoryChangesW on Windows, and FEN on illumos. On other
// platforms (AIX, Plan 9, WebAssembly) New returns an error.
//
// Notifications do not arrive from every file system. On network file
// systems (NFS, SMB, sshfs and other FUSE mounts), on many containers'
// bind mounts (Docker Desktop's and other virtual machines' shares of the
// host's folders), and in WSL on the Windows drives under /mnt, a save
// made by another machine, or by the host, is not notified: the game does
// not reload. Where the drawings live on such a file system, leave
// Options.Notifier nil, and the Reloader polls, which works everywhere.
// Linux also limits the watches (fs.inotify.max_user_watches, one per
// folder) and the watchers (fs.inotify.max_user_instances, one per New);
// past them New or Add fails, and the Reloader polls (it logs why).
// kqueue opens a file for each file in a watched folder: keep the
// drawings out of large folders on macOS and the BSDs.
//
// # Events
//
// Events delivers the path of each file created, written, renamed or
// removed in a folder given to Add: an editor saving in place (a Write or
// several), writing a temporary file and renaming it over the drawing (a
// Create naming the drawing, after a Remove on kqueue), or removing the
// drawing and writing it anew (a Remove, then a Create). The Reloader
// waits for the file to settle, so several events for one save cost
// nothing more.
//
// A change of attributes alone (fsnotify.Chmod) is not delivered: a
// `touch`, a backup program or an indexer (Spotlight, an anti-virus)
// sends them, often, and each would make the Reloader read the drawing
// again to find it unchanged. A save that changes the content comes with
// one of the four others on every platform: an editor whose atomic save
// shows as Chmod and Rename together is delivered for its Rename, and
// the Chmod that kqueue sends for a truncation is followed by the Write
// of the new content.
//
// When the Reloader falls behind (it reads and compiles a drawing while
// a tool writes many files in its folder), the Notifier keeps each path
// waiting once; past a few hundred distinct paths it drops them, and
// Errors delivers an error ([ErrDropped]) which makes the Reloader look at
// every drawing. It never blocks fsnotify's goroutine, whose events the
// kernel would otherwise drop. Errors also delivers fsnotify's errors
// (fsnotify.ErrEventOverflow when the kernel dropped events), and an
// error when a watched folder is removed or renamed: the folder is no
// longer watched, even when it comes back, and the game must be
// restarted, or poll.
//
// # Cost
//
// A Notifier runs one goroutine beside fsnotify's, and holds at most 64
// paths in Events, 256 more waiting behind it, and 8 errors. On Linux it
// uses one inotify instance, and one watch per folder. An event takes
// microseconds to arrive (BenchmarkNotice); the Reloader then waits
// Options.Settle before it reads the drawing.
//
// # Why a module of its own
//
// The module github.com/fsmforge/fsmforge keeps to the standard library,
// so that a game that polls (and the fsmforge command, which does) pulls
// no other code in. This module is the one place that requires fsnotify
// (and, through it, golang.org/x/sys); a game that wants notifications
// requires it beside the root module.
package fsnotify
