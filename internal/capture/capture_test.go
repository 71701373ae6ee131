package capture

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/internal/pipeline"
)

// TestLiveManifestInAFolder: capture and verify read a manifest in a
// subfolder as Build does, its paths relative to that folder.
func TestLiveManifestInAFolder(t *testing.T) {
	fsys := fstest.MapFS{
		"cat/toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"servers/s.json\"]\ncapture = { command = [\"toolc-no-such-server\"] }\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n")},
	}
	m, err := pipeline.ReadManifest(fsys, "cat/toolc.toml")
	if err != nil || m.Sources[0].Capture == nil {
		t.Fatalf("ReadManifest = %v, %v", m, err)
	}
	r, err := Capture(context.Background(), fsys, m, Options{})
	if err != nil || !r.Failed || len(r.Sources) != 1 || r.Sources[0].File != "servers/s.json" || len(r.Outputs) > 0 {
		t.Fatalf("Capture = %+v, %v; want the one source, failed, nothing to write", r, err)
	}
}

// TestOverlay: the overlay shows its files in their folders, beside and
// over the file system's, sorted.
func TestOverlay(t *testing.T) {
	o := overlay{fstest.MapFS{"a/x.json": {Data: []byte("old")}, "a/z.json": {Data: []byte("z")}}, map[string][]byte{"a/x.json": []byte("new"), "a/y.json": []byte("y"), "b/w.json": []byte("w")}}
	entries, err := fs.ReadDir(o, "a")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"x.json", "y.json", "z.json"}) {
		t.Errorf("ReadDir(a) = %q", names)
	}
	if data, _ := fs.ReadFile(o, "a/x.json"); string(data) != "new" {
		t.Errorf("a/x.json = %q, want the overlay's", data)
	}
	if _, err := fs.ReadDir(o, "b"); err != nil {
		t.Errorf("ReadDir(b), a folder only the overlay has: %v", err)
	}
	if _, err := fs.ReadDir(o, "c"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(c) = %v, want not found", err)
	}
}
