package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/earlier"
	"github.com/toolc-dev/toolc/internal/membound"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/report"
)

type reportFlags struct {
	placeFlags
	against, format, out string
	jobs                 int
}

func newReport(a *app) *cobra.Command {
	var f reportFlags
	cmd := command("report [--format markdown|html|json] [-o FILE] [--against REF] [-C DIR] [--manifest FILE]", "Say what the catalog costs in tokens and where each tool stands in each target")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error { return runReport(ctx, f, out) })
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "markdown", "`markdown`, html or json")
	fl.StringVarP(&f.out, "output", "o", "", "write to `FILE` instead of standard output")
	fl.StringVar(&f.against, "against", "", "an earlier catalog to compare with: a git `REF` or a folder (markdown only)")
	f.placeFlags.add(cmd)
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "how many files, targets and tools are worked on at once (default: the CPUs)")
	return cmd
}

func runReport(ctx context.Context, f reportFlags, out *output) error {
	if f.format != "markdown" && f.format != "html" && f.format != "json" {
		return out.fail(exitUsage, "--format %q: want markdown, html or json", f.format)
	}
	if f.against != "" && f.format != "markdown" {
		return out.fail(exitUsage, "--against compares in the markdown report only")
	}
	m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{Tokens: true, Jobs: f.jobs})
	if err != nil {
		return err
	}
	defer m.Close()
	overview := report.Make
	if f.format != "json" {
		overview = report.Summary // markdown shows no schema; the page makes each tool's as it writes it
	}
	ov := overview(res, f.jobs)
	var base *report.Overview
	var baseName string
	if f.against != "" {
		if base, baseName, err = againstOverview(ctx, f, m, overview, out); err != nil {
			return err
		}
	}
	defer membound.Hold()() // the builds are done: the page reuses their memory
	write := func(w io.Writer) error {
		switch f.format {
		case "html":
			return report.WriteHTML(w, ov)
		case "json":
			return report.WriteJSON(w, ov)
		}
		return report.WriteMarkdown(w, ov, base, baseName)
	}
	if f.out == "" || f.out == "-" {
		w := bufio.NewWriterSize(out.stdout, 1<<16)
		if err := write(w); err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		return w.Flush()
	}
	if err := pipeline.WriteFile(ctx, m.Path(f.out), write); err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	out.status("wrote %s: %s, %s; %s, %s in the build", f.out, diagfmt.Plural(len(ov.Tools), "tool"), diagfmt.Plural(len(ov.Targets), "target"),
		diagfmt.Plural(ov.Errors, "error"), diagfmt.Plural(ov.Warnings, "warning"))
	return nil
}

// againstOverview is the overview of the earlier release --against names
// (a git revision or a folder), and its name; an empty one where it has no
// manifest yet: the first report, where everything is new.
func againstOverview(ctx context.Context, f reportFlags, m *pipeline.Workspace, overview func(*pipeline.Result, int) *report.Overview, out *output) (*report.Overview, string, error) {
	rel, err := earlier.Find(ctx, f.against, m.Cwd, m.Dir())
	switch {
	case err != nil:
		return nil, "", out.fail(exitUsage, "%v", err)
	case rel.File != "":
		return nil, "", out.fail(exitUsage, "--against %s: the report compares with a git revision or a folder, not a file", f.against)
	}
	if _, err := fs.Stat(rel.FS, m.File); errors.Is(err, fs.ErrNotExist) {
		return &report.Overview{}, rel.What, nil
	}
	res, err := rel.Build(ctx, m.File, pipeline.Options{Tokens: true, Jobs: f.jobs})
	if err != nil {
		return nil, "", out.fail(exitFailed, "the catalog at %s: %v", rel.What, err)
	}
	return overview(res, f.jobs), rel.What, nil
}
