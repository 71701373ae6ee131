package live

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/manifest"
)

// referenceServer is the published MCP reference server the test
// captures: a real client's favourite, in Node.
const referenceServer = "@modelcontextprotocol/server-memory@2026.8.31"

// TestCaptureReferenceServer captures the reference memory server over
// stdio with node, installed with npm into a cache (.ci/run does it first;
// the test does it where it was not). It skips, saying why, without node
// and npm or when the npm registry cannot be reached.
func TestCaptureReferenceServer(t *testing.T) {
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if (err1 != nil || err2 != nil) && os.Getenv("TOOLC_REQUIRE_CORPUS") != "1" {
		t.Skip("node and npm are not installed: the published reference server is not captured (.ci/run installs them)")
	}
	// A folder .ci/run installed the server into before any test ran is
	// only read; otherwise the test installs it into a folder of its own,
	// so that two suites at once never write one folder (npm's own cache
	// is safe to share).
	skip := t.Skipf
	if os.Getenv("TOOLC_REQUIRE_CORPUS") == "1" { // CI: the test must run
		skip = t.Fatalf
	}
	entryIn := func(dir string) string {
		return filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js")
	}
	entry := entryIn(os.Getenv("TOOLC_NPM_CACHE"))
	if _, err := os.Stat(entry); os.Getenv("TOOLC_NPM_CACHE") == "" || err != nil {
		dir := t.TempDir()
		out, err := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", dir, referenceServer).CombinedOutput()
		if err != nil {
			skip("npm could not install %s (no registry here?): %v\n%s", referenceServer, err, out)
		}
		entry = entryIn(dir)
	}
	c := &manifest.Capture{Command: []string{node, entry}, Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}, Timeout: "30s"}
	l, err := List(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range l.Tools {
		n, _ := tl.Get("name").StringValue()
		names[n] = true
		if s := tl.Get("inputSchema"); s == nil || s.Kind != canonical.Object {
			t.Errorf("tool %s has no input schema object", n)
		}
	}
	for _, want := range []string{"create_entities", "read_graph", "search_nodes"} {
		if !names[want] {
			t.Errorf("the memory server offers no %s: %v", want, names)
		}
	}
	if l.Server == nil || l.Server.Name == "" {
		t.Errorf("no server name: %+v", l.Server)
	}
	// The reference server (TypeScript SDK 1.x) has no server/discover: it
	// is read through initialize, at the revision it speaks, which is pinned.
	if l.Protocol == "" || l.Protocol == "2026-07-28" || PinnedProtocol(mustParse(t, Encode(l))) != l.Protocol {
		t.Errorf("protocol %q, pinned %q; want the earlier revision the server spoke", l.Protocol, PinnedProtocol(mustParse(t, Encode(l))))
	}
	t.Logf("%s %s spoke MCP %s", l.Server.Name, l.Server.Version, l.Protocol)
	if a, b := Encode(l), Encode(l); string(a) != string(b) {
		t.Error("Encode is not deterministic")
	}
}
