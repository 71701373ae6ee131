package main

import (
	"github.com/toolc-dev/toolc/internal/targets"

	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// The commands that make toolc a good citizen of a build graph (Turborepo,
// Nx, Bazel): what a build reads, what it writes, and a key of its inputs.

func newInputs(a *app) *cobra.Command {
	var f placeFlags
	var format string
	cmd := command("inputs [--format text|json] [-C DIR] [--manifest FILE]", "List every file a build reads")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error {
		if format != "text" && format != "json" {
			return out.fail(exitUsage, "--format %q: want text or json", format)
		}
		m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{CatalogOnly: true, Baseline: pipeline.BaselineFile})
		if err != nil {
			return err
		}
		defer m.root.Close()
		ins := res.Inputs()
		if format == "json" {
			data, err := json.MarshalIndent(ins, "", "  ")
			if err != nil {
				return out.fail(exitFailed, "%v", err)
			}
			fmt.Fprintf(out.stdout, "%s\n", data)
			return nil
		}
		for _, in := range ins {
			fmt.Fprintln(out.stdout, in.Path)
		}
		return nil
	})
	f.add(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "`text` (a path a line) or json (path and sha256 of each)")
	return cmd
}

func newOutputs(a *app) *cobra.Command {
	var f placeFlags
	var format string
	cmd := command("outputs [--format text|json] [-C DIR] [--manifest FILE]", "List every file a build writes")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error {
		if format != "text" && format != "json" {
			return out.fail(exitUsage, "--format %q: want text or json", format)
		}
		m, err := out.open(f.dir, f.manifest)
		if err != nil {
			return err
		}
		defer m.root.Close()
		man, err := m.read(out)
		if err != nil {
			return err
		}
		paths := []string{manifest.LockFile}
		for _, t := range man.Targets {
			if targets.Folder(t.Format) {
				paths = append(paths, t.Out+"/") // its files are what the catalog makes
				continue
			}
			paths = append(paths, t.Out)
		}
		slices.Sort(paths)
		if format == "json" {
			data, _ := json.MarshalIndent(paths, "", "  ")
			fmt.Fprintf(out.stdout, "%s\n", data)
			return nil
		}
		for _, p := range paths {
			fmt.Fprintln(out.stdout, p)
		}
		return nil
	})
	f.add(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "`text` (a path a line) or json (an array)")
	return cmd
}

// printKey prints the build's key: the SHA-256 of toolc's version and of
// each input's path and hash. The same key, the same outputs.
func printKey(ctx context.Context, m *manifestRoot, opts pipeline.Options, out *output) error {
	opts.CatalogOnly = true
	res, err := m.build(ctx, opts, out)
	if err != nil {
		return err
	}
	h := sha256.New()
	fmt.Fprintf(h, "toolc %s\n", version())
	for _, in := range res.Inputs() {
		fmt.Fprintf(h, "%s %s\n", in.Path, in.Hash)
	}
	fmt.Fprintf(out.stdout, "sha256:%s\n", hex.EncodeToString(h.Sum(nil)))
	return nil
}
