package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// The build cache: what a successful build printed, kept under the user
// cache directory by a key of everything that decides it. A build whose
// toolc.lock still describes the disk (every input and output hash, the
// manifest's, the baseline's and toolc's version match: the fast path of
// build --check) writes nothing new; with the cache it prints what that
// build printed without building. Anything else builds, and a successful
// build refreshes its entry. An entry that cannot be read, or is another
// key's or another toolc's, is ignored and rewritten: never trusted.

// cacheVersion is the entries' format; a change makes every entry a miss.
const cacheVersion = 1

// cacheEntry is what a build printed, as data: the findings it reported
// (the baseline's already left out), and its summary's figures. It is
// written as a JSON line of the figures, then a line per finding, its
// fields separated by tabs (escaped: \\, \t, \n, \r): 20,000 tools make
// 45,000 findings, which JSON took 0.3 s to decode, more than the build's
// fast path itself.
type cacheEntry struct {
	Version     int               `json:"version"`
	Key         string            `json:"key"`
	Toolc       string            `json:"toolc"`
	Tools       int               `json:"tools"`
	Files       int               `json:"files"`
	Targets     int               `json:"targets"`
	Hidden      int               `json:"hidden"`
	Gone        int               `json:"gone"`
	Plans       []string          `json:"plans,omitempty"`
	Findings    int               `json:"findings"` // how many lines follow: a cut entry is refused
	Diagnostics []diag.Diagnostic `json:"-"`
}

// encode writes the entry.
func (e *cacheEntry) encode() ([]byte, error) {
	e.Findings = len(e.Diagnostics)
	head, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	b := bytes.NewBuffer(make([]byte, 0, len(head)+len(e.Diagnostics)*200))
	b.Write(head)
	b.WriteByte('\n')
	for _, d := range e.Diagnostics {
		for i, f := range []string{d.Code, strconv.Itoa(int(d.Severity)), d.Message, d.File, d.Pointer, strconv.Itoa(d.Line), strconv.Itoa(d.Column), d.Target, d.Tool, d.Fix, d.Subject} {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(fieldEscaper.Replace(f))
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

var (
	fieldEscaper   = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")
	fieldUnescaper = strings.NewReplacer("\\\\", "\\", "\\t", "\t", "\\n", "\n", "\\r", "\r")
)

// decodeEntry reads an entry that encode wrote; anything else is an
// error.
func decodeEntry(data []byte) (*cacheEntry, error) {
	head, rest, ok := bytes.Cut(data, []byte("\n"))
	var e cacheEntry
	if !ok || json.Unmarshal(head, &e) != nil {
		return nil, errors.New("no head")
	}
	e.Diagnostics = make([]diag.Diagnostic, 0, min(e.Findings, bytes.Count(rest, []byte("\n"))))
	// One string of every finding, whose fields are slices of it: a
	// string a field saves 45,000 findings' worth of allocations.
	text := string(rest)
	var f [11]string
	for text != "" {
		line, next, ok := strings.Cut(text, "\n")
		if !ok {
			return nil, errors.New("a cut line")
		}
		text = next
		for i := range f {
			j := strings.IndexByte(line, '\t')
			switch {
			case i == len(f)-1 && j < 0:
				f[i] = line
			case i == len(f)-1 || j < 0:
				return nil, errors.New("a finding of other fields")
			default:
				f[i], line = line[:j], line[j+1:]
			}
			if strings.IndexByte(f[i], '\\') >= 0 {
				f[i] = fieldUnescaper.Replace(f[i])
			}
		}
		sev, err1 := strconv.Atoi(f[1])
		l, err2 := strconv.Atoi(f[5])
		c, err3 := strconv.Atoi(f[6])
		if errors.Join(err1, err2, err3) != nil || sev < int(diag.Info) || sev > int(diag.Error) {
			return nil, errors.New("a bad finding")
		}
		e.Diagnostics = append(e.Diagnostics, diag.Diagnostic{Code: f[0], Severity: diag.Severity(sev), Message: f[2], File: f[3], Pointer: f[4],
			Line: l, Column: c, Target: f[7], Tool: f[8], Fix: f[9], Subject: f[10]})
	}
	if len(e.Diagnostics) != e.Findings {
		return nil, errors.New("cut")
	}
	return &e, nil
}

// buildCache is the cache of one build command.
type buildCache struct {
	dir  string // "": none
	root *manifestRoot
	day  string
	all  bool // --no-baseline
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
	c := &buildCache{dir: cacheDir(f), root: m, all: f.all}
	if f.outDir != "" || len(f.only) > 0 || !pipeline.NamesCode(version()) {
		c.dir = ""
	}
	if now.IsZero() {
		now = time.Now()
	}
	c.day = now.UTC().Format(time.DateOnly)
	return c
}

// key is the entry's key for the toolc.lock on disk: toolc's version, the
// lock's bytes (which hold every input's and output's hash, and the
// manifest's), the flags that change what a build reports, and the day it
// is judged on; "" without a lock.
func (c *buildCache) key() string {
	lock, err := c.root.root.ReadFile(pipeline.LockFile)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "toolc build cache %d\ntoolc %s\nday %s\nno-baseline %v\n", cacheVersion, version(), c.day, c.all)
	h.Write(lock)
	return hex.EncodeToString(h.Sum(nil))
}

// path is key's entry.
func (c *buildCache) path(key string) string {
	return filepath.Join(c.dir, "builds", key[:2], key+".json")
}

// get returns what the last build of these inputs printed, when toolc.lock
// still describes the disk (pipeline.Fresh: the fast path of build
// --check) and the cache has its entry; else nil, and the command builds.
//
// Fresh hashes every input and output (89 MB of bundles at 20,000 tools,
// half of a cached build's time) but those the entry's stat file says are
// unchanged: the same size and modification time as when they were last
// hashed and found as the lock says, and that time at least two seconds
// before then, so that an edit within the file system's clock tick of the
// hashing is never missed (git's "racily clean" files; make trusts the
// time alone). A hashed check records the files' stats for the next.
func (c *buildCache) get(ctx context.Context, jobs int, out *output) (*cacheEntry, error) {
	if c.dir == "" {
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
	known := c.readStats(key)
	at := time.Now() // before any file is looked at: what is older was hashed after it
	var mu sync.Mutex
	seen := map[string]fileStat{}
	hashed := false
	opts := pipeline.Options{Jobs: jobs, Version: version(),
		Unchanged: func(name string, info fs.FileInfo) bool {
			s, ok := known.Files[name]
			if ok && s == statOf(info) && info.ModTime().UnixNano() < known.At-int64(2*time.Second) {
				return true
			}
			mu.Lock()
			hashed = true // its stat is recorded anew once it is found as the lock says
			mu.Unlock()
			return false
		},
		Checked: func(name string, info fs.FileInfo) {
			mu.Lock()
			seen[name] = statOf(info)
			mu.Unlock()
		}}
	if fresh, _, err := pipeline.Fresh(ctx, c.root.root.FS(), man, opts); err != nil || !fresh {
		return nil, nil // a miss: the build says what is wrong, if anything
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, nil
	}
	e, err := decodeEntry(data)
	if err != nil || e.Version != cacheVersion || e.Key != key || e.Toolc != version() {
		return nil, nil // corrupt, or another's: built again, and rewritten
	}
	if hashed || len(seen) != len(known.Files) {
		c.writeStats(key, stats{At: at.UnixNano(), Files: seen})
	}
	return e, nil
}

// fileStat is what a file's size and modification time were.
type fileStat struct {
	Size, ModTime int64
}

func statOf(info fs.FileInfo) fileStat {
	return fileStat{info.Size(), info.ModTime().UnixNano()}
}

// stats is an entry's stat file: when its files were last hashed, and
// their stats then.
type stats struct {
	At    int64               `json:"at"`
	Files map[string]fileStat `json:"files"`
}

// readStats reads key's stat file; none, or one that cannot be read,
// trusts no file.
func (c *buildCache) readStats(key string) stats {
	var s stats
	if data, err := os.ReadFile(c.path(key) + ".stat"); err == nil && json.Unmarshal(data, &s) == nil {
		return s
	}
	return stats{}
}

// writeStats writes key's stat file, atomically.
func (c *buildCache) writeStats(key string, s stats) {
	if data, err := json.Marshal(s); err == nil {
		writeAtomic(c.path(key)+".stat", data)
	}
}

// writeAtomic writes data to p through a temporary file renamed into
// place; a cache that cannot be written costs the next build its speed,
// nothing else: the error is dropped.
func writeAtomic(p string, data []byte) {
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".entry-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); errors.Join(werr, cerr) != nil || os.Rename(tmp.Name(), p) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// put stores what res printed under the key of the lock it just wrote,
// atomically (a file renamed into place): the next build finds it if the
// lock still describes the disk then. A cache that cannot be written
// costs the next build its speed, nothing else: the error is dropped.
func (c *buildCache) put(res *pipeline.Result) {
	if c.dir == "" {
		return
	}
	key := c.key()
	if key == "" {
		return
	}
	e := cacheEntry{Version: cacheVersion, Key: key, Toolc: version(), Tools: res.Tools, Files: res.Files, Targets: res.Targets,
		Hidden: res.Hidden, Gone: res.Gone, Plans: planLines(res), Diagnostics: res.Diagnostics}
	data, err := e.encode()
	if err != nil {
		return
	}
	writeAtomic(c.path(key), data)
}

// say prints what the cached build printed, and the summary.
func (e *cacheEntry) say(out *output, start time.Time) {
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
