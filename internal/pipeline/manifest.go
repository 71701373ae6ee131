package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/targets"
)

// Manifest is toolc.toml as a value (package manifest's): what Build
// compiles.
type Manifest = manifest.Manifest

// ManifestVersion is the manifest version this toolc reads and writes.
const ManifestVersion = manifest.Version

// ReadManifest reads and checks the manifest at name in fsys. Every problem
// is located (file, line, column) in a *ConfigError. The manifest's paths
// are relative to name's folder, which Build roots fsys at.
func ReadManifest(fsys fs.FS, name string) (*Manifest, error) {
	base := path.Base(name)
	data, err := readRegular(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, configError(diag.New("manifest.missing", "there is no %s here", base).
			At(base, "").WithFix("write one with toolc init, or point at it with -C DIR or --manifest FILE"))
	}
	if err != nil {
		d := diag.Diagnostic{Code: "manifest.syntax", Severity: diag.Error, File: base,
			Message: fmt.Sprintf("cannot read the manifest: %v", unwrapPath(err))}
		if errors.Is(err, errLeaves) { // a link out of its folder, as a sandbox makes each input (RootFS)
			d.Message += " (toolc reads nothing outside it)"
			d.Fix = "copy the manifest's folder, links followed, where it is read (docs/ci.md shows it for Bazel's sandbox)"
		}
		return nil, configError(d)
	}
	m, ds := manifest.Decode(data, name, formatsOf(formats.Default(), targets.Default()))
	if m == nil {
		return nil, configError(ds...)
	}
	if _, more := checkManifest(m); len(ds)+len(more) > 0 {
		return nil, configError(append(ds, more...)...)
	}
	return m, nil
}

// DecodeManifest decodes and checks a manifest given as its TOML document
// (a manifest built in code), as ReadManifest does a file's text: the
// problems are the same, without lines and columns. file names the
// manifest, whose folder its paths are relative to ("" for the root).
func DecodeManifest(doc map[string]any, file string) (*Manifest, []diag.Diagnostic) {
	m, ds := manifest.DecodeTable(doc, file, formatsOf(formats.Default(), targets.Default()))
	if m == nil {
		return nil, ds
	}
	if _, more := checkManifest(m); len(ds)+len(more) > 0 {
		return nil, diag.Sort(append(ds, more...))
	}
	return m, nil
}

// checkManifest validates m, filling in its defaults, and makes each
// target's profile with the manifest's overrides.
// checkAcknowledgments checks the [[acknowledge]] entries against the
// build's clock and the catalog's version: an until past the horizon
// ([policy] acknowledge) is an error, a second entry for one finding a
// warning; each at its entry.
func checkAcknowledgments(m *Manifest, now time.Time) []diag.Diagnostic {
	var ds []diag.Diagnostic
	at := func(d diag.Diagnostic, key string) diag.Diagnostic {
		d.File = m.File()
		d.Line, d.Column = m.Pos(key)
		return d
	}
	days, majors := m.Horizon.Limits()
	first := map[string]int{}
	for i, a := range m.Acknowledge {
		key := fmt.Sprintf("acknowledge[%d]", i)
		ack := breaking.Ack{Finding: a.Finding, Until: a.Until}
		ack.UntilVersion, ack.UntilDate, _ = manifest.ParseUntil(a.Until)
		if why := ack.Beyond(m.Catalog.Version, now, days, majors); why != "" {
			ds = append(ds, at(diag.New("manifest.invalid", "%s.until: %s", key, why), key+".until"))
		}
		if j, dup := first[a.Finding]; dup {
			ds = append(ds, at(diag.New("acknowledge.duplicate", "acknowledge[%d] names %q again, as acknowledge[%d] does: one entry a finding, so that one reason and one until hold", i, a.Finding, j), key).
				WithFix(fmt.Sprintf("remove acknowledge[%d], or merge the two", i)))
			continue
		}
		first[a.Finding] = i
	}
	return ds
}

func checkManifest(m *Manifest) ([]*profile.Profile, []diag.Diagnostic) {
	reg := targets.Default()
	errs := m.Check(formatsOf(formats.Default(), reg))
	if len(errs) > 0 {
		return nil, errs
	}
	profiles := make([]*profile.Profile, len(m.Targets))
	bad := func(key, format string, args ...any) {
		line, col := m.Pos(key)
		errs = append(errs, diag.Diagnostic{Code: "manifest.invalid", Severity: diag.Error, File: m.File(), Line: line, Column: col,
			Message: key + ": " + fmt.Sprintf(format, args...)})
	}
	for i, t := range m.Targets {
		key := fmt.Sprintf("targets[%d]", i)
		a, _ := reg.Get(t.Format)
		p, problems := formatOptions(t).Check(a.Profile)
		for _, pr := range problems {
			bad(manifest.KeyPath(append([]string{key}, pr.Key...)...), "%s", pr.Message)
		}
		profiles[i] = p
	}
	return profiles, diag.Sort(errs)
}

// formatsOf tells the manifest's check what the registry supports.
func formatsOf(read *formats.Registry, write *targets.Registry) manifest.Formats {
	f := manifest.Formats{Targets: map[string]func() any{}}
	for _, a := range read.List() {
		f.Sources = append(f.Sources, a.Name)
	}
	for _, t := range write.List() {
		f.Targets[t.Name] = func() any { return t.Options() }
	}
	return f
}

// formatOptions are the options of a checked manifest's target t, as its
// format declares them.
func formatOptions(t manifest.Target) profile.FormatOptions {
	if fo, ok := t.Options.(profile.FormatOptions); ok {
		return fo
	}
	if a, ok := targets.Default().Get(t.Format); ok {
		return a.Options() // its defaults
	}
	return &emit.NoOptions{}
}

// strictOn reports whether a checked manifest's target t sets strict mode
// (true or "auto").
func strictOn(t manifest.Target) bool {
	var o profile.Options
	formatOptions(t).Apply(&o)
	return o.Strict != nil && *o.Strict
}

// CheckManifest checks m, as ReadManifest and Build do, filling in its
// defaults: a *ConfigError lists what cannot be used.
func CheckManifest(m *Manifest) error {
	if _, ds := checkManifest(m); len(ds) > 0 {
		return configError(ds...)
	}
	return nil
}

func configError(ds ...diag.Diagnostic) error {
	return &ConfigError{Diagnostics: diag.Sort(ds)}
}

// BuildFile reads the manifest at name in fsys and builds it: what the
// command does.
func BuildFile(ctx context.Context, fsys fs.FS, name string, opts Options) (*Result, error) {
	m, err := ReadManifest(fsys, name)
	if err != nil {
		return nil, err
	}
	return Build(ctx, fsys, m, opts)
}

// FindManifest returns manifest, or, when there is none there, the nearest
// toolc.toml in a folder above it, as git, go and cargo find theirs: a
// command run inside a catalog's subfolder works on the catalog. With none
// above either, it returns manifest, for the build to say it is missing.
func FindManifest(manifest string) string {
	if _, err := os.Stat(manifest); err == nil {
		return manifest
	}
	for dir := filepath.Dir(filepath.Dir(manifest)); ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, DefaultManifest)
		if info, err := os.Stat(cand); err == nil && info.Mode().IsRegular() {
			return cand
		}
		if dir == filepath.Dir(dir) {
			return manifest
		}
	}
}
