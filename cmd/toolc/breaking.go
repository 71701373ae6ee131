package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/gitfs"
)

type breakingFlags struct {
	dir, manifest, against string
	strict                 bool
	format                 string // of the verdict: text or markdown
}

func newBreaking(a *app) *cobra.Command {
	var f breakingFlags
	cmd := &cobra.Command{
		Use:   "breaking --against REF [-C DIR] [--manifest FILE]",
		Short: "Say what breaks callers since an earlier catalog, and which semver bump it needs",
		Long: `Breaking builds the catalog and an earlier one to canonical form, in memory, and
compares them tool by tool (matched by ID), walking each pair of schemas together.
A change is breaking when the new input schema rejects arguments the old one
accepted, or the new output schema allows results the old one did not promise.

REF is a canonical bundle (a file), a folder holding the earlier catalog (its
manifest has the same name), or else a git revision: the manifest and sources as
they were at REF, read with git (no clone, no checkout).

It prints the semantic-version bump the changes need (major, minor, patch or
none) with the reasons, and compares it with [catalog] version: a breaking change
without a major bump is breaking.version (exit 1). A release whose version bump
is at least what the changes need passes: its breaking changes are printed as
warnings, what the release contains. With --strict every breaking change fails,
whatever the version, for teams that want each one acknowledged in the
manifest's policy. It exits 1 when an error remains after the manifest's policy,
which may ignore any breaking code.

Against a revision or folder without the manifest (the first release after
adopting toolc), every tool is added.`,
		Args: cobra.NoArgs,
		RunE: a.withOutput(func(ctx context.Context, out *output) error { return runBreaking(ctx, f, out) }),
	}
	fl := cmd.Flags()
	fl.StringVar(&f.against, "against", "", "the earlier catalog: a git `REF`, a folder or a canonical bundle")
	fl.StringVarP(&f.dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&f.manifest, "manifest", compiler.DefaultManifest, "the manifest `FILE`; paths in it are relative to its folder")
	fl.StringVar(&f.format, "format", "text", "the verdict as `text`, or as markdown release notes (added, changed, breaking, removed tools) for a changelog or $GITHUB_STEP_SUMMARY")
	fl.BoolVar(&f.strict, "strict", false, "fail on every breaking change, even in a release whose version says it breaks")
	_ = cmd.MarkFlagRequired("against")
	return cmd
}

// loadEarlier builds the catalog that ref names: a canonical bundle, a
// folder, or a git revision of the manifest's folder.
func loadEarlier(ctx context.Context, ref string, m *manifestRoot) (*compiler.Earlier, error) {
	fsys, file, what, err := earlierFS(ctx, ref, m)
	switch {
	case err != nil:
		return nil, err
	case file != "":
		return loadBundle(file, ref)
	}
	return compiler.BuildEarlier(ctx, fsys, m.file, what)
}

// earlierFS resolves --against REF: a file (returned as its path), a folder,
// or a git revision of the manifest's folder (returned as a file system),
// with how to name it.
func earlierFS(ctx context.Context, ref string, m *manifestRoot) (fsys fs.FS, file, what string, err error) {
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.cwd, path)
	}
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		return nil, path, "the file " + ref, nil
	} else if err == nil {
		return os.DirFS(path), "", "the folder " + ref, nil
	}
	g, err := gitfs.Open(ctx, m.root.Name(), ref)
	if err != nil {
		hint := ""
		if gitfs.Shallow(ctx, m.root.Name()) {
			hint = "; this is a shallow clone, which lacks the history: fetch it (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)"
		}
		return nil, "", "", fmt.Errorf("--against %s: not a file, a folder or a git revision of %s (%v)%s", ref, m.root.Name(), err, hint)
	}
	return g, "", fmt.Sprintf("%s (%s)", ref, g.Rev[:min(12, len(g.Rev))]), nil
}

func loadBundle(path, ref string) (*compiler.Earlier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	old, err := compiler.ReadEarlier(data, ref)
	if err != nil {
		return nil, fmt.Errorf("--against %s: %w", ref, err)
	}
	old.What = "the bundle " + ref
	return old, nil
}

func runBreaking(ctx context.Context, f breakingFlags, out *output) error {
	if f.format != "text" && f.format != "markdown" {
		return out.fail(exitUsage, "--format %q: want text or markdown", f.format)
	}
	m, res, err := out.built(ctx, f.dir, f.manifest, compiler.Options{})
	if err != nil {
		return err
	}
	defer m.root.Close()
	if res.Failed {
		out.diagnostics(res.Diagnostics, false)
		return out.fail(exitFailed, "the catalog does not build; fix it before comparing")
	}
	old, err := loadEarlier(ctx, f.against, m)
	if err != nil {
		var ce *compiler.ConfigError
		if errors.As(err, &ce) { // each diagnostic once, then what it is about
			out.diagnostics(ce.Diagnostics, false)
			return out.fail(exitUsage, "--against %s: the earlier catalog's manifest cannot be used", f.against)
		}
		return out.fail(exitUsage, "%v", err)
	}

	v := res.Compare(old, m.file)
	shown := v.Findings
	if !f.strict && v.Need == breaking.Major && breaking.Covers(v.From, v.To, v.Need) {
		shown, v.Acknowledged = breaking.Acknowledge(v.Findings, v.To)
	}
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
	errs, _, _ := diag.Count(shown)
	summary := fmt.Sprintf("%s against %d in %s", diagfmt.Plural(len(res.Catalog), "tool"), len(old.Tools), old.What)
	if errs > 0 {
		return out.fail(exitFailed, "breaking: %s: %s", diagfmt.Plural(errs, "error"), summary)
	}
	if v.Acknowledged > 0 {
		out.status("%s is a major release and says so: %s that break callers, printed above: %s", v.To, diagfmt.Plural(v.Acknowledged, "change"), summary)
		return nil
	}
	out.status("nothing breaks: %s", summary)
	return nil
}
