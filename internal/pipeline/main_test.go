package pipeline

import (
	"os"
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// TestMain says how many tests skipped for want of the shared corpus.
func TestMain(m *testing.M) { os.Exit(corpus.Main(m)) }

// openRoot opens dir as the CLI opens the manifest's folder, closed when
// the test ends.
func openRoot(t testing.TB, dir string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}
