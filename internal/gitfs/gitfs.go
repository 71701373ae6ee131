// Package gitfs reads a folder of a git repository as it was at a revision,
// through the git command, without a clone or a checkout: the file list comes
// from git ls-tree and each file's bytes from one git cat-file --batch, asked
// for a file when it is read.
package gitfs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"
	"time"
)

// ErrNotFound is wrapped by Open's error when dir is not in a git work tree
// or rev is not a commit.
var ErrNotFound = errors.New("not a git revision")

// FS is a folder at a revision. It implements fs.FS and fs.ReadFileFS. The
// listing does not read files, so a file that is not open has size 0.
// Close ends the git process that its reads started.
type FS struct {
	dir   string // where git runs
	Rev   string // the commit, in full
	tree  fstest.MapFS
	blobs map[string]blob // path → its blob

	// The files' bytes come from one git cat-file --batch, started by the
	// first read, each file's asked for in turn (a process a file took
	// 2 ms each, a release history's files hundreds of them).
	mu     sync.Mutex
	cat    *catFile
	closed bool
}

type blob struct {
	hash string
	size int64
}

// maxBlob is the largest file a revision's folder gives: an earlier
// release is read to judge a change, and a file of hundreds of megabytes
// in an old tag must not take a build's memory. Reading a larger one is an
// error that says so. (A variable for the test.)
var maxBlob int64 = 64 << 20

// Shallow reports whether the repository at dir is a shallow clone, whose
// history lacks the revisions before its depth.
func Shallow(ctx context.Context, dir string) bool {
	out, err := git(ctx, dir, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// Open lists the folder dir as it was at the revision rev (a branch, tag,
// commit, HEAD~2 …). Symbolic links and submodules are left out.
func Open(ctx context.Context, dir, rev string) (*FS, error) {
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%w: %q in %s", ErrNotFound, rev, dir)
	}
	f := &FS{dir: dir, Rev: strings.TrimSpace(string(out)), tree: fstest.MapFS{}, blobs: map[string]blob{}}
	out, err = git(ctx, dir, "ls-tree", "-r", "-l", "-z", f.Rev)
	if err != nil {
		return nil, err
	}
	for _, entry := range bytes.Split(out, []byte{0}) {
		meta, name, ok := strings.Cut(string(entry), "\t")
		fields := strings.Fields(meta) // mode, type, hash, size
		if !ok || len(fields) != 4 || fields[1] != "blob" || fields[0] == "120000" {
			continue
		}
		size, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			continue
		}
		f.blobs[name] = blob{fields[2], size}
		f.tree[name] = &fstest.MapFile{Mode: 0o444}
	}
	return f, nil
}

// ReadFile returns the file's bytes at the revision. It has no context (fs.FS
// has none): reading one blob is short, and a cancelled build stops asking.
func (f *FS) ReadFile(name string) ([]byte, error) {
	b, ok := f.blobs[name]
	if !ok {
		if _, err := f.tree.Stat(name); err == nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if b.size > maxBlob {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("the file is %d bytes at %.12s, more than the %d MiB toolc reads of an earlier revision", b.size, f.Rev, maxBlob>>20)}
	}
	data, err := f.blob(b)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, nil
}

// blob returns b's bytes from the revision's git cat-file --batch, which
// it starts on the first read.
func (f *FS) blob(b blob) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errors.New("the revision's files are closed")
	}
	if f.cat == nil {
		f.cat = startCatFile(f.dir)
	}
	return f.cat.read(b)
}

// Close ends the git process that reads the files; a read after it fails.
func (f *FS) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.cat == nil {
		return nil
	}
	return f.cat.close()
}

// catFile is a git cat-file --batch: an object's name written to it, it
// answers "<name> blob <size>", the bytes and a newline, or "<name>
// missing".
type catFile struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc // kills the process
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	err    error // once set, the stream is out of step: every read fails with it
}

// catFileExit is how long a git cat-file whose input has ended may take to
// exit before it is killed.
const catFileExit = 5 * time.Second

// startCatFile starts git cat-file --batch in dir; an error is kept for
// the first read to return.
func startCatFile(dir string) *catFile {
	ctx, cancel := context.WithCancel(context.Background())
	c := &catFile{cmd: exec.CommandContext(ctx, "git", "cat-file", "--batch"), cancel: cancel}
	c.cmd.Dir = dir
	c.cmd.WaitDelay = time.Second // once killed, how long Wait waits for its pipes
	c.cmd.Stderr = &c.stderr
	in, err := c.cmd.StdinPipe()
	if err != nil {
		c.err = err
		return c
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		c.err = err
		return c
	}
	if err := c.cmd.Start(); err != nil {
		c.err = fmt.Errorf("git cat-file: %w", err)
		return c
	}
	c.in, c.out = in, bufio.NewReaderSize(out, 64<<10)
	return c
}

// read returns blob b's bytes, which must be as many as ls-tree said.
func (c *catFile) read(b blob) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	if _, err := io.WriteString(c.in, b.hash+"\n"); err != nil {
		return nil, c.fail(err)
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return nil, c.fail(err)
	}
	fields := strings.Fields(header)
	switch {
	case len(fields) == 2 && fields[1] == "missing":
		return nil, fmt.Errorf("git cat-file: no object %s", b.hash)
	case len(fields) != 3 || fields[0] != b.hash || fields[1] != "blob" || fields[2] != strconv.FormatInt(b.size, 10):
		return nil, c.fail(fmt.Errorf("git cat-file answered %q for the blob %s of %d bytes", strings.TrimSpace(header), b.hash, b.size))
	}
	data := make([]byte, b.size+1) // and the newline after it
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, c.fail(err)
	}
	if data[b.size] != '\n' {
		return nil, c.fail(fmt.Errorf("git cat-file: no newline after the blob %s", b.hash))
	}
	return data[:b.size], nil
}

// fail keeps err as every later read's, since the stream is out of step,
// and ends the process: killed, as it may be writing what nobody reads.
func (c *catFile) fail(err error) error {
	c.cancel()
	c.close()
	if msg := strings.TrimSpace(c.stderr.String()); msg != "" { // read once Wait has copied it
		err = fmt.Errorf("%w: %s", err, msg)
	}
	c.err = fmt.Errorf("git cat-file: %w", err)
	return c.err
}

// close ends the process: its input closed, it exits once it has answered
// (every answer was read: a read that stopped midway failed, and killed
// it), or is killed after catFileExit. No read follows: FS.Close marks
// the files closed, and fail keeps its error.
func (c *catFile) close() error {
	defer c.cancel()
	if c.in == nil {
		return nil
	}
	c.in.Close()
	c.in = nil
	kill := time.AfterFunc(catFileExit, c.cancel)
	defer kill.Stop()
	return c.cmd.Wait()
}

// Open opens a file or folder of the revision.
func (f *FS) Open(name string) (fs.File, error) {
	if _, ok := f.blobs[name]; !ok {
		return f.tree.Open(name)
	}
	data, err := f.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return fstest.MapFS{name: &fstest.MapFile{Data: data, Mode: 0o444}}.Open(name)
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// Tag is one tag of a repository, with the date of what it marks: the
// tagger's date for an annotated tag, the commit's for a lightweight one.
type Tag struct {
	Name string
	Date time.Time
}

// Tags lists the tags of the repository at dir.
func Tags(ctx context.Context, dir string) ([]Tag, error) {
	// The full name, less refs/tags/: the short one of a tag that a
	// branch shares is tags/NAME.
	out, err := git(ctx, dir, "for-each-ref", "--format=%(refname:lstrip=2)%09%(creatordate:iso-strict)", "refs/tags")
	if err != nil {
		return nil, err
	}
	var tags []Tag
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, date, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		d, err := time.Parse(time.RFC3339, date)
		if err != nil {
			return nil, fmt.Errorf("tag %s: date %q: %v", name, date, err)
		}
		tags = append(tags, Tag{Name: name, Date: d})
	}
	return tags, nil
}
