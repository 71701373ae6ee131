package typegen

import (
	"bytes"
	"errors"
	"fmt"
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
		if err := gofmtChanges(whole); err != nil {
			t.Errorf("runtime %v: %v", runtime, err)
		}
		if d := difference(whole, pieces, "whole", "pieces"); d != "" {
			t.Errorf("runtime %v: formatted in pieces, the file differs from the whole at %s", runtime, d)
		}
		if len(tools) < 100 || bytes.Count(whole, []byte("\nvar (\n")) < 5 {
			t.Errorf("%d tools, %d schema blocks: the test does not split the file", len(tools), bytes.Count(whole, []byte("\nvar (\n")))
		}
	}
}

// gofmtChanges reports where gofmt would change src, nil where it leaves
// it as it is: the Go file is written as gofmt writes it, not formatted.
func gofmtChanges(src []byte) error {
	formatted, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("go/format: %v", err)
	}
	if d := difference(src, formatted, "written", "gofmt"); d != "" {
		return errors.New("gofmt changes the file at " + d)
	}
	return nil
}

// difference says where a and b first differ: the line of a, and 80 bytes
// of each either side; "" where they are equal.
func difference(a, b []byte, aName, bName string) string {
	if bytes.Equal(a, b) {
		return ""
	}
	i := 0
	for i < min(len(a), len(b)) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("line %d:\n%s: %q\n%s: %q", bytes.Count(a[:i], []byte("\n"))+1, aName, a[max(0, i-80):min(len(a), i+80)], bName, b[max(0, i-80):min(len(b), i+80)])
}
