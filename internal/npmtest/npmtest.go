// Package npmtest runs, in tests, the validators that the owners of a
// format publish on npm (mcpb validate from @anthropic-ai/mcpb, tsc with
// the types of @a2a-js/sdk). .ci/run installs them into $TOOLC_NPM_CACHE;
// elsewhere a test skips the check, saying so, unless TOOLC_REQUIRE_CORPUS=1
// (as CI sets it) requires it.
package npmtest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Modules is the node_modules folder of $TOOLC_NPM_CACHE, or "".
func Modules() string {
	dir := os.Getenv("TOOLC_NPM_CACHE")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "node_modules")
}

// Bin returns the path of the npm program name, installed by pkg; without
// it, tb is skipped or, under TOOLC_REQUIRE_CORPUS=1, failed. Where the
// program is a native executable that a Node script only finds and runs
// (tsc since TypeScript 7), it is the executable: the script cost 80 ms
// of CPU a run, and the typed targets' tests run tsc tens of times.
func Bin(tb testing.TB, name, pkg string) string {
	tb.Helper()
	if m := Modules(); m != "" {
		if exe, ok := native[name]; ok {
			if p := exe(m); p != "" {
				return p
			}
		}
		p := filepath.Join(m, ".bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("TOOLC_REQUIRE_CORPUS") == "1" {
		tb.Fatalf("%s (npm %s) is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)", name, pkg)
	}
	tb.Skipf("%s (npm %s) is not installed in $TOOLC_NPM_CACHE: not checked", name, pkg)
	return ""
}

// Module returns the folder of the npm package pkg (its node_modules
// folder's pkg), installed in $TOOLC_NPM_CACHE; without it, tb is skipped
// or, under TOOLC_REQUIRE_CORPUS=1, failed.
func Module(tb testing.TB, pkg string) string {
	tb.Helper()
	if m := Modules(); m != "" {
		p := filepath.Join(m, filepath.FromSlash(pkg))
		if _, err := os.Stat(filepath.Join(p, "package.json")); err == nil {
			return p
		}
	}
	if os.Getenv("TOOLC_REQUIRE_CORPUS") == "1" {
		tb.Fatalf("npm %s is not installed in $TOOLC_NPM_CACHE (.ci/run installs it)", pkg)
	}
	tb.Skipf("npm %s is not installed in $TOOLC_NPM_CACHE: not checked", pkg)
	return ""
}

// native are the npm programs whose bin is a Node script that runs a
// native executable, by name: each returns the executable under the
// node_modules folder m, or "" where it is not there.
var native = map[string]func(m string) string{
	// typescript's lib/getExePath.js: the platform package
	// @typescript/typescript-<platform>-<arch>, its lib/tsc.
	"tsc": func(m string) string {
		platform, arch := runtime.GOOS, map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		if platform == "windows" {
			platform = "win32" // Node's process.platform
		}
		p := filepath.Join(m, "@typescript", "typescript-"+platform+"-"+arch, "lib", "tsc")
		if runtime.GOOS == "windows" {
			p += ".exe"
		}
		if st, err := os.Stat(p); err != nil || arch == "" || st.IsDir() {
			return ""
		}
		return p
	},
}
