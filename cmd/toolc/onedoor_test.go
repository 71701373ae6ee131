package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
)

// TestConvertOneDoor: a misspelt type ("strng") fails the library's
// Convert and toolc convert with one and the same located error: there
// is one Convert, through the whole pipeline. (Before issue 36 the
// adapters' own Convert wrote the bundle with no diagnostic.)
func TestConvertOneDoor(t *testing.T) {
	data := []byte(`[{"name":"get","description":"Get it.","inputSchema":{"type":"object","properties":{"id":{"type":"strng","description":"The id."}}}}]`)
	res, err := compiler.Convert(context.Background(), "tools.json", data, compiler.ConvertOptions{To: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	var lib []string
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			lib = append(lib, d.String())
		}
	}
	if !res.Failed || len(lib) != 1 || !strings.Contains(lib[0], "error schema.invalid: tool get: /properties/id/type") {
		t.Fatalf("compiler.Convert: failed %v, errors %q; want one schema.invalid", res.Failed, lib)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"convert", "--to", "anthropic", "tools.json"}, &stdout, &stderr); code != exitFailed {
		t.Fatalf("toolc convert exit %d, want %d; stderr:\n%s", code, exitFailed, &stderr)
	}
	if stdout.Len() > 0 || !strings.Contains(stderr.String(), lib[0]+"\n") {
		t.Errorf("toolc convert wrote %q on stdout and\n%s\non stderr; want nothing and the library's error %q", &stdout, &stderr, lib[0])
	}
}
