// Package compiler is toolc as a library: it compiles a catalog of tool
// definitions, named by a manifest (toolc.toml read by ReadManifest, or a
// Manifest built in code), into one bundle per target and toolc.lock, with
// every diagnostic located. Build writes nothing; Write writes what a build
// made, atomically. Convert compiles one file to one format through the same
// pipeline.
//
// It is the door to toolc's pipeline, whose stages (formats, profiles,
// lowering, acceptance, validation, the security lint) are internal: what
// each target accepts and how each format is read and written change with
// the providers, and are reached through the manifest.
package compiler

import (
	"context"
	"io/fs"
	"os"

	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// The manifest as a value: what Build compiles. Every path in it is
// relative to the manifest's folder (for a manifest built in code, the root
// of the file system given to Build).
type (
	// Manifest is toolc.toml: the catalog, its sources and targets, and the
	// policy.
	Manifest = manifest.Manifest
	// Catalog names and versions the catalog.
	Catalog = manifest.Catalog
	// Source is one [[sources]] entry: a set of files in one format.
	Source = manifest.Source
	// Target is one [[targets]] entry: a bundle to write.
	Target = manifest.Target
	// Select keeps some of the tools of a source or target.
	Select = manifest.Select

	// Options configure Build.
	Options = pipeline.Options
	// Result is what Build returns: the outputs, the diagnostics and the
	// catalog.
	Result = pipeline.Result
	// Output is one file a build writes.
	Output = pipeline.Output
	// ConfigError is a manifest that cannot be used: the build did not
	// start. It lists every problem, located.
	ConfigError = pipeline.ConfigError
	// ConvertOptions configure Convert.
	ConvertOptions = pipeline.ConvertOptions
)

// DefaultManifest is the manifest's usual file name.
const DefaultManifest = manifest.DefaultFile

// ManifestVersion is the manifest version this toolc reads.
const ManifestVersion = manifest.Version

// Sentinel errors, for errors.Is.
var (
	// ErrConfig is wrapped by a *ConfigError.
	ErrConfig = pipeline.ErrConfig
	// ErrUnknownFormat is wrapped by Convert's error for a format toolc
	// does not know.
	ErrUnknownFormat = pipeline.ErrUnknownFormat
	// ErrNotSupported is wrapped by Convert's error for an option the
	// target format does not take (strict mode, say).
	ErrNotSupported = pipeline.ErrNotSupported
)

// ReadManifest reads and checks the manifest at name in fsys. Every problem
// is located (file, line, column) in a *ConfigError. The manifest's paths
// are relative to name's folder, which Build roots fsys at.
func ReadManifest(fsys fs.FS, name string) (*Manifest, error) {
	return pipeline.ReadManifest(fsys, name)
}

// Build compiles the manifest m over fsys, in which every path of m is
// read: m's folder, when m was read by ReadManifest, or fsys's root for a
// manifest built in code. It checks m as ReadManifest does and returns a
// *ConfigError when m cannot be used; otherwise a Result whose Failed field
// says whether the catalog built. It writes nothing, reads only the files
// m names, and does not change m.
func Build(ctx context.Context, fsys fs.FS, m *Manifest, opts Options) (*Result, error) {
	return pipeline.Build(ctx, fsys, m, opts)
}

// Convert compiles one file as a catalog of its own with one target,
// exactly as Build would (validation, repair if asked, lowering, names),
// and returns the result, whose first output is the target's bundle. name
// is how diagnostics call the file; its extension chooses YAML (.yaml,
// .yml) or JSON. An unknown format, or strict mode for a target without
// one, is an error wrapping ErrUnknownFormat or ErrNotSupported.
func Convert(ctx context.Context, name string, data []byte, opts ConvertOptions) (*Result, error) {
	return pipeline.Convert(ctx, name, data, opts)
}

// Write writes outputs under root, each atomically (a temporary file
// renamed into place) and only where its bytes differ from the file's. A
// ctx done before the first rename replaces nothing.
func Write(ctx context.Context, root *os.Root, outputs []Output) error {
	return pipeline.Write(ctx, root, outputs)
}
