package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAcknowledgmentFixPastes: the [[acknowledge]] table toolc breaking
// prints as a fix is TOML that, pasted into toolc.toml with its reason
// written, lets the release through; pasted as it is, its placeholder
// reason is refused at its line.
func TestAcknowledgmentFixPastes(t *testing.T) {
	dir := t.TempDir()
	manifest := func(version string) string {
		return "version = 1\n\n[catalog]\nname = \"shop\"\nversion = \"" + version + "\"\n\n[[sources]]\ninclude = [\"tools.json\"]\nnamespace = \"shop\"\n\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n"
	}
	tool := func(required string) string {
		return `[{"name": "get_item", "description": "Gets an item of the shop by its ID; returns its price and stock.", "inputSchema": {"type": "object",
  "properties": {"id": {"type": "string", "description": "The item's ID."}, "store": {"type": "string", "description": "The store."}}, "required": [` + required + `]}}]`
	}
	for name, text := range map[string]string{
		"old/toolc.toml": manifest("1.0.0"), "old/tools.json": tool(`"id"`),
		"toolc.toml": manifest("1.1.0"), "tools.json": tool(`"id", "store"`),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	breaking := func() (int, string) {
		var out, errs bytes.Buffer
		code := run([]string{"breaking", "--against", filepath.Join(dir, "old"), "-C", dir, "--now", "2026-11-28"}, &out, &errs)
		return code, errs.String()
	}
	code, stderr := breaking()
	if code != 1 {
		t.Fatalf("breaking exits %d before the acknowledgment, want 1:\n%s", code, stderr)
	}
	var block []string
	in := false
	for _, l := range strings.Split(stderr, "\n") {
		switch {
		case strings.HasPrefix(l, "\tfix: if the release means it, acknowledge it"):
			in = true
		case in && strings.HasPrefix(l, "\t  "):
			block = append(block, strings.TrimPrefix(l, "\t  "))
		default:
			in = false
		}
	}
	if len(block) != 4 || block[0] != "[[acknowledge]]" {
		t.Fatalf("the printed fix is not a table to paste:\n%s", stderr)
	}
	pasted := strings.Join(block, "\n") + "\n"
	base, _ := os.ReadFile(filepath.Join(dir, "toolc.toml"))
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte(string(base)+"\n"+text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(pasted)
	if code, stderr := breaking(); code != 2 || !strings.Contains(stderr, "is a placeholder: write why the release breaks this on purpose") {
		t.Errorf("the fix pasted as it is: exit %d, want 2 with its placeholder reason refused:\n%s", code, stderr)
	}
	write(strings.Replace(pasted, `reason = "…"`, `reason = "the warehouse API needs the store"`, 1))
	if code, stderr := breaking(); code != 0 {
		t.Errorf("the fix pasted with its reason: exit %d, want 0:\n%s", code, stderr)
	}
}
