package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Workspace is a manifest's folder opened as the root of a command: where
// its sources are read and, unless told otherwise, its outputs written.
// Nothing outside the folder is reached through Root.
type Workspace struct {
	Cwd  string   // the working directory, after -C
	File string   // the manifest's name in Root
	Root *os.Root // the manifest's folder
}

// OpenWorkspace resolves a command's -C (dir, "" for none) and --manifest,
// finding a toolc.toml in a folder above (FindManifest), and opens the
// manifest's folder. The caller closes it.
func OpenWorkspace(dir, manifest string) (*Workspace, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		cwd = abs(cwd, dir)
	}
	manifest = abs(cwd, manifest)
	if filepath.Base(manifest) == DefaultManifest {
		manifest = FindManifest(manifest)
	}
	root, err := os.OpenRoot(filepath.Dir(manifest))
	if err != nil {
		return nil, fmt.Errorf("cannot open the manifest's folder: %w", err)
	}
	return &Workspace{Cwd: cwd, File: filepath.Base(manifest), Root: root}, nil
}

// abs is p, relative to dir unless it is absolute.
func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Close closes the workspace's folder.
func (w *Workspace) Close() error { return w.Root.Close() }

// Dir is the manifest's folder.
func (w *Workspace) Dir() string { return w.Root.Name() }

// Path is p, a path the user gave (relative to the working directory),
// made absolute.
func (w *Workspace) Path(p string) string { return abs(w.Cwd, p) }

// Read reads and checks the manifest.
func (w *Workspace) Read() (*Manifest, error) { return ReadManifest(w.FS(), w.File) }

// FS is the manifest's folder as a build reads it (RootFS).
func (w *Workspace) FS() fs.FS { return RootFS(w.Root) }

// Build reads the manifest and builds it, writing nothing.
func (w *Workspace) Build(ctx context.Context, opts Options) (*Result, error) {
	return BuildFile(ctx, w.FS(), w.File, opts)
}

// OutputRoot opens dir (relative to the working directory), made if it is
// missing, as where a build's outputs and lock go instead of the
// manifest's folder (build --out-dir); "" is the manifest's folder. The
// caller closes what it returns unless it is w.Root.
func (w *Workspace) OutputRoot(dir string) (*os.Root, error) {
	if dir == "" {
		return w.Root, nil
	}
	dir = w.Path(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}
