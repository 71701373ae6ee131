package targets

import (
	"os"
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// TestMain says how many tests skipped for want of the shared corpus, and
// collects as the corpus tests do (corpus.Main).
func TestMain(m *testing.M) { os.Exit(corpus.Main(m)) }
