package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release this source is; builds from a module download
// report the module version instead.
const version = "v0.1.0-dev"

func runVersion(args []string, stdout io.Writer) error {
	f := newFlags("version", "Usage: fsmforge version\n\nPrints the version of fsmforge and of Go it was built with.\n")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	v := version
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	_, err := fmt.Fprintf(stdout, "fsmforge %s (%s)\n", v, runtime.Version())
	return err
}
