package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/targets"
)

// Compare compares an earlier catalog with this build, applies the manifest's policy, checks the manifest's
// version, and returns the verdict: the findings, located (manifestFile
// names the manifest in them), and the bump they need.
func (r *Result) Compare(old *Earlier, manifestFile string) *breaking.Verdict {
	var strict []string
	for _, t := range r.Manifest.Targets {
		// Only a strict mode that makes optional properties required (OpenAI's)
		// turns an added optional property into a required one.
		if a, ok := targets.Default().Get(t.Format); ok && strictOn(t) && a.Profile.StrictRequiresAll() {
			strict = append(strict, t.Name)
		}
	}
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	opts := breaking.Options{Strict: strict, Version: r.Manifest.Catalog.Version, Today: now, Tombstones: map[string]breaking.Tombstone{}}
	for _, ts := range r.Manifest.Removed {
		opts.Tombstones[ts.ID] = breaking.Tombstone{In: ts.In, Use: ts.Use}
	}
	if w := r.Manifest.Deprecation; w != nil {
		opts.Window = &breaking.Window{Releases: w.Releases, Days: w.Days}
		opts.Window.History = func() ([]breaking.Release, error) {
			if old.History == nil {
				return nil, fmt.Errorf("%s is no git revision, so its releases are not known: compare against a release tag", old.What)
			}
			return old.History(w.Prereleases)
		}
	}
	if old.Deferred != nil {
		opts.Deferred = &breaking.Deferred{Old: old.Deferred, New: r.deferred()}
	}
	raw := breaking.Compare(old.Tools, r.Catalog, opts)
	r.placeHistory(raw, manifestFile)
	acks := r.acks(manifestFile)
	// What the changes break decides the bump; the policy, only whether a
	// finding fails (a finding it ignores is no change of the catalog's).
	need := breaking.Required(r.Unignored(raw), old.Tools, acks, r.Manifest.Catalog.Version, now)
	ds := breaking.Stabilize(r.Apply(raw), old.Tools)
	ds, reasons, own := breaking.Acknowledge(ds, acks, r.Manifest.Catalog.Version, now)
	ds = append(ds, r.Apply(own)...)
	if d, ok := breaking.CheckVersion(old.Version, r.Manifest.Catalog.Version, need); ok {
		line, col := r.Manifest.Pos("catalog.version")
		d.File, d.Line, d.Column = manifestFile, line, col
		ds = append(ds, r.Apply([]diag.Diagnostic{d})...)
	}
	r.Locate(ds)
	return &breaking.Verdict{Need: need, Findings: diag.Sort(ds), From: old.Version, To: r.Manifest.Catalog.Version, Reasons: reasons, Tombstones: opts.Tombstones, Window: opts.Window}
}

// deferred are the targets that defer each tool in this build, by ID.
func (r *Result) deferred() map[string][]string {
	out := map[string][]string{}
	for _, b := range r.Bundles {
		for id := range b.Deferred {
			out[id] = append(out[id], b.Target)
		}
	}
	return out
}

// placeHistory places the findings about the release history (a release
// that cannot be read) at the manifest's deprecation window, which read it.
func (r *Result) placeHistory(ds []diag.Diagnostic, manifestFile string) {
	for i := range ds {
		if strings.HasPrefix(ds[i].Code, "history.") && ds[i].File == "" {
			ds[i].File = manifestFile
			ds[i].Line, ds[i].Column = r.Manifest.Pos("policy.deprecation")
		}
	}
}

// acks are the manifest's acknowledgments, each placed at its entry.
func (r *Result) acks(manifestFile string) []breaking.Ack {
	var out []breaking.Ack
	for i, a := range r.Manifest.Acknowledge {
		ack := breaking.Ack{Finding: a.Finding, Reason: a.Reason, Until: a.Until, File: manifestFile}
		ack.UntilVersion, ack.UntilDate, _ = manifest.ParseUntil(a.Until)
		ack.Line, ack.Column = r.Manifest.Pos(fmt.Sprintf("acknowledge[%d]", i))
		out = append(out, ack)
	}
	return out
}

// Earlier is an earlier release's catalog, which Compare compares a build
// with.
type Earlier struct {
	Tools   []*canonical.Tool
	Version string
	// What names it in messages: "the bundle old.json", "the folder old" …
	What string
	// History lists the releases before it, oldest first, where it is a
	// git revision (the repository's tags that are semantic versions, with
	// pre-releases when asked); nil elsewhere.
	History func(prereleases bool) ([]breaking.Release, error)
	// Deferred are the targets that deferred each tool, by ID, as the
	// release's toolc.lock recorded them; nil where there is no lock (a
	// canonical bundle), which compares no deferral.
	Deferred map[string][]string
}

// deferredOf reads, from the lock beside manifest in fsys, the targets
// that defer each tool; nil when there is no lock it can read.
func deferredOf(fsys fs.FS, manifestPath string) map[string][]string {
	data, err := fs.ReadFile(fsys, path.Join(path.Dir(manifestPath), manifest.LockFile))
	if err != nil {
		return nil
	}
	l, err := lock.Decode(data)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	for _, t := range l.Tools {
		if len(t.Deferred) > 0 {
			out[t.ID] = t.Deferred
		}
	}
	return out
}

// BuildEarlier builds the manifest in fsys as an earlier release's
// catalog, named what: what decodes is compared even when that catalog has
// errors of its own. Without a manifest it is the first release after
// adopting toolc, with nothing to break: an empty catalog.
func BuildEarlier(ctx context.Context, fsys fs.FS, manifest, what string) (*Earlier, error) {
	if _, err := fs.Stat(fsys, manifest); errors.Is(err, fs.ErrNotExist) {
		return &Earlier{What: what + ", which has no " + manifest + " (every tool is new)"}, nil
	}
	m, err := ReadManifest(fsys, manifest)
	if err != nil {
		return nil, fmt.Errorf("the catalog at %s: %w", what, err)
	}
	res, err := Build(ctx, fsys, m, Options{CatalogOnly: true})
	if err != nil {
		return nil, fmt.Errorf("the catalog at %s: %w", what, err)
	}
	return &Earlier{Tools: res.Catalog, Version: res.Manifest.Catalog.Version, What: what, Deferred: deferredOf(fsys, manifest)}, nil
}

// ReadEarlier reads an earlier release's catalog from a canonical bundle,
// named name in messages.
func ReadEarlier(data []byte, name string) (*Earlier, error) {
	doc, err := formats.Parse(data, name)
	if err != nil {
		return nil, errors.New(formats.ParseDiagnostic(name, err).String())
	}
	reg := formats.Default()
	if d := reg.Detect(doc); d.Format != "canonical" {
		return nil, fmt.Errorf("a file must be a canonical bundle (format = \"canonical\" writes one); this one is %s", cmp.Or(d.Format, "of no known format"))
	}
	a, _ := reg.Get("canonical")
	tools, ds := a.Decode(doc, name)
	if i := slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }); i >= 0 {
		return nil, errors.New(ds[i].String())
	}
	version, _ := doc.Get("catalog").Get("version").StringValue()
	return &Earlier{Tools: tools, Version: version, What: name}, nil
}
