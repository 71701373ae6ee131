package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolc-dev/toolc/internal/buildcache"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// The build cache (internal/buildcache): what a successful build printed,
// by a key of everything that decides it. A build whose toolc.lock still
// describes the disk (every input and output hash, the manifest's, the
// baseline's and toolc's version match: the fast path of build --check)
// writes nothing new; with the cache it prints what that build printed
// without building. Anything else builds, and a successful build stores
// its entry.

// buildCache is the cache of one build command.
type buildCache struct {
	cache buildcache.Cache
	on    bool
	root  *manifestRoot
	day   string
	all   bool // --no-baseline
}

// cacheDir is where the cache is: --cache, or toolc under the user cache
// directory; "" with --no-cache or when there is none.
func cacheDir(f buildFlags) string {
	switch {
	case f.noCache:
		return ""
	case f.cache != "":
		return f.cache
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "toolc")
}

// openCache returns the build's cache: none with --no-cache, --out-dir or
// --target, or for a toolc whose version does not name its code.
func openCache(m *manifestRoot, f buildFlags, now time.Time) *buildCache {
	dir := cacheDir(f)
	c := &buildCache{cache: buildcache.Cache{Dir: dir}, root: m, all: f.all,
		on: dir != "" && f.outDir == "" && len(f.only) == 0 && pipeline.NamesCode(version())}
	if now.IsZero() {
		now = time.Now()
	}
	c.day = now.UTC().Format(time.DateOnly)
	return c
}

// key is the entry's key for the toolc.lock on disk; "" without one.
func (c *buildCache) key() string {
	lock, err := c.root.root.ReadFile(pipeline.LockFile)
	if err != nil {
		return ""
	}
	return buildcache.Key(version(), c.day, c.all, lock)
}

// get returns what the last build of these inputs printed, when toolc.lock
// still describes the disk (pipeline.Fresh: the fast path of build
// --check) and the cache has its entry; else nil, and the command builds.
//
// Fresh hashes every input and output (89 MB of bundles at 20,000 tools,
// half of a cached build's time) but those the entry's stats say are
// unchanged: the same size and modification time as when they were last
// hashed and found as the lock says, and that time at least two seconds
// before then, so that an edit within the file system's clock tick of the
// hashing is never missed (git's "racily clean" files; make trusts the
// time alone). A hashed check records the files' stats for the next.
func (c *buildCache) get(ctx context.Context, jobs int, out *output) (*buildcache.Entry, error) {
	if !c.on {
		return nil, nil
	}
	man, err := c.root.read(out)
	if err != nil {
		return nil, err
	}
	key := c.key()
	if key == "" {
		return nil, nil
	}
	known := c.cache.Stats(key)
	at := time.Now() // before any file is looked at: what is older was hashed after it
	var mu sync.Mutex
	seen := map[string]buildcache.FileStat{}
	hashed := false
	opts := pipeline.Options{Jobs: jobs, Version: version(),
		Unchanged: func(name string, info fs.FileInfo) bool {
			s, ok := known.Files[name]
			if ok && s == buildcache.StatOf(info) && info.ModTime().UnixNano() < known.At-int64(2*time.Second) {
				return true
			}
			mu.Lock()
			hashed = true // its stat is recorded anew once it is found as the lock says
			mu.Unlock()
			return false
		},
		Checked: func(name string, info fs.FileInfo) {
			mu.Lock()
			seen[name] = buildcache.StatOf(info)
			mu.Unlock()
		}}
	if fresh, _, err := pipeline.Fresh(ctx, c.root.root.FS(), man, opts); err != nil || !fresh {
		return nil, nil // a miss: the build says what is wrong, if anything
	}
	e := c.cache.Get(key, version())
	if e != nil && (hashed || len(seen) != len(known.Files)) {
		c.cache.PutStats(key, buildcache.Stats{At: at.UnixNano(), Files: seen})
	}
	return e, nil
}

// put stores what res printed under the key of the lock it just wrote:
// the next build finds it if the lock still describes the disk then. A
// cache that cannot be written costs the next build its speed, nothing
// else.
func (c *buildCache) put(res *pipeline.Result) {
	if !c.on {
		return
	}
	key := c.key()
	if key == "" {
		return
	}
	c.cache.Put(&buildcache.Entry{Key: key, Toolc: version(), Tools: res.Tools, Files: res.Files, Targets: res.Targets,
		Hidden: res.Hidden, Gone: res.Gone, Plans: planLines(res), Diagnostics: res.Diagnostics})
}

// sayCached prints what the cached build printed, and the summary.
func sayCached(e *buildcache.Entry, out *output, start time.Time) {
	out.digest(e.Diagnostics)
	baselineStatus(&pipeline.Result{Hidden: e.Hidden, Gone: e.Gone}, out)
	for _, p := range e.Plans {
		out.status("%s", p)
	}
	errs, warns, _ := diagfmt.Count(e.Diagnostics)
	out.status("up to date: %s from %s, %s: %s, %s (%s; nothing changed since toolc.lock, so nothing was built: --no-cache builds)",
		diagfmt.Plural(e.Tools, "tool"), diagfmt.Plural(e.Files, "source file"), diagfmt.Plural(e.Targets, "target"), diagfmt.Plural(warns, "warning"), diagfmt.Plural(errs, "error"),
		time.Since(start).Round(time.Millisecond))
}
