package main

import (
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/save"
)

// demoSave holds a demo's -save-at, -save and -load flags: stop after a
// step and save every machine and the world they run in, or continue from
// such a save. The run that saves prints what the whole run prints up to
// that step, and the run that loads what it prints after, so the two
// outputs put together are the output of the run that never stopped.
type demoSave struct {
	at   int
	path string
	load string
	unit string // what a step is called: "update", "tick"
}

// addSaveFlags adds the flags to f; unit names a step ("update", "tick").
func addSaveFlags(f *flags, unit string) *demoSave {
	s := &demoSave{unit: unit}
	f.IntVar(&s.at, "save-at", 0, fmt.Sprintf("stop after %s `K` and write the state of every machine, and of the world they run in, to the -save file", unit))
	f.StringVar(&s.path, "save", "", "the `FILE` -save-at writes")
	f.StringVar(&s.load, "load", "", "continue from the save in `FILE` written by -save-at: print what the run that never stopped prints after that "+unit)
	return s
}

// check reports a usage error in the flags, for a run of steps steps.
func (s *demoSave) check(f *flags, steps int) error {
	bad := func(format string, args ...any) error {
		return &usageError{msg: f.Name() + ": " + fmt.Sprintf(format, args...), help: f.help()}
	}
	switch {
	case s.at < 0:
		return bad("-save-at %d: cannot be negative", s.at)
	case s.at > 0 && s.path == "":
		return bad("-save-at %d: say where to write the save with -save FILE", s.at)
	case s.path != "" && s.at == 0:
		return bad("-save %s: say after which step with -save-at K", s.path)
	case s.at > steps:
		return bad("-save-at %d: the run stops after %d", s.at, steps)
	case s.load != "" && s.at > 0:
		return bad("-load and -save-at: load a save, or make one, not both")
	}
	return nil
}

// stopAt returns the number of steps to run: until the save, or steps.
func (s *demoSave) stopAt(steps int) int {
	if s.at > 0 {
		return s.at
	}
	return steps
}

// write writes f to the -save file and says so on stderr.
func (s *demoSave) write(f *save.File, stderr io.Writer) error {
	if err := save.WriteFile(s.path, f); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "fsmforge: saved after %s %d to %s; continue with -load %s\n", s.unit, s.at, s.path, s.path)
	return nil
}

// read reads the -load file.
func (s *demoSave) read() (*save.File, error) { return save.ReadFile(s.load) }
