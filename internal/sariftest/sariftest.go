// Package sariftest validates SARIF in tests with the SARIF multitool, the
// validator SARIF's owners publish (npm @microsoft/sarif-multitool: the
// 2.1.0 schema and the specification's rules). .ci/run installs it into
// $TOOLC_NPM_CACHE; elsewhere a test skips the check, saying so, unless
// TOOLC_REQUIRE_CORPUS=1 (as CI sets it) requires it.
package sariftest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/npmtest"
)

// Tool is the multitool's program for this platform, or "" when it is not
// installed.
func Tool() string {
	modules := npmtest.Modules()
	if modules == "" {
		return ""
	}
	p := filepath.Join(modules, "@microsoft", "sarif-multitool-"+runtime.GOOS, "Sarif.Multitool")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Check validates the SARIF file at path, returning the multitool's
// report of every error it found; ok is false when the multitool is not
// installed.
func Check(path string) (errs string, ok bool, err error) {
	tool := Tool()
	if tool == "" {
		return "", false, nil
	}
	out, err := exec.Command(tool, "validate", path, "--output", path+".validation").CombinedOutput()
	if err != nil {
		return "", true, fmt.Errorf("sarif-multitool validate: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, ": error ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n"), true, nil
}

// Validate fails tb when data is not valid SARIF 2.1.0, by the multitool.
func Validate(tb testing.TB, data []byte) {
	tb.Helper()
	errs, ok := Errors(tb, data)
	if ok && errs != "" {
		tb.Fatalf("sarif-multitool validate reports errors:\n%s", errs)
	}
}

// Errors is what the multitool reports of data ("" when it is valid), and
// whether it ran; without it, tb is skipped or, under
// TOOLC_REQUIRE_CORPUS=1, failed.
func Errors(tb testing.TB, data []byte) (string, bool) {
	tb.Helper()
	if testing.Short() {
		return "", false // go test ./... validates; -short (the race run) need not again
	}
	if Tool() == "" {
		if os.Getenv("TOOLC_REQUIRE_CORPUS") == "1" {
			tb.Fatalf("the SARIF multitool is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)")
		}
		tb.Log("the SARIF multitool is not installed in $TOOLC_NPM_CACHE: SARIF not validated")
		return "", false
	}
	path := filepath.Join(tb.TempDir(), "out.sarif")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	errs, _, err := Check(path)
	if err != nil {
		tb.Fatal(err)
	}
	return errs, true
}
