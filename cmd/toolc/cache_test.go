package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// cacheEdit is a change between two builds of a catalog, made to its
// folder.
type cacheEdit struct {
	name  string
	apply func(t *testing.T, dir string)
}

// TestCachedBuildIsACleanBuild: after each edit (one source file's
// content, a source file renamed, one deleted, the manifest, toolc's
// version), a build with the cache builds, and writes what a clean build
// of the same inputs writes, byte for byte; the next answers from the
// cache and leaves them as they are. On the example catalog and on
// ../shared/bench's catalog (3,000 tools in three files).
func TestCachedBuildIsACleanBuild(t *testing.T) {
	defer func(v string) { releaseVersion = v }(releaseVersion)
	catalogs := []struct {
		name  string
		setup func(t *testing.T, dir string)
		edits []cacheEdit
	}{
		{"example", exampleCatalog, []cacheEdit{
			{"a source edited", replaceIn("examples/catalog/weather/tools.json", "Get", "Fetch")},
			{"a source renamed", rename("examples/catalog/github/repos.json", "examples/catalog/github/more/repos.json")},
			{"a source deleted", remove("examples/catalog/github/issues.json")},
			{"the manifest edited", replaceIn("toolc.toml", `version = "0.1.0"`, `version = "0.2.0"`)},
			{"another toolc", func(*testing.T, string) { releaseVersion = "v1.0.1" }},
		}},
		{"bench", benchCatalog, []cacheEdit{
			{"a source edited", replaceIn("tools/part0001.json", `"description": "`, `"description": "Edited. `)},
			{"a source renamed", rename("tools/part0000.json", "tools/first.json")},
			{"a source deleted", remove("tools/part0002.json")},
			{"the manifest edited", replaceIn("toolc.toml", `version = "1.0.0"`, `version = "1.1.0"`)},
			{"another toolc", func(*testing.T, string) { releaseVersion = "v1.0.1" }},
		}},
	}
	for _, c := range catalogs {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "bench" && testing.Short() {
				t.Skip("builds 3,000 tools a dozen times")
			}
			releaseVersion = "v1.0.0" // the cache answers only a toolc whose version names its code
			dir, cache := t.TempDir(), t.TempDir()
			c.setup(t, dir)
			cachedBuild(t, dir, cache, "built")
			cachedBuild(t, dir, cache, "up to date")
			var done []cacheEdit
			for _, e := range c.edits {
				e.apply(t, dir)
				done = append(done, e)
				cachedBuild(t, dir, cache, "built")
				clean := t.TempDir()
				c.setup(t, clean)
				for _, d := range done {
					d.apply(t, clean)
				}
				if code := run([]string{"build", "-C", clean, "--no-cache"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
					t.Fatalf("%s: the clean build exited %d", e.name, code)
				}
				sameOutputs(t, e.name, dir, clean)
				cachedBuild(t, dir, cache, "up to date")
				sameOutputs(t, e.name+", answered from the cache", dir, clean)
			}
		})
	}
}

// cachedBuild builds dir with the cache and checks that it built, or
// answered "up to date".
func cachedBuild(t *testing.T, dir, cache, want string) {
	t.Helper()
	var stderr bytes.Buffer
	if code := run([]string{"build", "-C", dir, "--cache", cache}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("toolc build exited %d:\n%s", code, stderr.String())
	}
	last := stderr.String()
	if i := strings.LastIndex(strings.TrimSuffix(last, "\n"), "\n"); i >= 0 {
		last = last[i+1:]
	}
	if !strings.HasPrefix(last, "toolc: "+want) {
		t.Fatalf("toolc build said %q, want %q", strings.TrimSpace(last), "toolc: "+want+" …")
	}
}

// sameOutputs compares every output toolc outputs lists for dir (a
// folder's files included) with clean's.
func sameOutputs(t *testing.T, edit, dir, clean string) {
	t.Helper()
	var list bytes.Buffer
	if code := run([]string{"outputs", "-C", clean}, &list, &bytes.Buffer{}); code != 0 {
		t.Fatalf("toolc outputs exited %d", code)
	}
	n := 0
	for _, out := range strings.Fields(list.String()) {
		err := filepath.WalkDir(filepath.Join(clean, out), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(clean, p)
			want, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %s is not what a clean build writes (%v)", edit, rel, err)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 2 {
		t.Fatalf("%s: %d outputs compared", edit, n)
	}
}

// exampleCatalog copies the repository's example catalog (toolc.toml and
// examples/catalog) into dir.
func exampleCatalog(t *testing.T, dir string) {
	t.Helper()
	if err := os.CopyFS(filepath.Join(dir, "examples", "catalog"), os.DirFS(filepath.Join("..", "..", "examples", "catalog"))); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "toolc.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "toolc.toml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// benchCatalog writes ../shared/bench's catalog of 3,000 tools into dir
// with its generator (python3 gen.py).
func benchCatalog(t *testing.T, dir string) {
	t.Helper()
	gen := filepath.Join(filepath.Dir(corpus.Dir(t)), "bench", "gen.py")
	if out, err := exec.Command("python3", gen, dir, "3000").CombinedOutput(); err != nil {
		t.Fatalf("python3 %s: %v\n%s", gen, err, out)
	}
}

func replaceIn(file, old, new string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s has no %q", file, old)
		}
		if err := os.WriteFile(p, bytes.ReplaceAll(data, []byte(old), []byte(new)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rename(from, to string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
			t.Fatal(err)
		}
	}
}

func remove(file string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, file)); err != nil {
			t.Fatal(err)
		}
	}
}
