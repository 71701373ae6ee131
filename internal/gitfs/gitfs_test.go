package gitfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestFS(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	repo := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, repo, "init", "-q")
	write("cat/toolc.toml", "version = 1\n")
	write("cat/tools/a.json", "[1]\n")
	write("other.json", "{}\n")
	run(t, repo, "add", ".")
	run(t, repo, "commit", "-q", "-m", "one")
	write("cat/tools/a.json", "[2]\n")
	write("cat/tools/b.json", "[3]\n")
	run(t, repo, "add", ".")
	run(t, repo, "commit", "-q", "-m", "two")

	f, err := Open(context.Background(), filepath.Join(repo, "cat"), "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	if names, err := fs.Glob(f, "tools/*.json"); err != nil || len(names) != 1 || names[0] != "tools/a.json" {
		t.Errorf("Glob(tools/*.json) at HEAD~1 = %v, %v", names, err)
	}
	if info, err := fs.Stat(f, "tools"); err != nil || !info.IsDir() {
		t.Errorf("Stat(tools) = %v, %v", info, err)
	}
	data, err := fs.ReadFile(f, "tools/a.json")
	if err != nil || string(data) != "[1]\n" {
		t.Errorf("tools/a.json at HEAD~1 = %q, %v; want [1]", data, err)
	}
	if _, err := fs.ReadFile(f, "tools/b.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("tools/b.json at HEAD~1: %v, want ErrNotExist", err)
	}
	if _, err := fs.ReadFile(f, "../other.json"); err == nil {
		t.Errorf("a file outside the folder can be read")
	}
	if _, err := Open(context.Background(), filepath.Join(repo, "cat"), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open(nope) = %v, want ErrNotFound", err)
	}
	if _, err := Open(context.Background(), t.TempDir(), "HEAD"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open outside a repository = %v, want ErrNotFound", err)
	}
}

// TestBlobBoundAndTags: a file over the bound is refused without being
// read; the tags are listed by their full names, one a branch shares
// too.
func TestBlobBoundAndTags(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "big.json"), []byte(strings.Repeat(" ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, repo, "init", "-q")
	run(t, repo, "add", ".")
	run(t, repo, "commit", "-q", "-m", "one")
	run(t, repo, "tag", "v1.0.0")
	run(t, repo, "branch", "v1.0.0")
	defer func(n int64) { maxBlob = n }(maxBlob)
	maxBlob = 99
	f, err := Open(context.Background(), repo, "refs/tags/v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(f, "big.json"); err == nil || !strings.Contains(err.Error(), "100 bytes") {
		t.Errorf("a file over the bound = %v, want its refusal", err)
	}
	tags, err := Tags(context.Background(), repo)
	if err != nil || len(tags) != 1 || tags[0].Name != "v1.0.0" {
		t.Errorf("Tags = %v, %v; want v1.0.0, which a branch is also named", tags, err)
	}
}

// TestOneCatFile: every file of a revision is read through one git
// cat-file --batch, from many goroutines at once; a missing object fails
// its read alone, an answer out of step (a size that ls-tree did not say)
// fails every read after it, and Close ends the process.
func TestOneCatFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	repo := t.TempDir()
	want := map[string]string{}
	for i := range 40 {
		name := fmt.Sprintf("tools/t%02d.json", i)
		want[name] = strings.Repeat(fmt.Sprintf("[%d]\n", i), i*97) // 0 bytes to 17 KB, over bufio's first fill
		if err := os.MkdirAll(filepath.Join(repo, "tools"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), []byte(want[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, repo, "init", "-q")
	run(t, repo, "add", ".")
	run(t, repo, "commit", "-q", "-m", "one")
	f, err := Open(context.Background(), repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for name, data := range want {
		wg.Go(func() {
			got, err := fs.ReadFile(f, name)
			if err != nil || string(got) != data {
				t.Errorf("%s = %d bytes, %v; want %d bytes", name, len(got), err, len(data))
			}
		})
	}
	wg.Wait()
	cat := f.cat
	if cat == nil || cat.cmd.ProcessState != nil {
		t.Fatal("no git cat-file runs after the reads")
	}

	// A missing object: its read fails, the next one is answered.
	f.blobs["gone.json"] = blob{strings.Repeat("0", 40), 3}
	if _, err := fs.ReadFile(f, "gone.json"); err == nil || !strings.Contains(err.Error(), "no object") {
		t.Errorf("a missing object = %v, want its refusal", err)
	}
	if got, err := fs.ReadFile(f, "tools/t01.json"); err != nil || string(got) != want["tools/t01.json"] {
		t.Errorf("after a missing object: %q, %v", got, err)
	}
	// A size ls-tree did not say: the stream is out of step, every read fails.
	b := f.blobs["tools/t02.json"]
	f.blobs["tools/t02.json"] = blob{b.hash, b.size + 1}
	if _, err := fs.ReadFile(f, "tools/t02.json"); err == nil || !strings.Contains(err.Error(), "answered") {
		t.Errorf("a blob of another size = %v, want its refusal", err)
	}
	if _, err := fs.ReadFile(f, "tools/t03.json"); err == nil {
		t.Error("a read after an answer out of step succeeded")
	}
	if cat.cmd.ProcessState == nil {
		t.Error("git cat-file still runs after an answer out of step")
	}

	// Close ends the process; a read after it fails.
	g, err := Open(context.Background(), repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(g, "tools/t05.json"); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if g.cat.cmd.ProcessState == nil || !g.cat.cmd.ProcessState.Exited() {
		t.Error("git cat-file still runs after Close")
	}
	if _, err := fs.ReadFile(g, "tools/t05.json"); err == nil {
		t.Error("a read after Close succeeded")
	}
	if err := g.Close(); err != nil {
		t.Errorf("a second Close = %v", err)
	}
}
