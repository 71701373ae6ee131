package toolcall

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestHeaders: a call says the Mcp-Param-* headers it sends on MCP's
// Streamable HTTP transport, each value in its text form or Base64 as
// 2026-07-28 encodes it; Decode refuses a call whose value no header can
// carry.
func TestHeaders(t *testing.T) {
	tools := `[{"name": "query", "description": "Query one region.", "inputSchema": {"type": "object", "properties": {
  "region": {"type": "string", "description": "The region.", "x-mcp-header": "Region"},
  "greeting": {"type": "string", "description": "A greeting.", "x-mcp-header": "Greeting"},
  "shard": {"type": "integer", "description": "The shard.", "x-mcp-header": "Shard"},
  "dry": {"type": "boolean", "description": "Only plan.", "x-mcp-header": "Dry-Run"},
  "scope": {"type": "object", "description": "The scope.", "properties": {"zone": {"type": "string", "description": "The zone.", "x-mcp-header": "Zone"}}},
  "query": {"type": "string", "description": "The query."}
}, "required": ["query"]}}]`
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n" + targets)},
		"tools.json": {Data: []byte(tools)},
	})
	cat, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	call, err := cat.Decode("mcp", "query", []byte(`{"query": "select 1", "region": "us-west1", "greeting": "Hello, 世界", "shard": 42, "dry": false, "scope": {"zone": " padded "}}`))
	if err != nil {
		t.Fatal(err)
	}
	hs, ps := call.Headers()
	var got []string
	for _, h := range hs {
		got = append(got, h.Name+": "+h.Value)
	}
	// The specification's own examples (basic/transports/streamable-http, Value Encoding).
	want := []string{"Mcp-Param-Region: us-west1", "Mcp-Param-Greeting: =?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Param-Shard: 42", "Mcp-Param-Dry-Run: false", "Mcp-Param-Zone: =?base64?IHBhZGRlZCA=?="}
	if !slices.Equal(got, want) || ps != nil {
		t.Errorf("Headers() = %q, %v\nwant %q", got, ps, want)
	}
	// A value that looks encoded is encoded; a property left out sends no header.
	call, err = cat.Decode("mcp", "query", []byte(`{"query": "q", "region": "=?base64?literal?="}`))
	if hs, _ := call.Headers(); err != nil || len(hs) != 1 || hs[0].Value != "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=" {
		t.Errorf("Headers() = %v, %v", hs, err)
	}
	// Past JavaScript's safe integers, no client may send it.
	_, err = cat.Decode("mcp", "query", []byte(`{"query": "q", "shard": 9007199254740993}`))
	var ae *ArgumentsError
	if !errors.As(err, &ae) || len(ae.Problems) != 1 || ae.Problems[0].Pointer != "/shard" || !strings.Contains(ae.Problems[0].Message, "Mcp-Param-Shard cannot carry the integer 9007199254740993") {
		t.Errorf("Decode(shard past 2^53) = %v", err)
	}
}
