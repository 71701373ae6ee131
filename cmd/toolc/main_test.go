package main

import (
	"github.com/toolc-dev/toolc/internal/mcptest"
	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/sariftest"

	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolc": func() {
			// A testscript may play a released toolc (the version a lock
			// records, which build --check's fast path compares).
			if v := os.Getenv("TOOLC_TEST_RELEASE"); v != "" {
				releaseVersion = v
			}
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		},
		// An MCP server for the capture and verify scripts. toolc passes a
		// server only what every MCP client does (docs/live.md), not the
		// script's GORACE: built with -race, it restarts with its own.
		"mcptest": func() {
			if raceEnabled && os.Getenv("GORACE") == "" {
				quietRace()
			}
			os.Exit(mcptest.Main())
		},
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
			// The npm packages, for a script whose engine loads them from
			// the workspace's node_modules (Nx).
			env.Setenv("NPM_MODULES", npmtest.Modules())
			// Every toolc and mcptest of a script is this test binary: one
			// built with -race sleeps a second when it exits, waiting for
			// races to report, unless told not to.
			env.Setenv("GORACE", "atexit_sleep_ms=0 "+os.Getenv("GORACE"))
			// git, for the breaking scripts: an identity, and no user or
			// system configuration.
			for k, v := range map[string]string{"GIT_AUTHOR_NAME": "toolc", "GIT_AUTHOR_EMAIL": "toolc@example.com", "GIT_COMMITTER_NAME": "toolc",
				"GIT_COMMITTER_EMAIL": "toolc@example.com", "GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"} {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": exits, "sarif": sarifValid, "turbo": engine("turbo"), "nx": engine("nx"), "bazel": bazel},
		Condition: func(cond string) (bool, error) {
			if cond == "bazel" { // its JVM starts at every command: 15 s of CPU, in a step of its own
				return os.Getenv("TOOLC_BAZEL") == "1", nil
			}
			if cond != "turbo" && cond != "nx" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := os.Stat(filepath.Join(npmtest.Modules(), ".bin", cond))
			return os.Getenv("TOOLC_REQUIRE_CORPUS") == "1" || npmtest.Modules() != "" && err == nil, nil
		},
	})
}

// engine returns the script command that runs the build engine name
// (npm turbo, Turborepo's; npm nx, Nx's; installed by .ci/run into
// $TOOLC_NPM_CACHE) with the script's environment, toolc on its PATH. A
// script guards it with [name], which holds where it is installed, and
// always under TOOLC_REQUIRE_CORPUS=1 (CI), where its absence fails.
func engine(name string) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		bin := filepath.Join(npmtest.Modules(), ".bin", name)
		if _, err := os.Stat(bin); npmtest.Modules() == "" || err != nil {
			ts.Fatalf("%s (npm %s) is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)", name, name)
		}
		err := ts.Exec(bin, args...)
		if (err != nil) != neg {
			ts.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
	}
}

// bazel runs Bazel (npm @bazel/bazel-linux_x64, whose package is the
// binary; .ci/run installs it into $TOOLC_NPM_CACHE) with the script's
// environment, toolc on its PATH: without a server (--batch, so that none
// outlives the script), its state under $WORK, and no rc file of the
// machine's or the user's.
//
//	bazel build //catalog
func bazel(ts *testscript.TestScript, neg bool, args []string) {
	bins, _ := filepath.Glob(filepath.Join(npmtest.Modules(), "@bazel", "bazel-linux_x64", "bazel-*-linux-x86_64"))
	if npmtest.Modules() == "" || len(bins) != 1 {
		ts.Fatalf("bazel (npm @bazel/bazel-linux_x64) is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)")
	}
	startup := []string{"--batch", "--ignore_all_rc_files", "--output_user_root=" + filepath.Join(ts.Getenv("WORK"), ".bazel")}
	err := ts.Exec(bins[0], append(startup, args...)...)
	if (err != nil) != neg {
		ts.Fatalf("bazel %s: %v", strings.Join(args, " "), err)
	}
}

// exits runs a program and checks its exit code, which exec cannot:
//
//	exits 2 toolc build --nope
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	var ee *exec.ExitError
	if err := ts.Exec(args[1], args[2:]...); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
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

// sarifValid validates a SARIF file with the SARIF multitool
// (internal/sariftest), and fails on any error it reports:
//
//	sarif out.sarif
func sarifValid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sarif FILE")
	}
	if testing.Short() {
		return // go test ./... validates; -short (the race run) need not again
	}
	errs, ok, err := sariftest.Check(ts.MkAbs(args[0]))
	switch {
	case err != nil:
		ts.Fatalf("%v", err)
	case !ok && os.Getenv("TOOLC_REQUIRE_CORPUS") == "1":
		ts.Fatalf("the SARIF multitool is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)")
	case !ok:
		ts.Logf("the SARIF multitool is not installed in $TOOLC_NPM_CACHE: %s not validated", args[0])
	case errs != "":
		ts.Fatalf("sarif-multitool validate %s reports errors:\n%s", args[0], errs)
	}
}
