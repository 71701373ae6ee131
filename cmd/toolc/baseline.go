package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

type baselineFlags struct {
	placeFlags
}

func newBaseline(a *app) *cobra.Command {
	var f baselineFlags
	cmd := command("baseline [-C DIR] [--manifest FILE]", "Write toolc.baseline: the findings known now, which build then hides")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error {
		m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{})
		if err != nil {
			return err
		}
		defer m.Close()
		known, errs := pipeline.Baselinable(res.Diagnostics)
		if len(errs) > 0 {
			out.diagnostics(errs, false)
			return out.fail(exitFailed, "no baseline written: the build has %s, which no baseline hides", diagfmt.Plural(len(errs), "error"))
		}
		data, n := pipeline.EncodeBaseline(known)
		if err := pipeline.Write(cmd.Context(), m.Root, []pipeline.Output{pipeline.NewOutput(pipeline.BaselineFile, data)}); err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		out.status("wrote %s with %s; toolc build now reports only new ones",
			out.path(pipeline.BaselineFile), diagfmt.Plural(n, "known finding"))
		return nil
	})
	f.placeFlags.add(cmd)
	return cmd
}
