// Command naive is the floor toolc's speed is measured against: it reads a
// generated catalog's MCP files (tools/**/*.json under DIR) with
// encoding/json, schemas decoded into Go values, and writes the MCP,
// OpenAI and Anthropic bundles into DIR/dist-naive, indented, with no
// validation, no lowering, no diagnostics and no lock. What a team writes
// in an afternoon instead of using toolc. With -raw, schemas are copied as
// bytes, never parsed: the floor of reading and writing the files at all.
// With -parallel, it uses every core as a team's script would: the files
// are decoded in parallel (an errgroup of GOMAXPROCS workers), and the
// three bundles are marshalled and written one goroutine each.
//
//	go run ./internal/cmd/naive [-raw] [-parallel] DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"
)

// schema holds a schema as a Go value, or as its bytes with -raw.
type schema struct{ v any }

var raw, parallel bool

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
	flag.BoolVar(&parallel, "parallel", false, "decode the files in parallel and write the three bundles at once")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: naive [-raw] [-parallel] DIR")
		os.Exit(2)
	}
	if err := run(flag.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "naive: %v\n", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, "tools"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	per := make([][]tool, len(files)) // each file's tools in its slot: the order is the walk's
	read := func(i int) error {
		data, err := os.ReadFile(files[i])
		if err != nil {
			return err
		}
		var doc struct {
			Tools []tool `json:"tools"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s: %w", files[i], err)
		}
		per[i] = doc.Tools
		return nil
	}
	if parallel {
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i := range files {
			g.Go(func() error { return read(i) })
		}
		err = g.Wait()
	} else {
		for i := range files {
			if err = read(i); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	var tools []tool
	for _, ts := range per {
		tools = append(tools, ts...)
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
	write := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, name), append(data, '\n'), 0o644)
	}
	bundles := map[string]any{"mcp.json": map[string]any{"tools": tools}, "openai.json": openai, "anthropic.json": anthropic}
	if parallel {
		var g errgroup.Group
		for name, v := range bundles {
			g.Go(func() error { return write(name, v) })
		}
		return g.Wait()
	}
	for name, v := range bundles {
		if err := write(name, v); err != nil {
			return err
		}
	}
	return nil
}
