package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
)

type buildFlags struct {
	dir      string
	manifest string
	jobs     int
	check    bool
}

func newBuild(stderr io.Writer) *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "build [-C DIR] [--manifest FILE] [--jobs N] [--check]",
		Short: "Build every target of toolc.toml and write toolc.lock",
		Long: `Build reads toolc.toml, decodes every source file it names, and writes one bundle per
target and toolc.lock, atomically: a failed build writes nothing.

With --check it writes nothing, compares what it would write with what is on disk,
and exits 1 listing each output or lock file that is missing or differs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBuild(cmd, f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&f.manifest, "manifest", compiler.DefaultManifest, "the manifest `FILE`; paths in it are relative to its folder")
	fl.IntVar(&f.jobs, "jobs", 0, "read and decode at most `N` files at once (default: number of CPUs)")
	fl.BoolVar(&f.check, "check", false, "write nothing; exit 1 if an output or the lock is missing or out of date")
	return cmd
}

func runBuild(cmd *cobra.Command, f buildFlags, stderr io.Writer) error {
	start := time.Now()
	if f.jobs < 0 {
		fmt.Fprintf(stderr, "toolc: --jobs must be at least 1\n")
		return &exitError{exitUsage}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return usageErr(stderr, err)
	}
	if f.dir != "" {
		if !filepath.IsAbs(f.dir) {
			f.dir = filepath.Join(cwd, f.dir)
		}
		cwd = f.dir
	}
	manifestPath := f.manifest
	if !filepath.IsAbs(manifestPath) {
		manifestPath = filepath.Join(cwd, manifestPath)
	}
	dir := filepath.Dir(manifestPath)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return usageErr(stderr, fmt.Errorf("cannot open the manifest's folder: %w", err))
	}
	defer root.Close()

	p := newPrinter(stderr, cwd, dir)
	res, err := compiler.Build(cmd.Context(), root.FS(), compiler.Options{Manifest: filepath.Base(manifestPath), Jobs: f.jobs})
	var ce *compiler.ConfigError
	switch {
	case errors.As(err, &ce):
		p.diagnostics(ce.Diagnostics)
		fmt.Fprintf(stderr, "toolc: %s: configuration error\n", p.path(filepath.Base(manifestPath)))
		return &exitError{exitUsage}
	case err != nil:
		fmt.Fprintf(stderr, "toolc: %v\n", err)
		return &exitError{exitFailed}
	}
	p.diagnostics(res.Diagnostics)
	errs, warns, _ := diag.Count(res.Diagnostics)
	summary := fmt.Sprintf("%d tools from %d source files, %d targets: %s, %s (%s)",
		res.Tools, res.Files, res.Targets, plural(warns, "warning"), plural(errs, "error"), time.Since(start).Round(time.Millisecond))
	if res.Failed {
		fmt.Fprintf(stderr, "toolc: build failed: %s\n", summary)
		return &exitError{exitFailed}
	}
	if f.check {
		diffs, err := compiler.Check(root.FS(), res.Outputs)
		if err != nil {
			fmt.Fprintf(stderr, "toolc: %v\n", err)
			return &exitError{exitFailed}
		}
		for _, d := range diffs {
			what := "is out of date"
			if d.Missing {
				what = "is missing"
			}
			fmt.Fprintf(stderr, "%s: %s; run toolc build\n", p.path(d.Path), what)
		}
		if len(diffs) > 0 {
			fmt.Fprintf(stderr, "toolc: check failed: %d of %d files differ; %s\n", len(diffs), len(res.Outputs), summary)
			return &exitError{exitFailed}
		}
		fmt.Fprintf(stderr, "toolc: up to date: %s\n", summary)
		return nil
	}
	if err := compiler.Write(root, res.Outputs); err != nil {
		fmt.Fprintf(stderr, "toolc: %v\n", err)
		return &exitError{exitFailed}
	}
	fmt.Fprintf(stderr, "toolc: built %s\n", summary)
	return nil
}

func usageErr(w io.Writer, err error) error {
	fmt.Fprintf(w, "toolc: %v\n", err)
	return &exitError{exitUsage}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// printer writes diagnostics as text, with paths relative to the working
// directory and colour only on a terminal without NO_COLOR.
type printer struct {
	w      io.Writer
	prefix string // the manifest's folder relative to the working directory
	color  bool
}

func newPrinter(w io.Writer, cwd, manifestDir string) *printer {
	p := &printer{w: w}
	if rel, err := filepath.Rel(cwd, manifestDir); err == nil && rel != "." {
		p.prefix = filepath.ToSlash(rel)
	}
	if f, ok := w.(*os.File); ok && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.color = true
		}
	}
	return p
}

func (p *printer) path(file string) string {
	if p.prefix == "" || file == "" {
		return file
	}
	return path.Join(p.prefix, file)
}

var severityColor = map[diag.Severity]string{diag.Error: "\x1b[1;31m", diag.Warning: "\x1b[1;33m", diag.Info: "\x1b[1;36m"}

func (p *printer) diagnostics(ds []diag.Diagnostic) {
	for _, d := range ds {
		d.File = p.path(d.File)
		line := d.String()
		if p.color {
			sev := d.Severity.String()
			colored := severityColor[d.Severity] + sev + "\x1b[0m"
			if strings.HasPrefix(line, sev+" ") {
				line = colored + line[len(sev):]
			} else {
				line = strings.Replace(line, " "+sev+" ", " "+colored+" ", 1)
			}
		}
		fmt.Fprintln(p.w, line)
		if d.Fix != "" {
			fmt.Fprintf(p.w, "\tfix: %s\n", d.Fix)
		}
	}
}
