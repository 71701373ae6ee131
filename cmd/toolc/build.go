package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/buildcache"
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

// open opens the workspace of a command's -C and --manifest and names
// paths relative to the working directory from then on; an error has been
// said (exit 2). The caller closes it.
func (o *output) open(dir, manifest string) (*pipeline.Workspace, error) {
	m, err := pipeline.OpenWorkspace(dir, manifest)
	if err != nil {
		return nil, o.fail(exitUsage, "%v", err)
	}
	o.relativeTo(m.Cwd, m.Dir())
	return m, nil
}

// built opens the workspace as open does and builds it in memory with
// opts; the caller closes m.
func (o *output) built(ctx context.Context, dir, manifest string, opts pipeline.Options) (*pipeline.Workspace, *pipeline.Result, error) {
	m, err := o.open(dir, manifest)
	if err != nil {
		return nil, nil, err
	}
	res, err := o.build(ctx, m, opts)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, res, nil
}

// build builds m's manifest in memory, saying what is wrong with it.
func (o *output) build(ctx context.Context, m *pipeline.Workspace, opts pipeline.Options) (*pipeline.Result, error) {
	opts.Memory = membound.Reading // every build of the CLI's: a large one bounds its heap
	res, err := m.Build(ctx, opts)
	if err := o.failure(m, err); err != nil {
		return nil, err
	}
	return res, nil
}

// read reads and checks m's manifest, saying what is wrong with it.
func (o *output) read(m *pipeline.Workspace) (*pipeline.Manifest, error) {
	man, err := m.Read()
	if err := o.failure(m, err); err != nil {
		return nil, err
	}
	return man, nil
}

// failure reports err, from compiling m (nil for a write or a check),
// and returns the exit error: a configuration error (exit 2) with its
// diagnostics, named by the file it is about, or another failure (exit
// 1), an output that could not be made with its diagnostic; nil for nil.
func (o *output) failure(m *pipeline.Workspace, err error) error {
	var ce *pipeline.ConfigError
	var ue *pipeline.UnmadeError
	switch {
	case errors.As(err, &ue):
		o.diagnostics(ue.Diagnostics, false)
		return o.fail(exitFailed, "%v", err)
	case errors.As(err, &ce):
		o.diagnostics(ce.Diagnostics, false)
		file := m.File
		if len(ce.Diagnostics) > 0 && ce.Diagnostics[0].File != "" {
			file = ce.Diagnostics[0].File // toolc.baseline, say
		}
		return o.fail(exitUsage, "%s: configuration error", o.path(file))
	case errors.Is(err, pipeline.ErrUnknownTarget):
		return o.fail(exitUsage, "--target: %v", err)
	case errors.Is(err, context.Canceled):
		return o.fail(exitFailed, "interrupted: nothing was written")
	case err != nil:
		return o.fail(exitFailed, "%v", err)
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
	defer m.Close()

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
	outs, err := m.OutputRoot(f.outDir) // where the outputs and the lock are
	if err != nil {
		return out.fail(exitFailed, "--out-dir: %v", err)
	}
	if outs != m.Root {
		defer outs.Close()
	}
	if f.check && !f.full && !f.all && f.outDir == "" {
		if fresh, err := upToDate(cmd.Context(), m, f.jobs, out, start); fresh || err != nil {
			return err
		}
	}
	cache := buildcache.Open(cacheDir(f), m.FS(), version(), now, f.all)
	cache.Memory = membound.Reading // the answer is read as a build's sources are
	if !f.check && cache.On() {
		man, err := out.read(m)
		if err != nil {
			return err
		}
		if e := cache.Get(cmd.Context(), man, f.jobs); e != nil {
			sayFindings(e, out)
			sayDone(e, out, start, "up to date: %s; nothing changed since toolc.lock, so nothing was built: --no-cache builds")
			return nil
		}
	}
	res, err := out.build(cmd.Context(), m, opts)
	if err != nil {
		return err
	}
	built := buildcache.EntryOf(res)
	if res.Failed {
		sayFindings(built, out)
		return out.fail(exitFailed, "build failed: %s", summary(built, start))
	}
	if f.check {
		return check(outs, res, f.diff, out, summary(built, start))
	}
	// The files are written while the findings are printed; what the write says comes after.
	// Writing holds no more than the build did: its heap is held there (docs/speed.md).
	defer membound.Hold()()
	written := make(chan writeResult, 1)
	go func() {
		o, err := res.WriteAll(cmd.Context(), outs)
		written <- writeResult{o, err}
	}()
	sayFindings(built, out)
	if err := (<-written).say(out); err != nil {
		return err
	}
	cache.Put(built)
	if len(f.only) > 0 {
		sayDone(built, out, start, "built %s; toolc.lock not written: it records a whole build")
		return nil
	}
	sayDone(built, out, start, "built %s")
	return nil
}

// upToDate is --check's fast path: toolc.lock holds the hash of
// everything that decides the outputs; when all of them match, a build
// would write what is there. It never says "up to date" falsely: any doubt
// builds.
func upToDate(ctx context.Context, m *pipeline.Workspace, jobs int, out *output, start time.Time) (bool, error) {
	man, err := out.read(m)
	if err != nil {
		return false, err
	}
	fresh, why, err := pipeline.Fresh(ctx, m.FS(), man, pipeline.Options{Jobs: jobs, Version: version()})
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

// say reports what the write did.
func (w writeResult) say(out *output) error {
	if w.err != nil {
		return out.failure(nil, w.err)
	}
	for _, p := range w.orphans.Remove {
		out.status("removed %s: %s", out.path(p), w.orphans.Why(p))
	}
	for _, p := range w.orphans.Edited {
		out.status("left %s in place: %s, but it was edited since toolc wrote it", out.path(p), w.orphans.Why(p))
	}
	return nil
}

// check reports each output that differs from the disk as a diagnostic,
// with a unified diff of each when asked.
func check(root *os.Root, res *pipeline.Result, diff bool, out *output, summary string) error {
	stale, err := res.Stale(pipeline.RootFS(root))
	if err != nil {
		return out.failure(nil, err)
	}
	diffs, orphans := stale.Diffs, stale.Orphans
	ds := append(slices.Clone(res.Diagnostics), stale.Diagnostics()...)
	out.digestOf(diag.Sort(ds), !out.quiet, false) // -q: only what is stale, and the errors
	sayBaseline(res.Hidden, res.Gone, out)
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
