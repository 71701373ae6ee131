// Command naive is the floor toolc's speed is measured against: it reads a
// generated catalog's MCP files (tools/**/*.json under DIR) with
// encoding/json, schemas decoded into Go values, and writes the MCP,
// OpenAI and Anthropic bundles into DIR/dist-naive, indented, with no
// validation, no lowering, no diagnostics and no lock. What a team writes
// in an afternoon instead of using toolc. With -raw, schemas are copied as
// bytes, never parsed: the floor of reading and writing the files at all.
//
//	go run ./internal/cmd/naive [-raw] DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// schema holds a schema as a Go value, or as its bytes with -raw.
type schema struct{ v any }

var raw bool

func (s *schema) UnmarshalJSON(b []byte) error {
	if raw {
		s.v = json.RawMessage(append([]byte(nil), b...))
		return nil
	}
	return json.Unmarshal(b, &s.v)
}

func (s schema) MarshalJSON() ([]byte, error) { return json.Marshal(s.v) }

type tool struct {
	Name         string  `json:"name"`
	Title        string  `json:"title,omitempty"`
	Description  string  `json:"description,omitempty"`
	InputSchema  schema  `json:"inputSchema"`
	OutputSchema *schema `json:"outputSchema,omitempty"`
	Annotations  *schema `json:"annotations,omitempty"`
}

func main() {
	flag.BoolVar(&raw, "raw", false, "copy schemas as bytes instead of decoding them")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: naive [-raw] DIR")
		os.Exit(2)
	}
	if err := run(flag.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "naive: %v\n", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	var tools []tool
	err := filepath.WalkDir(filepath.Join(dir, "tools"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var doc struct {
			Tools []tool `json:"tools"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		tools = append(tools, doc.Tools...)
		return nil
	})
	if err != nil {
		return err
	}
	type function struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Parameters  schema `json:"parameters"`
	}
	type openaiTool struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	type anthropicTool struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		InputSchema schema `json:"input_schema"`
	}
	openai := make([]openaiTool, len(tools))
	anthropic := make([]anthropicTool, len(tools))
	for i, t := range tools {
		openai[i] = openaiTool{"function", function{t.Name, t.Description, t.InputSchema}}
		anthropic[i] = anthropicTool{t.Name, t.Description, t.InputSchema}
	}
	out := filepath.Join(dir, "dist-naive")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, v := range map[string]any{"mcp.json": map[string]any{"tools": tools}, "openai.json": openai, "anthropic.json": anthropic} {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
