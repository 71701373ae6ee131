package pipeline

import (
	"context"
	"io/fs"
	"testing"
)

// buildText reads the manifest toolc.toml in fsys, as the command does,
// and builds it.
func buildText(ctx context.Context, fsys fs.FS, opts Options) (*Result, error) {
	m, err := ReadManifest(fsys, DefaultManifest)
	if err != nil {
		return nil, err
	}
	return Build(ctx, fsys, m, opts)
}

// readText reads toolc.toml in fsys, failing the test when it cannot.
func readText(t *testing.T, fsys fs.FS) *Manifest {
	t.Helper()
	m, err := ReadManifest(fsys, DefaultManifest)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
