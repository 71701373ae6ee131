package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/sync/errgroup"

	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/targets"
)

// Fresh reports whether the outputs and toolc.lock in fsys are what a build
// with opts would write, without building: toolc.lock records the hash of
// every source file and output, the manifest's and the baseline's, and the
// toolc version that wrote it, and a build is a function of those. It is
// build --check's fast path. When it returns false, reason says the first
// thing that differs, and only a build can tell whether the outputs are
// current.
//
// It answers true only for a toolc whose version names its code exactly
// (a released or pseudo-version, not "devel" and not "+dirty", which two
// builds of different edits to one commit share), equal to the lock's, so
// that a change to toolc itself always takes the slow path.
func Fresh(ctx context.Context, fsys fs.FS, m *Manifest, opts Options) (ok bool, reason string, err error) {
	if dir := m.Dir(); dir != "." {
		if fsys, err = fs.Sub(fsys, dir); err != nil {
			return false, "", err
		}
	}
	if !NamesCode(opts.Version) {
		if strings.HasSuffix(opts.Version, "+dirty") { // go build in a checkout with changes
			return false, "this toolc was built from a checkout with uncommitted changes (+dirty), so its version does not name its code", nil
		}
		return false, "this toolc is a development build, whose version does not name its code", nil
	}
	l, tools, err := readLockHead(fsys)
	if err != nil {
		return false, manifest.LockFile + " cannot be read, or is not a lock this toolc reads", nil
	}
	if hashBytes(tools) != l.ToolsHash && (len(tools) > 0 || l.ToolsHash != "") {
		return false, "the tool entries of " + manifest.LockFile + " changed since it was written", nil
	}
	if l.Toolc != opts.Version {
		return false, fmt.Sprintf("%s was written by toolc %s", manifest.LockFile, cmp.Or(l.Toolc, "of another version")), nil
	}
	if m.Hash() != l.Manifest {
		return false, "the manifest changed", nil
	}
	bdata, err := readRegular(fsys, BaselineFile)
	switch {
	case err == nil && hashBytes(bdata) != l.Baseline, err != nil && l.Baseline != "":
		return false, BaselineFile + " changed", nil
	}
	b := &build{fsys: fsys, opts: opts, formats: formats.Default(), writers: targets.Default(), manifestFile: m.File(), m: m.Clone()}
	if _, ds := checkManifest(b.m); len(ds) > 0 {
		return false, "the manifest has errors", nil
	}
	if err := b.expandSources(); err != nil || len(b.diags) > 0 { // a glob matching nothing, say
		return false, "a source glob needs a build to report on it", nil
	}
	files, why := lockedFiles(b.inputs, l, b.m.Targets, b.writers)
	if why != "" {
		return false, why, nil
	}
	changed, err := firstChanged(ctx, fsys, files, max(opts.Jobs, runtime.GOMAXPROCS(0)), opts.Unchanged, opts.Checked)
	if err != nil || changed != "" {
		return false, changed + " changed since " + manifest.LockFile + " recorded it", err
	}
	return true, "", nil
}

// NamesCode reports whether toolc's version names its code exactly: a
// released or pseudo-version, not "devel" and not "+dirty" (which two
// builds of different edits to one commit share). Only then may what a
// build made be known from the version and the inputs.
func NamesCode(version string) bool {
	return version != "" && !strings.HasPrefix(version, "devel") && !strings.HasSuffix(version, "+dirty")
}

// lockedFile is a file and the hash the lock recorded of it.
type lockedFile struct{ path, hash string }

// lockedFiles are the files whose hashes say whether a build would write
// what is there: the sources, the files their $refs named (if the sources
// are unchanged, they name the same ones), and the outputs but the lock.
// why says what differs already when the set of files does.
func lockedFiles(inputs []input, l *lock.Lock, manifestTargets []manifest.Target, write *targets.Registry) (files []lockedFile, why string) {
	if len(inputs) != len(l.Sources) {
		return nil, "the set of source files changed"
	}
	for i, in := range inputs {
		if in.path != l.Sources[i].Path {
			return nil, "the set of source files changed"
		}
		files = append(files, lockedFile{in.path, l.Sources[i].Hash})
	}
	for _, r := range l.References {
		files = append(files, lockedFile{r.Path, r.Hash})
	}
	var outs []string            // the lock lists the bundles, not itself
	folders := map[string]bool{} // a folder target's files are what its sources make: those the lock lists
	for _, t := range manifestTargets {
		if w, ok := write.Get(t.Format); ok && w.Folder {
			folders[t.Name] = true
			continue
		}
		outs = append(outs, t.Out)
	}
	slices.Sort(outs)
	var lockOuts []string
	for _, o := range l.Outputs {
		if !folders[o.Target] {
			lockOuts = append(lockOuts, o.Path)
		}
		files = append(files, lockedFile{o.Path, o.Hash})
	}
	if !slices.Equal(outs, lockOuts) {
		return nil, "the outputs the manifest names changed"
	}
	return files, ""
}

// firstChanged hashes files in parallel and returns the first, in order,
// whose hash differs from the lock's ("" when none does); the first
// difference stops the others.
//
// A file that unchanged accepts by its info is not hashed; checked, when
// set, is told each file found as the lock says, with its info as it was
// before it was hashed (so that a later change shows in it).
func firstChanged(ctx context.Context, fsys fs.FS, files []lockedFile, jobs int, unchanged func(string, fs.FileInfo) bool, checked func(string, fs.FileInfo)) (string, error) {
	errDiffers := errors.New("differs")
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	found := make([]bool, len(files))
	for i, f := range files {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var info fs.FileInfo // the file's stats, which only a build cache reads
			if unchanged != nil || checked != nil {
				info, _ = fs.Stat(fsys, f.path)
			}
			if info == nil || unchanged == nil || !unchanged(f.path, info) {
				if h, err := HashFile(fsys, f.path); err != nil || h != f.hash {
					found[i] = true
					return errDiffers
				}
			}
			if checked != nil && info != nil {
				checked(f.path, info)
			}
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		return "", nil
	}
	if !errors.Is(err, errDiffers) && !errors.Is(err, context.Canceled) {
		return "", err
	}
	for i, f := range found {
		if f {
			return files[i].path, nil
		}
	}
	return "", err // cancelled before anything was found to differ
}

// readLockHead reads toolc.lock in fsys without its tools: what the fast
// path and orphan removal need of it.
func readLockHead(fsys fs.FS) (l *lock.Lock, tools []byte, err error) {
	data, err := readRegular(fsys, manifest.LockFile)
	if err != nil {
		return nil, nil, err
	}
	l = &lock.Lock{}
	head, tools := lock.Head(data)
	if _, err := toml.Decode(string(head), l); err != nil {
		return nil, nil, err
	}
	if l.Version != manifest.Version {
		return nil, nil, fmt.Errorf("%s has version %d, want %d", manifest.LockFile, l.Version, manifest.Version)
	}
	return l, tools, nil
}
