package typegen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// TestGoStructsFitTheSDK: the MCP Go SDK's typed mcp.AddTool infers a
// tool's input schema from its input struct (jsonschema-go's For). For every
// sample tool whose input has no loss.type-*, the schema it infers from the
// generated struct has the catalog's property names, required set and
// types, so a server author gets typed handlers that take the same calls.
func TestGoStructsFitTheSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program on the generated package")
	}
	tools := sample(t)
	m := typegen.Build(tools, nil, nil)
	lossy := map[string]bool{}
	for _, l := range append(m.Losses, m.GoLosses...) {
		if strings.HasPrefix(string(l.At), "/input") && l.Code != "loss.type-constraint" {
			lossy[l.Tool.ID()] = true
		}
	}
	dir := t.TempDir()
	gen := filepath.Join(dir, "tools")
	if err := os.MkdirAll(filepath.Join(dir, "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := m.Go("sample", "tools", false)
	if err != nil {
		t.Fatal(err)
	}
	write("tools/tools.go", string(src))
	var calls strings.Builder
	checked := map[string]*canonical.Tool{}
	for _, tool := range m.Tools {
		if lossy[tool.ID] {
			continue
		}
		checked[tool.ID] = tool.Source
		fmt.Fprintf(&calls, "\tput(%q, func() (*jsonschema.Schema, error) { return jsonschema.For[tools.%s](nil) })\n", tool.ID, tool.Input)
	}
	write("main/main.go", `package main

import (
	"encoding/json"
	"os"

	"github.com/google/jsonschema-go/jsonschema"

	"example.com/gen/tools"
)

func main() {
	out := map[string]*jsonschema.Schema{}
	put := func(id string, f func() (*jsonschema.Schema, error)) {
		s, err := f()
		if err != nil {
			panic(id + ": " + err.Error())
		}
		out[id] = s
	}
`+calls.String()+`	json.NewEncoder(os.Stdout).Encode(out)
}
`)
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, "github.com/google/jsonschema-go ") {
			lines = append(lines, l)
		}
	}
	write("go.mod", "module example.com/gen\n\ngo 1.26\n\nrequire github.com/google/jsonschema-go v0.4.3\n")
	write("go.sum", strings.Join(lines, "\n")+"\n")
	cmd := exec.Command("go", "run", "./main")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go run the SDK's inference: %v\n%s", err, msg)
	}
	var inferred map[string]struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(out, &inferred); err != nil {
		t.Fatal(err)
	}
	for id, src := range checked {
		got := inferred[id]
		root := src.Input.JSON()
		props := root.Get("properties")
		want := map[string]bool{}
		if props != nil {
			for _, p := range props.Members() {
				want[p.Key] = true
				g, ok := got.Properties[p.Key]
				if !ok {
					t.Errorf("%s: the SDK's schema has no property %q", id, p.Key)
					continue
				}
				var gt []string
				switch x := g.Type.(type) {
				case string:
					gt = []string{x}
				case []any:
					for _, e := range x {
						gt = append(gt, fmt.Sprint(e))
					}
				}
				if wt := schemaType(p.Value); wt != "" && !slices.Contains(gt, wt) {
					t.Errorf("%s: property %q is %s in the catalog and %v in the SDK's schema", id, p.Key, wt, gt)
				}
			}
		}
		for k := range got.Properties {
			if !want[k] {
				t.Errorf("%s: the SDK's schema has a property %q the catalog does not", id, k)
			}
		}
		req, _ := root.Get("required").Strings()
		slices.Sort(req)
		slices.Sort(got.Required)
		if !slices.Equal(slices.Compact(req), got.Required) {
			t.Errorf("%s: required %v in the catalog, %v in the SDK's schema", id, req, got.Required)
		}
	}
	t.Logf("%d of %d sample tools compared with the SDK's schema (the others have a loss.type-* in their input)", len(checked), len(m.Tools))
	if len(checked) < len(m.Tools)/2 {
		t.Errorf("only %d tools compared", len(checked))
	}
}

// schemaType is a property's one JSON type besides null, "" when it has
// none or several.
func schemaType(v *canonical.Value) string {
	ts := canonical.AsSchema(v).Types()
	ts = slices.DeleteFunc(slices.Clone(ts), func(t string) bool { return t == "null" })
	if len(ts) == 1 {
		return ts[0]
	}
	if e := v.Get("enum"); e != nil && len(e.Items()) > 0 && e.Items()[0].Kind == canonical.String {
		return "string"
	}
	return ""
}

// TestGoSchemaForAddTool: a Go server registers GitHub's list_issues with
// mcp.AddTool twice, once with the schema the SDK infers from the
// generated struct and once with the generated ListIssuesInputSchema. A
// call with state "closed" (the catalog's enum is OPEN, CLOSED) gets
// through the first, which has no enum, and is refused by the second.
func TestGoSchemaForAddTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server on the generated package")
	}
	tools := sample(t)
	m := typegen.Build(tools, nil, nil)
	src, err := m.Go("sample", "tools", false)
	if err != nil {
		t.Fatal(err)
	}
	var input string
	for _, tl := range m.Tools {
		if tl.ID == "list_issues" {
			input = tl.Input
		}
	}
	if input == "" || !regexp.MustCompile(`\t`+strings.TrimSuffix(input, "Input")+`InputSchema\s+= json.RawMessage\(`).Match(src) {
		t.Fatalf("the generated package has no schema of list_issues (%q)", input)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tools/tools.go", string(src))
	write("main/main.go", `package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/gen/tools"
)

func main() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "github", Version: "1"}, nil)
	handle := func(context.Context, *mcp.CallToolRequest, tools.`+input+`) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}
	mcp.AddTool(server, &mcp.Tool{Name: "inferred"}, handle)
	mcp.AddTool(server, &mcp.Tool{Name: "exported", InputSchema: tools.`+strings.TrimSuffix(input, "Input")+`InputSchema}, handle)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"inferred", "exported"} {
		for _, state := range []string{"CLOSED", "closed"} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"owner": "o", "repo": "r", "state": state}})
			if err != nil {
				panic(err)
			}
			fmt.Printf("%s %s %v\n", name, state, !res.IsError)
		}
	}
}
`)
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	// toolc's own requirements, so that the build takes the versions of
	// the module cache (GOPROXY=off), the SDK's among them.
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, requires, _ := strings.Cut(string(mod), "\nrequire")
	write("go.mod", "module example.com/gen\n\ngo 1.26\n\nrequire"+requires)
	cmd := exec.Command("go", "run", "./main")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run the server: %v\n%s", err, out)
	}
	want := "inferred CLOSED true\ninferred closed true\nexported CLOSED true\nexported closed false\n"
	if string(out) != want {
		t.Errorf("calls with state CLOSED and closed, accepted:\n%s\nwant\n%s", out, want)
	}
}
