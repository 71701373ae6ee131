package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/pipeline"
)

// The commands that make toolc a good citizen of a build graph (Turborepo,
// Nx, Bazel): what a build reads, what it writes, and a key of its inputs.

func newInputs(a *app) *cobra.Command {
	return listCommand(a, "inputs", "List every file a build reads", "json (path and sha256 of each)",
		func(ctx context.Context, f placeFlags, out *output) (any, []string, error) {
			m, res, err := out.built(ctx, f.dir, f.manifest, pipeline.Options{CatalogOnly: true, Baseline: pipeline.BaselineFile})
			if err != nil {
				return nil, nil, err
			}
			defer m.Close()
			var paths []string
			for _, in := range res.Inputs() {
				paths = append(paths, in.Path)
			}
			return res.Inputs(), paths, nil
		})
}

func newOutputs(a *app) *cobra.Command {
	return listCommand(a, "outputs", "List every file a build writes", "json (an array)",
		func(_ context.Context, f placeFlags, out *output) (any, []string, error) {
			m, err := out.open(f.dir, f.manifest)
			if err != nil {
				return nil, nil, err
			}
			defer m.Close()
			man, err := out.read(m)
			if err != nil {
				return nil, nil, err
			}
			paths := pipeline.OutputPaths(man)
			return paths, paths, nil
		})
}

// listCommand is a command that prints a list of paths, one a line, or
// list's JSON with --format json.
func listCommand(a *app, name, short, jsonDoc string, list func(context.Context, placeFlags, *output) (any, []string, error)) *cobra.Command {
	var f placeFlags
	var format string
	cmd := command(name+" [--format text|json] [-C DIR] [--manifest FILE]", short)
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.withOutput(func(ctx context.Context, out *output) error {
		if format != "text" && format != "json" {
			return out.fail(exitUsage, "--format %q: want text or json", format)
		}
		v, paths, err := list(ctx, f, out)
		if err != nil {
			return err
		}
		if format == "json" {
			data, _ := json.MarshalIndent(v, "", "  ") // paths and hashes always encode
			fmt.Fprintf(out.stdout, "%s\n", data)
			return nil
		}
		for _, p := range paths {
			fmt.Fprintln(out.stdout, p)
		}
		return nil
	})
	f.add(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "`text` (a path a line) or "+jsonDoc)
	return cmd
}

// printKey prints the build's key (pipeline.Result.Key).
func printKey(ctx context.Context, m *pipeline.Workspace, opts pipeline.Options, out *output) error {
	opts.CatalogOnly = true
	res, err := out.build(ctx, m, opts)
	if err != nil {
		return err
	}
	fmt.Fprintln(out.stdout, res.Key(version()))
	return nil
}
