// Package earlier finds the earlier release a catalog is compared with
// (toolc breaking --against, toolc report --against): a canonical bundle,
// a folder, or a git revision of the manifest's folder.
package earlier

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/gitfs"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// Release is where an earlier release is: a bundle's File, or a file
// system FS holding its manifest; What names it in messages.
type Release struct {
	FS   fs.FS
	File string
	What string
	Git  bool // a revision of the repository
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
	return Release{FS: g, What: fmt.Sprintf("%s (%s)", ref, g.Rev[:min(12, len(g.Rev))]), Git: true}, nil
}

// Close ends what reading a revision's files started (a git process);
// nothing for a folder or a file.
func (r Release) Close() error {
	if c, ok := r.FS.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Build builds the catalog whose manifest is file in the release's
// folder or revision, writing nothing, and closes the release.
func (r Release) Build(ctx context.Context, file string, opts pipeline.Options) (*pipeline.Result, error) {
	defer r.Close()
	return pipeline.BuildFile(ctx, r.FS, file, opts)
}

// versionTag is a tag that names a release: a semantic version, with or
// without a v; m[2] is its pre-release part.
var versionTag = regexp.MustCompile(`^v?((?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(-[0-9A-Za-z.-]+)?)(?:\+[0-9A-Za-z.-]+)?$`)

// History lists the releases of the catalog whose manifest is at manifest
// in the git repository at repo: its tags that are semantic versions, a
// release a version (v1.1.0 and 1.1.0 are one), oldest first, each dated
// by its first tag (the tagger's date, or the commit's) and read from it
// when the window asks. Pre-releases are left out unless prereleases says
// so: a release candidate is not a release that users were told of. The
// deprecation window counts releases, and a release is what a release
// pipeline tags; a shallow clone lacks them, which is an error rather than
// a short count.
func History(ctx context.Context, repo, manifest string, prereleases bool) ([]breaking.Release, error) {
	if gitfs.Shallow(ctx, repo) {
		return nil, fmt.Errorf("this is a shallow clone, which lacks the release tags: fetch them (git fetch --unshallow --tags, or fetch-depth: 0 in actions/checkout)")
	}
	tags, err := gitfs.Tags(ctx, repo)
	if err != nil {
		return nil, err
	}
	byVersion := map[string]*breaking.Release{}
	var out []*breaking.Release
	for _, t := range tags {
		m := versionTag.FindStringSubmatch(t.Name)
		if m == nil || m[2] != "" && !prereleases {
			continue
		}
		r := byVersion[m[1]]
		if r == nil {
			r = &breaking.Release{Version: m[1], Date: t.Date}
			byVersion[m[1]] = r
			out = append(out, r)
		}
		if t.Date.Before(r.Date) || t.Date.Equal(r.Date) && len(r.Tags) > 0 && t.Name < r.Tags[0] {
			r.Date, r.Tags = t.Date, append([]string{t.Name}, r.Tags...)
		} else {
			r.Tags = append(r.Tags, t.Name)
		}
	}
	releases := make([]breaking.Release, len(out))
	for i, r := range out {
		tag := r.Tags[0]
		r.Tools = sync.OnceValues(func() ([]*canonical.Tool, error) { return releaseTools(ctx, repo, manifest, tag) })
		releases[i] = *r
	}
	breaking.SortReleases(releases)
	return releases, nil
}

// releaseTools builds the catalog at the tag, as an earlier release's.
func releaseTools(ctx context.Context, repo, manifest, tag string) ([]*canonical.Tool, error) {
	g, err := gitfs.Open(ctx, repo, "refs/tags/"+tag)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	old, err := pipeline.BuildEarlier(ctx, g, manifest, tag)
	if err != nil {
		return nil, err
	}
	return old.Tools, nil
}

// Load builds the catalog that ref names (Find), whose manifest is at
// manifest in a folder or revision.
func Load(ctx context.Context, ref, cwd, repo, manifest string) (*pipeline.Earlier, error) {
	r, err := Find(ctx, ref, cwd, repo)
	if err != nil {
		return nil, err
	}
	if r.File == "" {
		defer r.Close()
		old, err := pipeline.BuildEarlier(ctx, r.FS, manifest, r.What)
		if err == nil && r.Git {
			old.History = func(prereleases bool) ([]breaking.Release, error) { return History(ctx, repo, manifest, prereleases) }
		}
		return old, err
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
