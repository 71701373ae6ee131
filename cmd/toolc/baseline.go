package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

type baselineFlags struct {
	dir      string
	manifest string
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
		defer m.root.Close()
		var errs []diag.Diagnostic // what no baseline hides; denied warnings it does
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error && !pipeline.Baselined(d) {
				errs = append(errs, d)
			}
		}
		if len(errs) > 0 {
			out.diagnostics(errs, false)
			return out.fail(exitFailed, "no baseline written: the build has %s, which no baseline hides", diagfmt.Plural(len(errs), "error"))
		}
		var known []diag.Diagnostic
		for _, d := range res.Diagnostics {
			if pipeline.Baselined(d) {
				known = append(known, d)
			}
		}
		data, n := pipeline.EncodeBaseline(known)
		if err := pipeline.Write(m.root, []pipeline.Output{pipeline.NewOutput(pipeline.BaselineFile, data)}); err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		out.status("wrote %s with %s; toolc build now reports only new ones",
			out.path(pipeline.BaselineFile), diagfmt.Plural(n, "known finding"))
		return nil
	})
	fl := cmd.Flags()
	fl.StringVarP(&f.dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&f.manifest, "manifest", pipeline.DefaultManifest, "the manifest `FILE`; paths in it are relative to its folder")
	_ = cmd.MarkFlagDirname("directory")
	_ = cmd.MarkFlagFilename("manifest", "toml")
	return cmd
}
