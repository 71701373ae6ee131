package buildcache

import (
	"reflect"
	"testing"

	"github.com/toolc-dev/toolc/diag"
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
