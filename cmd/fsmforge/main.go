// Command fsmforge is the fsmforge toolkit's command-line tool.
//
// Usage:
//
//	fsmforge demo [NAME] [flags]   run a demo, or the tour of every demo
//	fsmforge version               print the version
//
// Run "fsmforge COMMAND -h" for a command's flags. A usage error exits with
// status 2, any other failure with status 1.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
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
  fsmforge demo [NAME] [flags]   run a demo; with no NAME, a short tour of them all
  fsmforge version               print the version

Demos: westworld, formation
Run 'fsmforge demo NAME -h' for a demo's flags.
`

// run runs the command line args (without the program name).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, stdout); err != errHelp {
		return err
	}
	return nil
}

// dispatch runs the command args names. No command reads stdin or writes to
// stderr yet: run reports their errors.
func dispatch(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return &usageError{msg: "no command", help: usage}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "demo":
		return runDemo(ctx, rest, stdout)
	case "version":
		return runVersion(rest, stdout)
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	default:
		return &usageError{msg: fmt.Sprintf("unknown command %q", cmd), help: usage}
	}
}
