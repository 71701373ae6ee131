//go:build unix

package pipeline

import (
	"context"
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
	done := make(chan *Result, 1)
	go func() {
		res, err := BuildFile(context.Background(), os.DirFS(dir), DefaultManifest, Options{})
		if err != nil {
			t.Errorf("Build: %v", err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res == nil {
			return
		}
		if !res.Failed || !slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
			return d.Code == "source.read" && d.File == "tools/b/pipe.json" && strings.Contains(d.Message, "named pipe")
		}) {
			t.Errorf("Build of a named pipe: failed %v, %v; want source.read at tools/b/pipe.json", res.Failed, res.Diagnostics)
		}
	case <-time.After(time.Minute): // a guard against the hang, not a timing
		t.Fatal("the build still reads the named pipe after a minute")
	}
}
