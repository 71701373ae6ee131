package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/earlier"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

type breakingFlags struct {
	placeFlags
	clockFlag
	against string
	strict  bool
	format  string // of the verdict: text or markdown
}

func newBreaking(a *app) *cobra.Command {
	var f breakingFlags
	cmd := command("breaking --against REF [-C DIR] [--manifest FILE]", "Say what breaks callers since an earlier catalog, and which semver bump it needs")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error { return runBreaking(ctx, f, out) })
	fl := cmd.Flags()
	fl.StringVar(&f.against, "against", "", "the earlier catalog: a git `REF`, a folder or a canonical bundle")
	f.placeFlags.add(cmd)
	f.clockFlag.add(cmd)
	fl.StringVar(&f.format, "format", "text", "the verdict as `text`, or as markdown release notes (added, changed, breaking, removed tools) for a changelog or $GITHUB_STEP_SUMMARY")
	fl.BoolVar(&f.strict, "strict", false, "fail on every breaking change, even in a release whose version says it breaks")
	_ = cmd.MarkFlagRequired("against")
	return cmd
}

func runBreaking(ctx context.Context, f breakingFlags, out *output) error {
	if f.format != "text" && f.format != "markdown" {
		return out.fail(exitUsage, "--format %q: want text or markdown", f.format)
	}
	now, err := f.clockFlag.time(out)
	if err != nil {
		return err
	}
	m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{Now: now})
	if err != nil {
		return err
	}
	defer m.Close()
	if res.Failed {
		out.diagnostics(res.Diagnostics, false)
		return out.fail(exitFailed, "the catalog does not build; fix it before comparing")
	}
	old, err := loadEarlier(ctx, f.against, m, out)
	if err != nil {
		return err
	}

	v := res.Compare(old, m.File)
	shown := v.Shown(f.strict)
	out.diagnostics(shown, false)

	w := out.stdout
	if out.machine() {
		w = out.stderr
	}
	if f.format == "markdown" {
		v.WriteChangelog(out.stdout, res.Manifest.Catalog.Name)
	} else {
		v.WriteText(w)
	}
	if out.format == diagfmt.JSON { // the verdict as a record, after the findings
		v.WriteJSON(out.stdout)
	}
	line, failed := v.Status(shown, fmt.Sprintf("%s against %d in %s", diagfmt.Plural(len(res.Catalog), "tool"), len(old.Tools), old.What))
	if failed {
		return out.fail(exitFailed, "%s", line)
	}
	out.status("%s", line)
	return nil
}

// loadEarlier builds the earlier release --against names, saying what is
// wrong with its manifest as such.
func loadEarlier(ctx context.Context, against string, m *pipeline.Workspace, out *output) (*pipeline.Earlier, error) {
	old, err := earlier.Load(ctx, against, m.Cwd, m.Dir(), m.File)
	if err != nil {
		var ce *pipeline.ConfigError
		if errors.As(err, &ce) { // each diagnostic once, then what it is about
			out.diagnostics(ce.Diagnostics, false)
			return nil, out.fail(exitUsage, "--against %s: the earlier catalog's manifest cannot be used", against)
		}
		return nil, out.fail(exitUsage, "%v", err)
	}
	return old, nil
}
