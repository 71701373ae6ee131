//go:build unix

package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/diag"
)

// TestNamedPipeUnderAGlob: a named pipe that an include glob matches hung
// the build forever (reading one waits for a writer). It is now a located
// source.read error, and the build ends.
func TestNamedPipeUnderAGlob(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools/a"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tools/b"), 0o755)
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte(baseManifest), 0o644)
	os.WriteFile(filepath.Join(dir, "tools/a/mcp.json"), []byte(mcpTools), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "tools/b/pipe.json"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	var res *Result
	if err := withinAMinute(t, "the build of the named pipe", func() (err error) {
		res, err = BuildFile(context.Background(), os.DirFS(dir), DefaultManifest, Options{})
		return err
	}); err != nil {
		t.Fatalf("Build: %v", err)
	}
	if !res.Failed || !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
		return d.Code == "source.read" && d.File == "tools/b/pipe.json" && strings.Contains(d.Message, "named pipe")
	}) {
		t.Errorf("Build of a named pipe: failed %v, %v; want source.read at tools/b/pipe.json", res.Failed, res.Diagnostics)
	}
}

// TestRootFSNeverWaitsOnAPipe: the build checks a file before it opens it,
// and a source swapped for a named pipe between the two made the open
// wait for a writer, forever. RootFS opens without waiting and hands out
// only a regular file or a folder: the swap, done here before the open
// (the check having passed on the file), ends in ErrNotRegular at once,
// and fs.ReadFile, fs.ReadDir and a link's reading go on as before.
func TestRootFSNeverWaitsOnAPipe(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.WriteFile(filepath.Join(dir, "tools/a.json"), []byte(mcpTools), 0o644)
	os.Symlink("a.json", filepath.Join(dir, "tools/b.json"))
	root := openRoot(t, dir)
	fsys := RootFS(root)
	if _, err := statRegular(fsys, "tools/a.json"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "tools/a.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "tools/a.json"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	err := withinAMinute(t, "reading the named pipe", func() error { _, err := fs.ReadFile(fsys, "tools/a.json"); return err })
	if !errors.Is(err, ErrNotRegular) || err.Error() != "tools/a.json is a named pipe: not a regular file" {
		t.Errorf("reading a named pipe = %v, want ErrNotRegular, said as statRegular says it", err)
	}

	os.Remove(filepath.Join(dir, "tools/a.json"))
	os.WriteFile(filepath.Join(dir, "tools/a.json"), []byte(mcpTools), 0o644)
	if data, err := fs.ReadFile(fsys, "tools/b.json"); err != nil || string(data) != mcpTools {
		t.Errorf("reading through a link = %q, %v", data, err)
	}
	if entries, err := fs.ReadDir(fsys, "tools"); err != nil || len(entries) != 2 {
		t.Errorf("ReadDir = %v, %v", entries, err)
	}
	if target, err := fsys.(fs.ReadLinkFS).ReadLink("tools/b.json"); err != nil || target != "a.json" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	if _, err := fsys.Open("../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Open(../x) = %v, want fs.ErrInvalid", err)
	}
}

// TestReadFileOfAPipe: the file that convert and detect read, named on the
// command line, is opened without waiting too, and only a regular one is
// read.
func TestReadFileOfAPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	err := withinAMinute(t, "ReadFile of the named pipe", func() error { _, err := ReadFile(filepath.Join(dir, "pipe.json")); return err })
	if !errors.Is(err, ErrNotRegular) || err.Error() != "pipe.json is a named pipe: not a regular file" {
		t.Errorf("ReadFile of a named pipe = %v, want ErrNotRegular", err)
	}
	if _, err := ReadFile(dir); err == nil || err.Error() != filepath.Base(dir)+" is a folder: not a regular file" {
		t.Errorf("ReadFile of a folder = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(mcpTools), 0o644)
	if data, err := ReadFile(filepath.Join(dir, "a.json")); err != nil || string(data) != mcpTools {
		t.Errorf("ReadFile = %q, %v", data, err)
	}
}

// withinAMinute returns what read returns, and fails t when read has not
// returned after a minute: a guard against a hang, not a timing.
func withinAMinute(t *testing.T, what string, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s still waits after a minute", what)
		return nil
	}
}
