package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aymanbagabas/go-udiff"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/manifest"
)

// Write writes outputs under root atomically: each goes to a temporary file in
// its own folder first, and only when all are written are they renamed into
// place, in order (the lock last). A file whose content is already on disk is
// left alone, so its modification time does not change. On error, the
// temporary files are removed and no output has been replaced. Once ctx is
// done, before the first rename, nothing is replaced either, and Write
// returns ctx's error: the renames themselves are not stopped halfway.
func Write(ctx context.Context, root *os.Root, outputs []Output) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	removeStale(root, outputs)
	tmps, err := writeTemps(ctx, root, outputs)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		removeTemps(root, tmps)
		return err
	}
	for i, t := range tmps {
		if t == "" {
			continue
		}
		if err := root.Rename(t, outputs[i].Path); err != nil {
			removeTemps(root, tmps[i:])
			return fmt.Errorf("writing %s: %w", outputs[i].Path, unwrapPath(err))
		}
	}
	return nil
}

// writers is how many outputs writeTemps writes at once: every bundle and
// typed file of a build beside each other (each is encoded or made as it
// is written, on a core), but not the 20,000 files of a skills folder,
// which at once held a buffer each (2.2 GB) and queued on the folder's
// lock in the kernel (10 s of creating files).
func writers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// writeTemps compares each output with the disk and writes each that
// differs to a temporary file beside it, in parallel (reading, writing and
// syncing 100 MB of bundles one by one was a serial tail), and returns the
// temporary files, "" for an output already on disk. An output made from
// the others (the lock, from the bundles' hashes) is written after them.
// On error it removes them all.
func writeTemps(ctx context.Context, root *os.Root, outputs []Output) ([]string, error) {
	tmps := make([]string, len(outputs))
	errs := make([]error, len(outputs))
	fsys := RootFS(root)
	for _, o := range outputs {
		if o.early != nil {
			go o.early()
		}
	}
	slots := make(chan struct{}, writers())
	for _, after := range []bool{false, true} {
		var wg sync.WaitGroup
		for i, o := range outputs {
			if (o.lazy != nil) != after {
				continue
			}
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				tmps[i], errs[i] = writeIfChanged(ctx, root, fsys, o)
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			removeTemps(root, tmps)
			return nil, err
		}
	}
	return tmps, nil
}

// writeIfChanged writes o to a temporary file beside its path, and
// returns its name, or "" when o is on disk already. o is encoded once:
// compared with the file on disk as it is encoded and, from its first
// difference, written to the temporary file after what matched (copied
// from the disk).
func writeIfChanged(ctx context.Context, root *os.Root, fsys fs.FS, o Output) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if dir := path.Dir(o.Path); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("writing %s: %w", o.Path, unwrapPath(err))
		}
	}
	tmp, err := writeChanged(ctx, root, fsys, o)
	if errors.Is(err, errMoved) { // another program wrote the file meanwhile
		tmp, err = writeTemp(ctx, root, o)
	}
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", o.Path, unwrapPath(err))
	}
	return tmp, nil
}

// writeChanged is writeIfChanged's work.
func writeChanged(ctx context.Context, root *os.Root, fsys fs.FS, o Output) (string, error) {
	old, size, _ := openOld(fsys, o)
	if old == nil {
		return writeTemp(ctx, root, o)
	}
	defer old.Close()
	var t *tempFile
	s := newSameWriter(old, size, func(matched int64, crc uint32) (io.Writer, error) {
		var err error
		if t, err = createTemp(ctx, root, o.Path); err != nil {
			return nil, err
		}
		return t.w, copyPrefix(fsys, o.Path, matched, crc, t.w)
	})
	_, werr := o.WriteTo(s)
	same, cerr := s.Close()
	if t == nil {
		if same && werr == nil {
			return "", nil
		}
		return "", errors.Join(werr, cerr) // the temporary file was not made
	}
	return t.finish(errors.Join(werr, cerr))
}

// openOld opens the file at o.Path in fsys to compare o with, and returns
// its size, or returns nil when o cannot be the same: no file or not a regular one (with
// regular's error), another size where o's is known, or a stream (known
// only by writing it).
func openOld(fsys fs.FS, o Output) (fs.File, int64, error) {
	if o.stream != nil {
		return nil, 0, nil
	}
	if err := regular(fsys, o.Path); err != nil {
		return nil, 0, err // missing, or what the rename replaces: never opened
	}
	f, err := fsys.Open(o.Path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if size, ok := o.knownSize(); err != nil || !st.Mode().IsRegular() || ok && size != st.Size() {
		f.Close()
		return nil, 0, nil
	}
	return f, st.Size(), nil
}

// removeTemps removes the temporary files of a write that failed.
func removeTemps(root *os.Root, tmps []string) {
	for _, t := range tmps {
		if t != "" {
			root.Remove(t)
		}
	}
}

// equalFile reports whether the file at o.Path in fsys holds exactly o's
// bytes. A missing file, or one of another size where o's is known, is
// told without encoding anything; otherwise o is encoded once, to the end,
// and compared with the file as it is, and a bundle whose hash was not
// known keeps it (a --check that finds a difference makes the lock next,
// which records it): neither the bundle nor a second copy of it is ever
// whole in memory.
func equalFile(fsys fs.FS, o Output) (bool, error) {
	f, size, err := openOld(fsys, o)
	if f == nil || err != nil {
		return false, err
	}
	defer f.Close()
	s := newSameWriter(f, size, func(int64, uint32) (io.Writer, error) { return io.Discard, nil })
	if _, err := o.WriteTo(s); err != nil {
		return false, err
	}
	return s.Close()
}

// removeStale removes the temporary files that a build killed between
// writing and renaming left beside each output (".mcp.json.toolc-" and 12
// hex digits): nothing else removes them, and "git add -A" would commit
// them.
func removeStale(root *os.Root, outputs []Output) {
	// One listing per directory: a catalog of targets writes several
	// outputs into each, and a folder target (skills) thousands, each
	// listed name looked up among them by the output it would be the
	// temporary file of (tried against every output, 20,000 of them took
	// 1.5 s).
	outs := map[string]map[string]bool{} // dir → its outputs' names
	for _, o := range outputs {
		dir := path.Dir(o.Path)
		if outs[dir] == nil {
			outs[dir] = map[string]bool{}
		}
		outs[dir][path.Base(o.Path)] = true
	}
	fsys := RootFS(root)
	for _, dir := range slices.Sorted(maps.Keys(outs)) {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if base, ok := tempOf(e.Name()); ok && outs[dir][base] && e.Type().IsRegular() && old(e) {
				root.Remove(path.Join(dir, e.Name()))
			}
		}
	}
}

// staleAge is how long a temporary file has not been written before it is
// a killed build's and not a running one's: a build that writes one keeps
// its time moving, and two builds at once in one folder must not remove
// each other's.
const staleAge = 10 * time.Minute

// old reports whether the file of e was last written staleAge ago.
func old(e fs.DirEntry) bool {
	info, err := e.Info()
	return err == nil && time.Since(info.ModTime()) > staleAge
}

// tempOf returns the name of the output that name is a temporary file of,
// as writeTemp makes them: "." and the output's name, ".toolc-" and 12 hex
// digits.
func tempOf(name string) (string, bool) {
	const tag = ".toolc-"
	if len(name) < 1+len(tag)+12 || name[0] != '.' {
		return "", false
	}
	head, digits := name[:len(name)-12], name[len(name)-12:]
	base, ok := strings.CutSuffix(head[1:], tag)
	if _, err := hex.DecodeString(digits); !ok || base == "" || err != nil {
		return "", false
	}
	return base, true
}

// writeTemp writes o to a temporary file beside its path and returns its
// name.
func writeTemp(ctx context.Context, root *os.Root, o Output) (string, error) {
	t, err := createTemp(ctx, root, o.Path)
	if err != nil {
		return "", err
	}
	_, err = o.WriteTo(t.w)
	return t.finish(err)
}

// tempFile is a temporary file being written beside the output it will
// replace: ".name.toolc-" and 12 hex digits.
type tempFile struct {
	root *os.Root
	name string
	f    *os.File
	w    *bufio.Writer
}

func createTemp(ctx context.Context, root *os.Root, p string) (*tempFile, error) {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	tmp := path.Join(path.Dir(p), "."+path.Base(p)+".toolc-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return &tempFile{root: root, name: tmp, f: f, w: bufio.NewWriterSize(ctxWriter{ctx, f}, 256<<10)}, nil
}

// finish flushes, syncs and closes the file, after werr, the error of
// writing it, if any; it returns its name, or removes it on error.
func (t *tempFile) finish(werr error) (string, error) {
	if werr == nil {
		werr = t.w.Flush()
	}
	var serr error
	if werr == nil {
		serr = t.f.Sync()
	}
	cerr := t.f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		t.root.Remove(t.name)
		return "", err
	}
	return t.name, nil
}

// ctxWriter writes to w until ctx is done, and then fails: a cancelled
// build stops writing a bundle of megabytes within a buffer's time.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// Difference is an output that --check found missing or different on disk.
type Difference struct {
	Path    string
	Missing bool   // the file does not exist
	Old     []byte // what is on disk, when it exists
	New     []byte // what the build would write
}

// Unified is a git-style unified diff from what is on disk to what the
// build would write, the file named name.
func (d Difference) Unified(name string) string {
	from := "a/" + name
	if d.Missing {
		from = "/dev/null"
	}
	return udiff.Unified(from, "b/"+name, string(d.Old), string(d.New))
}

// Diagnostic reports d as check.missing or check.out-of-date.
func (d Difference) Diagnostic() diag.Diagnostic {
	code, what := "check.out-of-date", "differs from what toolc build writes"
	if d.Missing {
		code, what = "check.missing", "does not exist"
	}
	return diag.New(code, "%s %s", d.Path, what).At(d.Path, "").WithFix("run toolc build and commit the result")
}

// diagnosticOf is the diagnostic err carries, if it carries one: code a
// typed target's language refused, found as its file is made.
func diagnosticOf(err error) (diag.Diagnostic, bool) {
	var d interface{ Diagnostic() diag.Diagnostic }
	if !errors.As(err, &d) {
		return diag.Diagnostic{}, false
	}
	return d.Diagnostic(), true
}

// UnmadeError is the error of a write or a check whose output could not be
// made: code a typed target's language refused as its file was made (a
// bug of toolc's). Diagnostics are what it carries, located.
type UnmadeError struct {
	Diagnostics []diag.Diagnostic
	err         error
}

func (e *UnmadeError) Error() string { return "an output cannot be made: nothing was written" }

func (e *UnmadeError) Unwrap() error { return e.err }

// unmade returns err as an *UnmadeError where it carries its own
// diagnostic, located in the build's files; err otherwise.
func (r *Result) unmade(err error) error {
	d, ok := diagnosticOf(err)
	if !ok {
		return err
	}
	ds := []diag.Diagnostic{d}
	r.Locate(ds)
	return &UnmadeError{Diagnostics: ds, err: err}
}

// Check compares outputs with the files in fsys and returns each one that is
// missing or differs, in output order. An output that cannot be made (code
// its language refused) is the error.
func Check(fsys fs.FS, outputs []Output) ([]Difference, error) {
	var diffs []Difference
	for _, o := range outputs {
		if o.Path != manifest.LockFile {
			same, err := equalFile(fsys, o)
			if err == nil && same {
				continue
			}
			if _, ok := diagnosticOf(err); ok { // the output cannot be made: not a difference
				return nil, fmt.Errorf("checking %s: %w", o.Path, err)
			}
		}
		old, err := readRegular(fsys, o.Path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		data := o.Bytes() // it differs, or is the lock: needed whole
		switch {
		case err != nil:
			diffs = append(diffs, Difference{Path: o.Path, Missing: true, New: data})
		case o.Path == manifest.LockFile && bytes.Equal(lock.WithoutToolcLine(old), lock.WithoutToolcLine(data)):
			// Written by another toolc version, and otherwise the same.
		case !bytes.Equal(old, data):
			diffs = append(diffs, Difference{Path: o.Path, Old: old, New: data})
		}
	}
	return diffs, nil
}

// Orphans are the outputs that the lock on disk lists and outputs no longer
// have: the bundles of targets removed from the manifest (or moved).
type Orphans struct {
	Remove []string // unchanged since toolc wrote them: build removes them
	Edited []string // changed since: build leaves them, and says so
	// Made are those of a target still in the manifest that no longer
	// makes them: a folder target's file (the skill of a namespace gone),
	// each to the target's folder, under which the folders they leave
	// empty are removed with them.
	Made map[string]string
}

// Orphans reads toolc.lock in fsys, if there is one, and returns the
// outputs it lists that the build's outputs do not, split by whether the
// file on disk is still what the lock recorded. Only those are toolc's to
// remove, and never a file the build reads (a source, the manifest, the
// baseline), whatever a hand-edited lock says.
func (r *Result) Orphans(fsys fs.FS) Orphans {
	var o Orphans
	l, _, err := readLockHead(fsys)
	if err != nil {
		return o // no lock, or one toolc cannot read, names nothing it may remove
	}
	made := make(map[string]bool, len(r.Outputs)) // a skills folder's are 20,000
	for _, out := range r.Outputs {
		made[out.Path] = true
	}
	for _, lo := range l.Outputs {
		if lo.Path == manifest.LockFile || lo.Path == r.manifestFile || lo.Path == BaselineFile || r.sources[lo.Path] || made[lo.Path] ||
			slices.ContainsFunc(r.Manifest.Targets, func(t manifest.Target) bool { return t.Out == lo.Path }) || // a target --target left out
			slices.Contains(r.skipped, lo.Target) {
			continue
		}
		if i := slices.IndexFunc(r.Manifest.Targets, func(t manifest.Target) bool { return t.Name == lo.Target }); i >= 0 {
			if o.Made == nil {
				o.Made = map[string]string{}
			}
			o.Made[lo.Path] = r.Manifest.Targets[i].Out
		}
		h, err := HashFile(fsys, lo.Path)
		switch {
		case err != nil: // gone already
		case h == lo.Hash:
			o.Remove = append(o.Remove, lo.Path)
		default:
			o.Edited = append(o.Edited, lo.Path)
		}
	}
	slices.Sort(o.Remove)
	slices.Sort(o.Edited)
	return o
}

// RemoveOrphans removes the files of o.Remove.
func RemoveOrphans(root *os.Root, o Orphans) error {
	for _, p := range o.Remove {
		if err := root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", p, unwrapPath(err))
		}
		// The folders a folder target's file leaves empty, up to the
		// target's own: Remove refuses a folder that is not empty.
		if top, ok := o.Made[p]; ok {
			for dir := path.Dir(p); strings.HasPrefix(dir, top+"/") && root.Remove(dir) == nil; dir = path.Dir(dir) {
			}
		}
	}
	return nil
}

// Stale is what build --check finds on disk: each output or lock that is
// missing or differs, and each bundle of a removed target that build would
// WriteAll writes the build's outputs to root (Write), then removes the
// orphans that are toolc's to remove (Orphans.Remove) and returns them
// all, for the caller to say what it removed and what it left.
func (r *Result) WriteAll(ctx context.Context, root *os.Root) (Orphans, error) {
	o := r.Orphans(RootFS(root))
	if err := Write(ctx, root, r.Outputs); err != nil {
		return Orphans{}, r.unmade(err)
	}
	return o, RemoveOrphans(root, o)
}

// Why says why p, one of the orphans, is one.
func (o Orphans) Why(p string) string {
	if _, made := o.Made[p]; made {
		return "its target no longer makes it"
	}
	return "its target is no longer in the manifest"
}

// remove.
type Stale struct {
	Diffs   []Difference
	Orphans []string
	made    map[string]string // Orphans.Made
}

// Stale compares the build's outputs, and the previous lock's, with fsys.
func (r *Result) Stale(fsys fs.FS) (Stale, error) {
	diffs, err := Check(fsys, r.Outputs)
	o := r.Orphans(fsys)
	return Stale{Diffs: diffs, Orphans: o.Remove, made: o.Made}, r.unmade(err)
}

// Diagnostics reports each finding as check.missing, check.out-of-date or
// check.orphan.
func (s Stale) Diagnostics() []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, d := range s.Diffs {
		ds = append(ds, d.Diagnostic())
	}
	for _, p := range s.Orphans {
		_, made := s.made[p]
		ds = append(ds, orphanDiagnostic(p, made))
	}
	return ds
}

// orphanDiagnostic reports an orphan that build would remove; made says
// that its target is still in the manifest, and no longer makes it.
func orphanDiagnostic(p string, made bool) diag.Diagnostic {
	why := "is the bundle of a target that is no longer in the manifest"
	if made {
		why = "is a file its target no longer makes"
	}
	return diag.New("check.orphan", "%s %s", p, why).
		At(p, "").WithFix("run toolc build, which removes it, and commit the result")
}

// WriteFile writes the file at path (relative to the working directory
// unless absolute) as write makes it, streamed, as Write writes a bundle:
// through a temporary file renamed into place, so that one that fails
// leaves no part of itself (a report, an eval set).
func WriteFile(ctx context.Context, path string, write func(io.Writer) error) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("writing %s: it is a folder; name a file", path)
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer root.Close()
	return Write(ctx, root, []Output{StreamOutput(filepath.Base(path), write)})
}
