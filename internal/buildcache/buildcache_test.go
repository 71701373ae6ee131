package buildcache

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// TestCacheEntryRoundTrip: what encode writes, decodeEntry reads back
// exactly, whatever the findings' text holds (tabs, line ends,
// backslashes, what looks like an escape).
func TestCacheEntryRoundTrip(t *testing.T) {
	e := &Entry{Version: Version, Key: "k", Toolc: "v1.0.0", Tools: 3, Files: 2, Targets: 1, Hidden: 4, Gone: 1, Plans: []string{"anthropic loads 1 tool"},
		Diagnostics: []diag.Diagnostic{
			{Code: "lint.x", Severity: diag.Warning, Message: "a\ttab, a\nline, a \\t that is no tab, a \\\\ and a \r", File: "tools/a.json", Pointer: "/0/name", Line: 3, Column: 7, Target: "openai", Tool: "ns:t", Fix: "do \\n", Subject: "/input"},
			{Code: "schema.invalid", Severity: diag.Error},
			{Code: "lower.y", Severity: diag.Info, Message: "\\"},
		}}
	data, err := e.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Errorf("Decode(encode(e)) =\n%+v\nwant\n%+v", got, e)
	}
	// Cut anywhere, it is refused.
	for i := range data {
		if _, err := Decode(data[:i]); err == nil {
			t.Errorf("an entry cut after %d of its %d bytes was read", i, len(data))
		}
	}
}

// FuzzDecodeEntry: a corrupt cache entry is an error, never a panic.
func FuzzDecodeEntry(f *testing.F) {
	e := &Entry{Version: Version, Key: "k", Diagnostics: []diag.Diagnostic{{Code: "a", Message: "b\tc"}}}
	data, _ := e.Encode()
	f.Add(data)
	f.Add([]byte("{}\n\t\t\t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data)
	})
}

// TestGetReadsUnderTheProgramsBound: a session's Memory is told the size
// of the entry Get reads, and ended (with -1) once it is read, on a hit;
// on a miss nothing is read, and it is not called.
func TestGetReadsUnderTheProgramsBound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tools.json"), []byte(`[{"name": "get_weather", "description": "Gets the weather.", "inputSchema": {"type": "object"}}]`), 0o644)
	w, err := pipeline.OpenWorkspace(dir, "toolc.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const version = "v1.0.0"
	res, err := w.Build(context.Background(), pipeline.Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteAll(context.Background(), w.Root); err != nil {
		t.Fatal(err)
	}
	var calls []int64
	session := func() *Session {
		s := Open(t.TempDir(), w.Root.FS(), version, time.Time{}, false)
		s.Memory = func(size int64) func(int) {
			calls = append(calls, size)
			return func(targets int) { calls = append(calls, int64(targets)) }
		}
		return s
	}
	if s := session(); s.Get(context.Background(), res.Manifest, 0) != nil || calls != nil {
		t.Fatalf("an empty cache answered, and told Memory %v", calls)
	}
	s := session()
	s.Put(EntryOf(res))
	if e := s.Get(context.Background(), res.Manifest, 0); e == nil {
		t.Fatal("the entry just put is not found")
	}
	if len(calls) != 2 || calls[0] <= 0 || calls[1] != -1 {
		t.Errorf("Memory told %v, want the entry's size and then -1", calls)
	}
}
