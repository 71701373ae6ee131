package compiler

import (
	"errors"
	"maps"
	"reflect"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// Manifest is toolc.toml as a value: the catalog, its sources and targets,
// and the policy. ReadManifest returns one; one built in code is checked by
// Build exactly as a file is, but without lines and columns. Every path in
// it is relative to the manifest's folder (for a manifest built in code,
// the root of the file system given to Build).
type Manifest struct {
	// Version is the manifest format's version: ManifestVersion.
	Version int `toml:"version"`
	// Catalog names and versions the catalog.
	Catalog Catalog `toml:"catalog"`
	// Sources are the [[sources]] entries: the files the tools are read
	// from.
	Sources []Source `toml:"sources"`
	// Targets are the [[targets]] entries: the bundles to build.
	Targets []Target `toml:"targets"`
	// Policy is [policy]: the codes or categories that fail the build
	// (Deny), are reported (Warn) or left out (Ignore).
	Policy diag.Policy `toml:"policy"`

	// Of a manifest ReadManifest read: the manifest as the pipeline has it
	// (with its positions, its hash and what this type leaves out, the
	// lifecycle's tables), and its document, to tell whether the fields
	// above were changed since.
	read    *manifest.Manifest
	readDoc map[string]any
}

// Catalog names and versions the catalog.
type Catalog struct {
	// Name is the catalog's name, written to the lock and the canonical
	// bundle; a release target's server name by default.
	Name string `toml:"name"`
	// Version is the catalog's semantic version (MAJOR.MINOR.PATCH), or "".
	Version string `toml:"version"`
	// Description says what the catalog's server does, for the release
	// targets.
	Description string `toml:"description"`
}

// Source is one [[sources]] entry: a set of files in one format.
type Source struct {
	// Include are globs of the files, relative to the manifest; ** matches
	// any number of folders.
	Include []string `toml:"include"`
	// Exclude are globs removed from Include's matches.
	Exclude []string `toml:"exclude"`
	// Format is the files' format ("mcp", "openai", "openapi" …); "" or
	// "auto" detects it per file.
	Format string `toml:"format"`
	// Namespace, when set, is every tool's namespace: its ID becomes
	// namespace:name.
	Namespace string `toml:"namespace"`
	// Tags are added to every tool's tags.
	Tags []string `toml:"tags"`
	// Repair rewrites non-standard schemas (dict, nullable …) as JSON
	// Schema.
	Repair bool `toml:"repair"`
	// Optional lets Include match nothing; otherwise that is an error.
	Optional bool `toml:"optional"`
	// Stability is the default stability of the source's tools ("draft",
	// "alpha", "beta" or "stable").
	Stability string `toml:"stability"`
	// Select keeps part of the source's tools, chosen before validation.
	Select *Select `toml:"select"`
	// Policy decides first the diagnostics located in the source's files.
	Policy *diag.Policy `toml:"policy"`
	// Options are the source's other keys as toolc.toml writes them
	// (backend, security, capture, openapi: docs/manifest.md), with TOML's
	// types or Go's own (string, bool, int, float64, slices, maps).
	Options map[string]any `toml:"-"`
}

// Target is one [[targets]] entry: a bundle to build.
type Target struct {
	// Name is unique among targets; the format by default.
	Name string `toml:"name"`
	// Format is the format to write ("mcp", "openai", "server-json" …).
	Format string `toml:"format"`
	// Out is the bundle's path, relative to the manifest.
	Out string `toml:"out"`
	// Policy decides, before the manifest's, this target's codes.
	Policy *diag.Policy `toml:"policy"`
	// Select builds the target from part of the catalog; nil is all of it.
	Select *Select `toml:"select"`
	// Options are the options of the target's format, as toolc.toml
	// writes them ("strict": true, "server": a table …): each format's
	// are in docs/manifest.md and toolc explain FORMAT. They are checked
	// as strictly as a file's: a key the format does not take is an error.
	Options map[string]any `toml:"-"`
}

// Select chooses tools: those that match every list set (any entry of
// each), and no entry of Exclude.
type Select struct {
	// Tags chooses the tools with any of these tags.
	Tags []string `toml:"tags"`
	// Classification chooses tools by data_classification ("public" …).
	Classification []string `toml:"classification"`
	// Namespaces chooses the tools in any of these namespaces ("" for none).
	Namespaces []string `toml:"namespaces"`
	// Tools are globs over tool IDs ("github:*").
	Tools []string `toml:"tools"`
	// Exclude are globs over tool IDs left out.
	Exclude []string `toml:"exclude"`
	// Stability chooses tools by stability ("stable" for one that says none).
	Stability []string `toml:"stability"`
}

// Options configure Build.
type Options struct {
	// Jobs limits how much runs at once (default: the number of CPUs).
	// Outputs do not depend on it.
	Jobs int
	// Validator, when set, checks every tool after toolc's own validation:
	// another dialect, format checks, a house rule. It is called from
	// several goroutines at once. Its findings take the tool's file, ID and
	// position; each one's Pointer is into the tool's canonical form
	// ("/input/properties/q"). Use the codes schema.custom (an error, which
	// fails the build) and lint.custom (a warning), or any of diag's codes.
	Validator func(t *canonical.Tool) []diag.Diagnostic
	// Now is the build's clock, for every decision of a date (an
	// acknowledgment's until, a sunset); zero is the time Build starts.
	Now time.Time
}

// ConvertOptions configure Convert.
type ConvertOptions struct {
	// From is the file's format; "" or "auto" detects it.
	From string
	// To is the format to write.
	To string
	// Strict asks for strict mode, of a format that has one.
	Strict bool
	// Repair rewrites non-standard schemas, as a source's repair = true.
	Repair bool
	// Schema is the target's schema mode (gemini: json-schema or openapi).
	Schema string
	// Ignore are codes or categories to leave out, as [policy] ignore does.
	Ignore []string
	// Jobs limits how much runs at once (default: the number of CPUs).
	Jobs int
}

// Result is what Build and Convert return.
type Result struct {
	// Outputs are what Write writes: each target's bundle, in the
	// manifest's order, then toolc.lock; none when the build failed.
	Outputs []Output
	// Diagnostics are what the build found, each located, after the
	// policy, sorted and once each.
	Diagnostics []diag.Diagnostic
	// Failed reports whether one of the diagnostics is an error.
	Failed bool
	// Tools is the number of tools in the catalog, Files of source files
	// read, Targets of targets built.
	Tools, Files, Targets int
	// Catalog holds the catalog's tools in canonical form, by ID, as the
	// sources gave them (no target's lowering changes them).
	Catalog []*canonical.Tool
}

// Output is one file a build writes.
type Output struct {
	// Target is the target's name; "" for the lock file.
	Target string
	// Path is where it goes, relative to the manifest's folder,
	// '/'-separated.
	Path string

	out pipeline.Output
}

// Bytes returns the file's contents.
func (o Output) Bytes() []byte { return o.out.Bytes() }

// ConfigError is a manifest that cannot be used: the build did not start.
// It lists every problem, located where the manifest was read from a file.
type ConfigError struct {
	// Diagnostics are the problems, sorted; each an error.
	Diagnostics []diag.Diagnostic
}

// Error lists the diagnostics, one a line.
func (e *ConfigError) Error() string {
	return (&pipeline.ConfigError{Diagnostics: e.Diagnostics}).Error()
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// Sentinel errors, for errors.Is.
var (
	// ErrConfig is wrapped by a *ConfigError.
	ErrConfig = errors.New("configuration error")
	// ErrUnknownFormat is wrapped by Convert's error for a format toolc
	// does not know.
	ErrUnknownFormat = errors.New("unknown format")
	// ErrNotSupported is wrapped by Convert's error for an option the
	// target format does not take (strict mode, say).
	ErrNotSupported = errors.New("not supported")
)

// The conversions at the door: the library's types to the pipeline's and
// back. A manifest crosses as its TOML document, so that one built in code
// is decoded and checked by the very code that reads a file.

// fromManifest is the library's view of a manifest the pipeline read.
func fromManifest(m *manifest.Manifest) (*Manifest, error) {
	doc, err := m.Doc()
	if err != nil {
		return nil, err
	}
	var out Manifest
	if err := option.Recode(doc, &out); err != nil {
		return nil, err
	}
	for i, s := range option.Tables(doc["sources"]) {
		out.Sources[i].Options = option.Undeclared(s, reflect.TypeFor[Source]())
	}
	for i, t := range option.Tables(doc["targets"]) {
		out.Targets[i].Options = option.Undeclared(t, reflect.TypeFor[Target]())
	}
	out.read = m
	out.readDoc, err = out.doc()
	return &out, err
}

// doc is m as a TOML document: its fields, each source's and target's
// Options in its table, and the lifecycle's tables of the file it was read
// from.
func (m *Manifest) doc() (map[string]any, error) {
	doc := map[string]any{}
	if err := option.Recode(m, &doc); err != nil {
		return nil, err
	}
	for i, s := range option.Tables(doc["sources"]) {
		maps.Copy(s, m.Sources[i].Options)
	}
	for i, t := range option.Tables(doc["targets"]) {
		maps.Copy(t, m.Targets[i].Options)
	}
	if m.read == nil {
		return doc, nil
	}
	read, err := m.read.Doc()
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"acknowledge", "removed"} {
		if v, ok := read[k]; ok {
			doc[k] = v
		}
	}
	if p, ok := read["policy"].(map[string]any); ok {
		mine, _ := doc["policy"].(map[string]any)
		for _, k := range []string{"deprecation", "acknowledge"} {
			if v, ok := p[k]; ok && mine != nil {
				mine[k] = v
			}
		}
	}
	return doc, nil
}

// toManifest is the manifest the pipeline builds: the one read, when m's
// fields are as read; else m's document, decoded and checked.
func (m *Manifest) toManifest() (*manifest.Manifest, error) {
	doc, err := m.doc()
	if err != nil {
		return nil, &ConfigError{Diagnostics: []diag.Diagnostic{{Code: "manifest.type", Severity: diag.Error, Message: err.Error(), File: manifest.DefaultFile}}}
	}
	if m.read != nil && reflect.DeepEqual(doc, m.readDoc) {
		return m.read, nil
	}
	file := ""
	if m.read != nil {
		file = m.read.File()
	}
	im, ds := pipeline.DecodeManifest(doc, file)
	if len(ds) > 0 {
		return nil, &ConfigError{Diagnostics: ds}
	}
	return im, nil
}

// fromResult is the library's view of a build's result.
func fromResult(r *pipeline.Result) *Result {
	out := &Result{Diagnostics: r.Diagnostics, Failed: r.Failed, Tools: r.Tools, Files: r.Files, Targets: r.Targets, Catalog: r.Catalog}
	for _, o := range r.Outputs {
		out.Outputs = append(out.Outputs, Output{Target: o.Target, Path: o.Path, out: o})
	}
	return out
}

// fromError is the library's view of the pipeline's error.
func fromError(err error) error {
	var ce *pipeline.ConfigError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return &ConfigError{Diagnostics: ce.Diagnostics}
	case errors.Is(err, pipeline.ErrUnknownFormat):
		return &sentinelError{err, ErrUnknownFormat}
	case errors.Is(err, pipeline.ErrNotSupported):
		return &sentinelError{err, ErrNotSupported}
	}
	return err
}

// sentinelError is an error of the pipeline that is one of this
// package's sentinels.
type sentinelError struct {
	err      error
	sentinel error
}

func (e *sentinelError) Error() string        { return e.err.Error() }
func (e *sentinelError) Unwrap() error        { return e.err }
func (e *sentinelError) Is(target error) bool { return target == e.sentinel }
