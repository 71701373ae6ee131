// Package registrytest builds, in tests, the MCP registry's own programs
// from its module (github.com/modelcontextprotocol/registry, through the Go
// module proxy): its validators as a command, its publisher (mcp-publisher),
// and its /v0/validate endpoint served on the loopback, so that the
// publisher's validate runs as a release job runs it, offline.
package registrytest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Module is the MCP registry's module, whose validators the registry runs
// on every server.json published to it.
const Module = "github.com/modelcontextprotocol/registry@v1.8.9"

// goCmd runs the go command in dir, failing tb with its stderr.
func goCmd(tb testing.TB, dir string, env []string, args ...string) []byte {
	tb.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"), env...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		tb.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return out
}

// build builds program (its main.go) inside a copy of the registry's
// module, where its internal packages may be imported, and returns the
// binary's path.
func build(tb testing.TB, name, program string, require ...string) string {
	tb.Helper()
	return cached(tb, name, append([]string{program}, require...), func(bin string) {
		buildInto(tb, bin, name, program, require...)
	})
}

// cached returns the program name built by mk into the path it is given,
// kept in the user's cache directory by the module, Go's version and key,
// so that a second run links nothing: the registry's programs took a
// tenth of go test ./...'s minute, built again by every run.
func cached(tb testing.TB, name string, key []string, mk func(bin string)) string {
	tb.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		bin := filepath.Join(tb.TempDir(), name)
		mk(bin)
		return bin
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", Module, runtime.Version(), name)
	for _, k := range key {
		fmt.Fprintf(h, "%d\n%s", len(k), k)
	}
	bin := filepath.Join(dir, "toolc-test", "registry", hex.EncodeToString(h.Sum(nil))[:16], name)
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		tb.Fatal(err)
	}
	tmp := filepath.Join(tb.TempDir(), name)
	mk(tmp)
	// A rename within the cache is atomic: a test that runs beside this
	// one sees the whole binary or none. The temporary is copied next to
	// it first, as t.TempDir may be on another file system.
	data, err := os.ReadFile(tmp)
	if err != nil {
		tb.Fatal(err)
	}
	part := fmt.Sprintf("%s.%d", bin, os.Getpid())
	if err := os.WriteFile(part, data, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(part, bin); err != nil {
		tb.Fatal(err)
	}
	return bin
}

// buildInto builds program as build says, to bin.
func buildInto(tb testing.TB, bin, name, program string, require ...string) {
	tb.Helper()
	tmp := tb.TempDir()
	var mod struct{ Dir string }
	if err := json.Unmarshal(goCmd(tb, tmp, nil, "mod", "download", "-json", Module), &mod); err != nil {
		tb.Fatal(err)
	}
	src := filepath.Join(tmp, "registry")
	if out, err := exec.Command("cp", "-r", mod.Dir, src).CombinedOutput(); err != nil {
		tb.Fatalf("cp: %v\n%s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", src).CombinedOutput(); err != nil {
		tb.Fatalf("chmod: %v\n%s", err, out)
	}
	dir := filepath.Join(src, "cmd", "toolc"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		tb.Fatal(err)
	}
	for _, r := range require {
		goCmd(tb, src, nil, "mod", "edit", "-require="+r)
	}
	goCmd(tb, src, nil, "build", "-o", bin, "./cmd/toolc"+name)
}

// Validator is a program that runs the registry's validators on the
// server.json files it is given: ValidateServerJSON with every check (the
// JSON Schema and the semantic rules) and ValidatePublishRequest (the 4 KB
// bound of _meta). It prints each issue and exits 1 if any file fails.
func Validator(tb testing.TB) string {
	tb.Helper()
	return build(tb, "validate", `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/registry/internal/config"
	"github.com/modelcontextprotocol/registry/internal/validators"
	apiv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
)

func main() {
	bad := false
	for _, f := range os.Args[1:] {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Println(err)
			bad = true
			continue
		}
		var s apiv0.ServerJSON
		if err := json.Unmarshal(data, &s); err != nil {
			fmt.Printf("%s: %v\n", f, err)
			bad = true
			continue
		}
		res := validators.ValidateServerJSON(&s, validators.ValidationAll)
		for _, is := range res.Issues {
			fmt.Printf("%s: [%s] %s: %s (%s)\n", f, is.Severity, is.Path, is.Message, is.Reference)
		}
		if !res.Valid {
			bad = true
		}
		if err := validators.ValidatePublishRequest(context.Background(), s, &config.Config{}); err != nil {
			fmt.Printf("%s: %v\n", f, err)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
}
`)
}

// Publisher builds the registry's publisher, mcp-publisher (the module's
// cmd/publisher, as its releases build it), into a folder of its own, and
// returns the folder, for a PATH.
func Publisher(tb testing.TB) string {
	tb.Helper()
	pkg := strings.Replace(Module, "@", "/cmd/publisher@", 1)
	return filepath.Dir(cached(tb, "mcp-publisher", []string{pkg}, func(bin string) {
		dir := tb.TempDir()
		goCmd(tb, dir, []string{"GOBIN=" + dir}, "install", pkg)
		if err := os.Rename(filepath.Join(dir, "publisher"), bin); err != nil {
			tb.Fatal(err)
		}
	}))
}

// huma is the version of the registry's HTTP framework its endpoint is
// built with: the registry's go.mod names v2.40.0, which the module proxy
// that CI reaches does not serve; its newest there serves the same handler.
const huma = "github.com/danielgtaylor/huma/v2@v2.37.2"

// Serve serves the registry's own /v0/validate endpoint (its handler,
// RegisterValidateEndpoint, on the loopback) until tb ends, and returns its
// URL: what mcp-publisher validate posts a server.json to.
func Serve(tb testing.TB) string {
	tb.Helper()
	bin := build(tb, "registry", `package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	v0 "github.com/modelcontextprotocol/registry/internal/api/handlers/v0"
)

func main() {
	mux := http.NewServeMux()
	api := humago.New(mux, huma.DefaultConfig("MCP Registry", "1.0.0"))
	v0.RegisterValidateEndpoint(api, "/v0")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", l.Addr())
	_ = http.Serve(l, mux)
}
`, huma)
	cmd := exec.Command(bin)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatalf("the registry's validate endpoint did not start: %v", err)
	}
	return strings.TrimSpace(url)
}
