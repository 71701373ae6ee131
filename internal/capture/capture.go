// Package capture is toolc capture and toolc verify: the manifest's capture
// sources read from their live MCP servers (package live), pinned in their
// files, or compared with what is pinned. It is apart from the build
// (package pipeline), which never talks to a server, so that a program
// that builds from pinned files links no MCP client, OAuth or HTTP code.
package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/live"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// Source is a source whose one file is a capture of a live MCP server.
type Source struct {
	Index   int    // in the manifest's sources
	Name    string // its namespace, or else its file
	File    string // the file toolc capture writes
	Capture *manifest.Capture
}

// Result is what toolc capture or toolc verify found.
type Result struct {
	Manifest     *manifest.Manifest
	manifestFile string
	root         *pipeline.Manifest // the manifest, its paths relative to the root of the file system its builds read
	Sources      []Source
	// Listings are what each server offers (nil where it failed).
	Listings []*live.Listing
	// Outputs are the capture files to write (capture only, and only when
	// nothing failed).
	Outputs []pipeline.Output
	// Bumps are the semantic-version bump each source's drift calls for
	// (verify only).
	Bumps []breaking.Bump
	// Diagnostics are sorted, located and filtered by the policy and the
	// baseline (verify).
	Diagnostics  []diag.Diagnostic
	Hidden, Gone int
	Failed       bool
}

// Options tune Capture and Verify.
type Options struct {
	pipeline.Options
	Live live.Options
	// Names chooses sources by namespace or file; all capture sources
	// when empty.
	Names []string
}

// catalog is the options of the builds that Capture and Verify make:
// the catalog only, with no baseline (Verify applies it to what it finds).
func (o *Options) catalog() pipeline.Options {
	return pipeline.Options{CatalogOnly: true, Version: o.Version}
}

// Capture reads the live servers of the manifest's capture sources in
// parallel and returns each one's file, sorted and deterministic, to be
// written (its path relative to the manifest's folder, as a build's
// outputs are). A server that fails, or whose tools would not build, is an
// error located at its source's capture, and then no file is returned.
func Capture(ctx context.Context, fsys fs.FS, m *pipeline.Manifest, opts Options) (*Result, error) {
	r, fsys, err := listLive(ctx, fsys, m, &opts)
	if err != nil || r.Failed {
		return r, err
	}
	files := map[string][]byte{}
	for i, s := range r.Sources {
		files[s.File] = live.Encode(r.Listings[i])
	}
	res, err := pipeline.Build(ctx, overlay{fsys, files}, r.root, opts.catalog())
	if err != nil {
		return nil, err
	}
	for i, s := range r.Sources {
		var doc *canonical.Value // parsed again only to name a tool an error does not
		for _, d := range res.Diagnostics {
			if d.File == s.File && d.Severity == diag.Error {
				if d.Tool == "" {
					if doc == nil {
						doc, _ = canonical.ParseJSON(files[s.File])
					}
					d.Tool = toolAt(doc, d.Pointer)
				}
				msg := d.Code + ": " + d.Text()
				if d.Pointer != "" {
					msg += " (at " + d.Pointer + " of what it offers)"
				}
				r.Diagnostics = append(r.Diagnostics, r.at(i, "capture.invalid", "%s's tools do not build: %s", s.Name, msg))
			}
		}
	}
	// A transform of the manifest that what the servers offer now leaves
	// with nothing to change (a tool or argument dropped or renamed): the
	// capture would make the next build fail, so it is said here, at the
	// transform.
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "transform.") {
			r.Diagnostics = append(r.Diagnostics, d)
		}
	}
	if r.Failed = diag.HasErrors(r.Diagnostics); r.Failed {
		r.Diagnostics = diag.Sort(r.Diagnostics)
		return r, nil
	}
	for _, s := range r.Sources {
		r.Outputs = append(r.Outputs, pipeline.NewOutput(s.File, files[s.File]))
	}
	return r, nil
}

// Verify reads the live servers as Capture does, writes nothing, and
// compares what each offers with its pinned file (and that file with
// toolc.lock): every tool added, removed, renamed or changed is a verify.*
// finding, with the breaking.* findings of each changed schema and what
// the security lint says of the live tools. The policy and the baseline
// apply; Failed is set when an error is left.
func Verify(ctx context.Context, fsys fs.FS, m *pipeline.Manifest, opts Options) (*Result, error) {
	r, fsys, err := listLive(ctx, fsys, m, &opts)
	if err != nil {
		return r, err
	}
	pinned, err := pipeline.Build(ctx, fsys, r.root, opts.catalog())
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	unpinned := map[int]bool{}
	for i, s := range r.Sources {
		if _, err := fs.Stat(fsys, s.File); err != nil {
			r.Diagnostics = append(r.Diagnostics, r.at(i, "capture.failed", "%s has no pinned capture: %s does not exist; run toolc capture first", s.Name, s.File))
			unpinned[i] = true
		} else if r.Listings[i] != nil {
			files[s.File] = live.Encode(r.Listings[i])
		}
	}
	now, err := pipeline.Build(ctx, overlay{fsys, files}, r.root, opts.catalog())
	if err != nil {
		return nil, err
	}
	ds := r.drift(fsys, pinned, now, unpinned)
	pinned.Locate(ds)
	ds = pinned.Apply(ds)
	if opts.Baseline != "" {
		if ds, r.Hidden, r.Gone, err = pipeline.HideBaseline(fsys, opts.Baseline, ds); err != nil {
			return nil, err
		}
	}
	r.Diagnostics = diag.Sort(append(r.Diagnostics, ds...))
	r.Failed = diag.HasErrors(r.Diagnostics)
	return r, nil
}

// drift compares what each live server offers (now) with its pinned file
// (pinned), and that file with toolc.lock: the verify.* findings, and
// what the build would say of the live tools and not of the pinned ones.
func (r *Result) drift(fsys fs.FS, pinned, now *pipeline.Result, unpinned map[int]bool) []diag.Diagnostic {
	// A finding is the same in both builds when its code, tool, target
	// and message are: its pointer moves when a tool is added before it.
	same := func(d diag.Diagnostic) string {
		return d.Code + "\x00" + d.Tool + "\x00" + d.Target + "\x00" + d.Message
	}
	before := map[string]bool{}
	for _, d := range pinned.Diagnostics {
		before[same(d)] = true
	}
	lock := pipeline.LockedSources(fsys)
	r.Bumps = make([]breaking.Bump, len(r.Sources))
	said := map[string]bool{}
	var ds []diag.Diagnostic
	for i, s := range r.Sources {
		if r.Listings[i] == nil || unpinned[i] {
			continue
		}
		of := func(ts []*canonical.Tool) []*canonical.Tool {
			return slices.DeleteFunc(slices.Clone(ts), func(t *canonical.Tool) bool { return t.Source.File != s.File })
		}
		drift, bump := live.Drift(of(pinned.Catalog), of(now.Catalog))
		ds = append(ds, drift...)
		r.Bumps[i] = bump
		for _, d := range now.Diagnostics {
			if strings.HasPrefix(d.Code, "transform.") && !before[same(d)] && !said[same(d)] {
				// A transform the live tools leave with nothing to
				// change: at the transform, in the manifest.
				said[same(d)] = true
				ds = append(ds, d)
				continue
			}
			if d.File == s.File && !before[same(d)] && (d.Severity == diag.Error || strings.HasPrefix(d.Code, "security.")) {
				// In the live answer, not the file: a pointer into it
				// would name another tool of the pinned file.
				d.Pointer, d.Line, d.Column = "", 0, 0
				d.Message += " (in what the live server offers)"
				ds = append(ds, d)
			}
		}
		if h, ok := lock[s.File]; ok {
			if got, err := pipeline.HashFile(fsys, s.File); err == nil && got != h {
				d := diag.New("verify.unbuilt", "%s changed since toolc.lock was written: the bundles do not hold what is pinned; run toolc build", s.File)
				d.File = s.File
				ds = append(ds, d)
			}
		}
	}
	return ds
}

// toolAt names the tool of a capture at the pointer ptr (/tools/3/…).
func toolAt(doc *canonical.Value, ptr string) string {
	rest, ok := strings.CutPrefix(ptr, "/tools/")
	if !ok || doc == nil {
		return ""
	}
	n, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
	if tools := doc.Get("tools"); err != nil || tools == nil || n >= len(tools.Items()) {
		return ""
	} else if name, ok := tools.Items()[n].Get("name").StringValue(); ok {
		return name
	}
	return ""
}

// listLive roots fsys at the manifest's folder (returned), loads the
// manifest, chooses its capture sources and reads their servers in
// parallel.
func listLive(ctx context.Context, fsys fs.FS, m *pipeline.Manifest, opts *Options) (*Result, fs.FS, error) {
	if dir := m.Dir(); dir != "." {
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			return nil, nil, err
		}
		fsys = sub
	}
	m = m.Clone()
	if err := pipeline.CheckManifest(m); err != nil {
		return nil, nil, err
	}
	r := &Result{Manifest: m, manifestFile: m.File(), root: m.AtRoot()}
	sources, err := chooseLive(m, opts.Names)
	if err != nil {
		return nil, nil, err
	}
	r.Sources = sources
	r.list(ctx, opts.Live)
	r.Failed = len(r.Diagnostics) > 0
	r.Diagnostics = diag.Sort(r.Diagnostics)
	return r, fsys, nil
}

// chooseLive returns the capture sources named (by namespace or file),
// all of them when none is.
func chooseLive(m *pipeline.Manifest, names []string) ([]Source, error) {
	var all []Source
	for i, s := range m.Sources {
		if s.Capture == nil {
			continue
		}
		name := s.Namespace
		if name == "" {
			name = s.Include[0]
		}
		all = append(all, Source{Index: i, Name: name, File: s.Include[0], Capture: s.Capture})
	}
	if len(all) == 0 {
		d := diag.New("manifest.invalid", "no source has a capture: add capture = { command = [...] } or { url = \"...\" } to the [[sources]] of a live server")
		d.File = m.File()
		return nil, &pipeline.ConfigError{Diagnostics: []diag.Diagnostic{d.WithFix("docs/live.md says how")}}
	}
	if len(names) == 0 {
		return all, nil
	}
	var chosen []Source
	for _, n := range names {
		i := slices.IndexFunc(all, func(s Source) bool { return s.Name == n || s.File == n })
		if i < 0 {
			var names []string
			for _, s := range all {
				names = append(names, s.Name)
			}
			d := diag.New("manifest.invalid", "no capture source is named %q (the manifest has %s)%s", n, strings.Join(names, ", "), suggest.Hint(n, names))
			d.File = m.File()
			return nil, &pipeline.ConfigError{Diagnostics: []diag.Diagnostic{d}}
		}
		if !slices.ContainsFunc(chosen, func(s Source) bool { return s.Index == all[i].Index }) {
			chosen = append(chosen, all[i])
		}
	}
	return chosen, nil
}

// list reads the chosen sources' servers in parallel; each one that fails
// is a capture.failed with the last lines of its stderr.
func (r *Result) list(ctx context.Context, opts live.Options) {
	r.Listings = make([]*live.Listing, len(r.Sources))
	fails := make([]*live.Failure, len(r.Sources))
	var g errgroup.Group
	for i, s := range r.Sources {
		g.Go(func() error {
			l, err := live.List(ctx, s.Capture, opts)
			var f *live.Failure
			switch {
			case errors.As(err, &f):
				fails[i] = f
			case err != nil:
				fails[i] = &live.Failure{Stage: "list", Err: err}
			}
			r.Listings[i] = l
			return nil
		})
	}
	_ = g.Wait()
	for i, f := range fails {
		if f == nil {
			continue
		}
		msg := f.Error()
		if f.Stderr != "" {
			msg += "; its stderr ended with:\n\t| " + strings.ReplaceAll(f.Stderr, "\n", "\n\t| ")
		}
		d := r.at(i, "capture.failed", "%s: %s", r.Sources[i].Name, msg)
		if f.Fix != "" {
			d = d.WithFix(f.Fix)
		}
		r.Diagnostics = append(r.Diagnostics, d)
	}
}

// at is a diagnostic at the capture of the i-th chosen source.
func (r *Result) at(i int, code, format string, args ...any) diag.Diagnostic {
	d := diag.New(code, format, args...)
	d.File = r.manifestFile
	d.Line, d.Column = r.Manifest.Pos(fmt.Sprintf("sources[%d].capture", r.Sources[i].Index))
	return d
}

// overlay is fsys with some files replaced by the bytes given: the build
// of what the live servers offer, without writing it.
type overlay struct {
	fs.FS
	files map[string][]byte
}

func (o overlay) Open(name string) (fs.File, error) {
	if data, ok := o.files[name]; ok {
		return &memFile{Reader: bytes.NewReader(data), name: name, size: int64(len(data))}, nil
	}
	return o.FS.Open(name)
}

func (o overlay) Stat(name string) (fs.FileInfo, error) {
	if data, ok := o.files[name]; ok {
		return memInfo{name: name, size: int64(len(data))}, nil
	}
	return fs.Stat(o.FS, name)
}

func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(o.FS, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, f := range slices.Sorted(maps.Keys(o.files)) {
		if dirOf(f) == name && !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == baseOf(f) }) {
			entries = append(entries, fs.FileInfoToDirEntry(memInfo{name: f, size: int64(len(o.files[f]))}))
		}
	}
	if len(entries) == 0 && err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{name: f.name, size: f.size}, nil }
func (f *memFile) Close() error               { return nil }

var _ io.Reader = (*memFile)(nil)

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return baseOf(i.name) }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

func dirOf(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return "."
}

func baseOf(name string) string { return name[strings.LastIndexByte(name, '/')+1:] }

// Servers says how many servers were read, and how many tools they offer.
func (r *Result) Servers() string {
	n, tools := 0, 0
	for _, l := range r.Listings {
		if l != nil {
			n++
			tools += len(l.Tools)
		}
	}
	return fmt.Sprintf("%s of %d read, %s", diagfmt.Plural(n, "server"), len(r.Sources), diagfmt.Plural(tools, "tool"))
}
