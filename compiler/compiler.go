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

	"github.com/toolc-dev/toolc/internal/pipeline"
)

// DefaultManifest is the manifest's usual file name.
const DefaultManifest = "toolc.toml"

// ManifestVersion is the manifest version this toolc reads.
const ManifestVersion = 1

// ReadManifest reads and checks the manifest at name in fsys. Every problem
// is located (file, line, column) in a *ConfigError. The manifest's paths
// are relative to name's folder, which Build roots fsys at.
func ReadManifest(fsys fs.FS, name string) (*Manifest, error) {
	m, err := pipeline.ReadManifest(fsys, name)
	if err != nil {
		return nil, fromError(err)
	}
	return fromManifest(m)
}

// Build compiles the manifest m over fsys, in which every path of m is
// read: m's folder, when m was read by ReadManifest, or fsys's root for a
// manifest built in code. It checks m as ReadManifest does and returns a
// *ConfigError when m cannot be used; otherwise a Result whose Failed field
// says whether the catalog built. It writes nothing, reads only the files
// m names, and does not change m.
func Build(ctx context.Context, fsys fs.FS, m *Manifest, opts Options) (*Result, error) {
	im, err := m.toManifest()
	if err != nil {
		return nil, err
	}
	res, err := pipeline.Build(ctx, fsys, im, pipeline.Options{Jobs: opts.Jobs, Validator: opts.Validator, Now: opts.Now})
	if err != nil {
		return nil, fromError(err)
	}
	return fromResult(res), nil
}

// Convert compiles one file as a catalog of its own with one target,
// exactly as Build would (validation, repair if asked, lowering, names),
// and returns the result, whose first output is the target's bundle. name
// is how diagnostics call the file; its extension chooses YAML (.yaml,
// .yml) or JSON. An unknown format, or strict mode for a target without
// one, is an error wrapping ErrUnknownFormat or ErrNotSupported.
func Convert(ctx context.Context, name string, data []byte, opts ConvertOptions) (*Result, error) {
	res, err := pipeline.Convert(ctx, name, data, pipeline.ConvertOptions(opts))
	if err != nil {
		return nil, fromError(err)
	}
	return fromResult(res), nil
}

// Write writes outputs under root, each atomically (a temporary file
// renamed into place) and only where its bytes differ from the file's. A
// ctx done before the first rename replaces nothing.
func Write(ctx context.Context, root *os.Root, outputs []Output) error {
	outs := make([]pipeline.Output, len(outputs))
	for i, o := range outputs {
		outs[i] = o.out
	}
	return pipeline.Write(ctx, root, outs)
}
