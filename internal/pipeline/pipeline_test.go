package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/lock"
)

const mcpTools = `{"tools": [
  {"name": "list", "title": "List", "description": "List things.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}},
   "outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
  {"name": "create", "description": "Create a thing.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string", "description": "Name."}}, "required": ["name"]}}
]}`

const openaiTools = `[{"type": "function", "function": {"name": "ping", "description": "Ping.", "parameters": {"type": "object", "properties": {}}}}]`

func baseFS(manifest string) fstest.MapFS {
	return fstest.MapFS{
		"toolc.toml":          {Data: []byte(manifest)},
		"tools/a/mcp.json":    {Data: []byte(mcpTools)},
		"tools/b/openai.json": {Data: []byte(openaiTools)},
	}
}

const baseManifest = `version = 1
[catalog]
name = "test"
version = "1.0.0"

[[sources]]
include = ["tools/a/*.json"]
namespace = "a"
tags = ["Alpha", " alpha "]

[[sources]]
include = ["tools/b/**/*.json"]

[[targets]]
format = "mcp"
out = "dist/mcp.json"

[[targets]]
format = "openai"
out = "dist/openai.json"

[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
`

func mustBuild(t *testing.T, fsys fstest.MapFS, jobs int) *Result {
	t.Helper()
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{Jobs: jobs})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return res
}

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %s:%d", d.Severity, d.Code, d.File, d.Line))
	}
	return out
}

func TestBuildOutputsAndLock(t *testing.T) {
	res := mustBuild(t, baseFS(baseManifest), 0)
	if res.Failed || res.Tools != 3 || res.Files != 2 || res.Targets != 3 {
		t.Fatalf("result = %+v\n%s", res, strings.Join(codes(res.Diagnostics), "\n"))
	}
	var paths []string
	for _, o := range res.Outputs {
		paths = append(paths, o.Path)
		if !bytes.HasSuffix(o.Bytes(), []byte("\n")) || bytes.Contains(o.Bytes(), []byte("\r")) {
			t.Errorf("%s does not end in one \\n", o.Path)
		}
	}
	if want := []string{"dist/mcp.json", "dist/openai.json", "dist/anthropic.json", "toolc.lock"}; !slices.Equal(paths, want) {
		t.Errorf("outputs = %q, want %q", paths, want)
	}
	l, err := lock.Decode(res.Outputs[3].Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(res.Outputs[3].Bytes()), lock.Header+"version = 1\n") {
		t.Errorf("lock starts %q", res.Outputs[3].Bytes()[:60])
	}
	var ids []string
	for _, tl := range l.Tools {
		ids = append(ids, tl.ID)
		if !strings.HasPrefix(tl.Hash, "sha256:") || len(tl.Names) != 3 {
			t.Errorf("lock tool %+v", tl)
		}
	}
	if want := []string{"a:create", "a:list", "ping"}; !slices.Equal(ids, want) {
		t.Errorf("lock tools = %q, want %q (sorted by ID)", ids, want)
	}
	if l.Tools[1].Names["openai"] != "a__list" || l.Sources[0].Format != "mcp" || l.Sources[1].Format != "openai" {
		t.Errorf("lock = %+v", l)
	}
	if len(l.Outputs) != 3 || l.Outputs[0].Path != "dist/anthropic.json" || l.Catalog.Version != "1.0.0" {
		t.Errorf("lock outputs = %+v", l.Outputs)
	}
	mcp := string(res.Outputs[0].Bytes())
	if !strings.Contains(mcp, `"name": "a__list"`) || !strings.Contains(mcp, `"dev.toolc/catalog"`) {
		t.Errorf("mcp bundle:\n%s", mcp)
	}
	// Diagnostics: what OpenAI and Anthropic lose, located in the file.
	got := codes(res.Diagnostics)
	want := []string{
		"warning loss.title tools/a/mcp.json:2",
		"warning loss.title tools/a/mcp.json:2",
		"warning loss.output-schema tools/a/mcp.json:3",
		"warning loss.output-schema tools/a/mcp.json:3",
		"warning loss.annotations tools/a/mcp.json:3",
		"warning loss.annotations tools/a/mcp.json:3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	// Many files so that parallel reads finish in varying order.
	fsys := baseFS(baseManifest)
	for i := range 40 {
		fsys[fmt.Sprintf("tools/b/gen/%02d.json", i)] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(openaiTools, "ping", fmt.Sprintf("ping%02d", i)))}
	}
	want := mustBuild(t, fsys, 1)
	for _, jobs := range []int{2, 3, 8, 64} {
		for range 3 {
			got := mustBuild(t, fsys, jobs)
			if len(got.Outputs) != len(want.Outputs) {
				t.Fatalf("jobs=%d: %d outputs", jobs, len(got.Outputs))
			}
			for i := range got.Outputs {
				if !bytes.Equal(got.Outputs[i].Bytes(), want.Outputs[i].Bytes()) {
					t.Errorf("jobs=%d: %s differs", jobs, got.Outputs[i].Path)
				}
			}
			if !slices.Equal(codes(got.Diagnostics), codes(want.Diagnostics)) {
				t.Errorf("jobs=%d: diagnostics differ", jobs)
			}
		}
	}
	// Formatting and key order of a source change its hash but not the tools'.
	fsys["tools/b/openai.json"] = &fstest.MapFile{Data: []byte("[\n {\"function\": {\"parameters\": {\"properties\": {}, \"type\": \"object\"}, \"description\": \"Ping.\", \"name\": \"ping\"}, \"type\": \"function\"}\n]\n")}
	again := mustBuild(t, fsys, 4)
	l1, _ := lock.Decode(want.Outputs[len(want.Outputs)-1].Bytes())
	l2, _ := lock.Decode(again.Outputs[len(again.Outputs)-1].Bytes())
	for i := range l1.Tools {
		if l1.Tools[i].Hash != l2.Tools[i].Hash {
			t.Errorf("tool %s: hash changed with formatting", l1.Tools[i].ID)
		}
	}
}

func TestBuildFailures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(fstest.MapFS)
		want  string // a "severity code file:line" that must be reported
		fails bool
	}{
		{"duplicate ID", func(f fstest.MapFS) {
			f["tools/b/dup.json"] = &fstest.MapFile{Data: []byte(openaiTools)}
		}, "error catalog.duplicate-id tools/b/openai.json:1", true},
		{"parse error", func(f fstest.MapFS) {
			f["tools/b/bad.json"] = &fstest.MapFile{Data: []byte("[\n  {\"name\": }\n]")}
		}, "error source.parse tools/b/bad.json:2", true},
		{"ambiguous", func(f fstest.MapFS) {
			f["tools/b/empty.json"] = &fstest.MapFile{Data: []byte("[]")}
		}, "error source.unknown-format tools/b/empty.json:1", true},
		{"not an object schema", func(f fstest.MapFS) {
			f["tools/b/dict.json"] = &fstest.MapFile{Data: []byte(`[{"name": "bmi", "parameters": {"type": "dict"}}]`)}
		}, "error schema.not-object tools/b/dict.json:1", true},
		{"invalid schema", func(f fstest.MapFS) {
			f["tools/b/gh.json"] = &fstest.MapFile{Data: []byte("[{\"name\": \"gists\", \"parameters\": {\"type\": \"object\",\n \"properties\": {\"page\": {\"type\": \"Number\"}}}}]")}
		}, "error schema.invalid tools/b/gh.json:2", true},
		{"dangling ref", func(f fstest.MapFS) {
			f["tools/b/ref.json"] = &fstest.MapFile{Data: []byte("[{\"name\": \"r\", \"parameters\": {\"type\": \"object\",\n \"properties\": {\"a\": {\"$ref\": \"#/definitions/a\"}}}}]")}
		}, "error schema.dangling-ref tools/b/ref.json:2", true},
		{"names that collide once legal", func(f fstest.MapFS) {
			f["tools/b/dotted.json"] = &fstest.MapFile{Data: []byte("[{\"name\": \"math.sum\", \"parameters\": {\"type\": \"object\"}},\n {\"name\": \"math_sum\", \"parameters\": {\"type\": \"object\"}}]")}
		}, "error name.collision tools/b/dotted.json:2", true},
		{"deny a recursive ref", func(f fstest.MapFS) {
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(strings.Replace(baseManifest, "format = \"openai\"", "format = \"gemini\"\nschema = \"openapi\"", 1) + "[policy]\ndeny = [\"loss.ref\"]\n")}
			f["tools/b/tree.json"] = &fstest.MapFile{Data: []byte("[{\"name\": \"tree\", \"parameters\": {\"type\": \"object\",\n \"properties\": {\"root\": {\"$ref\": \"#/$defs/node\"}},\n \"$defs\": {\"node\": {\"type\": \"object\", \"properties\": {\n \"kids\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/node\"}}}}}}}]")}
		}, "error loss.ref tools/b/tree.json:4", true},
		{"deny a category", func(f fstest.MapFS) {
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(baseManifest + "[policy]\ndeny = [\"loss\"]\n")}
		}, "error loss.title tools/a/mcp.json:2", true},
		{"target policy overrides", func(f fstest.MapFS) {
			m := strings.Replace(baseManifest, "out = \"dist/openai.json\"\n", "out = \"dist/openai.json\"\npolicy = { warn = [\"loss.title\"] }\n", 1)
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(m + "[policy]\ndeny = [\"loss.title\"]\nignore = [\"loss.output-schema\", \"loss.annotations\"]\n")}
		}, "warning loss.title tools/a/mcp.json:2", true},
		{"ignore", func(f fstest.MapFS) {
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(baseManifest + "[policy]\nignore = [\"loss\"]\n")}
		}, "", false},
		// A glob that matches nothing is mostly a typo that would ship empty
		// bundles (issue 28): it fails, unless the source says optional.
		{"no match fails", func(f fstest.MapFS) {
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(baseManifest + "[[sources]]\ninclude = [\"nothing/*.json\"]\n")}
		}, "error source.no-match toolc.toml:26", true},
		{"no match in an optional source", func(f fstest.MapFS) {
			f["toolc.toml"] = &fstest.MapFile{Data: []byte(baseManifest + "[[sources]]\ninclude = [\"nothing/*.json\"]\noptional = true\n")}
		}, "warning loss.title tools/a/mcp.json:2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := baseFS(baseManifest)
			tc.edit(fsys)
			res := mustBuild(t, fsys, 2)
			got := codes(res.Diagnostics)
			if res.Failed != tc.fails || (tc.want != "" && !slices.Contains(got, tc.want)) {
				t.Errorf("Failed = %v, diagnostics:\n%s\nwant failed=%v with %q", res.Failed, strings.Join(got, "\n"), tc.fails, tc.want)
			}
			if tc.want == "" && len(got) > 0 {
				t.Errorf("diagnostics %q, want none", got)
			}
			if res.Failed && len(res.Outputs) > 0 {
				t.Errorf("a failed build has %d outputs", len(res.Outputs))
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, manifest string
		want           string
	}{
		{"output is a source", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = "tools/a/mcp.json"`, 1), "manifest.invalid toolc.toml:16"},
		{"overlapping sources", baseManifest + "[[sources]]\ninclude = [\"tools/**/*.json\"]\n", "manifest.invalid toolc.toml:26"},
		{"unknown profile feature", strings.Replace(baseManifest, `out = "dist/openai.json"`, "out = \"dist/openai.json\"\nprofile = { oneof = \"keep\" }", 1), "manifest.invalid toolc.toml:21"},
		{"bad name template", strings.Replace(baseManifest, `out = "dist/openai.json"`, "out = \"dist/openai.json\"\nnames = \"{namespace}\"", 1), "manifest.invalid toolc.toml:21"},
		{"option of another format", strings.Replace(baseManifest, `out = "dist/openai.json"`, "out = \"dist/openai.json\"\nschema = \"openapi\"", 1), "manifest.unknown-key toolc.toml:21"},
		{"unknown key", baseManifest + "[policy]\ndenny = []\n", "manifest.unknown-key toolc.toml:26"},
		// An output may not be what a build reads or keeps, nor be in .git.
		{"output is the manifest", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = "toolc.toml"`, 1), "manifest.invalid toolc.toml:16"},
		{"output is the baseline", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = "toolc.baseline"`, 1), "manifest.invalid toolc.toml:16"},
		{"output is the lock", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = "./toolc.lock"`, 1), "manifest.invalid toolc.toml:16"},
		{"output in .git", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = ".git/hooks/mcp.json"`, 1), "manifest.invalid toolc.toml:16"},
		{"output is a folder", strings.Replace(baseManifest, `out = "dist/mcp.json"`, `out = "tools"`, 1), "manifest.invalid toolc.toml:16"},
	} {
		_, err := BuildFile(context.Background(), baseFS(tc.manifest), DefaultManifest, Options{})
		var ce *ConfigError
		if !errors.As(err, &ce) || !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Build = %v, want a ConfigError", tc.name, err)
			continue
		}
		var got []string
		for _, d := range ce.Diagnostics {
			got = append(got, fmt.Sprintf("%s %s:%d", d.Code, d.File, d.Line))
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if _, err := BuildFile(context.Background(), fstest.MapFS{}, DefaultManifest, Options{}); !errors.Is(err, ErrConfig) {
		t.Errorf("Build without a manifest = %v", err)
	}
}

func TestSymlinkEscapeAndWrite(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.json"), []byte(openaiTools), 0o644)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools/a"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tools/b"), 0o755)
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte(baseManifest), 0o644)
	os.WriteFile(filepath.Join(dir, "tools/a/mcp.json"), []byte(mcpTools), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "tools/b/link.json")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	root := openRoot(t, dir)
	_, err := BuildFile(context.Background(), root.FS(), DefaultManifest, Options{})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Diagnostics[0].Code != "manifest.path-escape" {
		t.Fatalf("Build with an escaping symlink = %v", err)
	}

	// Without the link (and with a file of its own in tools/b, whose glob
	// may not match nothing) the build succeeds; Write writes every output,
	// and a second Write of the same outputs leaves the files untouched.
	os.Remove(filepath.Join(dir, "tools/b/link.json"))
	os.WriteFile(filepath.Join(dir, "tools/b/openai.json"), []byte(openaiTools), 0o644)
	res, err := BuildFile(context.Background(), root.FS(), DefaultManifest, Options{})
	if err != nil || res.Failed {
		t.Fatalf("Build = %v, %+v", err, res)
	}
	if diffs, _ := Check(root.FS(), res.Outputs); len(diffs) != 4 || !diffs[0].Missing {
		t.Errorf("Check before writing = %+v, want 4 missing", diffs)
	}
	if err := Write(context.Background(), root, res.Outputs); err != nil {
		t.Fatal(err)
	}
	info1, _ := os.Stat(filepath.Join(dir, "toolc.lock"))
	if diffs, _ := Check(root.FS(), res.Outputs); len(diffs) != 0 {
		t.Errorf("Check after writing = %+v", diffs)
	}
	os.WriteFile(filepath.Join(dir, "dist/mcp.json"), []byte("{}\n"), 0o644)
	if diffs, _ := Check(root.FS(), res.Outputs); len(diffs) != 1 || diffs[0].Path != "dist/mcp.json" || diffs[0].Missing {
		t.Errorf("Check after an edit = %+v", diffs)
	}
	if err := Write(context.Background(), root, res.Outputs); err != nil {
		t.Fatal(err)
	}
	info2, _ := os.Stat(filepath.Join(dir, "toolc.lock"))
	if !info1.ModTime().Equal(info2.ModTime()) {
		t.Error("an unchanged lock was rewritten")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "dist"))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".toolc-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildFile(ctx, baseFS(baseManifest), DefaultManifest, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Build with a cancelled context = %v", err)
	}
}

// TestBuildCancelledMidway: a build cancelled after its sources are read
// (when every later stage would run) returns the context's error and no
// result; a Write with a cancelled context writes nothing.
func TestBuildCancelledMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := BuildFile(ctx, baseFS(baseManifest), DefaultManifest, Options{Memory: func(int64) func(int) { return func(int) { cancel() } }})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Build cancelled after reading = %v, %v; want context.Canceled and no result", res, err)
	}
	done := mustBuild(t, baseFS(baseManifest), 0)
	dir := t.TempDir()
	root := openRoot(t, dir)
	if err := Write(ctx, root, done.Outputs); !errors.Is(err, context.Canceled) {
		t.Errorf("Write with a cancelled context = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a cancelled Write left %v", entries)
	}
}

// TestLongNameRefused: a name longer than any target takes is refused as
// it is read, at its place, and the tool goes no further (a name of a
// megabyte once ran minutes in the confusable check).
func TestLongNameRefused(t *testing.T) {
	long := strings.Repeat("get_commit", 100_000)
	fsys := baseFS(baseManifest)
	fsys["tools/a/long.json"] = &fstest.MapFile{Data: []byte(`{"tools": [{"name": "` + long + `", "description": "Get a commit.", "inputSchema": {"type": "object"}},
		{"name": "` + long[:128] + `", "description": "Get a commit.", "inputSchema": {"type": "object"}}]}`)}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, d := range res.Diagnostics {
		if d.Code == "name.invalid" && d.File == "tools/a/long.json" && d.Line == 1 {
			refused = append(refused, d.Message)
		}
	}
	if !res.Failed || len(refused) != 1 || !strings.Contains(refused[0], "1000000 characters long") || len(refused[0]) > 300 {
		t.Errorf("name.invalid findings %q (failed %v), want one for the long name, its text cut", refused, res.Failed)
	}
	if slices.ContainsFunc(res.Catalog, func(t *canonical.Tool) bool { return len(t.Name) > 128 }) {
		t.Error("the refused tool is in the catalog")
	}
}

// TestCatalogOnly: the catalog is read and checked, nothing is lowered.
func TestCatalogOnly(t *testing.T) {
	res, err := BuildFile(context.Background(), baseFS(baseManifest), DefaultManifest, Options{CatalogOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed || len(res.Catalog) != 3 || len(res.Outputs) != 0 {
		t.Fatalf("CatalogOnly: failed %v, %d tools, %d outputs; want 3 tools and no outputs", res.Failed, len(res.Catalog), len(res.Outputs))
	}
	for _, d := range res.Diagnostics {
		if d.Target != "" {
			t.Errorf("CatalogOnly lowered: %s", d)
		}
	}
	full := mustBuild(t, baseFS(baseManifest), 0)
	for i, tool := range full.Catalog {
		if tool.Hash() != res.Catalog[i].Hash() {
			t.Errorf("tool %s differs from a full build's", tool.ID())
		}
	}
}

// TestMemoryIsToldWhatTheBuildHolds: Options.Memory is called before
// any tool is read, with the bytes of the source files, and what it
// returns once, after every tool is read and checked, with the number of
// targets the build builds (none for a catalog only), or -1 when the
// build stops while reading.
func TestMemoryIsToldWhatTheBuildHolds(t *testing.T) {
	fsys := baseFS(baseManifest)
	var size int64
	for name, f := range fsys {
		if strings.HasPrefix(name, "tools/") {
			size += int64(len(f.Data))
		}
	}
	for _, catalogOnly := range []bool{false, true} {
		var mu sync.Mutex
		var events []string
		opts := Options{CatalogOnly: catalogOnly,
			Validator: func(*canonical.Tool) []diag.Diagnostic {
				mu.Lock()
				defer mu.Unlock()
				events = append(events, "tool")
				return nil
			},
			Memory: func(n int64) func(int) {
				events = append(events, fmt.Sprintf("reading %d", n))
				return func(targets int) { events = append(events, fmt.Sprintf("read %d", targets)) }
			},
		}
		res, err := BuildFile(context.Background(), fsys, DefaultManifest, opts)
		if err != nil {
			t.Fatal(err)
		}
		first, last := fmt.Sprintf("reading %d", size), fmt.Sprintf("read %d", res.Targets)
		if catalogOnly {
			last = "read 0"
		}
		if n := len(events); size == 0 || n != res.Tools+2 || events[0] != first || events[n-1] != last {
			t.Errorf("CatalogOnly %v: events %q, want %q, %d tools and then %q", catalogOnly, events, first, res.Tools, last)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var events []int
	_, err := BuildFile(ctx, fsys, DefaultManifest, Options{Memory: func(int64) func(int) {
		cancel() // while reading
		return func(targets int) { events = append(events, targets) }
	}})
	if !errors.Is(err, context.Canceled) || !slices.Equal(events, []int{-1}) {
		t.Errorf("build cancelled while reading: %v, read called with %v; want context.Canceled, and -1 once", err, events)
	}
}

func TestEqualFile(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 10_000) // several read pieces
	changed := bytes.Clone(big)
	changed[len(changed)-1] = 'x'
	fsys := fstest.MapFS{"big.json": {Data: big}, "dir/x": {Data: []byte("x")}}
	for _, c := range []struct {
		name string
		data []byte
		want bool
	}{
		{"big.json", big, true},
		{"big.json", changed, false},          // same size, last byte differs
		{"big.json", big[:len(big)-1], false}, // shorter
		{"big.json", append(bytes.Clone(big), 'x'), false},
		{"dir", nil, false}, // not a file
	} {
		if got, _ := equalFile(fsys, NewOutput(c.name, c.data)); got != c.want {
			t.Errorf("equalFile(%s, %d bytes) = %v, want %v", c.name, len(c.data), got, c.want)
		}
	}
	if same, err := equalFile(fsys, NewOutput("missing.json", nil)); same || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, %v", same, err)
	}

	// A bundle made without its hash is hashed as it is encoded.
	tools := canonical.NewArray()
	for i := range 5_000 {
		tools.SetItems(append(tools.Items(), canonical.NewString(fmt.Sprintf("tool %d", i))))
	}
	bundle := bundleOutput("", "bundle.json", tools)
	edited := tools.Indent()
	edited[len(edited)/2] = 'x'
	for _, c := range []struct {
		data []byte
		want bool
	}{
		{tools.Indent(), true},
		{edited, false},
		{tools.Indent()[:len(tools.Indent())-1], false},
	} {
		fsys["bundle.json"] = &fstest.MapFile{Data: c.data}
		fresh := bundleOutput("", "bundle.json", tools)
		if got, err := equalFile(fsys, fresh); got != c.want || err != nil {
			t.Errorf("equalFile(bundle, %d bytes on disk) = %v, %v; want %v", len(c.data), got, err, c.want)
		}
		if fresh.sum.hash != hashBytes(tools.Indent()) || fresh.sum.size != int64(len(tools.Indent())) {
			t.Errorf("a compared bundle kept %q, %d; want its encoding's hash and size", fresh.sum.hash, fresh.sum.size)
		}
		// Once written, as a build writes it, its hash is known: only the
		// file is hashed.
		written := bundleOutput("", "bundle.json", tools)
		var b bytes.Buffer
		if _, err := written.WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), tools.Indent()) {
			t.Fatalf("WriteTo wrote %d bytes, %v; want the bundle indented", b.Len(), err)
		}
		if written.sum.hash != hashBytes(tools.Indent()) {
			t.Errorf("a written bundle kept the hash %q, want its bytes'", written.sum.hash)
		}
		if got, err := equalFile(fsys, written); got != c.want || err != nil {
			t.Errorf("equalFile(written bundle, %d bytes on disk) = %v, %v; want %v", len(c.data), got, err, c.want)
		}
	}
	if got := bundle.Bytes(); !bytes.Equal(got, tools.Indent()) {
		t.Error("a bundle's Bytes are not its value indented")
	}
}

// TestVertexDeclarationLimit: Vertex takes at most 128 function
// declarations per Tool, the Gemini API 512 (PROVIDERS.md, late 2026). The
// default is the API's; a manifest serving Vertex says limits = { tools =
// 128 } and hears of the 129th.
func TestVertexDeclarationLimit(t *testing.T) {
	var tools []string
	for i := range 129 {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d", "description": "d", "inputSchema": {"type": "object"}}`, i))
	}
	for _, tc := range []struct {
		limits string
		warn   bool
	}{{"", false}, {"limits = { tools = 128 }\n", true}} {
		fsys := fstest.MapFS{
			"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"gemini\"\nout = \"dist/gemini.json\"\n" + tc.limits)},
			"tools.json": {Data: []byte(`{"tools": [` + strings.Join(tools, ",") + `]}`)},
		}
		res := mustBuild(t, fsys, 1)
		got := slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
			return d.Code == "accept.tools" && strings.Contains(d.Message, "129") && strings.Contains(d.Message, "128")
		})
		if got != tc.warn {
			t.Errorf("limits %q: accept.tools for 129 of 128 = %v, want %v", tc.limits, got, tc.warn)
		}
	}
}

// TestRepairRootTypeAndRequiredNull: a root without a type that is an
// object by its properties or its allOf (as OpenAPI converters write it),
// and "required": null (which DeepSeek refuses, zed issue 64386), fail
// without repair with a message that says what repair = true would do, and
// build with it, each rewrite a warning.
func TestRepairRootTypeAndRequiredNull(t *testing.T) {
	tools := `[{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {}, "required": null}},
	{"name": "b", "description": "d", "inputSchema": {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}]}},
	{"name": "c", "description": "d", "inputSchema": {"properties": {"x": {"type": "string"}}}}]`
	for _, repair := range []bool{false, true} {
		fsys := fstest.MapFS{
			"toolc.toml": {Data: []byte(fmt.Sprintf("version = 1\n[[sources]]\ninclude = [\"tools.json\"]\nrepair = %t\n[[targets]]\nformat = \"anthropic\"\nout = \"dist/anthropic.json\"\n", repair))},
			"tools.json": {Data: []byte(tools)},
		}
		res := mustBuild(t, fsys, 1)
		got := map[string][]string{}
		for _, d := range res.Diagnostics {
			if d.Severity != diag.Info {
				got[d.Code] = append(got[d.Code], d.Tool+": "+d.Message)
			}
		}
		if !repair {
			if res.Failed != true || len(got["schema.not-object"]) != 2 || len(got["schema.invalid"]) != 1 ||
				!strings.Contains(strings.Join(got["schema.not-object"], "\n"), "repair = true on the source adds it") ||
				!strings.Contains(got["schema.invalid"][0], "repair = true on the source removes it") {
				t.Errorf("without repair: failed %v, %q", res.Failed, got)
			}
			continue
		}
		if res.Failed || len(got["repair.root-type"]) != 2 || len(got["repair.required-null"]) != 1 {
			t.Errorf("with repair: failed %v, %q", res.Failed, got)
		}
	}
}

// TestOutputThroughSymlinkIsAnInput: a source that is a symbolic link to
// an output, or an output that is a link to a source, would be overwritten
// by the build (and every later build would fail): a configuration error
// before anything is written.
func TestOutputThroughSymlinkIsAnInput(t *testing.T) {
	for name, links := range map[string]fstest.MapFS{
		"source links to the output": {"tools/b/link.json": {Data: []byte("../../dist/openai.json"), Mode: fs.ModeSymlink}},
		"output links to a source":   {"dist/mcp.json": {Data: []byte("../tools/a/mcp.json"), Mode: fs.ModeSymlink}},
	} {
		fsys := baseFS(baseManifest)
		if name == "source links to the output" {
			delete(fsys, "tools/b/openai.json")
			fsys["dist/openai.json"] = &fstest.MapFile{Data: []byte(openaiTools)}
		}
		maps.Copy(fsys, links)
		_, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
		var ce *ConfigError
		if !errors.As(err, &ce) || !slices.ContainsFunc(ce.Diagnostics, func(d diag.Diagnostic) bool {
			return strings.Contains(d.Message, "a build would overwrite it") && strings.Contains(d.Message, "symbolic link")
		}) {
			t.Errorf("%s: Build = %v, want a configuration error that names the link", name, err)
		}
	}
}

// TestWriteRemovesStaleTemporaries: a build killed between writing and
// renaming leaves ".mcp.json.toolc-<hex>" beside an output (up to 45 MB, in
// 21 of 50 kills), which nothing removed and git add -A committed. The next
// Write removes them beside each output and the lock, and only them.
func TestWriteRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	stale := []string{"dist/.mcp.json.toolc-0123456789ab", ".toolc.lock.toolc-abcdefabcdef"}
	// The last is another build's, being written now (issue 38: two
	// builds at once removed each other's temporaries).
	kept := []string{"dist/.mcp.json.toolc-notahexname", "dist/.other.json.toolc-0123456789ab", "dist/notes.txt", "dist/.mcp.json.toolc-fedcba987654"}
	anHourAgo := time.Now().Add(-time.Hour)
	for _, f := range append(slices.Clone(stale), kept...) {
		os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
		if f != kept[len(kept)-1] {
			os.Chtimes(filepath.Join(dir, f), anHourAgo, anHourAgo) // a killed build's
		}
	}
	root := openRoot(t, dir)
	if err := Write(context.Background(), root, []Output{NewOutput("dist/mcp.json", []byte("{}\n")), NewOutput("toolc.lock", []byte("# lock\n"))}); err != nil {
		t.Fatal(err)
	}
	for _, f := range stale {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there (%v)", f, err)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
}

// TestFreshSeesLockToolEdits: the fast path of build --check answered "up
// to date" for a hand edit of the lock's own tool entries (names,
// optional lists, renames: what decode and toolcall read), as it hashed
// only the sources and outputs. The lock's head now holds the hash of its
// tool entries, and every such edit takes the slow path.
func TestFreshSeesLockToolEdits(t *testing.T) {
	opts := Options{Version: "v1.2.3"}
	res, err := BuildFile(context.Background(), baseFS(baseManifest), DefaultManifest, opts)
	if err != nil || res.Failed {
		t.Fatalf("Build = %v, %v", res, err)
	}
	built := baseFS(baseManifest)
	for _, o := range res.Outputs {
		built[o.Path] = &fstest.MapFile{Data: o.Bytes()}
	}
	if ok, reason, err := Fresh(context.Background(), built, readText(t, built), opts); !ok || err != nil {
		t.Fatalf("Fresh of the build it checks = %v, %q, %v", ok, reason, err)
	}
	lock := string(built["toolc.lock"].Data)
	first := strings.Index(lock, "\n[[tools]]\n") + 1
	second := first + 1 + strings.Index(lock[first+1:], "\n[[tools]]\n") + 1
	name := regexp.MustCompile(`(?m)^mcp = "([^"]+)"$`)
	for edit, changed := range map[string]string{
		"a name":           name.ReplaceAllString(lock, `mcp = "${1}_edited"`),
		"an optional list": lock[:second] + "\n[tools.optional]\nopenai = [\"/properties/q\"]\n" + lock[second:],
		"a rename":         lock[:second] + "\n[tools.renamed.anthropic]\n\"/properties/a_b\" = \"a[b]\"\n" + lock[second:],
		"a tool removed":   lock[:first] + lock[second:],
	} {
		if changed == lock {
			t.Fatalf("%s: the edit changed nothing", edit)
		}
		fsys := maps.Clone(built)
		fsys["toolc.lock"] = &fstest.MapFile{Data: []byte(changed)}
		if ok, reason, _ := Fresh(context.Background(), fsys, readText(t, fsys), opts); ok || !strings.Contains(reason, "tool entries") {
			t.Errorf("%s: Fresh = %v, %q; want the tool entries named as changed", edit, ok, reason)
		}
	}
}

// TestMessagesLocated: a source whose top value is not a tool, and an
// empty catalog, were reported without a line (issue 27, item 10).
func TestMessagesLocated(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"not a tool": {"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"n.json\"]\nformat = \"mcp\"\n[[targets]]\nformat = \"mcp\"\nout = \"o.json\"\n")}, "n.json": {Data: []byte("\n  42\n")}},
		"empty":      {"toolc.toml": {Data: []byte("version = 1\n[[sources]]\ninclude = [\"e.json\"]\nformat = \"mcp\"\n[[targets]]\nformat = \"mcp\"\nout = \"o.json\"\n")}, "e.json": {Data: []byte(`{"tools": []}`)}},
	} {
		res := mustBuild(t, fsys, 1)
		for _, d := range res.Diagnostics {
			if d.Severity >= diag.Warning && d.File != "" && d.Line == 0 {
				t.Errorf("%s: %s has no line", name, d)
			}
		}
		if len(res.Diagnostics) == 0 {
			t.Errorf("%s: no diagnostic", name)
		}
	}
}

// TestRefThroughLinkOutsideOnce: an OpenAPI $ref to a file that is a
// symbolic link leaving the folder was three findings of one fault (the
// file's own source.read without a line, schema.external-ref, and the
// acceptance check's accept.ref): it is one error, at the $ref, with why.
func TestRefThroughLinkOutsideOnce(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "common.yaml"), []byte("components:\n  schemas:\n    Pet:\n      type: object\n      properties:\n        name: {type: string}\n"), 0o644)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "api"), 0o755)
	if err := os.Symlink(filepath.Join(outside, "common.yaml"), filepath.Join(dir, "api/common.yaml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "api/openapi.yaml"), []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      description: Add a pet.
      requestBody:
        content:
          application/json:
            schema:
              $ref: "common.yaml#/components/schemas/Pet"
      responses:
        "200": {description: ok}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "toolc.toml"), []byte("version = 1\n[[sources]]\ninclude = [\"api/openapi.yaml\"]\n[[targets]]\nformat = \"mcp\"\nout = \"dist/mcp.json\"\n"), 0o644)
	res, err := BuildFile(context.Background(), os.DirFS(dir), DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		if d.Severity >= diag.Warning && strings.Contains(d.Message+d.Code, "ref") {
			got = append(got, fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Code))
		}
	}
	if !slices.Equal(got, []string{"api/openapi.yaml:12 source.read"}) {
		t.Errorf("findings of the $ref = %q, want one source.read at it", got)
	}
}

// TestWriteErrorsNameRelativePaths: a write that fails (a full disk here:
// a tmpfs of 64 KB, where mounting one is allowed) said the temporary
// file's absolute path; it says the output's path, relative to the
// manifest, and the cause.
func TestWriteErrorsNameRelativePaths(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).Run(); err != nil {
		t.Skipf("cannot mount a small file system here: %v", err)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() }) // after the root is closed: cleanups run last first
	root := openRoot(t, dir)
	err := Write(context.Background(), root, []Output{NewOutput("dist/mcp.json", bytes.Repeat([]byte("x"), 1<<20))})
	if err == nil || strings.Contains(err.Error(), dir) || !strings.HasPrefix(err.Error(), "writing dist/mcp.json: ") {
		t.Errorf("Write on a full disk = %v; want the output's relative path and the cause, not %s", err, dir)
	}
}

// readText reads toolc.toml in fsys, failing the test when it cannot.
func readText(t *testing.T, fsys fs.FS) *Manifest {
	t.Helper()
	m, err := ReadManifest(fsys, DefaultManifest)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOptionalAddedUnderStrictAuto: with strict = "auto" an OpenAI tool
// stays strict when an optional property is added (it narrows nothing),
// so the property becomes required there: breaking.optional-added-strict,
// as with strict = true; Anthropic's strict mode keeps it optional.
func TestOptionalAddedUnderStrictAuto(t *testing.T) {
	tool := func(props string) []byte {
		return []byte(`[{"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {` + props + `}, "required": ["q"]}}]`)
	}
	q := `"q": {"type": "string", "description": "Query."}`
	for _, tc := range []struct {
		format, strict string
		want           string
	}{
		{"openai", `"auto"`, "breaking.optional-added-strict"},
		{"openai", "true", "breaking.optional-added-strict"},
		{"openai", "false", "breaking.optional-added"},
		{"anthropic", `"auto"`, "breaking.optional-added"},
	} {
		manifest := []byte("version = 1\n[catalog]\nversion = \"1.1.0\"\n[[sources]]\ninclude = [\"tools.json\"]\n[[targets]]\nformat = \"" + tc.format + "\"\nout = \"o.json\"\nstrict = " + tc.strict + "\n")
		old, err := BuildEarlier(context.Background(), fstest.MapFS{DefaultManifest: {Data: manifest}, "tools.json": {Data: tool(q)}}, DefaultManifest, "old")
		if err != nil {
			t.Fatal(err)
		}
		res, err := BuildFile(context.Background(), fstest.MapFS{DefaultManifest: {Data: manifest}, "tools.json": {Data: tool(q + `, "limit": {"type": "integer", "description": "At most."}`)}}, DefaultManifest, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, d := range res.Compare(old, DefaultManifest).Findings {
			if strings.HasPrefix(d.Code, "breaking.optional") {
				codes = append(codes, d.Code)
			}
		}
		if len(codes) != 1 || codes[0] != tc.want {
			t.Errorf("%s with strict = %s: %v, want %s", tc.format, tc.strict, codes, tc.want)
		}
	}
}
