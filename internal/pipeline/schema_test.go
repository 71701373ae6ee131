package pipeline_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/schematest"
	"github.com/toolc-dev/toolc/internal/targets"
)

var update = flag.Bool("update", false, "rewrite toolc.schema.json")

// schemaFile is the JSON Schema of toolc.toml, for editors (Taplo, Even
// Better TOML, tombi) at the repository's root.
const schemaFile = "../../toolc.schema.json"

// obj is a JSON object that keeps its keys in the order written.
type obj []member

type member struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.k)
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func strs(desc string) obj {
	return obj{{"type", "array"}, {"items", obj{{"type", "string"}}}, {"description", desc}}
}

func dialectNames() []string {
	var names []string
	for _, d := range profile.Dialects("openai") {
		names = append(names, d.Name)
	}
	return names
}

// manifestSchema makes the schema from the tables it must agree with: the
// registry's formats and their options, lower's features and actions, the
// profiles' limits, and diag's codes and categories.
func manifestSchema() obj {
	var sources, targetNames []string
	var conditions []any
	limits := map[string]bool{}
	for _, f := range formats.Default().List() {
		sources = append(sources, f.Name)
	}
	for _, a := range targets.Default().List() {
		targetNames = append(targetNames, a.Name)
		var not obj
		for _, o := range []string{"strict", "dialect", "schema", "names", "describe", "profile", "limits", "clients", "protocol", "server", "mcpb", "static_responses", "flavor", "skills", "sections", "links", "package", "types", "runtime"} {
			if !slices.Contains(a.Profile.Options, o) {
				not = append(not, member{o, false})
			}
		}
		if len(not) > 0 {
			conditions = append(conditions, obj{
				{"if", obj{{"properties", obj{{"format", obj{{"const", a.Name}}}}}, {"required", []string{"format"}}}},
				{"then", obj{{"properties", not}}},
			})
		}
	}
	for _, l := range lower.LimitChecks() { // every budget, those that package accept checks too
		limits[l.Name] = true
	}
	var features obj
	for _, f := range lower.Features() {
		var actions []string
		for _, a := range f.Actions {
			actions = append(actions, string(a))
		}
		features = append(features, member{f.Name, obj{
			{"description", f.Doc},
			{"anyOf", []any{
				obj{{"enum", actions}},
				obj{{"type", "array"}, {"items", obj{{"type", []string{"string", "number", "boolean"}}}}, {"description", "only these values are kept"}},
			}},
		}})
	}
	var limitProps obj
	for _, l := range slices.Sorted(maps.Keys(limits)) {
		limitProps = append(limitProps, member{l, obj{{"type", "integer"}, {"minimum", 0}}})
	}
	codes := diag.Categories()
	for _, c := range diag.Codes() {
		codes = append(codes, c.Code)
	}
	var targetCodes []string
	for _, c := range codes {
		if diag.PerTarget(c) {
			targetCodes = append(targetCodes, c)
		}
	}
	entries := func(desc string) obj { return obj{{"$ref", "#/$defs/entries"}, {"description", desc}} }
	targetEntries := func(desc string) obj { return obj{{"$ref", "#/$defs/target-entries"}, {"description", desc}} }
	until := obj{{"anyOf", []any{obj{{"type", "string"}, {"pattern", manifest.SemverPattern}}, obj{{"type", "string"}, {"format", "date"}}}}, {"description", "a version or a date (YYYY-MM-DD): after it the entry is an error"}}
	policyOf := func(extra ...member) obj {
		return obj{
			{"type", "object"},
			{"description", "What to do with codes or whole categories; errors always fail. toolc rules lists them."},
			{"additionalProperties", false},
			{"properties", append(obj{
				{"deny", entries("fail the build on these")},
				{"warn", entries("report these as warnings")},
				{"ignore", entries("do not report these")},
			}, extra...)},
		}
	}
	policy := policyOf(member{"deprecation", obj{
		{"type", "object"},
		{"additionalProperties", false},
		{"description", "toolc breaking: removing a deprecated tool or property is minor only after the releases just before carried it deprecated, this many (a version counted once, whatever its tags) and days"},
		{"properties", obj{
			{"releases", obj{{"type", "integer"}, {"minimum", 0}}},
			{"days", obj{{"type", "integer"}, {"minimum", 0}}},
			{"prereleases", obj{{"type", "boolean"}, {"description", "count pre-release tags (1.2.0-rc.1) as releases"}}},
		}},
	}}, member{"acknowledge", obj{
		{"type", "object"},
		{"additionalProperties", false},
		{"description", "how far an acknowledgment's until may lie: days after the build's date, or major versions after the catalog's"},
		{"properties", obj{
			{"days", obj{{"type", "integer"}, {"minimum", 0}, {"default", manifest.DefaultHorizonDays}}},
			{"majors", obj{{"type", "integer"}, {"minimum", 0}, {"default", manifest.DefaultHorizonMajors}}},
		}},
	}})
	path := obj{{"type", "string"}, {"pattern", `^[^/\\]`}, {"not", obj{{"pattern", `(^|/)\.\.(/|$)`}}}}
	return obj{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", "https://raw.githubusercontent.com/toolc-dev/toolc/main/toolc.schema.json"},
		{"title", "toolc.toml"},
		{"description", "The manifest of toolc, the compiler of AI tool definitions. Generated by go test ./compiler -update from toolc's own tables."},
		{"type", "object"},
		{"required", []string{"version", "sources", "targets"}},
		{"additionalProperties", false},
		{"properties", obj{
			{"version", obj{{"const", 1}, {"description", "the manifest's version"}}},
			{"catalog", obj{
				{"type", "object"},
				{"additionalProperties", false},
				{"properties", obj{
					{"name", obj{{"type", "string"}, {"description", "the catalog's name, written to the lock and the canonical bundle"}}},
					{"version", obj{{"type", "string"}, {"pattern", manifest.SemverPattern}, {"description", "the catalog's semantic version"}}},
					{"description", obj{{"type", "string"}, {"description", "what the catalog's server does, for the release targets (server-json takes at most 100 characters)"}}},
				}},
			}},
			{"sources", obj{
				{"type", "array"},
				{"minItems", 1},
				{"items", obj{
					{"type", "object"},
					{"required", []string{"include"}},
					{"additionalProperties", false},
					{"properties", obj{
						{"include", append(obj{{"minItems", 1}}, strs("globs relative to the manifest; ** matches any number of folders")...)},
						{"exclude", strs("globs removed from include's matches")},
						{"format", obj{{"enum", append([]string{"auto"}, sources...)}, {"default", "auto"}, {"description", "the files' format; auto detects it per file"}}},
						{"namespace", obj{{"type", "string"}, {"pattern", manifest.NamespacePattern}, {"description", "every tool's ID becomes namespace:name"}}},
						{"tags", strs("added to every tool's tags")},
						{"repair", obj{{"type", "boolean"}, {"description", "rewrite non-standard schemas (dict, nullable, optional lists …) as JSON Schema"}}},
						{"optional", obj{{"type", "boolean"}, {"description", "let the include globs match nothing (a folder tools will fill); otherwise that fails the build"}}},
						{"select", selectSchema("keep part of this source's tools, chosen before validation: tools matching every list set, and no exclude glob")},
						{"backend", obj{
							{"type", "object"},
							{"additionalProperties", false},
							{"description", "where the source's tools run, for a format that does not say (OpenAPI operations are provider, a capture's tools mcp)"},
							{"properties", obj{{"kind", obj{{"enum", []string{canonical.BackendLocal, canonical.BackendProvider}}}}}},
						}},
						{"security", obj{
							{"type", "object"},
							{"additionalProperties", false},
							{"description", "the default security metadata of the source's tools; what a tool says wins"},
							{"properties", obj{
								{"data_classification", obj{{"enum", canonical.Classifications()}}},
								{"pii_handling", obj{{"enum", canonical.PIIHandlings()}}},
							}},
						}},
						{"stability", obj{{"enum", canonical.Stabilities()}, {"description", "the default stability of the source's tools; what a tool says wins"}}},
						{"capture", obj{
							{"type", "object"},
							{"additionalProperties", false},
							{"description", "a live MCP server that toolc capture pins in this source's one file and toolc verify compares with it: a command (stdio) or a url (streamable HTTP)"},
							{"properties", obj{
								{"command", obj{{"type", "array"}, {"items", obj{{"type", "string"}}}, {"minItems", 1}, {"description", "the program and its arguments, run without a shell in the manifest's folder"}}},
								{"env", obj{{"type", "object"}, {"additionalProperties", obj{{"type", "string"}}}, {"description", "added to the command's environment; ${env:NAME} is read from toolc's"}}},
								{"url", obj{{"type", "string"}, {"pattern", "^https?://"}, {"description", "a streamable HTTP endpoint"}}},
								{"headers", obj{{"type", "object"}, {"additionalProperties", obj{{"type", "string"}}}, {"description", "sent with every request; ${env:NAME} is read from the environment"}}},
								{"timeout", obj{{"type", "string"}, {"description", "a Go duration (30s by default)"}}},
							}},
						}},
						{"policy", obj{{"$ref", "#/$defs/policy"}, {"description", "decides first the diagnostics located in this source's files (vendored files)"}}},
						{"openapi", obj{{"$ref", "#/$defs/openapi"}}},
					}},
				}},
			}},
			{"targets", obj{
				{"type", "array"},
				{"minItems", 1},
				{"items", obj{
					{"type", "object"},
					{"required", []string{"format", "out"}},
					{"additionalProperties", false},
					{"properties", obj{
						{"name", obj{{"type", "string"}, {"pattern", manifest.TargetNamePattern}, {"description", "unique among targets; the format by default"}}},
						{"format", obj{{"enum", targetNames}, {"description", "the provider format to write"}}},
						{"out", append(slices.Clone(path), member{"description", "the bundle's path, relative to the manifest"})},
						{"strict", obj{{"anyOf", []any{obj{{"type", "boolean"}}, obj{{"const", "auto"}}}}, {"description", "strict mode: closed objects, typed schemas, OpenAI's optional properties made nullable; \"auto\": per tool, strict only where that narrows nothing"}}},
						{"policy", obj{{"$ref", "#/$defs/target-policy"}}},
						{"dialect", obj{{"enum", dialectNames()}, {"description", "OpenAI: the server that speaks the format; only openai takes the strict flag"}}},
						{"clients", obj{{"type", "array"}, {"items", obj{{"enum", profile.Clients()}}}, {"uniqueItems", true}, {"description", "MCP: the clients the bundle is made for, whose rules it meets; the others' refusals are warnings"}}},
						{"protocol", obj{{"enum", profile.Protocols()}, {"description", "MCP: the protocol revision the bundle is for (default the newest); before 2026-07-28 an output schema must be an object schema"}}},
						{"server", obj{{"type", "object"}, {"description", "server-json, a2a-card: what the catalog does not know: name, website, repository = { url, source }, [[packages]] (registry_type, identifier, version, transport, file_sha256), [[remotes]] (type, url); url and provider = { organization, url } for an agent card"}}},
						{"mcpb", obj{{"type", "object"}, {"description", "mcpb: the manifest's fields the catalog does not know, written as they are: author = { name }, server = { type, entry_point, mcp_config }, display_name, license, keywords, user_config …"}}},
						{"static_responses", obj{{"type", "boolean"}, {"description", "mcpb: add the MCP tools/list answer under _meta[\"com.microsoft.windows\"].static_responses"}}},
						{"flavor", obj{{"enum", []string{"spec", "smithery"}}, {"description", "mcpb: spec (tools as name and description, what mcpb validate takes) or smithery (with inputSchema, which Smithery's publish needs)"}}},
						{"skills", obj{{"enum", []string{"tools", "tags"}}, {"description", "a2a-card: a skill per tool, or per tag"}}},
						{"sections", obj{{"enum", []string{"namespaces", "tags"}}, {"description", "llms-txt: a section per namespace, or per tag"}}},
						{"package", obj{{"type", "string"}, {"pattern", "^[a-z][a-z0-9_]*$"}, {"description", "go: the generated file's package (tools by default)"}}},
						{"runtime", obj{{"type", "boolean"}, {"description", "go: add Decode, over toolcall, which returns a call's input struct"}}},
						{"types", obj{{"type", "object"}, {"additionalProperties", obj{{"type", "string"}, {"pattern", "^[A-Z][A-Za-z0-9]*$"}}}, {"description", "typescript, go, python: the type name of a tool, by its ID, where two IDs make one name"}}},
						{"links", obj{{"type", "string"}, {"pattern", `\{(id|namespace|name)\}`}, {"description", "a2a-card, llms-txt: the URL of a tool's page, with {id}, {namespace} and {name}"}}},
						{"schema", obj{{"enum", emit.GeminiSchemas()}, {"description", "Gemini: parametersJsonSchema (json-schema) or the OpenAPI 3.0 subset of parameters (openapi)"}}},
						{"names", obj{{"type", "string"}, {"pattern", `\{name\}`}, {"description", "the template of emitted names, {namespace}__{name} by default"}}},
						{"describe", obj{{"type", "boolean"}, {"description", "keep dropped constraints in the descriptions"}}},
						{"profile", obj{{"type", "object"}, {"additionalProperties", false}, {"properties", features}, {"description", "override rows of the target's profile: feature = action, or a list of the values kept"}}},
						{"limits", obj{{"type", "object"}, {"additionalProperties", false}, {"properties", limitProps}, {"description", "override the target's budgets"}}},
						{"select", selectSchema("build this target from part of the catalog: tools matching every list set, and no exclude glob")},
					}},
					{"allOf", conditions},
				}},
			}},
			{"policy", policy},
			{"acknowledge", obj{
				{"type", "array"},
				{"description", "toolc breaking: findings a release means, each let through until a version or a date"},
				{"items", obj{
					{"type", "object"},
					{"required", []string{"finding", "reason", "until"}},
					{"additionalProperties", false},
					{"properties", obj{
						{"finding", obj{{"type", "string"}, {"pattern", `^(breaking\.[a-z-]+ tool=\S+( at=\S+)?|[0-9a-f]{32})$`}, {"description", "the line toolc breaking prints, or the finding's fingerprint"}}},
						{"reason", obj{{"type", "string"}, {"minLength", 1}, {"description", "why the release breaks this on purpose"}}},
						{"until", until},
					}},
				}},
			}},
			{"removed", obj{
				{"type", "array"},
				{"description", "tombstones: tools removed, which the lock records so that a call to one names the release and the replacement"},
				{"items", obj{
					{"type", "object"},
					{"required", []string{"id", "in"}},
					{"additionalProperties", false},
					{"properties", obj{
						{"id", obj{{"type", "string"}, {"description", "the removed tool's ID"}}},
						{"in", obj{{"type", "string"}, {"pattern", manifest.SemverPattern}, {"description", "the version that removed it"}}},
						{"use", obj{{"type", "string"}, {"description", "the tool to call instead"}}},
					}},
				}},
			}},
		}},
		{"$defs", obj{
			{"policy", policyOf()},
			{"target-policy", obj{
				{"type", "object"},
				{"description", "What to do with this target's codes (accept, limit, loss, lower, name), before [policy]; errors always fail."},
				{"additionalProperties", false},
				{"properties", obj{
					{"deny", targetEntries("fail the build on these")},
					{"warn", targetEntries("report these as warnings")},
					{"ignore", targetEntries("do not report these")},
				}},
			}},
			{"openapi", obj{
				{"type", "object"},
				{"additionalProperties", false},
				{"description", "format = \"openapi\" only: which operations become tools (exclude, then include, then x-mcp), and overrides of each"},
				{"properties", obj{
					{"include", obj{
						{"anyOf", []any{obj{{"$ref", "#/$defs/operation-selector"}}, obj{{"type", "array"}, {"items", obj{{"$ref", "#/$defs/operation-selector"}}}}}},
						{"description", "operations matching every list set, of one table or of any in a list of them"},
					}},
					{"exclude", obj{{"$ref", "#/$defs/operation-selector"}, {"description", "operations matching any entry are left out"}}},
					{"operations", obj{
						{"type", "object"},
						{"description", "overrides, keyed by operationId or \"METHOD /path\""},
						{"additionalProperties", obj{
							{"type", "object"},
							{"additionalProperties", false},
							{"properties", obj{
								{"name", obj{{"type", "string"}, {"description", "the tool's name"}}},
								{"title", obj{{"type", "string"}, {"description", "the tool's display name"}}},
								{"description", obj{{"type", "string"}, {"description", "the tool's description"}}},
								{"annotations", obj{
									{"type", "object"},
									{"additionalProperties", false},
									{"description", "MCP hints, over the method's defaults and the description's"},
									{"properties", obj{
										{"readOnlyHint", obj{{"type", "boolean"}}},
										{"destructiveHint", obj{{"type", "boolean"}}},
										{"idempotentHint", obj{{"type", "boolean"}}},
										{"openWorldHint", obj{{"type", "boolean"}}},
									}},
								}},
								{"fixed", obj{{"type", "object"}, {"description", "input properties hidden from the model, with the value the caller sends"}}},
								{"rename", obj{{"type", "object"}, {"additionalProperties", obj{{"type", "string"}, {"minLength", 1}}}, {"description", "input properties renamed: old name = new name"}}},
							}},
						}},
					}},
				}},
			}},
			{"operation-selector", obj{
				{"type", "object"},
				{"additionalProperties", false},
				{"properties", obj{
					{"tags", strs("operation tags")},
					{"paths", strs("globs over path templates, such as /v1/customers/**")},
					{"methods", obj{{"type", "array"}, {"items", obj{{"enum", openapi.HTTPMethods()}}}, {"description", "HTTP methods, in lower case"}}},
					{"operations", strs("operationId globs, or \"METHOD /path\"")},
				}},
			}},
			{"entries", obj{{"type", "array"}, {"items", obj{{"enum", codes}}}, {"uniqueItems", true}}},
			{"target-entries", obj{{"type", "array"}, {"items", obj{{"enum", targetCodes}}}, {"uniqueItems", true}}},
		}},
	}
}

// TestManifestSchemaIsUpToDate keeps toolc.schema.json what the tables say;
// go test ./compiler -update rewrites it.
func TestManifestSchemaIsUpToDate(t *testing.T) {
	want, err := json.MarshalIndent(manifestSchema(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	got, _ := os.ReadFile(schemaFile)
	if string(got) == string(want) {
		return
	}
	if *update {
		if err := os.WriteFile(schemaFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date; run go test ./internal/pipeline -update", schemaFile)
}

// TestManifestSchemaKeys checks that the schema names exactly the keys the
// manifest decoder reads, table by table.
func TestManifestSchemaKeys(t *testing.T) {
	s := manifestSchema()
	props := func(o obj, path ...string) []string {
		for _, p := range path {
			o = get(t, o, p)
		}
		var keys []string
		for _, m := range o {
			keys = append(keys, m.k)
		}
		slices.Sort(keys)
		return keys
	}
	for _, c := range []struct {
		typ  any
		path []string
	}{
		{manifest.Catalog{}, []string{"properties", "catalog", "properties"}},
		{manifest.Source{}, []string{"properties", "sources", "items", "properties"}},
		{manifest.Target{}, []string{"properties", "targets", "items", "properties"}},
		{diag.Policy{}, []string{"$defs", "policy", "properties"}},
		{openapi.Options{}, []string{"$defs", "openapi", "properties"}},
		{openapi.Selector{}, []string{"$defs", "operation-selector", "properties"}},
		{openapi.Override{}, []string{"$defs", "openapi", "properties", "operations", "additionalProperties", "properties"}},
		{openapi.Hints{}, []string{"$defs", "openapi", "properties", "operations", "additionalProperties", "properties", "annotations", "properties"}},
		{manifest.Select{}, []string{"properties", "targets", "items", "properties", "select", "properties"}},
		{manifest.Capture{}, []string{"properties", "sources", "items", "properties", "capture", "properties"}},
		{manifest.Deprecation{}, []string{"properties", "policy", "properties", "deprecation", "properties"}},
		{manifest.Horizon{}, []string{"properties", "policy", "properties", "acknowledge", "properties"}},
	} {
		if got, want := props(s, c.path...), tomlKeys(c.typ); !slices.Equal(got, want) {
			t.Errorf("schema of %T has %v, the decoder reads %v", c.typ, got, want)
		}
	}
	if got, want := props(s, "properties"), []string{"acknowledge", "catalog", "policy", "removed", "sources", "targets", "version"}; !slices.Equal(got, want) {
		t.Errorf("top-level keys %v, want %v", got, want)
	}
}

func get(t *testing.T, o obj, key string) obj {
	for _, m := range o {
		if m.k == key {
			return m.v.(obj)
		}
	}
	t.Fatalf("no %q in the schema", key)
	return nil
}

func tomlKeys(v any) []string {
	var keys []string
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ","); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	slices.Sort(keys)
	return keys
}

// TestManifestSchemaValidates checks the schema against real manifests: the
// repository's own and those of the explain examples are accepted; those
// whose example is a manifest error the schema can see are refused.
func TestManifestSchemaValidates(t *testing.T) {
	sch := schematest.Compile(t, schemaFile)
	check := func(file string, data []byte, wantValid bool) {
		t.Helper()
		var doc map[string]any
		if _, err := toml.Decode(string(data), &doc); err != nil {
			if wantValid || !strings.Contains(file, "manifest.syntax") {
				t.Errorf("%s: %v", file, err)
			}
			return
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		err = schematest.Validate(sch, js)
		if wantValid && err != nil {
			t.Errorf("%s: the schema refuses it: %v", file, err)
		} else if !wantValid && err == nil {
			t.Errorf("%s: the schema accepts it", file)
		}
	}
	root, err := os.ReadFile("../../toolc.toml")
	if err != nil {
		t.Fatal(err)
	}
	check("toolc.toml", root, true)
	base := "version = 1\n[[sources]]\ninclude = [\"*.json\"]\n[[targets]]\n"
	check("strict on openai", []byte(base+"format = \"openai\"\nout = \"x.json\"\nstrict = true\n"), true)
	check("strict on mcp", []byte(base+"format = \"mcp\"\nout = \"x.json\"\nstrict = true\n"), false)
	check("an unknown feature", []byte(base+"format = \"mcp\"\nout = \"x.json\"\nprofile = { nope = \"drop\" }\n"), false)
	check("an unknown action", []byte(base+"format = \"mcp\"\nout = \"x.json\"\nprofile = { oneOf = \"inline\" }\n"), false)
	check("an out of the folder", []byte(base+"format = \"mcp\"\nout = \"../x.json\"\n"), false)
	examples, _ := filepath.Glob("../explain/examples/*.txtar")
	if len(examples) < 100 {
		t.Fatalf("found %d examples", len(examples))
	}
	n := 0
	for _, file := range examples {
		data, _ := os.ReadFile(file)
		manifestText, ok := section(string(data), "toolc.toml")
		if !ok {
			continue
		}
		code := strings.TrimSuffix(filepath.Base(file), ".txtar")
		refused := slices.Contains([]string{"manifest.invalid", "manifest.path-escape", "manifest.syntax", "manifest.type", "manifest.unknown-code", "manifest.unknown-key", "manifest.version"}, code)
		check(file, []byte(manifestText), !refused)
		n++
	}
	t.Logf("%d manifests checked", n)
}

// section returns the file name of a txtar archive.
func section(archive, name string) (string, bool) {
	_, rest, ok := strings.Cut(archive, fmt.Sprintf("-- %s --\n", name))
	if !ok {
		return "", false
	}
	text, _, _ := strings.Cut(rest, "\n-- ")
	return text, true
}

// selectSchema is the schema of a select table, described as it is used.
func selectSchema(description string) obj {
	return obj{
		{"type", "object"},
		{"additionalProperties", false},
		{"description", description},
		{"properties", obj{
			{"tags", strs("tools with any of these tags")},
			{"namespaces", strs("tools in any of these namespaces")},
			{"tools", strs("globs over tool IDs")},
			{"exclude", strs("globs over tool IDs left out")},
			{"classification", obj{{"type", "array"}, {"items", obj{{"enum", canonical.Classifications()}}}, {"description", "tools whose data_classification is one of these (a tool that says none is left out)"}}},
			{"stability", obj{{"type", "array"}, {"items", obj{{"enum", canonical.Stabilities()}}}, {"description", "tools of these stabilities (a tool that says none is stable)"}}},
		}},
	}
}
