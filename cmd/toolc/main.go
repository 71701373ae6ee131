// Command toolc compiles AI tool definitions: it reads toolc.toml, converts
// every tool to a canonical form, and writes one bundle per target (MCP,
// OpenAI, Anthropic …) and toolc.lock.
//
// This package only parses flags, prints and chooses the exit code: 0 on
// success, 1 when the build failed or --check found a difference, 2 on a usage
// or configuration error. The work is done by package compiler.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

// Exit codes, for every command.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// exitError carries an exit code out of a command.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run runs toolc with args and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default: // flag and argument errors from cobra
		fmt.Fprintf(stderr, "toolc: %v\n", err)
		return exitUsage
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "toolc",
		Short:         "Compile AI tool definitions for every model provider",
		Long:          "toolc reads toolc.toml, converts every tool it names to one canonical form, and writes a\nbundle per target (MCP, OpenAI, Anthropic) and toolc.lock, reporting every change a target forces.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newBuild(stderr), newDetect(stdout, stderr))
	return root
}
