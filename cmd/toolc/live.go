package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/capture"
	"github.com/toolc-dev/toolc/internal/diagfmt"
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
	cmd.RunE = f.run(a, func(cmd *cobra.Command, args []string, m *manifestRoot, man *pipeline.Manifest, out *output) error {
		r, err := capture.Capture(cmd.Context(), m.root.FS(), man, liveOptions(m, args))
		if err := m.failure(err, out); err != nil {
			return err
		}
		out.diagnostics(r.Diagnostics, false)
		if r.Failed {
			return out.fail(exitFailed, "capture failed: nothing written (%s)", r.Servers())
		}
		if err := pipeline.Write(cmd.Context(), m.root, r.Outputs); err != nil {
			return out.fail(exitFailed, "%v", err)
		}
		captured(r, out)
		return nil
	})
	f.placeFlags.add(cmd)
	return cmd
}

func newVerify(a *app) *cobra.Command {
	var f liveFlags
	cmd := command("verify [NAME...] [-C DIR] [--manifest FILE] [--no-baseline]", "Compare what live MCP servers offer with their pinned captures, writing nothing")
	cmd.RunE = f.run(a, func(cmd *cobra.Command, args []string, m *manifestRoot, man *pipeline.Manifest, out *output) error {
		opts := liveOptions(m, args)
		if !f.noBaseline {
			opts.Baseline = pipeline.BaselineFile
		}
		r, err := capture.Verify(cmd.Context(), m.root.FS(), man, opts)
		if err := m.failure(err, out); err != nil {
			return err
		}
		out.diagnostics(r.Diagnostics, false)
		if r.Hidden > 0 {
			out.status("%s hid %s it knows (--no-baseline shows them)", pipeline.BaselineFile, diagfmt.Plural(r.Hidden, "finding"))
		}
		return verdict(r, out)
	})
	f.placeFlags.add(cmd)
	cmd.Flags().BoolVar(&f.noBaseline, "no-baseline", false, "report every finding, even those toolc.baseline knows")
	return cmd
}

// run is the RunE of capture and verify: it opens the manifest of the
// flags, calls fn, and closes it.
func (f *liveFlags) run(a *app, fn func(*cobra.Command, []string, *manifestRoot, *pipeline.Manifest, *output) error) func(*cobra.Command, []string) error {
	return a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		m, err := out.open(f.dir, f.manifest)
		if err != nil {
			return err
		}
		defer m.root.Close()
		man, err := m.read(out)
		if err != nil {
			return err
		}
		return fn(cmd, args, m, man, out)
	})
}

// captured says what capture wrote, for each server.
func captured(r *capture.Result, out *output) {
	for i, s := range r.Sources {
		l := r.Listings[i]
		name := "the server"
		if l.Server != nil && l.Server.Name != "" {
			name = l.Server.Name
			if l.Server.Version != "" {
				name += " " + l.Server.Version
			}
		}
		out.status("captured %s: %s from %s in %s; toolc build pins it", out.path(s.File), diagfmt.Plural(len(l.Tools), "tool"), name, diagfmt.Plural(l.Pages, "page"))
	}
}

// verdict is verify's last word: which servers drifted, with the release
// the catalog's drift calls for, and whether that fails.
func verdict(r *capture.Result, out *output) error {
	var drifted, unread []string
	bump := breaking.None
	for i, s := range r.Sources {
		switch {
		case r.Listings[i] == nil:
			unread = append(unread, s.Name)
		case r.Bumps[i] > breaking.None:
			drifted = append(drifted, fmt.Sprintf("%s (%s)", s.Name, r.Bumps[i]))
			bump = max(bump, r.Bumps[i])
		}
	}
	notRead := ""
	if len(unread) > 0 { // the others' drift is reported all the same
		notRead = "; not read: " + strings.Join(unread, ", ")
	}
	switch {
	case r.Failed && len(drifted) > 0:
		return out.fail(exitFailed, "drift: %s; the catalog's release would be %s (toolc capture pins what is live)%s", strings.Join(drifted, ", "), bump, notRead)
	case r.Failed:
		return out.fail(exitFailed, "verify failed (%s)%s", r.Servers(), notRead)
	case len(drifted) > 0:
		out.status("drift the policy allows: %s", strings.Join(drifted, ", "))
	default:
		out.status("no drift: %s as pinned", r.Servers())
	}
	return nil
}

// liveOptions are the options of capture and verify for the manifest m
// and the sources named in args.
func liveOptions(m *manifestRoot, args []string) capture.Options {
	return capture.Options{
		Options: pipeline.Options{Version: version()},
		Live:    live.Options{Dir: m.root.Name(), Version: version()},
		Names:   args,
	}
}
