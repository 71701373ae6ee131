// Package earlier finds the earlier release a catalog is compared with
// (toolc breaking --against, toolc report --against): a canonical bundle,
// a folder, or a git revision of the manifest's folder.
package earlier

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolc-dev/toolc/internal/gitfs"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// Release is where an earlier release is: a bundle's File, or a file
// system FS holding its manifest; What names it in messages.
type Release struct {
	FS   fs.FS
	File string
	What string
}

// Find resolves ref, relative to cwd: a file, a folder, or a git revision
// of the repository at repo.
func Find(ctx context.Context, ref, cwd, repo string) (Release, error) {
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		return Release{File: path, What: "the file " + ref}, nil
	} else if err == nil {
		return Release{FS: os.DirFS(path), What: "the folder " + ref}, nil
	}
	g, err := gitfs.Open(ctx, repo, ref)
	if err != nil {
		hint := ""
		if gitfs.Shallow(ctx, repo) {
			hint = "; this is a shallow clone, which lacks the history: fetch it (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)"
		}
		return Release{}, fmt.Errorf("--against %s: not a file, a folder or a git revision of %s (%v)%s", ref, repo, err, hint)
	}
	return Release{FS: g, What: fmt.Sprintf("%s (%s)", ref, g.Rev[:min(12, len(g.Rev))])}, nil
}

// Load builds the catalog that ref names (Find), whose manifest is at
// manifest in a folder or revision.
func Load(ctx context.Context, ref, cwd, repo, manifest string) (*pipeline.Earlier, error) {
	r, err := Find(ctx, ref, cwd, repo)
	if err != nil {
		return nil, err
	}
	if r.File == "" {
		return pipeline.BuildEarlier(ctx, r.FS, manifest, r.What)
	}
	data, err := os.ReadFile(r.File)
	if err != nil {
		return nil, err
	}
	old, err := pipeline.ReadEarlier(data, ref)
	if err != nil {
		return nil, fmt.Errorf("--against %s: %w", ref, err)
	}
	old.What = "the bundle " + ref
	return old, nil
}
