// Command release builds toolc's release: a binary for linux, darwin and
// windows on amd64 and arm64, stamped with the version and the commit, each
// in an archive (.tar.gz, .zip for windows), a checksums file, and the npm
// packages (npm/: toolc, which runs the binary of the platform package that
// npm installed from its optionalDependencies, and one package per
// platform, esbuild's pattern).
//
//	go run ./internal/cmd/release -version v1.2.0 -out release
//	go run ./internal/cmd/release -snapshot -only linux/amd64 -out /tmp/r
//
// Why a program rather than goreleaser's configuration: the release is six
// go build runs, six archives, a checksums file and package.json files,
// and goreleaser is a module tree of its own that CI would build for
// minutes to check a configuration; this program is built with toolc, and
// TestRelease runs it (a snapshot of one platform) on every go test.
// Archives are reproducible: entries sorted, times and owners fixed.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Platform is one GOOS/GOARCH of the release, with the names npm gives it.
type Platform struct{ GOOS, GOARCH, NodeOS, NodeCPU string }

// Platforms are the release's platforms.
var Platforms = []Platform{
	{"linux", "amd64", "linux", "x64"}, {"linux", "arm64", "linux", "arm64"},
	{"darwin", "amd64", "darwin", "x64"}, {"darwin", "arm64", "darwin", "arm64"},
	{"windows", "amd64", "win32", "x64"}, {"windows", "arm64", "win32", "arm64"},
}

// NPMScope is the scope of the platform packages.
const NPMScope = "@toolc-dev"

// epoch is the time of every archive entry: a release is reproducible.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var semver = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$`)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("release", flag.ContinueOnError)
	version := fl.String("version", "", "the release's version, v1.2.0 (a tag)")
	snapshot := fl.Bool("snapshot", false, "a snapshot: version v0.0.0-snapshot.<commit>")
	only := fl.String("only", "", "build only these platforms, GOOS/GOARCH, comma-separated")
	out := fl.String("out", "release", "the folder to write into, emptied first")
	dirty := fl.Bool("dirty", false, "build a tree with changes to tracked files, stamping the commit +dirty")
	untagged := fl.Bool("untagged", false, "release a -version that is no tag at HEAD")
	if err := fl.Parse(args); err != nil {
		return err
	}
	commit, err := gitOutput("rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("the commit: %v", err)
	}
	// A binary stamped with a commit must be that commit's: changes to
	// tracked files are refused, or stamped +dirty when asked.
	changed, err := gitOutput("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return fmt.Errorf("git status: %v", err)
	}
	stamp := commit
	switch {
	case changed != "" && !*dirty:
		return fmt.Errorf("the tree has changes to tracked files (%s): commit them, or pass -dirty to stamp the build %s+dirty", firstLine(changed), commit[:12])
	case changed != "":
		stamp = commit + "+dirty"
	}
	switch {
	case *snapshot && *version == "":
		*version = "v0.0.0-snapshot." + commit[:12]
		if changed != "" {
			*version += ".dirty"
		}
	case !semver.MatchString(*version):
		return fmt.Errorf("-version %q: want a tag such as v1.2.0, or -snapshot", *version)
	case !*untagged:
		tags, err := gitOutput("tag", "--points-at", "HEAD")
		if err != nil {
			return fmt.Errorf("git tag: %v", err)
		}
		if !slices.Contains(strings.Fields(tags), *version) {
			return fmt.Errorf("-version %s is no tag at HEAD (%s): tag the commit (git tag %s), or pass -untagged", *version, cmpOr(strings.Join(strings.Fields(tags), ", "), "it has none"), *version)
		}
	}
	commit = stamp
	platforms := Platforms
	if *only != "" {
		want := strings.Split(*only, ",")
		platforms = slices.DeleteFunc(slices.Clone(Platforms), func(p Platform) bool { return !slices.Contains(want, p.GOOS+"/"+p.GOARCH) })
		if len(platforms) != len(want) {
			return fmt.Errorf("-only %q: platforms are linux, darwin, windows × amd64, arm64", *only)
		}
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	r := &release{version: *version, commit: commit, out: *out}
	start := time.Now()
	for i, p := range platforms {
		fmt.Fprintf(os.Stderr, "release: %s %s/%s (%d of %d), %s in\n", r.version, p.GOOS, p.GOARCH, i+1, len(platforms), time.Since(start).Round(time.Second))
		if err := r.platform(p); err != nil {
			return fmt.Errorf("%s/%s: %w", p.GOOS, p.GOARCH, err)
		}
	}
	fmt.Fprintln(os.Stderr, "release: the npm package and checksums.txt")
	if err := r.npmMain(); err != nil {
		return err
	}
	if err := r.checksums(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "release: %s of %s in %s, in %s\n", r.version, r.commit, *out, time.Since(start).Round(time.Second))
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type release struct {
	version, commit, out string
	archives             []string
}

// bare is the version without its v, as npm and archive names have it.
func (r *release) bare() string { return strings.TrimPrefix(r.version, "v") }

// platform builds one platform's binary, its archive and its npm package.
func (r *release) platform(p Platform) error {
	exe := "toolc"
	if p.GOOS == "windows" {
		exe += ".exe"
	}
	pkg := filepath.Join(r.out, "npm", "toolc-"+p.NodeOS+"-"+p.NodeCPU)
	bin := filepath.Join(pkg, "bin", exe)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", fmt.Sprintf("-s -w -buildid= -X main.releaseVersion=%s -X main.releaseCommit=%s", r.version, r.commit), "-o", bin, "./cmd/toolc")
	cmd.Env = append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	files := []file{{exe, data, 0o755}}
	for _, doc := range []string{"README.md", "LICENSE"} {
		if b, err := os.ReadFile(doc); err == nil {
			files = append(files, file{doc, b, 0o644})
		}
	}
	name := fmt.Sprintf("toolc_%s_%s_%s", r.bare(), p.GOOS, p.GOARCH)
	archive := filepath.Join(r.out, name+".tar.gz")
	write := writeTarGz
	if p.GOOS == "windows" {
		archive, write = filepath.Join(r.out, name+".zip"), writeZip
	}
	if err := write(archive, name, files); err != nil {
		return err
	}
	r.archives = append(r.archives, archive)
	if err := copyFile("LICENSE", filepath.Join(pkg, "LICENSE")); err != nil {
		return err
	}
	return writeJSON(filepath.Join(pkg, "package.json"), map[string]any{
		"name": NPMScope + "/toolc-" + p.NodeOS + "-" + p.NodeCPU, "version": r.bare(),
		"description": fmt.Sprintf("toolc's binary for %s/%s; install toolc, which uses it", p.GOOS, p.GOARCH),
		"os":          []string{p.NodeOS}, "cpu": []string{p.NodeCPU},
		"files": []string{"bin/" + exe, "LICENSE"}, "preferUnplugged": true, "license": "Apache-2.0",
	})
}

// npmMain writes the toolc package: npm/toolc of the repository, its
// version and optionalDependencies stamped.
func (r *release) npmMain() error {
	dir := filepath.Join(r.out, "npm", "toolc")
	data, err := os.ReadFile("npm/toolc/package.json")
	if err != nil {
		return err
	}
	var pkg map[string]any
	if err := json.Unmarshal(data, &pkg); err != nil {
		return fmt.Errorf("npm/toolc/package.json: %v", err)
	}
	pkg["version"] = r.bare()
	deps := map[string]any{}
	for _, p := range Platforms {
		deps[NPMScope+"/toolc-"+p.NodeOS+"-"+p.NodeCPU] = r.bare()
	}
	pkg["optionalDependencies"] = deps
	if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
		return err
	}
	if err := copyFile("LICENSE", filepath.Join(dir, "LICENSE")); err != nil {
		return err
	}
	for _, f := range []string{"bin/toolc.js", "README.md"} {
		b, err := os.ReadFile(filepath.Join("npm/toolc", f))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// checksums writes checksums.txt: the SHA-256 of each archive, as
// sha256sum -c reads it.
func (r *release) checksums() error {
	var b strings.Builder
	slices.Sort(r.archives)
	for _, a := range r.archives {
		data, err := os.ReadFile(a)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), filepath.Base(a))
	}
	return os.WriteFile(filepath.Join(r.out, "checksums.txt"), []byte(b.String()), 0o644)
}

type file struct {
	name string
	data []byte
	mode int64
}

func writeTarGz(path, dir string, files []file) error {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.ModTime = epoch
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: dir + "/" + f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Format: tar.FormatPAX, Uname: "root", Gname: "root"}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func writeZip(path, dir string, files []file) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: dir + "/" + f.name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(f.data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// copyFile copies the file from to the file to, making its folder.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func gitOutput(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return strings.TrimSpace(string(out)), err
}
