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

// parseFiles parses args in which flags and file arguments may be mixed
// ("check a.vdx -stencil s.json b.vdx"), as the tool's file commands take
// them, and returns the files in order. "--" ends the flags: what follows is
// files. It wants at least min files, and at most max (max < 0: any number).
func (f *flags) parseFiles(args []string, stdout io.Writer, min, max int) ([]string, error) {
	var files []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				io.WriteString(stdout, f.help())
				return nil, errHelp
			}
			return nil, &usageError{msg: fmt.Sprintf("%s: %v", f.Name(), err), help: f.help()}
		}
		rest := f.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			files = append(files, rest...) // everything after "--" is a file
			break
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
	switch {
	case len(files) < min && min == 1:
		return nil, &usageError{msg: fmt.Sprintf("%s: no file given", f.Name()), help: f.help()}
	case len(files) < min:
		return nil, &usageError{msg: fmt.Sprintf("%s: %d files given, want %d", f.Name(), len(files), min), help: f.help()}
	case max >= 0 && len(files) > max:
		return nil, &usageError{msg: fmt.Sprintf("%s: unexpected argument %q", f.Name(), files[max]), help: f.help()}
	}
	return files, nil
}
