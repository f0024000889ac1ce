package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
)

// flags is one command's flag set and the synopsis its help starts with.
type flags struct {
	*flag.FlagSet
	synopsis string
}

func newFlags(name, synopsis string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, with the help
	fs.Usage = func() {}
	return &flags{FlagSet: fs, synopsis: synopsis}
}

// help returns the synopsis and the flags with their defaults.
func (f *flags) help() string {
	var b bytes.Buffer
	b.WriteString(f.synopsis)
	f.SetOutput(&b)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
	return b.String()
}

// parse parses args. -h writes the help on stdout and returns errHelp; a bad
// flag or a stray argument returns a usage error.
func (f *flags) parse(args []string, stdout io.Writer) error {
	err := f.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		io.WriteString(stdout, f.help())
		return errHelp
	case err != nil:
		return &usageError{msg: fmt.Sprintf("%s: %v", f.Name(), err), help: f.help()}
	case f.NArg() > 0:
		return &usageError{msg: fmt.Sprintf("%s: unexpected argument %q", f.Name(), f.Arg(0)), help: f.help()}
	}
	return nil
}

// errHelp ends a command after -h printed its help; run turns it into success.
var errHelp = errors.New("help printed")
