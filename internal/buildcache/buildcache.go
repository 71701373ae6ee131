// Package buildcache keeps what a successful build printed, by a key of
// everything that decided it, under a folder (the user cache directory's
// toolc by default): the entries toolc build answers from when toolc.lock
// still describes the disk, and the stats of the files it last hashed.
// Nothing read from it is trusted: an entry that cannot be decoded, or is
// another key's or another toolc's, is none.
package buildcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Version is the entries' format; a change makes every entry a miss.
const Version = 1

// Cache is the cache under Dir.
type Cache struct {
	Dir string
}

// Key is an entry's key: toolc's version, the day a build judges dates on,
// whether the baseline hid findings, and the bytes of the toolc.lock it
// wrote (which hold every input's and output's hash, and the manifest's).
func Key(toolc, day string, noBaseline bool, lock []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "toolc build cache %d\ntoolc %s\nday %s\nno-baseline %v\n", Version, toolc, day, noBaseline)
	h.Write(lock)
	return hex.EncodeToString(h.Sum(nil))
}

// path is key's entry.
func (c Cache) path(key string) string {
	return filepath.Join(c.Dir, "builds", key[:2], key+".json")
}

// Get returns key's entry, written by toolc, or nil.
func (c Cache) Get(key, toolc string) *Entry {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil
	}
	e, err := Decode(data)
	if err != nil || e.Version != Version || e.Key != key || e.Toolc != toolc {
		return nil // corrupt, or another's: built again, and rewritten
	}
	return e
}

// Put stores e under its key, atomically.
func (c Cache) Put(e *Entry) {
	e.Version = Version
	if data, err := e.Encode(); err == nil {
		writeAtomic(c.path(e.Key), data)
	}
}

// Entry is what a build printed, as data: the findings it reported
// (the baseline's already left out), and its summary's figures. It is
// written as a JSON line of the figures, then a line per finding, its
// fields separated by tabs (escaped: \\, \t, \n, \r): 20,000 tools make
// 45,000 findings, which JSON took 0.3 s to decode, more than the build's
// fast path itself.
type Entry struct {
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

// Summary is the build's figures, elapsed its time: "13 tools from 6
// source files, 22 targets: 43 warnings, 0 errors (25ms)".
func (e *Entry) Summary(elapsed time.Duration) string {
	errs, warns, _ := diagfmt.Count(e.Diagnostics)
	return fmt.Sprintf("%s from %s, %s: %s, %s (%s)", diagfmt.Plural(e.Tools, "tool"), diagfmt.Plural(e.Files, "source file"), diagfmt.Plural(e.Targets, "target"),
		diagfmt.Plural(warns, "warning"), diagfmt.Plural(errs, "error"), elapsed.Round(time.Millisecond))
}

// Encode writes the entry.
func (e *Entry) Encode() ([]byte, error) {
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

// Decode reads an entry that Encode wrote; anything else is an
// error.
func Decode(data []byte) (*Entry, error) {
	head, rest, ok := bytes.Cut(data, []byte("\n"))
	var e Entry
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

// FileStat is what a file's size and modification time were.
type FileStat struct {
	Size, ModTime int64
}

func StatOf(info fs.FileInfo) FileStat {
	return FileStat{info.Size(), info.ModTime().UnixNano()}
}

// Stats is an entry's stat file: when its files were last hashed, and
// their stats then.
type Stats struct {
	At    int64               `json:"at"`
	Files map[string]FileStat `json:"files"`
}

// Stats reads key's stat file; none, or one that cannot be read,
// trusts no file.
func (c Cache) Stats(key string) Stats {
	var s Stats
	if data, err := os.ReadFile(c.path(key) + ".stat"); err == nil && json.Unmarshal(data, &s) == nil {
		return s
	}
	return Stats{}
}

// PutStats writes key's stat file, atomically.
func (c Cache) PutStats(key string, s Stats) {
	if data, err := json.Marshal(s); err == nil {
		writeAtomic(c.path(key)+".stat", data)
	}
}

// writeAtomic writes data to p as builds write their outputs
// (pipeline.WriteFile: through a temporary file renamed into place); a
// cache that cannot be written costs the next build its speed, nothing
// else: the error is dropped.
func writeAtomic(p string, data []byte) {
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		_ = pipeline.WriteFile(context.Background(), p, func(w io.Writer) error { _, err := w.Write(data); return err })
	}
}

// Session is the cache of one build: it answers only a build whose
// toolc.lock still describes the disk (pipeline.Fresh: the fast path of
// build --check), for a toolc whose version names its code.
type Session struct {
	cache      Cache
	on         bool
	root       fs.FS // the manifest's folder
	version    string
	day        string // the day the build judges dates on
	noBaseline bool
	// Memory, when set, is told the size of the entry Get reads, and the
	// function it returns is called with -1 once it is read: a program's
	// heap bound (pipeline.Options.Memory). An entry is read and kept
	// whole, as a build's sources are: the collector, which ran four times
	// while 20,000 tools' answer was read, waits (0.100 s against 0.132).
	// The entry is stated for its size before it is read, so that reading
	// it, 17 MB at once, is inside the wait too.
	Memory func(size int64) func(targets int)
}

// Dir is the cache's folder: dir when set (--cache), else toolc under the
// user cache directory; "" when there is none.
func Dir(dir string) string {
	if dir != "" {
		return dir
	}
	if user, err := os.UserCacheDir(); err == nil {
		return filepath.Join(user, "toolc")
	}
	return ""
}

// Open returns the session of a build of the manifest in root by toolc
// version, judged on now, with the cache in dir ("" for none).
func Open(dir string, root fs.FS, version string, now time.Time, noBaseline bool) *Session {
	if now.IsZero() {
		now = time.Now()
	}
	return &Session{cache: Cache{Dir: dir}, on: dir != "" && pipeline.NamesCode(version), root: root, version: version,
		day: now.UTC().Format(time.DateOnly), noBaseline: noBaseline}
}

// On reports whether the session may answer.
func (s *Session) On() bool { return s.on }

// key is the entry's key for the toolc.lock on disk; "" without one.
func (s *Session) key() string {
	lock, err := fs.ReadFile(s.root, pipeline.LockFile)
	if err != nil {
		return ""
	}
	return Key(s.version, s.day, s.noBaseline, lock)
}

// Get returns what the last build of these inputs printed, when toolc.lock
// still describes the disk and the cache has its entry; else nil, and the
// caller builds.
//
// Fresh hashes every input and output (89 MB of bundles at 20,000 tools,
// half of a cached build's time) but those the entry's stats say are
// unchanged: the same size and modification time as when they were last
// hashed and found as the lock says, and that time at least two seconds
// before then, so that an edit within the file system's clock tick of the
// hashing is never missed (git's "racily clean" files; make trusts the
// time alone). A hashed check records the files' stats for the next.
func (s *Session) Get(ctx context.Context, m *pipeline.Manifest, jobs int) *Entry {
	if !s.on {
		return nil
	}
	key := s.key()
	if key == "" {
		return nil
	}
	known := s.cache.Stats(key)
	at := time.Now() // before any file is looked at: what is older was hashed after it
	var mu sync.Mutex
	seen := map[string]FileStat{}
	hashed := false
	opts := pipeline.Options{Jobs: jobs, Version: s.version,
		Unchanged: func(name string, info fs.FileInfo) bool {
			if st, ok := known.Files[name]; ok && st == StatOf(info) && info.ModTime().UnixNano() < known.At-int64(2*time.Second) {
				return true
			}
			mu.Lock()
			hashed = true // its stat is recorded anew once it is found as the lock says
			mu.Unlock()
			return false
		},
		Checked: func(name string, info fs.FileInfo) {
			mu.Lock()
			seen[name] = StatOf(info)
			mu.Unlock()
		}}
	if fresh, _, err := pipeline.Fresh(ctx, s.root, m, opts); err != nil || !fresh {
		return nil // a miss: the build says what is wrong, if anything
	}
	read := func(int) {}
	if info, err := os.Stat(s.cache.path(key)); err == nil && s.Memory != nil {
		read = s.Memory(info.Size())
	}
	e := s.cache.Get(key, s.version)
	read(-1)
	if e != nil && (hashed || len(seen) != len(known.Files)) {
		s.cache.PutStats(key, Stats{At: at.UnixNano(), Files: seen})
	}
	return e
}

// Put stores what a build printed (EntryOf its result, which the caller
// printed from) under the key of the lock the build just wrote: the next
// build finds it if the lock still describes the disk then. A cache that
// cannot be written costs the next build its speed, nothing else.
func (s *Session) Put(built *Entry) {
	if !s.on {
		return
	}
	if key := s.key(); key != "" {
		e := *built
		e.Key, e.Toolc = key, s.version
		s.cache.Put(&e)
	}
}

// EntryOf is what a build printed, as data.
func EntryOf(res *pipeline.Result) *Entry {
	return &Entry{Tools: res.Tools, Files: res.Files, Targets: res.Targets, Hidden: res.Hidden, Gone: res.Gone, Plans: res.PlanLines(), Diagnostics: res.Diagnostics}
}
