// Command toolc compiles AI tool definitions: it reads toolc.toml, converts
// every tool to a canonical form, and writes one bundle per target (MCP,
// OpenAI, Anthropic …) and toolc.lock.
//
// This package only parses flags, prints and chooses the exit code: 0 on
// success, 1 when the build failed, --check found a difference or breaking
// found a breaking change, 2 on a usage or configuration error. The work is
// done by package compiler and the stages behind it; diagnostics are
// formatted by internal/diagfmt, reports by internal/report.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
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
	// Ctrl-C, and what CI runners send on cancel: a server toolc started
	// ends with it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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

// app is what every command shares: the streams and the global flags.
type app struct {
	stdout, stderr io.Writer
	global         globalFlags
}

// withOutput is the RunE of a command that takes no arguments: it makes
// the output the global flags ask for, then runs fn.
func (a *app) withOutput(fn func(context.Context, *output) error) func(*cobra.Command, []string) error {
	return a.runs(func(cmd *cobra.Command, _ []string, out *output) error { return fn(cmd.Context(), out) })
}

// output returns the command's output, set up from the global flags.
func (a *app) output() (*output, error) {
	return newOutput(&a.global, a.stdout, a.stderr)
}

// newHelp is cobra's help command, but an unknown topic is a usage error
// (exit 2), not a help text and exit 0.
func newHelp(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(_ *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || (len(args) > 0 && cmd == root) {
				return fmt.Errorf("unknown help topic %q: toolc help lists the commands", strings.Join(args, " "))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// strictCompletion makes an unknown shell a usage error: cobra's completion
// command prints its help and exits 0 for one.
func strictCompletion(c *cobra.Command) {
	var shells []string
	for _, s := range c.Commands() {
		shells = append(shells, s.Name())
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("unknown shell %q (want %s)", args[0], strings.Join(shells, ", "))
		}
		return cmd.Help()
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	a := &app{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "toolc",
		Short:         "Compile AI tool definitions for every model provider",
		Long:          help("toolc"),
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.global.maxSet = cmd.Flags().Changed("max-diagnostics")
			if _, err := a.output(); err != nil {
				return err // cobra's usage errors exit 2
			}
			return nil
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("toolc {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVar(&a.global.errorFormat, "error-format", "text", "how to print diagnostics: `FORMAT` text, json, github-actions or sarif")
	pf.BoolVarP(&a.global.quiet, "quiet", "q", false, "print only warnings and errors: no infos, no summary line")
	pf.BoolVarP(&a.global.verbose, "verbose", "v", false, "print every diagnostic with its place, infos included, where build prints a digest")
	pf.IntVar(&a.global.maxDiagnostics, "max-diagnostics", 0, "write at most `N` findings in full in the text format, 0 for all (default: 25 on a terminal, all elsewhere; machine formats always write all)")
	_ = root.RegisterFlagCompletionFunc("error-format", cobra.FixedCompletions(diagfmt.Formats(), cobra.ShellCompDirectiveNoFileComp))
	root.SetHelpCommand(newHelp(root))
	root.AddCommand(newBuild(a), newBaseline(a), newBreaking(a), newConvert(a), newDecode(a), newDetect(a), newEval(a), newInputs(a), newOutputs(a), newInit(a), newRules(a), newExplain(a), newReport(a), newCapture(a), newVerify(a), newVersion(stdout))
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			strictCompletion(c)
		}
	}
	return root
}

//go:embed help/*.txt
var helpTexts embed.FS

// help is the long help of a command, from help/NAME.txt.
func help(name string) string {
	data, err := helpTexts.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("toolc: no help text for " + name) // a command without its file
	}
	return string(data)
}

// command is a subcommand with its long help from help/NAME.txt, NAME the
// first word of use.
func command(use, short string) *cobra.Command {
	name, _, _ := strings.Cut(use, " ")
	return &cobra.Command{Use: use, Short: short, Long: help(name)}
}

// runs is a command's RunE that opens the output first.
func (a *app) runs(fn func(*cobra.Command, []string, *output) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		out, err := a.output()
		if err != nil {
			return err
		}
		return fn(cmd, args, out)
	}
}

// placeFlags are -C and --manifest: where the manifest is, for every
// command that reads one.
type placeFlags struct {
	dir, manifest string
}

// clockFlag is --now: the date every date decision of the command is made
// against (acknowledgments' until, sunsets, the deprecation window), for
// a release job that must judge as of its tag, and for tests.
type clockFlag struct{ now string }

func (c *clockFlag) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&c.now, "now", "", "judge every date as of `DATE` (YYYY-MM-DD or RFC 3339) instead of the system's time")
}

// time is --now's time, zero for the system's.
func (c clockFlag) time(out *output) (time.Time, error) {
	if c.now == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339} {
		if t, err := time.Parse(layout, c.now); err == nil {
			return t, nil
		}
	}
	return time.Time{}, out.fail(exitUsage, "--now %q: want a date, YYYY-MM-DD, or an RFC 3339 time", c.now)
}

func (p *placeFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&p.dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&p.manifest, "manifest", pipeline.DefaultManifest, "the manifest `FILE`; paths in it are relative to its folder")
	_ = cmd.MarkFlagDirname("directory")
	_ = cmd.MarkFlagFilename("manifest", "toml")
}
