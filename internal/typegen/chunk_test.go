package typegen

import (
	"bytes"
	"go/format"
	"path/filepath"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/schematest"
)

// TestGoChunksFormatAsTheWhole: the Go file written and parsed a piece at
// a time (one declaration each, at the smallest) is the file written
// whole, byte for byte, on the corpus's MCP tools with and without the
// runtime, and gofmt leaves it as it is (it is written so, not
// formatted).
func TestGoChunksFormatAsTheWhole(t *testing.T) {
	mcp, _ := formats.Default().Get("mcp")
	var tools []*canonical.Tool
	for _, f := range append(corpus.Glob(t, "mcp/github-mcp-server/tools_list.current.json"), corpus.Glob(t, "mcp/reference-servers-py/*.json")...) {
		_, doc := schematest.ReadJSON(t, f)
		ts, _ := mcp.Decode(doc, filepath.Base(f))
		tools = append(tools, ts...)
	}
	defer func(c, s int) { chunkSize, schemaBlock = c, s }(chunkSize, schemaBlock)
	schemaBlock = 16 // several blocks, as 20,000 tools make
	for _, runtime := range []bool{false, true} {
		m := Build(tools, nil, nil)
		chunkSize = 1 << 62 // formatted once, whole
		whole, err := m.Go("corpus", "tools", runtime)
		if err != nil {
			t.Fatal(err)
		}
		chunkSize = 1 // every declaration alone
		pieces, err := m.Go("corpus", "tools", runtime)
		if err != nil {
			t.Fatal(err)
		}
		if formatted, err := format.Source(whole); err != nil || !bytes.Equal(formatted, whole) {
			i := 0
			for i < min(len(whole), len(formatted)) && whole[i] == formatted[i] {
				i++
			}
			t.Errorf("runtime %v: gofmt changes the file (%v) at byte %d:\nwritten: %q\ngofmt:   %q", runtime, err, i, whole[max(0, i-80):min(len(whole), i+80)], formatted[max(0, i-80):min(len(formatted), i+80)])
		}
		if !bytes.Equal(whole, pieces) {
			i := 0
			for i < min(len(whole), len(pieces)) && whole[i] == pieces[i] {
				i++
			}
			t.Errorf("runtime %v: formatted in pieces, the file differs from the whole at byte %d:\nwhole:  %q\npieces: %q", runtime, i, whole[max(0, i-80):min(len(whole), i+80)], pieces[max(0, i-80):min(len(pieces), i+80)])
		}
		if len(tools) < 100 || bytes.Count(whole, []byte("\nvar (\n")) < 5 {
			t.Errorf("%d tools, %d schema blocks: the test does not split the file", len(tools), bytes.Count(whole, []byte("\nvar (\n")))
		}
	}
}
