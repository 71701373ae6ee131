// Package corpus locates the shared corpus of real tool definitions
// (../shared/corpus beside the repository) for tests and benchmarks.
// It is for tests only: the compiler never reads the corpus.
package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"testing"
)

// RequireEnv is the environment variable that makes the corpus required:
// with TOOLC_REQUIRE_CORPUS=1 (as CI sets it) a test that needs the corpus
// fails where it is absent instead of skipping.
const RequireEnv = "TOOLC_REQUIRE_CORPUS"

// testMemoryLimit bounds the heap of a test binary that Main runs.
const testMemoryLimit = 4 << 30

// skipped counts the tests of this process that skipped for want of the
// corpus, for Main to say so.
var skipped atomic.Int64

// Dir returns the corpus folder: $TOOLC_CORPUS if set, else ../shared/corpus
// next to the module root. When it does not exist, the test fails with
// TOOLC_REQUIRE_CORPUS=1, and is otherwise skipped with a message saying
// where it was looked for.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := find()
	if err != nil {
		msg := fmt.Sprintf("shared corpus not found (%v): set TOOLC_CORPUS or place ../shared/corpus beside the repository", err)
		if os.Getenv(RequireEnv) == "1" {
			tb.Fatalf("%s; %s=1 requires it", msg, RequireEnv)
		}
		skipped.Add(1)
		tb.Skip(msg)
	}
	return dir
}

// Heavy skips a test that reads the whole corpus under -short, as Go's
// own race builders run: CI runs every test without -race and the light
// ones with it.
func Heavy(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("reads the whole corpus: skipped under -short (go test ./... runs it)")
	}
}

// Main runs a package's tests, and says how many skipped for want of the
// corpus. go test shows it with -v or -json (it prints no output of a
// passing package otherwise), and CI sets TOOLC_REQUIRE_CORPUS=1, under
// which no such test skips.
//
// The corpus tests build catalogs of thousands of tools to every target,
// and with the collector's default (GOGC=100) its work was a third of
// their CPU: go test ./... took 61-63 s on two cores, past its minute
// (54 s at GOGC=400). Their binaries collect at GOGC=400, within a soft
// limit of 4 GiB, unless GOGC or GOMEMLIMIT says otherwise. toolc itself
// keeps the runtime's default (internal/membound bounds a large build).
func Main(m *testing.M) int {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(testMemoryLimit)
	}
	code := m.Run()
	if n := skipped.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "corpus: %d tests skipped: the shared corpus was not found (set %s=1 to fail instead)\n", n, RequireEnv)
	}
	return code
}

// Path returns the corpus path joined with elem, skipping the test as Dir does.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, elem...)...)
}

// Find returns the corpus folder as Dir does, or an error, for commands
// that are not tests (the benchmark catalog generator).
func Find() (string, error) { return find() }

func find() (string, error) {
	if d := os.Getenv("TOOLC_CORPUS"); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", err
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus")
			if _, err := os.Stat(c); err != nil {
				return "", err
			}
			return c, nil
		}
		if filepath.Dir(dir) == dir {
			return "", os.ErrNotExist
		}
	}
}

// Glob returns the corpus files matching pattern (relative to the corpus),
// failing the test when the pattern matches nothing.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(tb), pattern))
	if err != nil || len(files) == 0 {
		tb.Fatalf("corpus glob %q matched nothing (err %v)", pattern, err)
	}
	return files
}

// Lines returns the lines of a JSON-lines corpus file (relative to the
// corpus), each a separate slice, skipping the test as Dir does.
func Lines(tb testing.TB, rel string) [][]byte {
	tb.Helper()
	data, err := os.ReadFile(Path(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}
