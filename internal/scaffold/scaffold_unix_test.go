//go:build unix

package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNewLeavesOutNamedPipes: init reads only regular files, and the
// manifest it writes leaves out the named pipe it skipped, so the promised
// build does not read it (and wait forever).
func TestNewLeavesOutNamedPipes(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	for _, n := range []string{"a.json", "b.json", "c.json"} {
		os.WriteFile(filepath.Join(dir, "tools", n), []byte(`{"tools": [{"name": "`+strings.TrimSuffix(n, ".json")+`", "description": "d", "inputSchema": {"type": "object"}}]}`), 0o644)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "tools/pipe.json"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	p, err := New(context.Background(), os.DirFS(dir), "demo")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Manifest, `exclude = ["tools/pipe.json"]`) || p.Result.Failed || p.Files != 3 {
		t.Errorf("the plan reads the named pipe, or fails: %d files, failed %v:\n%s", p.Files, p.Result.Failed, p.Manifest)
	}
}
