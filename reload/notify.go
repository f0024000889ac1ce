package reload

// A Notifier tells a [Reloader] which files changed in the folders it
// watches: the operating system's notifications (inotify, kqueue,
// ReadDirectoryChangesW), through a watcher library. The module
// github.com/fsmforge/fsmforge/reload/fsnotify makes one with fsnotify; a
// Reloader without one polls its files instead (Options.Poll), which
// works on every platform and file system, network and container mounts
// included, at the cost of a stat of each drawing per poll.
//
// The Reloader watches folders, not files, since editors often save by
// writing a temporary file and renaming it over the drawing, which a
// watch on the file itself loses. It calls Add once per folder of its
// drawings, then reads Events and Errors until it calls Close.
type Notifier interface {
	// Add starts watching the folder dir (not its subfolders).
	Add(dir string) error
	// Events delivers the path of each file created, written, renamed
	// or removed in a watched folder: the folder given to Add joined with
	// the file's name. Several events for one save are fine: the
	// Reloader waits for the file to settle. The channel is closed by
	// Close.
	Events() <-chan string
	// Errors delivers the watcher's errors (an event queue that
	// overflowed, say); the Reloader logs them and checks every file.
	Errors() <-chan error
	// Close stops watching and closes both channels.
	Close() error
}
