package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/accept"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/profile"
)

// modes are the targets, with every mode, that a provider's bundles are
// built for: each provider's in the rejection cases, all of them for the
// corpus.
var modes = map[string][]string{
	"openai": {
		"format = \"openai\"\nout = \"dist/openai.json\"",
		"name = \"openai-strict\"\nformat = \"openai\"\nstrict = true\nout = \"dist/openai-strict.json\"",
		"name = \"openai-auto\"\nformat = \"openai\"\nstrict = \"auto\"\nout = \"dist/openai-auto.json\"",
		"format = \"openai-responses\"\nstrict = true\nout = \"dist/responses.json\"",
		"name = \"responses-default\"\nformat = \"openai-responses\"\nout = \"dist/responses-default.json\"",
	},
	"openai-dialects": {
		"name = \"xai\"\nformat = \"openai\"\ndialect = \"xai\"\nout = \"dist/xai.json\"",
		"name = \"groq\"\nformat = \"openai\"\ndialect = \"groq\"\nout = \"dist/groq.json\"",
		"name = \"mistral\"\nformat = \"openai\"\ndialect = \"mistral\"\nout = \"dist/mistral.json\"",
		"name = \"deepseek\"\nformat = \"openai\"\ndialect = \"deepseek\"\nout = \"dist/deepseek.json\"",
		"name = \"moonshot\"\nformat = \"openai\"\ndialect = \"moonshot\"\nout = \"dist/moonshot.json\"",
		"name = \"ollama\"\nformat = \"openai\"\ndialect = \"ollama\"\nout = \"dist/ollama.json\"",
		"name = \"cerebras\"\nformat = \"openai\"\ndialect = \"cerebras\"\nstrict = true\nout = \"dist/cerebras.json\"",
		"name = \"llamacpp\"\nformat = \"openai\"\ndialect = \"llamacpp\"\nout = \"dist/llamacpp.json\"",
		"name = \"fireworks\"\nformat = \"openai\"\ndialect = \"fireworks\"\nout = \"dist/fireworks.json\"",
		"name = \"vllm\"\nformat = \"openai\"\ndialect = \"vllm\"\nout = \"dist/vllm.json\"",
		"name = \"sglang\"\nformat = \"openai\"\ndialect = \"sglang\"\nout = \"dist/sglang.json\"",
		"name = \"lmstudio\"\nformat = \"openai\"\ndialect = \"lmstudio\"\nout = \"dist/lmstudio.json\"",
		"name = \"compatible\"\nformat = \"openai\"\ndialect = \"compatible\"\nout = \"dist/compatible.json\"",
	},
	"anthropic": {
		"format = \"anthropic\"\nout = \"dist/anthropic.json\"",
		"name = \"anthropic-strict\"\nformat = \"anthropic\"\nstrict = true\nout = \"dist/anthropic-strict.json\"",
		"name = \"anthropic-auto\"\nformat = \"anthropic\"\nstrict = \"auto\"\nout = \"dist/anthropic-auto.json\"",
	},
	"gemini": {
		"format = \"gemini\"\nout = \"dist/gemini.json\"",
		"name = \"gemini-openapi\"\nformat = \"gemini\"\nschema = \"openapi\"\nout = \"dist/gemini-openapi.json\"",
		"name = \"vertex\"\nformat = \"gemini\"\nvertex = true\nout = \"dist/vertex.json\"",
		"name = \"vertex-openapi\"\nformat = \"gemini\"\nschema = \"openapi\"\nvertex = true\nout = \"dist/vertex-openapi.json\"",
	},
	"bedrock": {
		"format = \"bedrock\"\nout = \"dist/bedrock.json\"",
		"name = \"bedrock-strict\"\nformat = \"bedrock\"\nstrict = true\nout = \"dist/bedrock-strict.json\"",
	},
	"mcp-client": {
		"format = \"mcp\"\nout = \"dist/mcp.json\"",
		"name = \"mcp-clients\"\nformat = \"mcp\"\nclients = [\"vscode\", \"claude-desktop\", \"cursor\", \"windsurf\"]\nout = \"dist/mcp-clients.json\"",
		"name = \"mcp-agents\"\nformat = \"mcp\"\nclients = [\"copilot-cli\", \"codex\", \"gemini-cli\", \"augment\"]\nout = \"dist/mcp-agents.json\"",
	},
}

func targetTables(providers ...string) string {
	var b strings.Builder
	for _, p := range providers {
		for _, m := range modes[p] {
			b.WriteString("\n[[targets]]\n" + m + "\n")
		}
	}
	return b.String()
}

// rejection is one line of corpus/rejections/cases.jsonl.
type rejection struct {
	ID       string          `json:"id"`
	Provider string          `json:"provider"`
	What     string          `json:"what"`
	Error    []string        `json:"error"`
	Schema   json.RawMessage `json:"schema"`
}

// TestRejectionCases builds each schema that a provider refused in a public
// thread as a one-tool catalog for that provider, in every mode: the bundle
// must pass the acceptance check (no accept.* error), or toolc must refuse
// it with a located error. It logs what became of each case.
func TestRejectionCases(t *testing.T) {
	var cases []rejection
	for _, l := range corpus.Lines(t, "rejections/cases.jsonl") {
		var c rejection
		if err := json.Unmarshal(l, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("no rejection cases")
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			tool := fmt.Sprintf(`[{"name": "case_tool", "description": %q, "inputSchema": %s}]`, c.What, c.Schema)
			file, format := "tools.json", "mcp"
			if strings.Contains(string(c.Schema), `"openapi"`) {
				file, format, tool = "api.json", "openapi", string(c.Schema)
			}
			providers := []string{c.Provider}
			if c.Provider == "mcp-client" {
				providers = append(providers, "anthropic", "gemini") // clients that do not resolve $ref
			}
			manifest := fmt.Sprintf("version = 1\n\n[[sources]]\ninclude = [%q]\nformat = %q\n%s", file, format, targetTables(providers...))
			res, err := BuildFile(context.Background(), fstest.MapFS{"toolc.toml": {Data: []byte(manifest)}, file: {Data: []byte(tool)}}, DefaultManifest, Options{})
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			var notes []string
			for _, d := range res.Diagnostics {
				if strings.HasPrefix(d.Code, "accept.") && d.Severity == diag.Error {
					t.Errorf("%s: the %s bundle would be refused: %s", c.ID, d.Target, d)
				}
				if d.Severity == diag.Error && (d.File == "" || d.Line == 0) {
					t.Errorf("%s: an error without a location: %s", c.ID, d)
				}
				if d.Severity >= diag.Warning {
					notes = append(notes, d.Code)
				}
			}
			slices.Sort(notes)
			verdict := "accepted"
			if res.Failed {
				verdict = "refused by toolc"
			}
			t.Logf("%s (%s, %s): %s; %s", c.ID, c.Provider, c.What, verdict, strings.Join(slices.Compact(notes), " "))
		})
	}
}

var legal = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// TestCorpusAcceptedByEveryTarget builds every MCP tool of the corpus's
// current servers, every OpenAPI operation and every BFCL function (with
// repair) to every target and mode, and checks that no bundle breaks its
// provider's acceptance table. It logs, for the strict = "auto" targets,
// how many tools stayed strict and why the others fell back.
func TestCorpusAcceptedByEveryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole corpus to every target")
	}
	t.Parallel() // beside the other corpus tests, which wait on tsc, Node and Python
	fsys, sources := wholeCorpus(t)
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") + targetTables(slices.Sorted(maps.Keys(modes))...))}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	failedFiles := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		if _, fault := corpusFaults[d.File]; !fault || strings.HasPrefix(d.Code, "accept.") {
			t.Errorf("a build error that is not the input's fault: %s", d)
		}
		failedFiles[d.File] = true
	}
	for f, why := range corpusFaults {
		if !failedFiles[f] {
			t.Errorf("%s is listed as the input's fault (%s), and builds without an error: take it off the list", f, why)
		}
	}
	if res.Tools != corpusTools {
		t.Errorf("the corpus built %d tools, want %d (README quotes it)", res.Tools, corpusTools)
	}
	// The figures: per strict = "auto" target, the tools left non-strict
	// and why (the narrowing that strict mode would have made).
	reason := regexp.MustCompile(`as strict mode would narrow it \(([a-z.-]+) `)
	for _, target := range []string{"openai-auto", "anthropic-auto"} {
		why := map[string]int{}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Code == "lower.strict-fallback" && d.Target == target {
				n++
				if m := reason.FindStringSubmatch(d.Message); m != nil {
					why[m[1]]++
				}
			}
		}
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(why)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, why[k]))
		}
		t.Logf("%s: %d of %d tools strict, %d left non-strict (%s)", target, res.Tools-n, res.Tools, n, strings.Join(parts, ", "))
		// README quotes the figures: they must be what the build says.
		quoted := fmt.Sprintf("On the corpus (%s tools: GitHub's MCP server, the reference servers, the OpenAPI descriptions, BFCL), `\"auto\"`\nkeeps %s tools strict for OpenAI and for Anthropic and leaves %s\nnon-strict: %d for a free-form object, %d for an untyped value",
			thousands(res.Tools), thousands(res.Tools-n), thousands(n), why["loss.additional-properties"], why["loss.untyped"])
		if !strings.Contains(docsText(t), strings.Join(strings.Fields(quoted), " ")) {
			t.Errorf("README and docs/ do not say what %s gives; want it to say:\n%s", target, quoted)
		}
	}
	// The figures of the rules of rounds 3 and 4 (PROVIDERS.md, late 2026
	// and November 2026): per code, the tools it changed in each target.
	round3 := []string{"lower.any-of-distributed", "lower.any-of-flattened", "lower.type-inferred", "lower.ref-inlined", "loss.untyped", "loss.required", "lower.items-added", "accept.client", "limit.max-items-sum", "lower.legacy-form", "lower.pattern-portable", "lower.properties-added",
		"lower.ref-hoisted", "lower.all-of-merged", "loss.any-of", "loss.all-of", "loss.enum", "loss.not", "loss.core", "loss.output-schema", "name.rewritten",
		"lower.bool-schema", "loss.pattern", "loss.prefix-items", "loss.ref", "lower.type-as-nullable", "lower.never", "loss.format", "loss.type-union"}
	changed := map[string]map[string]map[string]bool{} // code → target → tools
	for _, d := range res.Diagnostics {
		if slices.Contains(round3, d.Code) && d.Target != "" {
			if changed[d.Code] == nil {
				changed[d.Code] = map[string]map[string]bool{}
			}
			if changed[d.Code][d.Target] == nil {
				changed[d.Code][d.Target] = map[string]bool{}
			}
			changed[d.Code][d.Target][d.Tool] = true
		}
	}
	for _, code := range round3 {
		var per []string
		for _, target := range slices.Sorted(maps.Keys(changed[code])) {
			per = append(per, fmt.Sprintf("%s %d", target, len(changed[code][target])))
		}
		t.Logf("%s: tools per target: %s", code, strings.Join(per, ", "))
	}
	waitSDK := checkSDKTypes(t, res)
	compatibleIsIntersection(t, fsys, sources)
	waitSDK()
	counts := map[string]int{}
	for _, d := range res.Diagnostics {
		if d.Severity >= diag.Warning {
			counts[d.Code]++
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	t.Logf("%d tools from %d files (%d files with errors) to %d targets; warnings and errors: %s", res.Tools, res.Files, len(failedFiles), res.Targets, strings.Join(parts, " "))
}

// wholeCorpus is the corpus as one catalog: its files, and a [[sources]]
// entry per part, each with a namespace of its own.
func wholeCorpus(t *testing.T) (fstest.MapFS, []string) {
	dir := corpus.Dir(t)
	fsys := fstest.MapFS{}
	var sources []string
	add := func(namespace, format string, repair bool, files map[string][]byte) {
		for name, data := range files {
			fsys[namespace+"/"+name] = &fstest.MapFile{Data: data}
		}
		sources = append(sources, fmt.Sprintf("\n[[sources]]\ninclude = [%q]\nnamespace = %q\nformat = %q\nrepair = %v\n",
			namespace+"/**", strings.ReplaceAll(namespace, "-", "_"), format, repair))
	}
	read := func(globs ...string) map[string][]byte {
		files := map[string][]byte{}
		for _, g := range globs {
			ms, _ := filepath.Glob(filepath.Join(dir, g))
			for _, m := range ms {
				data, err := os.ReadFile(m)
				if err != nil {
					t.Fatal(err)
				}
				files[path.Base(m)] = data
			}
		}
		return files
	}
	add("github", "mcp", false, read("mcp/github-mcp-server/tools_list.current.json"))
	add("reference", "mcp", true, read("mcp/reference-servers-py/*.json"))
	for _, api := range []string{"swagger-petstore/openapi.yaml", "redocly-museum/openapi.yaml", "notion/notion-openapi.json", "stripe/spec3.2023-09-12.json", "openai/openapi.json"} {
		add(strings.SplitN(api, "/", 2)[0], "openapi", false, read("openapi/"+api))
	}
	examples, _ := filepath.Glob(filepath.Join(dir, "openapi/oai-examples/examples/v3.*/*.json"))
	for _, e := range examples { // one source each: several describe the same petstore
		ns := "oai-" + strings.NewReplacer(".", "-", "/", "-").Replace(strings.TrimSuffix(filepath.Base(e), ".json"))
		add(ns, "openapi", false, read(strings.TrimPrefix(e, dir+string(filepath.Separator))))
	}
	bfcl := map[string][]byte{}
	seen := map[string]bool{}
	for i, l := range corpus.Lines(t, "openai/bfcl/all_functions.distinct.jsonl") {
		var line struct {
			Function map[string]any `json:"function"`
		}
		if json.Unmarshal(l, &line) != nil {
			continue
		}
		name, _ := line.Function["name"].(string)
		key := legal.ReplaceAllString(name, "_")
		if seen[key] {
			continue // one function per emitted name: BFCL has both solve.x and solve_x
		}
		seen[key] = true
		data, _ := json.Marshal([]any{line.Function})
		bfcl[fmt.Sprintf("%04d.json", i)] = data
	}
	add("bfcl", "openai", true, bfcl)
	return fsys, sources
}

// compatibleIsIntersection checks that what dialect = "compatible" emits
// for the corpus is accepted by every OpenAI dialect's acceptance table:
// compatible is for a server nobody has described, so it must pass them all;
// and that an MCP bundle for every client is accepted by each client's
// table. The corpus files whose build fails are left out, so that it writes.
func compatibleIsIntersection(t *testing.T, fsys fstest.MapFS, sources []string) {
	t.Helper()
	sources = withoutFaults(sources)
	if os.Getenv("TOOLC_TYPES_FULL") != "1" {
		// Every dialect and every client over the whole corpus is 26 s of
		// CPU, most of go test ./...'s minute: here the MCP servers and the
		// OpenAPI descriptions but Stripe's and OpenAI's, and BFCL with
		// TOOLC_TYPES_FULL=1, which .ci/run's own step sets.
		sources = slices.DeleteFunc(sources, func(s string) bool {
			return strings.Contains(s, `include = ["bfcl/**"]`) || strings.Contains(s, `include = ["stripe/**"]`) || strings.Contains(s, `include = ["openai/**"]`)
		})
	}
	fsys = maps.Clone(fsys)
	// Besides the corpus, one tool with a shape each dialect refuses.
	fsys["shapes/tools.json"] = &fstest.MapFile{Data: []byte(`{"tools": [{"name": "9shapes", "description": "Every shape a dialect refuses; Moonshot: a name that starts with a digit.", "inputSchema": {
		"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
		"mode": {"type": ["string", "null"], "enum": ["a", "b", null], "description": "xAI: null in enum."},
		"label": {"type": "string", "pattern": "^[^\\0]+$", "description": "DeepSeek: \\0."},
		"code": {"type": "string", "pattern": "\\d{3}", "description": "llama.cpp: unanchored, \\d."},
		"id": {"type": "string", "anyOf": [{"maxLength": 8}, {"pattern": "^x"}], "description": "Moonshot: type beside anyOf."},
		"either": {"anyOf": [{"type": "string"}, {"enum": [1, 2]}, {"$ref": "#/$defs/item"}], "description": "DeepSeek V4: untyped branches."},
		"anything": {"description": "Moonshot: no type."},
		"item": {"$ref": "#/$defs/item", "description": "Moonshot: $ref with a sibling."},
		"list": {"type": "array", "items": false, "description": "Moonshot: items false."},
		"never": {"not": {}, "description": "Fireworks: not of {}; Moonshot: no type."},
		"site": {"type": "string", "format": "uri", "description": "vLLM: a format llguidance does not know."},
		"maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "LM Studio: a property without one type."},
		"shut": {"type": "object", "properties": {"gone": false, "kept": {"type": "string"}}, "additionalProperties": false, "description": "Ollama, llama.cpp: false."},
		"value": true},
		"required": ["mode", "ghost"],
		"$defs": {"item": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}]}`)}
	sources = append(sources, "\n[[sources]]\ninclude = [\"shapes/**\"]\nformat = \"mcp\"\n")
	clients, _ := json.Marshal(profile.Clients())
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte("version = 1\n" + strings.Join(sources, "") +
		"\n[[targets]]\nname = \"compatible\"\nformat = \"openai\"\ndialect = \"compatible\"\nout = \"dist/compatible.json\"\n" +
		"\n[[targets]]\nname = \"every-client\"\nformat = \"mcp\"\nclients = " + string(clients) + "\nout = \"dist/every-client.json\"\n")}
	res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Outputs, func(o Output) bool { return o.Target == "compatible" })
	j := slices.IndexFunc(res.Outputs, func(o Output) bool { return o.Target == "every-client" })
	if i < 0 || j < 0 {
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error {
				t.Error(d)
			}
		}
		t.Fatal("the compatible build failed")
	}
	refused := func(what string, tab *accept.Table, bundle *canonical.Value) {
		errs := 0
		for _, f := range accept.Check(tab, bundle, nil, what, accept.Options{}) {
			if f.Severity == diag.Error {
				if errs++; errs <= 3 {
					t.Errorf("%s's table refuses what %s emits: %s", tab.Provider, what, f)
				}
			}
		}
	}
	// An MCP bundle for every client is what each client's table takes.
	mcp, _ := accept.TableNamed("mcp")
	for _, c := range profile.Clients() {
		refused("every-client", mcp.ForClients([]string{c}), bundleOf(res, res.Outputs[j].Target))
	}
	for _, d := range profile.Dialects("openai") {
		name := cmp.Or(d.Acceptance, "openai")
		tab, ok := accept.TableNamed(name)
		if !ok {
			t.Fatalf("dialect %s names no acceptance table %q", d.Name, name)
		}
		refused("compatible", tab, bundleOf(res, res.Outputs[i].Target))
	}
}

// corpusTools is how many tools the corpus builds to: README quotes it.
const corpusTools = 3004

// withoutFaults is a copy of wholeCorpus's sources without the parts that
// hold a file of corpusFaults: a catalog of the rest builds and writes.
func withoutFaults(sources []string) []string {
	return slices.DeleteFunc(slices.Clone(sources), func(s string) bool {
		return slices.ContainsFunc(slices.Collect(maps.Keys(corpusFaults)), func(f string) bool {
			return strings.Contains(s, fmt.Sprintf("include = [%q]", strings.SplitN(f, "/", 2)[0]+"/**"))
		})
	})
}

// corpusFaults are the corpus files whose build errors are the input's
// fault, each with the reason: any other error fails the test.
var corpusFaults = map[string]string{
	// An OpenAPI 3.1 document, so its schemas are 2020-12: it writes the
	// draft-04 exclusiveMinimum: true, the 2019-09 $recursiveAnchor: true
	// (2020-12 keeps the keyword for an anchor string), and required with a
	// name twice.
	"openai/openapi.json": "draft-04 exclusiveMinimum, a 2019-09 $recursiveAnchor and duplicate required names in a 2020-12 document",
}

// thousands writes n with a comma between thousands, as README does.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// docsText is the repository's README and docs/, every run of white
// space one space, for a figure to be found whatever the line breaks.
func docsText(t *testing.T) string {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	var b strings.Builder
	for _, f := range append([]string{"../../README.md"}, files...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// bundleOf is the bundle the build made for target.
func bundleOf(res *Result, target string) *canonical.Value {
	for _, b := range res.Bundles {
		if b.Target == target {
			return b.Value
		}
	}
	return nil
}
