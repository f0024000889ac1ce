// Command fsmforge is the fsmforge toolkit's command-line tool.
//
// Usage:
//
//	fsmforge demo [NAME] [flags]           run a demo, or the tour of every demo
//	fsmforge check [-stencil S] FILE...    check designers' drawings
//	fsmforge compile [flags] -o OUT FILE   compile a drawing into a state table
//	fsmforge gen [flags] -o OUT FILE       generate Go code from a drawing
//	fsmforge inspect FILE                  print a state table readably
//	fsmforge run -events EVENTS FILE       run a machine against scripted events
//	fsmforge graph [-format F] FILE        draw a drawing as Graphviz DOT or Mermaid
//	fsmforge convert IN OUT                convert a drawing to .drawio, .scxml or .json
//	fsmforge stencil -format F STENCIL     make a Visio stencil or draw.io library
//	fsmforge version                       print the version
//
// A drawing is a Visio .vdx, .vsdx or .vssx, a draw.io .drawio, .dio,
// .drawio.svg or .drawio.png, an SCXML .scxml, a yEd .graphml or .graphmlz,
// a .xml of any of these, or a chart file .json written by convert; its
// format is told from its content (chart.ReadFile). The file commands take
// their flags before or after the files. The commands that read drawings
// (check, compile, run, inspect, gen, graph, convert) share -stencil,
// -lenient (leave out what fsmforge cannot hold yet, with a warning, rather
// than refuse it) and the limits -max-size, -max-depth, -max-elements and
// -max-transitions; those that compile one (compile, run, inspect, gen)
// share -minimize, -chain, -chain-limit, -stack-limit and -name, which
// apply to a drawing, not to a compiled table given instead.
//
// Run "fsmforge COMMAND -h" for a command's flags. A usage error exits with
// status 2, any other failure with status 1. Unless GOMEMLIMIT says
// otherwise, fsmforge sets Go's soft memory limit to 2 GiB, so that the
// collector works harder rather than let the heap of a very large drawing
// double past it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
)

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		// The heap of a large drawing would grow to twice what is live
		// before the collector runs; past 2 GiB it runs sooner, so that
		// hostile files end with an error, not the machine's memory.
		debug.SetMemoryLimit(2 << 30)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode reports err on stderr and returns the status to exit with.
func exitCode(err error, stderr io.Writer) int {
	var usage *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, "fsmforge:", usage.msg)
		if usage.help != "" {
			fmt.Fprint(stderr, usage.help)
		}
		return 2
	default:
		fmt.Fprintln(stderr, "fsmforge:", err)
		return 1
	}
}

// usageError is a mistake in the command line: exit status 2, with the usage
// of the command concerned.
type usageError struct {
	msg  string
	help string
}

func (e *usageError) Error() string { return e.msg }

const usage = `fsmforge: finite state machines for game AI

Usage:
  fsmforge demo [NAME] [flags]           run a demo; with no NAME, a short tour of them all
  fsmforge check [-stencil S] FILE...    check designers' drawings (Visio, draw.io, SCXML, yEd)
  fsmforge compile [flags] -o OUT FILE   compile a drawing into a state table
  fsmforge gen [flags] -o OUT FILE       generate Go code from a drawing
  fsmforge inspect FILE                  print a state table (or a drawing's) readably
  fsmforge run -events EVENTS FILE       run a machine against scripted events
  fsmforge view FILE                     open a drawing in the browser: a simulated agent to step through
  fsmforge graph [-format F] FILE        draw a drawing as Graphviz DOT or Mermaid
  fsmforge convert IN OUT                convert a drawing to .drawio, .scxml or .json
  fsmforge stencil -format F STENCIL     make a Visio stencil or draw.io library from a stencil file
  fsmforge version                       print the version

Demos: westworld, formation, goomba, guard, crowd
Run 'fsmforge demo NAME -h' for a demo's flags.
`

// run runs the command line args (without the program name).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, stdin, stdout, stderr); err != errHelp {
		return err
	}
	return nil
}

// dispatch runs the command args names. Commands write their results to
// stdout and the problems they find in files to stderr; run reports the
// error they return.
func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{msg: "no command", help: usage}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "demo":
		return runDemo(ctx, rest, stdout, stderr)
	case "check":
		return runCheck(rest, stdout, stderr)
	case "compile":
		return runCompile(rest, stdout, stderr)
	case "gen":
		return runGen(rest, stdout, stderr)
	case "inspect":
		return runInspect(rest, stdout, stderr)
	case "graph":
		return runGraph(rest, stdout, stderr)
	case "convert":
		return runConvert(rest, stdout, stderr)
	case "stencil":
		return runStencil(rest, stdout, stderr)
	case "run":
		return runRun(rest, stdin, stdout, stderr)
	case "view":
		return runView(ctx, rest, stdout, stderr)
	case "version":
		return runVersion(rest, stdout)
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	default:
		return &usageError{msg: fmt.Sprintf("unknown command %q", cmd), help: usage}
	}
}
