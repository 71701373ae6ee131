package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/membound"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

type buildFlags struct {
	placeFlags
	clockFlag
	jobs  int
	check bool
	diff  bool
	all   bool // --no-baseline
	full  bool // --check --full: never the fast path
	key   bool // --print-key
	// cache is --cache, the build cache's folder; noCache --no-cache.
	cache   string
	noCache bool
	// only is --target: the targets to build, by name; no lock.
	only []string
	// outDir is --out-dir: where the outputs and the lock are written
	// (and --check compares), instead of beside the manifest.
	outDir string
}

func newBuild(a *app) *cobra.Command {
	var f buildFlags
	cmd := command("build [-C DIR] [--manifest FILE] [--jobs N] [--check [--diff]] [--error-format F]", "Build every target of toolc.toml and write toolc.lock")
	cmd.Args = cobra.NoArgs
	cmd.RunE = a.runs(func(cmd *cobra.Command, _ []string, out *output) error {
		return runBuild(cmd, f, out)
	})
	fl := cmd.Flags()
	f.placeFlags.add(cmd)
	f.clockFlag.add(cmd)
	fl.IntVar(&f.jobs, "jobs", 0, "work on at most `N` processors: files, tools and targets at once (default: every CPU)")
	fl.BoolVar(&f.check, "check", false, "write nothing; exit 1 if an output or the lock is missing or out of date")
	fl.BoolVar(&f.key, "print-key", false, "write nothing; print the key of the build (the inputs' hashes and toolc's version), for a build system's cache")
	fl.StringVar(&f.outDir, "out-dir", "", "write every output and toolc.lock under `DIR`, at their paths, instead of beside the manifest (a build sandbox's output folder)")
	fl.StringSliceVar(&f.only, "target", nil, "build only the target `NAME` (repeat, or comma-separate, for several) and write no lock: the first step of a release whose server.json waits for a packed file")
	fl.StringVar(&f.cache, "cache", "", "keep the build cache in `DIR` (default: toolc in the user cache directory): a build that toolc.lock says is up to date prints what it printed, without building")
	fl.BoolVar(&f.noCache, "no-cache", false, "build even when toolc.lock says nothing changed, and leave the cache alone")
	fl.BoolVar(&f.diff, "diff", false, "with --check, print a unified diff of each file that would change")
	fl.BoolVar(&f.full, "full", false, "with --check, build even when toolc.lock shows that nothing changed")
	fl.BoolVar(&f.all, "no-baseline", false, "report every finding, also those toolc.baseline knows")
	return cmd
}

// manifestRoot is a manifest's folder opened as the root of a build.
type manifestRoot struct {
	cwd  string // the working directory, after -C
	file string // the manifest's name in root
	root *os.Root
}

// openManifest resolves -C and --manifest and opens the manifest's folder.
func openManifest(dir, manifest string) (*manifestRoot, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		cwd = dir
	}
	if !filepath.IsAbs(manifest) {
		manifest = filepath.Join(cwd, manifest)
	}
	if filepath.Base(manifest) == pipeline.DefaultManifest {
		manifest = pipeline.FindManifest(manifest)
	}
	root, err := os.OpenRoot(filepath.Dir(manifest))
	if err != nil {
		return nil, fmt.Errorf("cannot open the manifest's folder: %w", err)
	}
	return &manifestRoot{cwd: cwd, file: filepath.Base(manifest), root: root}, nil
}

// build builds the manifest, writing nothing. A manifest that cannot be used
// is reported and is the error (exit 2).
// open opens the manifest of a command's -C and --manifest flags and
// names paths relative to the working directory from then on; an error has
// been said (exit 2).
func (o *output) open(dir, manifest string) (*manifestRoot, error) {
	m, err := openManifest(dir, manifest)
	if err != nil {
		return nil, o.fail(exitUsage, "%v", err)
	}
	o.relativeTo(m.cwd, m.root.Name())
	return m, nil
}

// built opens the manifest as open does and builds it in memory with
// opts; the caller closes m.root.
func (o *output) built(ctx context.Context, dir, manifest string, opts pipeline.Options) (*manifestRoot, *pipeline.Result, error) {
	m, err := o.open(dir, manifest)
	if err != nil {
		return nil, nil, err
	}
	res, err := m.build(ctx, opts, o)
	if err != nil {
		m.root.Close()
		return nil, nil, err
	}
	return m, res, nil
}

func (m *manifestRoot) build(ctx context.Context, opts pipeline.Options, out *output) (*pipeline.Result, error) {
	man, err := m.read(out)
	if err != nil {
		return nil, err
	}
	opts.Read = membound.Bound // every build of the CLI's: a large one bounds its heap
	res, err := pipeline.Build(ctx, m.root.FS(), man, opts)
	if err := m.failure(err, out); err != nil {
		return nil, err
	}
	return res, nil
}

// read reads and checks the manifest, reporting what is wrong with it.
func (m *manifestRoot) read(out *output) (*pipeline.Manifest, error) {
	man, err := pipeline.ReadManifest(m.root.FS(), m.file)
	if err := m.failure(err, out); err != nil {
		return nil, err
	}
	return man, nil
}

// failure reports err, from compiling m, and returns the exit error: a
// configuration error (exit 2) with its diagnostics, named by the file it
// is about, or another failure (exit 1); nil for nil.
func (m *manifestRoot) failure(err error, out *output) error {
	var ce *pipeline.ConfigError
	switch {
	case errors.As(err, &ce):
		out.diagnostics(ce.Diagnostics, false)
		file := m.file
		if len(ce.Diagnostics) > 0 && ce.Diagnostics[0].File != "" {
			file = ce.Diagnostics[0].File // toolc.baseline, say
		}
		return out.fail(exitUsage, "%s: configuration error", out.path(file))
	case errors.Is(err, pipeline.ErrUnknownTarget):
		return out.fail(exitUsage, "--target: %v", err)
	case errors.Is(err, context.Canceled):
		return out.fail(exitFailed, "interrupted: nothing was written")
	case err != nil:
		return out.fail(exitFailed, "%v", err)
	}
	return nil
}

// validate refuses flags that do not go together, and sizes the workers
// by --jobs.
func (f buildFlags) validate(cmd *cobra.Command, out *output) error {
	switch {
	case f.jobs < 0 || (f.jobs == 0 && cmd.Flags().Changed("jobs")):
		return out.fail(exitUsage, "--jobs %d: must be at least 1", f.jobs)
	case f.diff && !f.check:
		return out.fail(exitUsage, "--diff needs --check")
	case f.full && !f.check:
		return out.fail(exitUsage, "--full needs --check")
	case f.key && f.check:
		return out.fail(exitUsage, "--print-key and --check: one at a time")
	case len(f.only) > 0 && (f.check || f.key):
		return out.fail(exitUsage, "--target builds part of the catalog: --check and --print-key are of a whole build")
	case f.noCache && f.cache != "":
		return out.fail(exitUsage, "--cache and --no-cache: one or the other")
	}
	if f.jobs > 0 {
		runtime.GOMAXPROCS(f.jobs) // the workers of every stage size themselves by it
	}
	return nil
}

func runBuild(cmd *cobra.Command, f buildFlags, out *output) error {
	start := time.Now()
	if err := f.validate(cmd, out); err != nil {
		return err
	}
	m, err := out.open(f.dir, f.manifest)
	if err != nil {
		return err
	}
	defer m.root.Close()

	now, err := f.clockFlag.time(out)
	if err != nil {
		return err
	}
	opts := pipeline.Options{Jobs: f.jobs, Baseline: pipeline.BaselineFile, Version: version(), Now: now, Targets: f.only}
	if f.all {
		opts.Baseline = ""
	}
	if f.key {
		return printKey(cmd.Context(), m, opts, out)
	}
	outs := m.root // where the outputs and the lock are
	if f.outDir != "" {
		dir := f.outDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(m.cwd, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return out.fail(exitFailed, "--out-dir: %v", err)
		}
		if outs, err = os.OpenRoot(dir); err != nil {
			return out.fail(exitFailed, "--out-dir: %v", err)
		}
		defer outs.Close()
	}
	if f.check && !f.full && !f.all && f.outDir == "" {
		if fresh, err := upToDate(cmd.Context(), m, f.jobs, out, start); fresh || err != nil {
			return err
		}
	}
	cache := openCache(m, f, now)
	if !f.check {
		e, err := cache.get(cmd.Context(), f.jobs, out)
		if err != nil {
			return err
		}
		if e != nil {
			sayCached(e, out, start)
			return nil
		}
	}
	res, err := m.build(cmd.Context(), opts, out)
	if err != nil {
		return err
	}
	errs, warns, _ := diagfmt.Count(res.Diagnostics)
	summary := fmt.Sprintf("%s from %s, %s: %s, %s (%s)",
		diagfmt.Plural(res.Tools, "tool"), diagfmt.Plural(res.Files, "source file"), diagfmt.Plural(res.Targets, "target"), diagfmt.Plural(warns, "warning"), diagfmt.Plural(errs, "error"), time.Since(start).Round(time.Millisecond))
	if res.Failed {
		out.digest(res.Diagnostics)
		baselineStatus(res, out)
		return out.fail(exitFailed, "build failed: %s", summary)
	}
	if f.check {
		return check(outs, res, f.diff, out, summary)
	}
	// The files are written while the findings are printed; what the write says comes after.
	written := make(chan writeResult, 1)
	go func() { written <- writeOutputs(cmd.Context(), outs, res) }()
	out.digest(res.Diagnostics)
	baselineStatus(res, out)
	if err := (<-written).say(out); err != nil {
		return err
	}
	sayPlans(res, out)
	cache.put(res)
	if len(f.only) > 0 {
		out.status("built %s; toolc.lock not written: it records a whole build", summary)
		return nil
	}
	out.status("built %s", summary)
	return nil
}

// sayPlans says, per target that defers tools ([load]), what it loads and
// what it leaves to the tool search.
func sayPlans(res *pipeline.Result, out *output) {
	for _, l := range planLines(res) {
		out.status("%s", l)
	}
}

// planLines are sayPlans' lines.
func planLines(res *pipeline.Result) []string {
	var lines []string
	for _, b := range res.Bundles {
		p := b.Plan
		if p == nil || !p.Defers || p.Deferrals() == 0 {
			continue
		}
		budget := ""
		if p.Budget > 0 {
			budget = fmt.Sprintf(" of a %s-token budget", diagfmt.Thousands(p.Budget))
		}
		search := ""
		if p.Search != "" {
			search = " to " + p.Search
		}
		loaded := len(p.Deferred) - p.Deferrals()
		tools := diagfmt.Thousands(loaded) + " tools"
		if loaded == 1 {
			tools = "1 tool"
		}
		lines = append(lines, fmt.Sprintf("%s loads %s (%s tokens%s) and defers %s%s; toolc report lists them",
			b.Target, tools, diagfmt.Thousands(p.Loaded), budget, diagfmt.Thousands(p.Deferrals()), search))
	}
	return lines
}

// upToDate is --check's fast path: toolc.lock holds the hash of
// everything that decides the outputs; when all of them match, a build
// would write what is there. It never says "up to date" falsely: any doubt
// builds.
func upToDate(ctx context.Context, m *manifestRoot, jobs int, out *output, start time.Time) (bool, error) {
	man, err := m.read(out)
	if err != nil {
		return false, err
	}
	fresh, why, err := pipeline.Fresh(ctx, m.root.FS(), man, pipeline.Options{Jobs: jobs, Version: version()})
	switch {
	case err != nil:
		return false, out.fail(exitFailed, "%v", err)
	case fresh:
		out.status("up to date: every hash in toolc.lock matches, so nothing was built (%s; --full builds to check)", time.Since(start).Round(time.Millisecond))
	case out.verbose:
		out.status("building to check: %s", why)
	}
	return fresh, nil
}

// writeResult is what writing a build's outputs did.
type writeResult struct {
	orphans pipeline.Orphans
	err     error
}

// writeOutputs writes the build's outputs and removes the bundles of
// targets no longer in the manifest (but one edited since toolc wrote
// it). It prints nothing: say does.
func writeOutputs(ctx context.Context, root *os.Root, res *pipeline.Result) writeResult {
	orphans := res.Orphans(root.FS())
	if err := pipeline.Write(ctx, root, res.Outputs); err != nil {
		return writeResult{err: err}
	}
	return writeResult{orphans: orphans, err: pipeline.RemoveOrphans(root, orphans)}
}

// say reports what the write did.
func (w writeResult) say(out *output) error {
	switch {
	case errors.Is(w.err, context.Canceled):
		return out.fail(exitFailed, "interrupted: nothing was written")
	case w.err != nil:
		return out.fail(exitFailed, "%v", w.err)
	}
	why := func(p string) string {
		if _, made := w.orphans.Made[p]; made {
			return "its target no longer makes it"
		}
		return "its target is no longer in the manifest"
	}
	for _, p := range w.orphans.Remove {
		out.status("removed %s: %s", out.path(p), why(p))
	}
	for _, p := range w.orphans.Edited {
		out.status("left %s in place: %s, but it was edited since toolc wrote it", out.path(p), why(p))
	}
	return nil
}

// check reports each output that differs from the disk as a diagnostic,
// with a unified diff of each when asked.
func check(root *os.Root, res *pipeline.Result, diff bool, out *output, summary string) error {
	stale, err := res.Stale(root.FS())
	if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	diffs, orphans := stale.Diffs, stale.Orphans
	ds := append(slices.Clone(res.Diagnostics), stale.Diagnostics()...)
	out.digestOf(diag.Sort(ds), !out.quiet, false) // -q: only what is stale, and the errors
	baselineStatus(res, out)
	if diff {
		w := out.stdout
		if out.machine() { // stdout holds the diagnostics
			w = out.stderr
		}
		for _, d := range diffs {
			io.WriteString(w, d.Unified(out.path(d.Path)))
		}
	}
	if n := len(diffs) + len(orphans); n > 0 {
		what := fmt.Sprintf("%d of %d files differ", len(diffs), len(res.Outputs))
		if len(orphans) > 0 {
			what += fmt.Sprintf(", %d left from removed targets", len(orphans))
		}
		return out.fail(exitFailed, "check failed: %s; %s", what, summary)
	}
	out.status("up to date: %s", summary)
	return nil
}

// baselineStatus says, last, what the baseline hid.
func baselineStatus(res *pipeline.Result, out *output) {
	if res.Hidden == 0 && res.Gone == 0 {
		return
	}
	msg := fmt.Sprintf("%s hid %s it knows (--no-baseline shows them)", pipeline.BaselineFile, diagfmt.Plural(res.Hidden, "finding"))
	switch {
	case res.Gone == 1:
		msg += "; 1 of its entries no longer occurs: toolc baseline rewrites it"
	case res.Gone > 1:
		msg += fmt.Sprintf("; %d of its entries no longer occur: toolc baseline rewrites it", res.Gone)
	}
	out.status("%s", msg)
}
