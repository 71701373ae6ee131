package main

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRelease builds a snapshot release of this platform, checks its
// archive, checksum and stamped binary, then packs its npm packages, installs
// them offline into an empty folder, and runs npx toolc version and npx
// toolc build on a copy of the example catalog; without the platform
// package, npx toolc names it. It takes a release build and npm, so it runs
// where TOOLC_RELEASE_TEST=1 (.ci/run sets it), and skips elsewhere.
func TestRelease(t *testing.T) {
	if os.Getenv("TOOLC_RELEASE_TEST") != "1" {
		t.Skip("set TOOLC_RELEASE_TEST=1 to build a snapshot release and install its npm packages (.ci/run does)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is not installed: .ci/run installs it")
	}
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	out := t.TempDir()
	t.Chdir(root)
	p := Platform{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if err := run([]string{"-snapshot", "-only", p.GOOS + "/" + p.GOARCH, "-out", out}); err != nil {
		t.Fatal(err)
	}
	commit, _ := gitOutput("rev-parse", "HEAD")
	version := "v0.0.0-snapshot." + commit[:12]
	bare := strings.TrimPrefix(version, "v")
	archive := filepath.Join(out, "toolc_"+bare+"_"+p.GOOS+"_"+p.GOARCH+".tar.gz")
	if p.GOOS == "windows" {
		t.Skip("the npm check runs on linux and darwin")
	}
	checkArchive(t, archive, "toolc_"+bare+"_"+p.GOOS+"_"+p.GOARCH+"/toolc")
	sums, err := os.ReadFile(filepath.Join(out, "checksums.txt"))
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(sums)), "  "+filepath.Base(archive)) {
		t.Fatalf("checksums.txt = %q, %v", sums, err)
	}
	check := exec.Command("sha256sum", "-c", "checksums.txt")
	check.Dir = out
	if b, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c checksums.txt: %v\n%s", err, b)
	}

	// npm pack, then an offline install of what was packed, in an empty folder.
	node := map[string]string{"amd64": "x64", "arm64": "arm64"}[p.GOARCH]
	platformPkg := "toolc-" + p.GOOS + "-" + node
	packs := filepath.Join(out, "packs")
	if err := os.MkdirAll(packs, 0o755); err != nil {
		t.Fatal(err)
	}
	var tgz []string
	for _, dir := range []string{"toolc", platformPkg} {
		c := exec.Command(npm, "pack", "--silent", "--pack-destination", packs, filepath.Join(out, "npm", dir))
		b, err := c.Output()
		if err != nil {
			t.Fatalf("npm pack %s: %v", dir, err)
		}
		tgz = append(tgz, filepath.Join(packs, strings.TrimSpace(string(b))))
	}
	for _, p := range tgz { // each package carries the license
		if out, err := exec.Command("tar", "-tzf", p).Output(); err != nil || !strings.Contains(string(out), "package/LICENSE\n") {
			t.Errorf("%s has no LICENSE: %v\n%s", filepath.Base(p), err, out)
		}
	}
	empty := t.TempDir()
	install := exec.Command(npm, append([]string{"install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--silent"}, tgz...)...)
	install.Dir = empty
	install.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(out, "npm-cache"))
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline: %v\n%s", err, b)
	}
	npx := func(args ...string) (string, error) {
		c := exec.Command(filepath.Join(filepath.Dir(npm), "npx"), append([]string{"--offline", "--no-install", "toolc"}, args...)...)
		c.Dir = empty
		c.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(out, "npm-cache"))
		b, err := c.CombinedOutput()
		return string(b), err
	}
	if got, err := npx("version"); err != nil || !strings.Contains(got, "toolc "+version+" (commit "+commit[:12]) {
		t.Fatalf("npx toolc version = %q, %v", got, err)
	}
	example := filepath.Join(empty, "example")
	copyExample(t, root, example)
	if got, err := npx("build", "-C", example); err != nil {
		t.Fatalf("npx toolc build -C example: %v\n%s", err, got)
	}
	lock, err := os.ReadFile(filepath.Join(example, "toolc.lock"))
	if err != nil || !strings.Contains(string(lock), `toolc = "`+version+`"`) {
		t.Errorf("the lock does not record the release's version %s:\n%.300s", version, lock)
	}
	if got, _ := npx("build", "--check", "--full", "-C", example, "--error-format", "sarif"); !strings.Contains(got, `"semanticVersion": "`+bare+`"`) {
		t.Errorf("the SARIF of the release does not record its version %s:\n%.400s", bare, got)
	}
	// Without the platform package, toolc says which one it needs.
	if err := os.RemoveAll(filepath.Join(empty, "node_modules", "@toolc-dev")); err != nil {
		t.Fatal(err)
	}
	if got, err := npx("version"); err == nil || !strings.Contains(got, "the package @toolc-dev/"+platformPkg+" is not installed") {
		t.Errorf("npx toolc version without the platform package = %q, %v", got, err)
	}
}

// checkArchive checks that the archive holds the binary at name, and the
// license beside it.
func checkArchive(t *testing.T, path, name string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	bin, license := false, false
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		bin = bin || h.Name == name && h.Mode&0o111 != 0
		license = license || h.Name == filepath.Dir(name)+"/LICENSE"
	}
	if !bin || !license {
		t.Fatalf("%s has the binary %s: %v, and LICENSE beside it: %v", path, name, bin, license)
	}
}

// copyExample copies the example catalog (toolc.toml and examples/) to dir.
func copyExample(t *testing.T, root, dir string) {
	for _, f := range []string{"toolc.toml", "toolc.schema.json"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS(filepath.Join(root, "examples"))); err != nil {
		t.Fatal(err)
	}
}

// TestReleaseRefuses: a tree with changes to tracked files is refused (a
// binary stamped with a commit is that commit's), unless -dirty stamps it
// so; a -version that is no tag at HEAD is refused unless -untagged.
func TestReleaseRefuses(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "x")
	t.Chdir(dir)
	if err := run([]string{"-version", "v0.3.0", "-out", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "-version v0.3.0 is no tag at HEAD (it has none)") {
		t.Errorf("an untagged -version: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-snapshot", "-out", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "the tree has changes to tracked files (M go.mod): commit them, or pass -dirty") {
		t.Errorf("a dirty tree: %v", err)
	}
}
