package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/validate"
)

// targets are the targets whose calls the tests decode: the ones whose
// lowering changes what a model sends (strict nulls, renamed keys), and
// plain ones.
const targets = `
[[targets]]
format = "canonical"
out = "dist/canonical.json"
[[targets]]
name = "openai-strict"
format = "openai"
strict = true
out = "dist/openai-strict.json"
[[targets]]
name = "openai-auto"
format = "openai"
strict = "auto"
out = "dist/openai-auto.json"
[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
[[targets]]
name = "gemini-openapi"
format = "gemini"
schema = "openapi"
out = "dist/gemini.json"
[[targets]]
format = "bedrock"
out = "dist/bedrock.json"
[[targets]]
format = "mcp"
out = "dist/mcp.json"
`

// build compiles a catalog and returns the file system it would write.
func build(t testing.TB, fsys fstest.MapFS) fstest.MapFS {
	t.Helper()
	res, err := pipeline.BuildFile(context.Background(), fsys, pipeline.DefaultManifest, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed {
		var errs []string
		for _, d := range res.Diagnostics {
			if d.Severity >= 2 {
				errs = append(errs, d.String())
			}
		}
		t.Fatalf("build failed:\n%s", strings.Join(errs, "\n"))
	}
	out := fstest.MapFS{}
	for _, o := range res.Outputs {
		out[o.Path] = &fstest.MapFile{Data: o.Bytes()}
	}
	return out
}

const sample = `[{"name": "search", "description": "Search the app store.", "inputSchema": {
  "type": "object",
  "properties": {
    "filter[bundleId]": {"type": "string", "description": "Only this bundle."},
    "limit": {"type": "integer", "minimum": 1, "description": "How many."},
    "page": {"type": "object", "properties": {"cursor": {"type": "string"}, "size[max]": {"type": "integer"}}, "description": "Paging."}
  },
  "required": ["filter[bundleId]"]},
  "outputSchema": {"type": "object", "properties": {"Content-Type": {"type": "string"}, "count": {"type": "integer"}}, "required": ["count"]}}]`

func sampleCatalog(t testing.TB) *Catalog {
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\nnamespace = \"store\"\n" + targets)},
		"tools.json": {Data: []byte(sample)},
	})
	c, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDecode(t *testing.T) {
	c := sampleCatalog(t)
	for _, tc := range []struct {
		target, name, args, want string
	}{
		// OpenAI strict: the nulls of optional properties are dropped, at every depth.
		{"openai-strict", "store__search", `{"filter[bundleId]": "a", "limit": null, "page": {"cursor": "c", "size[max]": null}}`,
			`{"filter[bundleId]":"a","page":{"cursor":"c"}}`},
		// Anthropic: renamed keys restored, at every depth.
		{"anthropic", "store__search", `{"filter_bundleId_": "a", "page": {"size_max_": 5}}`,
			`{"filter[bundleId]":"a","page":{"size[max]":5}}`},
		// Gemini's parameters: its key rule, and its names keep the ID.
		{"gemini-openapi", "store:search", `{"filter_bundleId_": "a"}`, `{"filter[bundleId]":"a"}`},
		// Nothing to undo: the bytes as they came.
		{"mcp", "store__search", `{"filter[bundleId]": "a",  "limit": 3}`, `{"filter[bundleId]": "a",  "limit": 3}`},
	} {
		call, err := c.Decode(tc.target, tc.name, []byte(tc.args))
		if err != nil {
			t.Errorf("Decode(%s, %s, %s): %v", tc.target, tc.name, tc.args, err)
			continue
		}
		if call.ID != "store:search" || string(call.Arguments) != tc.want {
			t.Errorf("Decode(%s, %s, %s) = %s %s, want store:search %s", tc.target, tc.name, tc.args, call.ID, call.Arguments, tc.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	c := sampleCatalog(t)
	if _, err := c.Decode("nope", "x", nil); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("unknown target: %v", err)
	}
	if _, err := c.Decode("anthropic", "store:search", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("a name of another target: %v", err)
	}
	// A null where the property was not optional stays, and is invalid; a
	// bound is checked against the source schema, which strict mode dropped.
	call, err := c.Decode("openai-strict", "store__search", []byte(`{"filter[bundleId]": null, "limit": 0}`))
	var ae *ArgumentsError
	if !errors.As(err, &ae) || !errors.Is(err, ErrInvalidArguments) || call == nil {
		t.Fatalf("invalid arguments: %v", err)
	}
	var at []string
	for _, p := range ae.Problems {
		at = append(at, string(p.Pointer))
	}
	if !slices.Equal(at, []string{"/filter[bundleId]", "/limit"}) {
		t.Errorf("problems at %q, want /filter[bundleId] and /limit: %v", at, err)
	}
	if _, err := c.Decode("mcp", "store__search", []byte(`{"filter[bundleId]": `)); !errors.Is(err, ErrInvalidArguments) {
		t.Errorf("arguments that are not JSON: %v", err)
	}
}

func TestTool(t *testing.T) {
	c := sampleCatalog(t)
	if tl, err := c.Tool("store:search"); err != nil || tl.Name != "search" {
		t.Errorf("Tool(store:search) = %v, %v", tl, err)
	}
	if _, err := c.Tool("store:search:x"); !errors.Is(err, canonical.ErrInvalidToolID) {
		t.Errorf("Tool(store:search:x): %v", err)
	}
	if _, err := c.Tool("store:nope"); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("Tool(store:nope): %v", err)
	}
}

func TestEncode(t *testing.T) {
	c := sampleCatalog(t)
	// Gemini declares the output with its key rule: the result follows it.
	got, err := c.Encode("gemini-openapi", "store:search", []byte(`{"Content-Type": "text/plain", "count": 2}`))
	if err != nil || string(got) != `{"Content_Type":"text/plain","count":2}` {
		t.Errorf("Encode(gemini-openapi) = %s, %v", got, err)
	}
	// MCP keeps the keys: the bytes as they are.
	if got, err := c.Encode("mcp", "store__search", []byte(`{"Content-Type": "a",  "count": 2}`)); err != nil || string(got) != `{"Content-Type": "a",  "count": 2}` {
		t.Errorf("Encode(mcp) = %s, %v", got, err)
	}
	// A result the output schema refuses.
	_, err = c.Encode("mcp", "store__search", []byte(`{"Content-Type": "a"}`))
	var ae *ArgumentsError
	if !errors.As(err, &ae) || !ae.Result || !strings.Contains(err.Error(), "the result of store:search is not valid") {
		t.Errorf("an invalid result: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, "toolc.lock"); !errors.Is(err, ErrNoCatalog) {
		t.Errorf("no lock: %v", err)
	}
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"mcp.json\"\n")},
		"tools.json": {Data: []byte(sample)},
	})
	if _, err := Load(fsys, "toolc.lock"); !errors.Is(err, ErrNoCatalog) || !strings.Contains(err.Error(), "canonical") {
		t.Errorf("no canonical bundle: %v", err)
	}
	// A lock written before outputs had a format: a clear error.
	fsys = build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n" + targets)},
		"tools.json": {Data: []byte(sample)},
	})
	old := regexp.MustCompile(`(?m)^format = "[a-z-]+"\n(path = "dist/)`).ReplaceAllString(string(fsys["toolc.lock"].Data), "$1")
	fsys["toolc.lock"] = &fstest.MapFile{Data: []byte(old)}
	if _, err := Load(fsys, "toolc.lock"); err == nil || !strings.Contains(err.Error(), "older toolc") {
		t.Errorf("a lock without output formats: %v", err)
	}
}

// generate makes a value that schema s accepts, deterministically: every
// required property and every other optional one, the first enum value,
// the first anyOf branch. It does not try hard: the caller validates.
func generate(s, root *canonical.Value, depth int) *canonical.Value {
	if s == nil || s.Kind != canonical.Object || depth > 8 {
		return canonical.NewString("x")
	}
	if ref, ok := s.Get("$ref").StringValue(); ok {
		if p, ok := canonical.RefPointer(ref); ok {
			return generate(root.Resolve(p), root, depth+1)
		}
	}
	if e := s.Get("enum"); e != nil && e.Kind == canonical.Array && len(e.Items()) > 0 {
		return e.Items()[0]
	}
	if c := s.Get("const"); c != nil {
		return c
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if b := s.Get(k); b != nil && b.Kind == canonical.Array && len(b.Items()) > 0 && !s.Has("type") {
			return generate(b.Items()[0], root, depth+1)
		}
	}
	if all := s.Get("allOf"); all != nil && all.Kind == canonical.Array && len(all.Items()) > 0 && !s.Has("type") && !s.Has("properties") {
		return generate(all.Items()[0], root, depth+1)
	}
	ts := canonical.AsSchema(s).Types()
	t := "object"
	if len(ts) > 0 {
		t = ts[0]
	} else if !s.Has("properties") {
		t = "string"
	}
	switch t {
	case "object":
		o := canonical.NewObject()
		req, _ := s.Get("required").Strings()
		i := 0
		for name, ps := range canonical.AsSchema(s).Properties() {
			if slices.Contains(req, name) || i%2 == 0 {
				o.Set(name, generate(ps.JSON(), root, depth+1))
			}
			i++
		}
		return o
	case "array":
		n := 1
		if m := s.Get("minItems"); m != nil && m.Text() != "" {
			fmt.Sscan(m.Text(), &n)
		}
		a := canonical.NewArray()
		for range min(n, 3) {
			a.SetItems(append(a.Items(), generate(s.Get("items"), root, depth+1)))
		}
		return a
	case "integer":
		if m := s.Get("minimum"); m != nil {
			return m
		}
		return canonical.NewNumber("1")
	case "number":
		if m := s.Get("minimum"); m != nil {
			return m
		}
		return canonical.NewNumber("1.5")
	case "boolean":
		return canonical.NewBool(true)
	case "null":
		return canonical.NewNull()
	}
	switch f, _ := s.Get("format").StringValue(); f {
	case "date-time":
		return canonical.NewString("2026-11-22T10:00:00Z")
	case "date":
		return canonical.NewString("2026-11-22")
	case "email":
		return canonical.NewString("a@example.com")
	case "uri", "url":
		return canonical.NewString("https://example.com/")
	}
	return canonical.NewString("x")
}

// encode writes args, valid for the source schema, as a target's model
// would send them: under the emitted keys, and with null for each optional
// property left out where strict mode made it required.
func encode(e *entry, s *canonical.Value, at canonical.Pointer, v *canonical.Value, depth int) *canonical.Value {
	if s == nil || s.Kind != canonical.Object || v == nil || depth > 64 {
		return v
	}
	if ref, ok := s.Get("$ref").StringValue(); ok {
		if p, ok := canonical.RefPointer(ref); ok {
			return encode(e, e.input.Resolve(p), p, v, depth+1)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if bs := s.Get(k); bs != nil && bs.Kind == canonical.Array {
			for i, b := range bs.Items() {
				if fits(b, v, e.input) {
					v = encode(e, b, at.Append(k).Index(i), v, depth+1)
					break
				}
			}
		}
	}
	switch v.Kind {
	case canonical.Object:
		props := s.Get("properties")
		if props == nil || props.Kind != canonical.Object {
			return v
		}
		out := canonical.NewObject()
		used := map[string]bool{}
		for _, pm := range props.Members() {
			p := at.Append("properties", pm.Key)
			key := pm.Key
			if old, ok := e.renamed[p]; ok {
				key = old
			}
			used[key] = true
			if x := v.Get(key); x != nil {
				out.SetMembers(append(out.Members(), canonical.Member{Key: pm.Key, Value: encode(e, pm.Value, p, x, depth+1)}))
			} else if e.optional[p] {
				out.SetMembers(append(out.Members(), canonical.Member{Key: pm.Key, Value: canonical.NewNull()}))
			}
		}
		for _, m := range v.Members() { // properties the schema does not list
			if !used[m.Key] {
				out.SetMembers(append(out.Members(), m))
			}
		}
		return out
	case canonical.Array:
		if items := s.Get("items"); items != nil {
			out := canonical.NewArray()
			for _, it := range v.Items() {
				out.SetItems(append(out.Items(), encode(e, items, at.Append("items"), it, depth+1)))
			}
			return out
		}
	}
	return v
}

// TestRoundTripCorpus: for each tool of the corpus and each target,
// arguments valid for the source schema, sent as the target's model sends
// them, decode to exactly the original arguments; and arguments of the
// wrong type give located problems.
func TestRoundTripCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	src := fstest.MapFS{}
	var sources []string
	for i, g := range []string{"mcp/github-mcp-server/tools_list.current.json", "mcp/reference-servers-py/*.json", "openapi/swagger-petstore/openapi.yaml", "openapi/redocly-museum/openapi.yaml", "openapi/notion/notion-openapi.json"} {
		files, _ := filepath.Glob(filepath.Join(dir, g))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("s%d/%s", i, filepath.Base(f))
			src[name] = &fstest.MapFile{Data: data}
		}
		sources = append(sources, fmt.Sprintf("[[sources]]\ninclude = [\"s%d/*\"]\nnamespace = \"s%d\"\nrepair = true\n", i, i))
	}
	src["toolc.toml"] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") + targets)}
	c, err := Load(build(t, src), "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	v := validate.New()
	calls, skipped, changed := 0, 0, 0
	for _, tn := range c.Targets() {
		tg := c.targets[tn]
		for _, name := range slices.Sorted(maps.Keys(tg.byName)) {
			e := tg.byName[name]
			tool := c.tools[e.id]
			args := generate(tool.Input.JSON(), tool.Input.JSON(), 0)
			cs, err := v.Compile(tool.Input)
			if err != nil || len(cs.Check(args)) > 0 {
				skipped++ // a pattern or a bound the generator does not meet
				continue
			}
			want := string(args.AppendJSON(nil, ""))
			sent := want
			if e.input != nil {
				sent = string(encode(e, e.input, "", args.DeepCopy(), 0).AppendJSON(nil, ""))
			}
			call, err := c.Decode(tn, name, []byte(sent))
			calls++
			if err != nil {
				t.Errorf("%s %s: Decode(%s): %v", tn, name, sent, err)
				continue
			}
			if sent != want {
				changed++
			}
			if call.ID != e.id || string(call.Arguments) != want {
				t.Errorf("%s %s: sent %s, decoded %s %s, want %s %s", tn, name, sent, call.ID, call.Arguments, e.id, want)
			}
			// The same arguments with a property of the wrong type: a located problem.
			if args.Kind == canonical.Object && len(args.Members()) > 0 {
				bad := args.DeepCopy()
				bad.Members()[0].Value = canonical.NewArray(canonical.NewArray())
				_, err := c.Decode(tn, name, bad.AppendJSON(nil, ""))
				var ae *ArgumentsError
				if !errors.As(err, &ae) || len(ae.Problems) == 0 || ae.Problems[0].Pointer == "" {
					t.Errorf("%s %s: a wrong type at %s gives %v", tn, name, bad.Members()[0].Key, err)
				}
			}
		}
	}
	if calls == 0 {
		t.Fatal("no calls decoded")
	}
	t.Logf("%d calls decoded to the original arguments (%d sent otherwise than the source schema says), %d tools skipped: the generator met no valid arguments", calls, changed, skipped)
}

// BenchmarkDecode measures one decode and validation of a strict call.
func BenchmarkDecode(b *testing.B) {
	c := sampleCatalog(b)
	args := []byte(`{"filter[bundleId]": "a", "limit": null, "page": {"cursor": "c", "size[max]": null}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decode("openai-strict", "store__search", args); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDecode: no arguments, however malformed, panic a decode.
func FuzzDecode(f *testing.F) {
	c := sampleCatalog(f)
	f.Add("openai-strict", `{"filter[bundleId]": "a", "limit": null, "page": {"cursor": "c", "size[max]": null}}`)
	f.Add("anthropic", `{"filter_bundleId_": [1, {"page": null}], "page": {"size_max_": {"x": []}}}`)
	f.Add("gemini-openapi", `[]`)
	f.Add("mcp", `null`)
	f.Add("anthropic", `{"filter_bundleId_": "a", "filter[bundleId]": "b"}`) // a renamed key and its original (issue 27)
	f.Fuzz(func(t *testing.T, target, args string) {
		for _, tn := range append(c.Targets(), target) {
			for name := range c.targets[tn].byNameOrEmpty() {
				call, err := c.Decode(tn, name, []byte(args))
				if err != nil {
					continue
				}
				// A call that decodes is valid against its tool's source
				// schema, checked afresh.
				v, err := canonical.ParseJSON(call.Arguments)
				if err != nil {
					t.Fatalf("%s %s: the decoded arguments %s are not JSON: %v", tn, name, call.Arguments, err)
				}
				cs, err := validate.New().Compile(call.Tool.Input)
				if err != nil {
					t.Fatalf("%s: %v", call.ID, err)
				}
				if problems := cs.Check(v); len(problems) > 0 {
					t.Fatalf("%s %s: %s decoded to %s, which its schema refuses: %v", tn, name, args, call.Arguments, problems)
				}
			}
		}
	})
}

func (tg *target) byNameOrEmpty() map[string]*entry {
	if tg == nil {
		return nil
	}
	return tg.byName
}

// TestDecodeConcurrent: one Catalog serves many goroutines (run with -race);
// each tool's schema is compiled once, by whichever call comes first.
func TestDecodeConcurrent(t *testing.T) {
	c := sampleCatalog(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			for range 50 {
				call, err := c.Decode("openai-strict", "store__search", []byte(`{"filter[bundleId]": "a", "limit": null, "page": null}`))
				if err != nil || string(call.Arguments) != `{"filter[bundleId]":"a"}` {
					errs[i] = fmt.Errorf("%v %v", call, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestDecodeAlias: a call to the old name of a renamed tool is a call to it.
func TestDecodeAlias(t *testing.T) {
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n" + targets)},
		"tools.json": {Data: []byte(`[{"name": "find", "description": "Find.", "_meta": {"dev.toolc/lifecycle": {"renamed_from": "search"}},
  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]`)},
	})
	c, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	call, err := c.Decode("openai-strict", "search", []byte(`{"q": null}`))
	if err != nil || call.ID != "find" || string(call.Arguments) != `{}` {
		t.Errorf("Decode(the old name) = %v, %v", call, err)
	}
	if !strings.Contains(string(fsys["toolc.lock"].Data), "[tools.aliases]\nanthropic = \"search\"") {
		t.Errorf("the lock records no alias:\n%s", fsys["toolc.lock"].Data)
	}
}

// TestDecodeRemoved: a call to a tool the manifest gave a tombstone is a
// *RemovedError that names the release and the tool to use, by its ID and
// by the name the target the call was made for gives it.
func TestDecodeRemoved(t *testing.T) {
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[removed]]\nid = \"shop:search\"\nin = \"2.0.0\"\nuse = \"shop:find\"\n[[sources]]\ninclude = [\"tools.json\"]\nnamespace = \"shop\"\n" + targets)},
		"tools.json": {Data: []byte(`[{"name": "find", "description": "Find.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]`)},
	})
	c, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Decode("openai-strict", "shop__search", []byte(`{"q": "x"}`))
	var re *RemovedError
	if !errors.As(err, &re) || !errors.Is(err, ErrUnknownTool) || re.In != "2.0.0" || re.Use != "shop:find" || re.UseName != "shop__find" {
		t.Fatalf("Decode(a removed tool) = %v (%#v)", err, re)
	}
	if want := "tool shop:search was removed in 2.0.0; use shop:find (shop__find)"; err.Error() != want {
		t.Errorf("the error says %q, want %q", err, want)
	}
	if _, err := c.Decode("openai-strict", "shop__nope", nil); errors.As(err, &re) || !errors.Is(err, ErrUnknownTool) {
		t.Errorf("Decode(an unknown tool) = %v", err)
	}
}

// TestDecodeForMCPClients: an MCP bundle made for Claude Desktop maps a
// dotted name into ^[a-zA-Z0-9_-]{1,64}$ (loomle issue 168), records it in
// the lock as every target's names are, and a call under that name decodes
// to the catalog's tool; for VS Code an array without items gets items: {}
// (vscode issue 284536), which takes the same arguments.
func TestDecodeForMCPClients(t *testing.T) {
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\nnamespace = \"gh\"\n" + targets +
			"[[targets]]\nname = \"mcp-desktop\"\nformat = \"mcp\"\nout = \"dist/mcp-desktop.json\"\nclients = [\"claude-desktop\", \"vscode\"]\n")},
		"tools.json": {Data: []byte(`{"tools": [{"name": "repos.list", "description": "List repositories.", "inputSchema": {"type": "object", "properties": {"topics": {"type": "array", "description": "Topics."}}}}]}`)},
	})
	bundle := string(fsys["dist/mcp-desktop.json"].Data)
	if !strings.Contains(bundle, `"name": "gh__repos_list"`) || !strings.Contains(bundle, `"items": {}`) {
		t.Errorf("the bundle for Claude Desktop and VS Code is\n%s", bundle)
	}
	if plain := string(fsys["dist/mcp.json"].Data); !strings.Contains(plain, `"name": "gh__repos.list"`) || strings.Contains(plain, `"items"`) {
		t.Errorf("the plain MCP bundle changed:\n%s", plain)
	}
	c, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	call, err := c.Decode("mcp-desktop", "gh__repos_list", []byte(`{"topics": ["go"]}`))
	if err != nil || call.ID != "gh:repos.list" {
		t.Errorf("Decode(mcp-desktop, gh__repos_list) = %v, %v; want gh:repos.list", call, err)
	}
}

// TestDecodeRenamedAndOriginal: a call that carries a renamed key and its
// original both cannot be restored; it was "toolc: internal error:
// duplicate key", and is now invalid arguments that say which key.
func TestDecodeRenamedAndOriginal(t *testing.T) {
	c := sampleCatalog(t)
	_, err := c.Decode("anthropic", "store__search", []byte(`{"filter_bundleId_": "a", "filter[bundleId]": "b"}`))
	var ae *ArgumentsError
	if !errors.As(err, &ae) || len(ae.Problems) != 1 || !strings.Contains(ae.Problems[0].Message, `"filter[bundleId]" is sent twice`) {
		t.Errorf("Decode of a key and its renamed form = %v, want one problem naming the key", err)
	}
}

// TestDecodeBackend: a decoded call says where the tool runs, from the
// canonical bundle: an OpenAPI operation's provider binding, a local tool,
// a captured MCP server's command (issue 30).
func TestDecodeBackend(t *testing.T) {
	api := `{"openapi": "3.1.0", "servers": [{"url": "https://api.example.com"}], "paths": {"/pets/{id}": {"get": {"operationId": "getPet", "summary": "Get a pet.",
		"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The pet."}]}}}}`
	fsys := build(t, fstest.MapFS{
		"toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["api.json"]
format = "openapi"
namespace = "pets"
[[sources]]
include = ["local.json"]
namespace = "app"
backend = { kind = "local" }
[[sources]]
include = ["servers/mem.json"]
namespace = "mem"
capture = { command = ["node", "server.js"], env = { TOKEN = "${env:SECRET_TOKEN}" } }
[[targets]]
format = "openai"
out = "dist/openai.json"
[[targets]]
format = "canonical"
out = "dist/canonical.json"
`)},
		"api.json":         {Data: []byte(api)},
		"local.json":       {Data: []byte(`[{"name": "now", "description": "The time.", "inputSchema": {"type": "object"}}]`)},
		"servers/mem.json": {Data: []byte(`{"tools": [{"name": "recall", "description": "Recall.", "inputSchema": {"type": "object"}}]}`)},
	})
	if strings.Contains(string(fsys["dist/canonical.json"].Data), "SECRET_TOKEN") {
		t.Error("the canonical bundle holds the capture's env")
	}
	c, err := Load(fsys, "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"pets__getPet", `{"kind":"provider","http":{"method":"get","path":"/pets/{id}"`},
		{"app__now", `{"kind":"local"}`},
		{"mem__recall", `{"kind":"mcp","command":["node","server.js"]}`},
	} {
		call, err := c.Decode("openai", tc.name, []byte(`{"id": "1"}`))
		if err != nil && call == nil {
			t.Fatalf("Decode(%s): %v", tc.name, err)
		}
		if call.Tool.Backend == nil || !strings.HasPrefix(string(call.Tool.Backend.ToValue().AppendJSON(nil, "")), tc.want) {
			t.Errorf("Decode(%s).Tool.Backend = %+v, want %s…", tc.name, call.Tool.Backend, tc.want)
		}
	}
}

// TestCallPrinted: a decoded call as text and as the JSON record toolc
// decode prints, the arguments in the catalog's terms.
func TestCallPrinted(t *testing.T) {
	c := sampleCatalog(t)
	call, err := c.Decode("anthropic", "store__search", []byte(`{"filter_bundleId_": "a", "limit": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(call)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"store:search","arguments":{"filter[bundleId]":"a","limit":2}}`; string(data) != want {
		t.Errorf("json.Marshal(call) = %s, want %s", data, want)
	}
	var b strings.Builder
	if err := call.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "store:search\n{\n  \"filter[bundleId]\": \"a\",\n  \"limit\": 2\n}\n"; b.String() != want {
		t.Errorf("WriteText wrote %q, want %q", b.String(), want)
	}
}
