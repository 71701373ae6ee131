package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/npmtest"
	"github.com/toolc-dev/toolc/internal/registrytest"
)

// TestReleaseJob runs docs/publish.md's release.sh as written, on the
// catalog the page shows, with toolc, mcpb and the registry's mcp-publisher
// on the PATH and the registry's own /v0/validate handler on the loopback:
// the two builds around mcpb pack, and the publisher's validate. Publishing
// itself needs credentials; the job stops where the page says it does.
func TestReleaseJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the registry's publisher and runs mcpb")
	}
	t.Parallel()
	page, err := os.ReadFile("../../docs/publish.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- release job:[^>]*-->\n```toml\n(.*?)```\n.*?```sh\n(.*?)```").FindSubmatch(page)
	if blocks == nil {
		t.Fatal("docs/publish.md has no release job: a toml block after <!-- release job: … --> and the sh block of release.sh")
	}
	mcpb := npmtest.Bin(t, "mcpb", "@anthropic-ai/mcpb")
	dir := t.TempDir()
	files := map[string]string{
		"toolc.toml": string(blocks[1]),
		"release.sh": string(blocks[2]),
		"tools/acme.json": `[{"name": "get_weather", "description": "Gets the current weather of a city: temperature, wind and sky.",
			"inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "The city, such as Paris."}}, "required": ["city"]}}]`,
		"bundle/server/index.js": "// The server that the bundle runs.\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The PATH: this test binary as toolc (TestMain runs it so), mcpb,
	// mcp-publisher; the publisher's token file names the registry.
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"toolc": self, "mcpb": mcpb} {
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	publisher := registrytest.Publisher(t)
	registry := registrytest.Serve(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".config", "mcp-publisher"), 0o755); err != nil {
		t.Fatal(err)
	}
	token, _ := json.Marshal(map[string]string{"registry": registry})
	if err := os.WriteFile(filepath.Join(home, ".config", "mcp-publisher", "token.json"), token, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+publisher+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home, "NO_COLOR=1")
	// exec.Command looks a bare name up in this process's PATH, not env's:
	// every program but sh is named by its path.
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("sh", "release.sh")
	if err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	t.Logf("release.sh:\n%s", out)
	if !strings.Contains(out, "server.json is valid") || !strings.Contains(out, "toolc.lock not written") {
		t.Errorf("release.sh did not say what the page says it does:\n%s", out)
	}
	// fileSha256 is the packed file's, and the lock records the file.
	packed, err := os.ReadFile(filepath.Join(dir, "dist", "acme-tools.mcpb"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(packed)
	var entry struct {
		Packages []struct {
			FileSHA256 string `json:"fileSha256"`
		} `json:"packages"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "dist", "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &entry); err != nil || len(entry.Packages) != 1 || entry.Packages[0].FileSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("server.json's fileSha256 is not the packed file's %x (%v):\n%s", sum, err, data)
	}
	lock, err := os.ReadFile(filepath.Join(dir, "toolc.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lock), "path = \"dist/acme-tools.mcpb\"\nsha256 = \"sha256:"+hex.EncodeToString(sum[:])+"\"") {
		t.Errorf("toolc.lock does not record the packed file:\n%s", lock)
	}
	if out, err := run(filepath.Join(bin, "toolc"), "build", "--check"); err != nil {
		t.Errorf("toolc build --check after the release: %v\n%s", err, out)
	}
	// The endpoint refuses what the registry refuses: a range for a version.
	bad := strings.Replace(string(data), `"version": "0.1.0"`, `"version": "^0.1.0"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run(filepath.Join(publisher, "mcp-publisher"), "validate", "bad.json")
	if err == nil || !strings.Contains(out, "version") {
		t.Errorf("mcp-publisher validate took a version range: %v\n%s", err, out)
	}
	t.Logf("mcp-publisher validate, a version range: %v\n%s", err, out)
}
