package main

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/scaffold"
)

func newInit(a *app) *cobra.Command {
	cmd := command("init [DIR]", "Write a starter toolc.toml for the tool files in a folder")
	cmd.Args = cobra.MaximumNArgs(1)
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	cmd.RunE = a.runs(func(cmd *cobra.Command, args []string, out *output) error {
		dir := "."
		if len(args) == 1 {
			dir = args[0]
		}
		return runInit(cmd, dir, out)
	})
	return cmd
}

func runInit(cmd *cobra.Command, dir string, out *output) error {
	info, err := os.Stat(dir)
	if err != nil {
		return out.fail(exitUsage, "%v", err)
	}
	if !info.IsDir() {
		return out.fail(exitUsage, "%s is not a folder", dir)
	}
	manifestPath := filepath.Join(dir, pipeline.DefaultManifest)
	if _, err := os.Stat(manifestPath); err == nil {
		return out.fail(exitFailed, "%s exists; not overwriting it", manifestPath)
	}
	plan, err := scaffold.New(cmd.Context(), os.DirFS(dir), filepath.Base(absPath(dir)))
	if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	if err := plan.Write(dir); err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	cwd, _ := os.Getwd()
	out.relativeTo(cwd, absPath(dir))
	out.diagnostics(plan.Errors(), false)
	out.status("%s", plan.Summary(out.path(pipeline.DefaultManifest)))
	return nil
}

func absPath(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
