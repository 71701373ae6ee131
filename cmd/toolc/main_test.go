package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolc": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts of testdata/script: each is a txtar
// archive with a catalog, the commands to run and the outputs to expect.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// TestRepositoryCatalogIsUpToDate builds the repository's own toolc.toml
// (the example catalog) with --check: the committed dist/ and toolc.lock
// must be what the build writes.
func TestRepositoryCatalogIsUpToDate(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "--check", "-C", "../.."}, &stdout, &stderr); code != 0 {
		t.Fatalf("toolc build --check on the repository = exit %d:\n%s\nrun `go run ./cmd/toolc build` and commit the result", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "up to date") {
		t.Errorf("stderr = %s", stderr.String())
	}
}
