package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
)

// globalFlags are the flags every command takes.
type globalFlags struct {
	errorFormat    string
	quiet          bool
	verbose        bool
	maxDiagnostics int  // 0: all
	maxSet         bool // --max-diagnostics was given; else the default for where the text goes
}

// output is where a command's diagnostics and status lines go. Text and
// GitHub Actions diagnostics go to stderr, beside the status lines; JSON
// lines and SARIF go to stdout, so that `> file` captures exactly the
// document, except for commands whose stdout is their product (convert).
type output struct {
	stdout, stderr io.Writer
	format         diagfmt.Format
	quiet          bool
	verbose        bool // every diagnostic, where a command would digest them
	color          bool
	max            int    // how many findings text writes in full; 0 for all
	maxSet         bool   // max comes from --max-diagnostics
	prefix         string // joined before every diagnostic's file
}

func newOutput(g *globalFlags, stdout, stderr io.Writer) (*output, error) {
	f, err := diagfmt.ParseFormat(g.errorFormat)
	if err != nil {
		return nil, err
	}
	o := &output{stdout: stdout, stderr: stderr, format: f, quiet: g.quiet, verbose: g.verbose, color: isTerminal(stderr)}
	switch {
	case g.maxSet:
		o.max, o.maxSet = max(g.maxDiagnostics, 0), true
	case f == diagfmt.Text && o.color && !g.verbose:
		o.max = terminalMax // a terminal shows a screenful; a log keeps all
	}
	return o, nil
}

// terminalMax is how many findings the text format writes in full on a
// terminal unless --max-diagnostics or --verbose says otherwise.
const terminalMax = 25

// isTerminal reports whether w is a terminal that colour may be written to:
// never with NO_COLOR set (https://no-color.org) or TERM=dumb.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// relativeTo makes diagnostics' paths, which are relative to dir, relative
// to the working directory cwd instead. In GitHub Actions, annotations and
// SARIF need paths from the repository's root, whatever working-directory
// the step has: there they are relative to GITHUB_WORKSPACE when dir is in it.
func (o *output) relativeTo(cwd, dir string) {
	o.prefix = ""
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && (o.format == diagfmt.GitHubActions || o.format == diagfmt.SARIF) {
		if rel, err := filepath.Rel(ws, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			cwd = ws
		}
	}
	if rel, err := filepath.Rel(cwd, dir); err == nil && rel != "." {
		o.prefix = filepath.ToSlash(rel)
	}
}

// path returns file as the user should see it.
func (o *output) path(file string) string {
	if o.prefix == "" || file == "" {
		return file
	}
	return path.Join(o.prefix, file)
}

// machine reports whether diagnostics go to stdout.
func (o *output) machine() bool { return o.format == diagfmt.JSON || o.format == diagfmt.SARIF }

// diagnostics writes ds, all of a run's diagnostics at once (SARIF is one
// document), to stdout or stderr as the format wants; productOnStdout sends
// them to stderr whatever the format. With --quiet, infos are left out.
func (o *output) diagnostics(ds []diag.Diagnostic, productOnStdout bool) {
	shown := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		// Infos are not annotated: a pull request shows only the first
		// annotations of a step, and those should be what to act on.
		if d.Severity == diag.Info && (o.quiet || (o.format == diagfmt.GitHubActions && !o.verbose)) {
			continue
		}
		shown = append(shown, d)
	}
	w := o.stderr
	if o.machine() && !productOnStdout {
		w = o.stdout
	}
	if len(shown) == 0 && o.format != diagfmt.SARIF {
		return
	}
	omitted, err := diagfmt.Write(w, o.format, shown, diagfmt.Options{Color: o.color && w == o.stderr, Version: version(), Max: o.max, Prefix: o.prefix})
	if err != nil {
		fmt.Fprintf(o.stderr, "toolc: %v\n", err)
	}
	o.more(omitted)
}

// more says how many findings the text format left out, and how to see them.
func (o *output) more(omitted int) {
	if omitted == 0 {
		return
	}
	how := "--verbose shows every one"
	if o.maxSet || o.verbose {
		how = "--max-diagnostics 0 shows every one"
	}
	more := "more findings"
	if omitted == 1 {
		more = "more finding"
	}
	fmt.Fprintf(o.stderr, "toolc: … and %d %s; %s\n", omitted, more, how)
}

// maxDigest is how many warning codes a build's digest lists.
const maxDigest = 9

// digest writes a build's diagnostics for a person: in the text format and
// without --verbose, one line per warning code and every error in full,
// last (diagfmt.WriteDigest), then a line saying what --verbose adds. Other
// formats, and --verbose, get every diagnostic.
func (o *output) digest(ds []diag.Diagnostic) {
	o.digestOf(ds, true, false)
}

// digestOf is digest; without warnings, it lists no warning code (what
// build --check -q wants: only what is stale, and the errors). With
// productOnStdout (convert), machine formats go to stderr.
func (o *output) digestOf(ds []diag.Diagnostic, warnings, productOnStdout bool) {
	if o.format != diagfmt.Text || o.verbose {
		o.diagnostics(ds, productOnStdout)
		return
	}
	folded, err := diagfmt.WriteDigest(o.stderr, ds, diagfmt.DigestOptions{MaxCodes: maxDigest, MaxErrors: o.max, Warnings: warnings, Color: o.color, Path: o.path})
	if err != nil {
		fmt.Fprintf(o.stderr, "toolc: %v\n", err)
	}
	o.more(folded.Errors)
	if o.quiet {
		return
	}
	what := folded.More(ds)
	if what != "" {
		fmt.Fprintf(o.stderr, "toolc: --verbose shows %s\n", what)
	}
}

// status writes a line about the run to stderr, unless --quiet, as diagfmt.Visible shows it.
func (o *output) status(format string, args ...any) {
	if !o.quiet {
		fmt.Fprint(o.stderr, diagfmt.Visible(fmt.Sprintf("toolc: "+format+"\n", args...)))
	}
}

// fail writes why the run failed to stderr, even with --quiet, as status does; returns the exit error.
func (o *output) fail(code int, format string, args ...any) error {
	fmt.Fprint(o.stderr, diagfmt.Visible(fmt.Sprintf("toolc: "+format+"\n", args...)))
	return &exitError{code}
}
