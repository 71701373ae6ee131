package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/diag"
)

// TestSymlinkLoopReadOnce: a symbolic link to a folder above, under **,
// made the same file match nine times (eight catalog.duplicate-id errors).
// Each file is read once, and the loop is one warning; a link beside is
// one warning too, for all the files it names again.
func TestSymlinkLoopReadOnce(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte("version = 1\n[[sources]]\ninclude = [\"tools/**/*.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tools/a.json"), []byte(mcpTools), 0o644)
	if err := os.Symlink(".", filepath.Join(dir, "tools/loop")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	res, err := BuildFile(context.Background(), os.DirFS(dir), DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dups []string
	for _, d := range res.Diagnostics {
		switch {
		case d.Severity == diag.Error:
			t.Errorf("%s", d)
		case d.Code == "source.link-duplicate":
			dups = append(dups, d.Message)
		}
	}
	// One warning for the loop, not one for each level ** went down it.
	if res.Files != 1 || len(dups) != 1 || !strings.HasPrefix(dups[0], "tools/loop is a symbolic link to tools, a folder that holds it") {
		t.Errorf("Build read %d files and warned %q; want 1 file and one warning of the loop tools/loop", res.Files, dups)
	}

	os.Remove(filepath.Join(dir, "tools/loop"))
	os.MkdirAll(filepath.Join(dir, "shared"), 0o755)
	os.WriteFile(filepath.Join(dir, "shared/b.json"), []byte(mcpTools), 0o644)
	os.WriteFile(filepath.Join(dir, "shared/c.json"), []byte(mcpTools), 0o644)
	os.Remove(filepath.Join(dir, "tools/a.json"))
	os.Symlink("../shared", filepath.Join(dir, "tools/alias"))
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte("version = 1\n[[sources]]\ninclude = [\"shared/b.json\", \"shared/c.json\", \"tools/**/*.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n"), 0o644)
	res, err = BuildFile(context.Background(), os.DirFS(dir), DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dups = nil
	for _, d := range res.Diagnostics {
		if d.Code == "source.link-duplicate" {
			dups = append(dups, d.Message)
		}
	}
	if res.Files != 2 || len(dups) != 1 || !strings.HasPrefix(dups[0], "tools/alias is a symbolic link to shared: 2 paths through it") {
		t.Errorf("Build read %d files and warned %q; want 2 files and one warning of the link tools/alias", res.Files, dups)
	}
}

// TestCollapseStars: each ** of a glob multiplied its work ("**/" repeated
// many times); consecutive ones are written as one, which matches the same.
func TestCollapseStars(t *testing.T) {
	for in, want := range map[string]string{
		"tools/**/*.json": "tools/**/*.json",
		"tools/" + strings.Repeat("**/", 50) + "*.json": "tools/**/*.json",
		"**/**":          "**",
		"a/**/b/**/**/c": "a/**/b/**/c",
		"a/***/**/b":     "a/***/**/b",
	} {
		if got := collapseStars(in); got != want {
			t.Errorf("collapseStars(%q) = %q, want %q", in, got, want)
		}
	}
	fsys := baseFS(strings.Replace(baseManifest, `include = ["tools/b/**/*.json"]`, `include = ["tools/b/`+strings.Repeat("**/", 40)+`*.json"]`, 1))
	res := mustBuild(t, fsys, 1)
	if res.Files != 2 {
		t.Errorf("a glob of 40 ** read %d files, want 2", res.Files)
	}
}

// TestManifestLinkedFromOutside: a sandbox (Bazel's) links each input
// into a folder of its own, the manifest too. toolc reads nothing outside
// the manifest's folder, and says so, read as the CLI reads it (RootFS):
// the link, where it leads, and what to do, not the file system's "path
// escapes from parent".
func TestManifestLinkedFromOutside(t *testing.T) {
	outside, dir := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "toolc.toml"), []byte(baseManifest), 0o644)
	if err := os.Symlink(filepath.Join(outside, "toolc.toml"), filepath.Join(dir, "toolc.toml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	root := openRoot(t, dir)
	_, err := ReadManifest(RootFS(root), DefaultManifest)
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Diagnostics) != 1 {
		t.Fatalf("ReadManifest of a link out of the folder = %v", err)
	}
	d := ce.Diagnostics[0]
	want := "cannot read the manifest: symlink toolc.toml points to an absolute path, outside the manifest's folder (toolc reads nothing outside it)"
	if d.Message != want || !strings.Contains(d.Fix, "docs/ci.md") {
		t.Errorf("ReadManifest said %q (fix %q), want %q and where docs/ci.md shows the copy", d.Message, d.Fix, want)
	}
}
