package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/scaffold"
)

func newInit(a *app) *cobra.Command {
	cmd := command("init [DIR]", "Write a starter toolc.toml for the tool files in a folder")
	cmd.Args = cobra.MaximumNArgs(1)
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		out, err := a.output()
		if err != nil {
			return err
		}
		dir := "."
		if len(args) == 1 {
			dir = args[0]
		}
		return runInit(cmd, dir, out)
	}
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
	res := plan.Result

	// O_EXCL: a manifest written since the check above is not overwritten.
	f, err := os.OpenFile(manifestPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	if _, err := f.WriteString(plan.Manifest); err != nil {
		f.Close()
		return out.fail(exitFailed, "%v", err)
	}
	if err := f.Close(); err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	cwd, _ := os.Getwd()
	out.relativeTo(cwd, absPath(dir))
	var errs []diag.Diagnostic // the warnings are counted; toolc build lists them
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	out.diagnostics(errs, false)
	_, warns, _ := diagfmt.Count(res.Diagnostics)
	msg := fmt.Sprintf("wrote %s: %s in %s, %s; toolc build now gives %s and %s",
		out.path(pipeline.DefaultManifest), diagfmt.Plural(plan.Files, "tool file"), diagfmt.Plural(plan.Sources, "source"), diagfmt.Plural(res.Tools, "tool"), diagfmt.Plural(warns, "warning"), diagfmt.Plural(len(errs), "error"))
	if plan.LeftOut > 0 {
		msg += fmt.Sprintf(" (%s that would not build left out; the manifest says why)", diagfmt.Plural(plan.LeftOut, "file"))
	}
	out.status("%s", msg)
	return nil
}

func absPath(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
