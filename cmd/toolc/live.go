package main

import (
	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/capture"
	"github.com/toolc-dev/toolc/internal/live"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

type liveFlags struct {
	placeFlags
	noBaseline bool
}

func newCapture(a *app) *cobra.Command {
	var f liveFlags
	cmd := command("capture [NAME...] [-C DIR] [--manifest FILE]", "Pin the tools that live MCP servers offer, in their sources' files")
	cmd.RunE = f.run(a, func(cmd *cobra.Command, args []string, m *pipeline.Workspace, man *pipeline.Manifest, out *output) error {
		r, err := capture.Capture(cmd.Context(), m.FS(), man, liveOptions(m, args))
		if err := out.failure(m, err); err != nil {
			return err
		}
		out.diagnostics(r.Diagnostics, false)
		if r.Failed {
			return out.fail(exitFailed, "capture failed: nothing written (%s)", r.Servers())
		}
		if err := pipeline.Write(cmd.Context(), m.Root, r.Outputs); err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		for _, line := range r.Captured(out.path) {
			out.status("%s", line)
		}
		return nil
	})
	f.placeFlags.add(cmd)
	return cmd
}

func newVerify(a *app) *cobra.Command {
	var f liveFlags
	cmd := command("verify [NAME...] [-C DIR] [--manifest FILE] [--no-baseline]", "Compare what live MCP servers offer with their pinned captures, writing nothing")
	cmd.RunE = f.run(a, func(cmd *cobra.Command, args []string, m *pipeline.Workspace, man *pipeline.Manifest, out *output) error {
		opts := liveOptions(m, args)
		if !f.noBaseline {
			opts.Baseline = pipeline.BaselineFile
		}
		r, err := capture.Verify(cmd.Context(), m.FS(), man, opts)
		if err := out.failure(m, err); err != nil {
			return err
		}
		out.diagnostics(r.Diagnostics, false)
		sayBaseline(r.Hidden, 0, out) // its other entries are the build's: not gone
		line, failed := r.Verdict()
		if failed {
			return out.fail(exitFailed, "%s", line)
		}
		out.status("%s", line)
		return nil
	})
	f.placeFlags.add(cmd)
	cmd.Flags().BoolVar(&f.noBaseline, "no-baseline", false, "report every finding, even those toolc.baseline knows")
	return cmd
}

// run is the RunE of capture and verify: it opens the manifest of the
// flags, calls fn, and closes it.
func (f *liveFlags) run(a *app, fn func(*cobra.Command, []string, *pipeline.Workspace, *pipeline.Manifest, *output) error) func(*cobra.Command, []string) error {
	return a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		m, err := out.open(f.dir, f.manifest)
		if err != nil {
			return err
		}
		defer m.Close()
		man, err := out.read(m)
		if err != nil {
			return err
		}
		return fn(cmd, args, m, man, out)
	})
}

// liveOptions are the options of capture and verify for the manifest m
// and the sources named in args.
func liveOptions(m *pipeline.Workspace, args []string) capture.Options {
	return capture.Options{
		Options: pipeline.Options{Version: version()},
		Live:    live.Options{Dir: m.Dir(), Version: version()},
		Names:   args,
	}
}
