package adapters

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/accept"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/lower"
)

// Profile is what one target accepts, as data: the one table that both the
// loss report and the lowering read, so the two cannot drift apart. Each row
// cites where the fact comes from.
type Profile struct {
	Format string
	// Name is the rule for tool names.
	Name NameRule
	// Names is the default name template; DefaultNames when empty. Only a
	// target whose names take ':' keeps the ID's own form.
	Names string
	// Carries lists the optional canonical tool fields that the target's tool
	// format has a place for; every other field that a tool sets is dropped
	// and reported with its field's loss code.
	Carries []string
	// Options lists the target options (toolc.toml keys besides name,
	// format, out, policy and the options every target takes) that the
	// format takes.
	Options []string
	// Extensions names the formats whose format-specific fields the target
	// writes back; every other format's are dropped and reported. "*" keeps
	// them all.
	Extensions []string
	// Schema holds the schema rules per mode: "" by default, "strict" for
	// strict = true, "openapi" for Gemini's schema = "openapi".
	Schema map[string]*lower.Rules
	// Acceptance names, per mode, the table of package accept that checks what
	// the target emits: kept apart from Schema on purpose, so that a wrong
	// fact in one is caught by the other.
	Acceptance map[string]string
	// Source cites the facts.
	Source string

	// accepted are the keywords a manifest's profile override keeps, and
	// limits its limits: the acceptance check takes the manifest's word.
	accepted []string
	skip     []accept.Kind
	limits   map[string]int
}

// NameRule is a target's rule for tool names: which characters, which may
// come first, and how many. It is the rule lowering applies to property
// keys (lower.KeyRule), with the same pattern and the same way of making a
// name legal. A zero rule keeps every tool's namespace and name as they are
// (the canonical and jsonschema targets).
type NameRule = lower.KeyRule

// DefaultNames is the default name template of a target.
const DefaultNames = "{namespace}__{name}"

// CheckNames reports what is wrong with a name template, or nil.
func CheckNames(tmpl string) error {
	rest := tmpl
	seen := false
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return fmt.Errorf("name template %q has an unclosed {", tmpl)
		}
		switch ph := rest[i+1 : i+j]; ph {
		case "name":
			seen = true
		case "namespace":
		default:
			return fmt.Errorf("name template %q: unknown placeholder {%s} (want {namespace} and {name})", tmpl, ph)
		}
		rest = rest[i+j+1:]
	}
	if !seen {
		return fmt.Errorf("name template %q has no {name}, so every tool would get the same name", tmpl)
	}
	return nil
}

// render fills a name template. Without a namespace, {namespace} and the
// text between it and the next placeholder (or, when it comes last, the text
// before it) are left out: "{namespace}__{name}" gives "name".
func render(tmpl string, t *canonical.Tool) string {
	if t.Namespace == "" {
		if i := strings.Index(tmpl, "{namespace}"); i >= 0 {
			after := tmpl[i+len("{namespace}"):]
			if j := strings.IndexByte(after, '{'); j >= 0 {
				tmpl = tmpl[:i] + after[j:]
			} else {
				k := strings.LastIndexByte(tmpl[:i], '}')
				tmpl = tmpl[:k+1]
			}
		}
	}
	// One pass, as strings.Replacer would, without building one per tool.
	var b strings.Builder
	b.Grow(len(tmpl) + len(t.Namespace) + len(t.Name))
	for tmpl != "" {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		b.WriteString(tmpl[:i])
		switch rest := tmpl[i:]; {
		case strings.HasPrefix(rest, "{namespace}"):
			b.WriteString(t.Namespace)
			tmpl = rest[len("{namespace}"):]
		case strings.HasPrefix(rest, "{name}"):
			b.WriteString(t.Name)
			tmpl = rest[len("{name}"):]
		default:
			b.WriteByte('{')
			tmpl = rest[1:]
		}
	}
	return b.String()
}

// toolField is one optional canonical tool field that a target may not carry.
type toolField struct {
	name  string // member of the canonical JSON form
	label string // what it is called in messages
	code  string // the loss code when dropped
	has   func(*canonical.Tool) bool
	clear func(*canonical.Tool)
}

// toolFields is the table of droppable tool fields. Name, description and the
// input schema are carried by every target.
var toolFields = []toolField{
	{"title", "title", "loss.title", func(t *canonical.Tool) bool { return t.Title != "" }, func(t *canonical.Tool) { t.Title = "" }},
	{"version", "version", "loss.metadata", func(t *canonical.Tool) bool { return t.Version != "" }, func(t *canonical.Tool) { t.Version = "" }},
	{"category", "category", "loss.metadata", func(t *canonical.Tool) bool { return t.Category != "" }, func(t *canonical.Tool) { t.Category = "" }},
	{"output", "output schema", "loss.output-schema", func(t *canonical.Tool) bool { return t.Output != nil }, func(t *canonical.Tool) { t.Output = nil }},
	{"annotations", "annotations", "loss.annotations", func(t *canonical.Tool) bool { return t.Annotations != nil }, func(t *canonical.Tool) { t.Annotations = nil }},
	{"examples", "input examples", "loss.examples", func(t *canonical.Tool) bool { return len(t.Examples) > 0 }, func(t *canonical.Tool) { t.Examples = nil }},
	{"timeout", "timeout", "loss.metadata", func(t *canonical.Tool) bool { return t.Timeout != 0 }, func(t *canonical.Tool) { t.Timeout = 0 }},
	{"scopes", "scopes", "loss.metadata", func(t *canonical.Tool) bool { return len(t.Scopes) > 0 }, func(t *canonical.Tool) { t.Scopes = nil }},
	{"icons", "icons", "loss.icons", func(t *canonical.Tool) bool { return len(t.Icons) > 0 }, func(t *canonical.Tool) { t.Icons = nil }},
	{"meta", "_meta", "loss.meta", func(t *canonical.Tool) bool { return t.Meta != nil }, func(t *canonical.Tool) { t.Meta = nil }},
	{"lifecycle", "lifecycle (deprecated, sunset, renamed_from)", "loss.metadata",
		func(t *canonical.Tool) bool { return t.Deprecated || t.Sunset != "" || t.RenamedFrom != "" },
		func(t *canonical.Tool) { t.Deprecated, t.Sunset, t.RenamedFrom = false, "", "" }},
}

// Sources of the facts in the tables below.
const (
	srcProviders = "PROVIDERS.md, schema keywords each target accepts"
	srcOpenAI    = "OpenAI structured outputs: supported schemas and limits (PROVIDERS.md)"
	srcAnthro    = "Anthropic strict tool use (PROVIDERS.md)"
	srcGemini    = "Gemini FunctionDeclaration.parameters, OpenAPI 3.0 subset; go-genai Schema (PROVIDERS.md)"
	srcGeminiJS  = "Gemini FunctionDeclaration.parametersJsonSchema (PROVIDERS.md)"
	srcBedrock   = "Bedrock Converse ToolSpecification: the schema rules are the model's (Claude answers with Anthropic's errors; Nova rejects definitions), so $ref is inlined (PROVIDERS.md)"
)

func rows(src string, spec ...any) []lower.Row {
	var out []lower.Row
	for i := 0; i < len(spec); i += 2 {
		row := lower.Row{Feature: spec[i].(string), Source: src}
		switch a := spec[i+1].(type) {
		case lower.Action:
			row.Action = a
		case []string:
			row.Action, row.Values = lower.Only, a
		}
		out = append(out, row)
	}
	return out
}

var (
	strictFormatsOpenAI    = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	strictFormatsAnthropic = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)

var (
	descriptionOpenAI = lower.Limit{Name: "description", Max: 1024, Source: "OpenAI function description, 1,024 characters; getsentry/sentry-mcp issue 106 (PROVIDERS.md, corrections)"}
	keysAnthropic     = &lower.KeyRule{Chars: "a-zA-Z0-9_.-", Max: 64, Source: "Anthropic property keys ^[a-zA-Z0-9_.-]{1,64}$; n8n issue 30590 (PROVIDERS.md, corrections)"}
	keysGemini        = &lower.KeyRule{Chars: "A-Za-z0-9_", First: "A-Za-z_", Max: 64, Source: "python-genai FunctionDeclaration.parameters, property names (PROVIDERS.md, corrections)"}
)

// openAIStrict are the schema rules of OpenAI strict mode (Chat
// Completions and Responses).
var openAIStrict = &lower.Rules{
	Rows: rows(srcOpenAI,
		"$ref", lower.Keep, // recursion included
		"oneOf", lower.AnyOf,
		"allOf", lower.Merge,
		"not", lower.Drop, "conditional", lower.Drop, "dependent", lower.Drop,
		"pattern", lower.Simple, // no lookaround
		"format", strictFormatsOpenAI,
		"minLength", lower.Drop, "maxLength", lower.Drop,
		"uniqueItems", lower.Drop, "contains", lower.Drop, "prefixItems", lower.Tuple,
		"patternProperties", lower.Drop, "propertyNames", lower.Drop,
		"minProperties", lower.Drop, "maxProperties", lower.Drop, "unevaluated", lower.Drop,
		"additionalProperties", lower.Close, "optional", lower.Require,
		"default", lower.Drop, "examples", lower.Drop,
		"core", lower.Drop, "other", lower.Drop,
		// PROVIDERS.md, corrections: typed nodes, properties and items
		// present, $ref alone, required only of defined properties
		"untyped", lower.Type, "items-missing", lower.Add, "properties-missing", lower.Add,
		"ref-siblings", lower.Wrap, "required-undefined", lower.Prune, "root-any-of", lower.Merge,
	),
	Limits: []lower.Limit{
		{Name: "properties", Max: 5000, Source: srcOpenAI},
		{Name: "depth", Max: 10, Source: srcOpenAI},
		{Name: "enum-values", Max: 1000, Source: srcOpenAI},
		{Name: "enum-chars", Max: 15000, Source: srcOpenAI},
		{Name: "name-chars", Max: 120000, Source: srcOpenAI},
		descriptionOpenAI,
	},
}

var openAIDefault = &lower.Rules{
	Rows:   rows("OpenAI: every array has items, in every mode; mark3labs/mcp-filesystem-server PR 23 (PROVIDERS.md, corrections)", "items-missing", lower.Add),
	Limits: []lower.Limit{descriptionOpenAI},
}

var anthropicDefault = &lower.Rules{Keys: keysAnthropic}

// anthropicStrict keeps required as written: Anthropic's strict mode takes
// optional properties (anthropic-sdk-python lib/_parse/_transform.py
// copies required; PROVIDERS.md, corrections). Its per-request budgets are
// checked on the emitted bundle by package accept.
var anthropicStrict = &lower.Rules{
	Rows: rows(srcAnthro,
		"$ref", lower.Acyclic,
		"oneOf", lower.AnyOf,
		"allOf", lower.Merge, // allowed, but not with $ref: merged where sound
		"not", lower.Drop, "conditional", lower.Drop, "dependent", lower.Drop,
		"format", strictFormatsAnthropic,
		"minimum", lower.Drop, "maximum", lower.Drop, "exclusiveMinimum", lower.Drop, "exclusiveMaximum", lower.Drop, "multipleOf", lower.Drop,
		"minLength", lower.Drop, "maxLength", lower.Drop,
		"minItems", []string{"0", "1"}, "maxItems", lower.Drop,
		"uniqueItems", lower.Drop, "contains", lower.Drop, "prefixItems", lower.Tuple,
		"patternProperties", lower.Drop, "propertyNames", lower.Drop,
		"minProperties", lower.Drop, "maxProperties", lower.Drop, "unevaluated", lower.Drop,
		"additionalProperties", lower.Close,
		"core", lower.Drop, "other", lower.Drop,
		"untyped", lower.Type, // the SDK wants a type, anyOf or allOf on every node
		"root-any-of", lower.Merge,
	),
	Keys: keysAnthropic,
}

var geminiOpenAPI = &lower.Rules{
	Rows: rows(srcGemini,
		"$ref", lower.Inline, // Vertex only
		"anyOf", lower.Alone, // "When using any_of, it must be the only field set"
		"oneOf", lower.AnyOf,
		"allOf", lower.Merge,
		"not", lower.Drop, "conditional", lower.Drop, "dependent", lower.Drop,
		"type-array", lower.Nullable, "type", lower.Upper,
		"untyped", lower.Type, "items-missing", lower.Add, "required-undefined", lower.Prune, "root-any-of", lower.Merge,
		"const", lower.Enum,
		"enum", []string{"string"},
		"format", []string{"enum", "date-time", "float", "double", "int32", "int64", "email", "byte", "date", "password"}, // python-genai Schema.format
		"exclusiveMinimum", lower.Drop, "exclusiveMaximum", lower.Drop, "multipleOf", lower.Drop,
		"uniqueItems", lower.Drop, "contains", lower.Drop, "prefixItems", lower.Tuple,
		"patternProperties", lower.Drop, "propertyNames", lower.Drop, "unevaluated", lower.Drop,
		"additionalProperties", lower.Drop,
		"examples", lower.Drop,
		"core", lower.Drop, "other", lower.Drop,
	),
	Limits: []lower.Limit{{Name: "inline-size", Max: lower.DefaultInlineSize, Source: "toolc: a cap on the growth that inlining can cause"}},
	Keys:   keysGemini,
}

// geminiJSONSchema: Google publishes no keyword list for
// parametersJsonSchema; pattern, minLength, maxLength and default are
// unverified there and kept (PROVIDERS.md, corrections).
var geminiJSONSchema = &lower.Rules{
	Rows: rows(srcGeminiJS,
		"oneOf", lower.AnyOf, // treated as anyOf: said so
		"allOf", lower.Merge,
		"not", lower.Drop, "conditional", lower.Drop, "dependent", lower.Drop,
		"const", lower.Enum,
		"enum", []string{"string", "number"},
		"exclusiveMinimum", lower.Drop, "exclusiveMaximum", lower.Drop, "multipleOf", lower.Drop,
		"uniqueItems", lower.Drop, "contains", lower.Drop,
		"patternProperties", lower.Drop, "propertyNames", lower.Drop,
		"minProperties", lower.Drop, "maxProperties", lower.Drop, "unevaluated", lower.Drop,
		"examples", lower.Drop,
		"core", lower.Drop, // $schema, $id, $comment: Unknown name "$schema"
		"ref-siblings", []string{"description", "default"},
		"other", lower.Drop,
	),
}

var bedrockRules = &lower.Rules{
	Rows:   rows(srcBedrock, "$ref", lower.Inline),
	Limits: []lower.Limit{{Name: "inline-size", Max: lower.DefaultInlineSize, Source: "toolc: a cap on the growth that inlining can cause"}},
	Keys:   keysAnthropic, // Claude on Bedrock answers with Anthropic's errors
}

// bedrockStrict is toolSpec.strict: Anthropic's strict subset (pydantic-ai
// verified it on Claude: no numeric bounds, minItems at most 1, no
// maxItems), with $ref inlined as Bedrock needs.
var bedrockStrict = func() *lower.Rules {
	r := anthropicStrict.Clone()
	for i := range r.Rows {
		r.Rows[i].Source = srcBedrock + "; strict: " + srcAnthro
	}
	r.Set("$ref", lower.Inline, nil, srcBedrock)
	r.Limits = bedrockRules.Limits
	return r
}()

// keepAll is the rules of targets that carry JSON Schema as it is.
var keepAll = &lower.Rules{}

var (
	nameOpenAI = NameRule{Chars: "a-zA-Z0-9_-", Max: 64, Source: "OpenAI API reference, FunctionDefinition.name"}
	// common options of every target but canonical and jsonschema
	namedOptions = []string{"names", "describe", "profile", "limits"}
)

// profiles holds the profile of every target format, from PROVIDERS.md.
var profiles = map[string]*Profile{
	"mcp": {
		Format:     "mcp",
		Name:       NameRule{Chars: "A-Za-z0-9_.-", Max: 128, Source: "MCP specification 2025-11-25, Tool names (SHOULD)"},
		Carries:    []string{"title", "output", "annotations", "icons", "meta", "lifecycle"},
		Options:    namedOptions,
		Schema:     map[string]*lower.Rules{"": keepAll},
		Acceptance: map[string]string{"": "mcp"},
		Source:     "MCP specification 2025-11-25, schema.json Tool",
	},
	"openai": {
		Format:     "openai",
		Name:       nameOpenAI,
		Options:    append([]string{"strict", "dialect"}, namedOptions...),
		Schema:     map[string]*lower.Rules{"": openAIDefault, "strict": openAIStrict},
		Acceptance: map[string]string{"": "openai"},
		Source:     "OpenAI API reference, ChatCompletionTool / FunctionDefinition",
	},
	"openai-responses": {
		Format:     "openai-responses",
		Name:       nameOpenAI,
		Carries:    []string{"output"}, // output_schema: openai-python types/responses/function_tool_param.py
		Options:    append([]string{"strict"}, namedOptions...),
		Extensions: []string{"openai-responses", "openai"},
		Schema:     map[string]*lower.Rules{"": openAIDefault, "strict": openAIStrict},
		Acceptance: map[string]string{"": "openai-responses"},
		Source:     "OpenAI API reference, Responses FunctionTool",
	},
	"anthropic": {
		Format:     "anthropic",
		Name:       NameRule{Chars: "a-zA-Z0-9_-", Max: 128, Source: "Anthropic Tool.name ^[a-zA-Z0-9_-]{1,128}$; modelcontextprotocol issue 1345 (PROVIDERS.md, corrections)"},
		Carries:    []string{"examples"},
		Options:    append([]string{"strict"}, namedOptions...),
		Schema:     map[string]*lower.Rules{"": anthropicDefault, "strict": anthropicStrict},
		Acceptance: map[string]string{"": "anthropic"},
		Source:     "Anthropic API reference, Messages Tool (input_examples)",
	},
	"gemini": {
		Format:     "gemini",
		Name:       NameRule{Chars: "A-Za-z0-9_.:-", First: "A-Za-z_", Max: 128, Source: "Gemini FunctionDeclaration.name (64 characters and no ':' before December 2025)"},
		Names:      "{namespace}:{name}", // ':' is legal: the ID as it is
		Carries:    []string{"output"},
		Options:    append([]string{"schema"}, namedOptions...),
		Schema:     map[string]*lower.Rules{"": geminiJSONSchema, "openapi": geminiOpenAPI},
		Acceptance: map[string]string{"": "gemini", "openapi": "gemini-openapi"},
		Source:     "Gemini API reference, FunctionDeclaration",
	},
	"bedrock": {
		Format:     "bedrock",
		Name:       NameRule{Chars: "a-zA-Z0-9_-", Max: 64, Source: "Bedrock Converse ToolSpecification.name"},
		Options:    append([]string{"strict"}, namedOptions...),
		Schema:     map[string]*lower.Rules{"": bedrockRules, "strict": bedrockStrict},
		Acceptance: map[string]string{"": "bedrock"},
		Source:     "Bedrock Converse API reference, ToolSpecification",
	},
	"canonical": {
		Format:     "canonical",
		Carries:    []string{"title", "version", "category", "output", "annotations", "examples", "timeout", "scopes", "icons", "meta", "lifecycle"},
		Extensions: []string{"*"},
		Schema:     map[string]*lower.Rules{"": keepAll},
		Source:     "toolc's canonical form: lossless",
	},
	"jsonschema": {
		Format: "jsonschema",
		Schema: map[string]*lower.Rules{"": keepAll},
		Source: "JSON Schema 2020-12: one $defs entry per tool's input schema",
	},
}

// Dialect is a server that speaks a target's format but differs from the
// provider in what it takes: one row per server, with its evidence, so
// that a server is a line of this table rather than a branch in the code.
type Dialect struct {
	Name string
	// Strict says whether the server takes the "strict" flag, and so strict
	// mode; where it does not, the flag is never written.
	Strict bool
	Source string
}

// dialects lists, per target format, the servers that speak it; the first
// is the default.
var dialects = map[string][]Dialect{
	"openai": {
		{"openai", true, "OpenAI Chat Completions: FunctionDefinition.strict"},
		{"xai", false, "xAI rejects strict (PROVIDERS.md, corrections)"},
		{"compatible", false, "OpenAI-compatible servers differ; legacy functions reject strict (PROVIDERS.md, corrections)"},
	},
}

// Dialects returns the dialects of a target format, the default first; nil
// for a format that has none.
func Dialects(format string) []Dialect { return slices.Clone(dialects[format]) }

// dialect returns the dialect opts name, the default when none.
func (p *Profile) dialect(opts TargetOptions) (Dialect, bool) {
	ds := dialects[p.Format]
	if len(ds) == 0 {
		return Dialect{Name: p.Format, Strict: slices.Contains(p.Options, "strict")}, opts.Dialect == ""
	}
	if opts.Dialect == "" {
		return ds[0], true
	}
	i := slices.IndexFunc(ds, func(d Dialect) bool { return d.Name == opts.Dialect })
	if i < 0 {
		return Dialect{}, false
	}
	return ds[i], true
}

// CheckDialect says what is wrong with a target's dialect and strict
// options together, or nil.
func (p *Profile) CheckDialect(opts TargetOptions) error {
	d, ok := p.dialect(opts)
	if !ok {
		var names []string
		for _, d := range dialects[p.Format] {
			names = append(names, d.Name)
		}
		return fmt.Errorf("unknown dialect %q of %s (one of %s)", opts.Dialect, p.Format, strings.Join(names, ", "))
	}
	if !d.Strict && opts.Strict != nil && *opts.Strict {
		return fmt.Errorf("dialect %q takes no strict mode (%s)", d.Name, d.Source)
	}
	return nil
}

// ProfileOf returns the built-in profile of a target format.
func ProfileOf(format string) (*Profile, bool) {
	p, ok := profiles[format]
	return p, ok
}

// Override returns a copy of p whose schema rules have the rows and limits
// of a manifest's profile and limits tables in every mode: features maps a
// feature to an action ("keep", "drop" …) or to the list of values that
// "only" accepts.
func (p *Profile) Override(features map[string]any, limits map[string]int) (*Profile, error) {
	c := *p
	c.Schema = map[string]*lower.Rules{}
	for _, mode := range slices.Sorted(maps.Keys(p.Schema)) { // the first error is the same on every run
		r := p.Schema[mode].Clone()
		for _, f := range slices.Sorted(maps.Keys(features)) {
			var err error
			switch v := features[f].(type) {
			case string:
				err = r.Set(f, lower.Action(v), nil, "toolc.toml")
			case []any:
				var vals []string
				for _, x := range v {
					vals = append(vals, fmt.Sprint(x))
				}
				err = r.Set(f, lower.Only, vals, "toolc.toml")
			default:
				err = fmt.Errorf("feature %q: want an action or a list of accepted values, not %T", f, v)
			}
			if err != nil {
				return nil, err
			}
		}
		for _, l := range slices.Sorted(maps.Keys(limits)) {
			if err := r.SetLimit(l, limits[l], "toolc.toml"); err != nil {
				return nil, err
			}
		}
		c.Schema[mode] = r
	}
	c.accepted = slices.Clone(p.accepted)
	for _, f := range slices.Sorted(maps.Keys(features)) {
		if a, ok := features[f].(string); ok && lower.Action(a) != lower.Keep {
			continue
		}
		if row, ok := lower.FeatureNamed(f); ok {
			c.accepted = append(c.accepted, row.Keywords...)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(features)) {
		c.skip = append(c.skip, overrideKinds[f]...)
		if f == "$ref" {
			c.accepted = append(c.accepted, "$defs", "definitions")
		}
	}
	c.limits = maps.Clone(limits)
	return &c, nil
}

// overrideKinds are the acceptance rules that a manifest's override of a
// shape feature speaks for: the manifest's word is taken for them.
var overrideKinds = map[string][]accept.Kind{
	"untyped":              {accept.Typed},
	"items-missing":        {accept.Items},
	"properties-missing":   {accept.Properties},
	"ref-siblings":         {accept.RefSiblings},
	"required-undefined":   {accept.RequiredDefined},
	"root-any-of":          {accept.RootObject},
	"anyOf":                {accept.AnyOfAlone},
	"additionalProperties": {accept.Closed},
	"optional":             {accept.AllRequired},
	"type":                 {accept.TypeNames},
	"type-array":           {accept.TypeNames},
	"$ref":                 {accept.Acyclic},
}

// Lowered is a catalog lowered for one target.
type Lowered struct {
	Tools []*canonical.Tool
	// Names maps every tool ID to its emitted name.
	Names map[string]string
	// Optional maps the ID of each tool that the strict transform changed
	// to the pointers, in its emitted input schema, of the properties that
	// were optional: a null there means the argument was left out.
	Optional map[string][]canonical.Pointer
	// Renamed maps the ID of each tool whose property keys the target's key
	// rule renamed to, per renamed property, its pointer in the emitted
	// input schema and the key it had.
	Renamed map[string]map[canonical.Pointer]string
	// RenamedOutput is the same for output schemas: a tool's result must
	// use the renamed keys where the target declares its output schema.
	RenamedOutput map[string]map[canonical.Pointer]string
	Diagnostics   []diag.Diagnostic
	// Bundle is the encoded bundle; set by Emit.
	Bundle *canonical.Value
	// Sources are the catalog's tools in the order of Tools: a renamed
	// tool's alias has the tool's source.
	Sources []*canonical.Tool
	// Aliases maps the ID of each tool renamed (renamed_from) to the old
	// name the target also serves it under.
	Aliases map[string]string
}

// Emit lowers tools for the adapter's target (named target in
// diagnostics), encodes them, and checks the bundle against the target's
// acceptance table (package accept): a shape the provider would refuse is
// an accept.* error in Diagnostics, a per-request count over its limit a
// warning.
func (a *Adapter) Emit(tools []*canonical.Tool, target string, opts TargetOptions) *Lowered {
	low := a.Profile.Lower(tools, target, opts)
	low.Bundle = a.Encode(low.Tools, opts)
	low.Diagnostics = append(low.Diagnostics, a.Profile.Accept(low.Bundle, low.Sources, target, opts)...)
	return low
}

// Accept checks an encoded bundle against the profile's acceptance table
// for opts' mode; tools are the catalog's tools in bundle order, which name
// and locate each finding.
func (p *Profile) Accept(bundle *canonical.Value, tools []*canonical.Tool, target string, opts TargetOptions) []diag.Diagnostic {
	name, ok := p.Acceptance[p.mode(opts)]
	if !ok {
		return nil
	}
	t, _ := accept.TableNamed(name)
	ao := accept.Options{Accepted: p.accepted, Skip: p.skip, Max: map[accept.Kind]int{}, Unchecked: opts.Unchecked}
	for l, n := range p.limits {
		ao.Max[accept.Kind(l)] = n
	}
	return accept.Check(t, bundle, tools, target, ao)
}

// StrictRequiresAll reports whether the target's strict mode makes every
// property required (OpenAI's does; Anthropic's keeps required as written).
func (p *Profile) StrictRequiresAll() bool {
	r := p.Schema["strict"]
	return r != nil && r.Action("optional") == lower.Require
}

// KeepsRefs reports whether the target carries $ref in the schemas it
// emits with opts (non-strict mode), so that a repeated subtree could be
// one definition.
func (p *Profile) KeepsRefs(opts TargetOptions) bool {
	r := p.Schema[p.mode(opts)]
	if r == nil {
		return false
	}
	a := r.Action("$ref")
	return a == lower.Keep || a == lower.Acyclic
}

// mode returns the schema mode that opts select ("" or "openapi").
func (p *Profile) mode(opts TargetOptions) string {
	if opts.Schema == "json-schema" {
		return ""
	}
	return opts.Schema
}

// strictOf returns whether t is lowered in strict mode: the target's option
// when set, else the strict flag of t's source if it is of a format the
// target writes back.
func (p *Profile) strictOf(t *canonical.Tool, opts TargetOptions) bool {
	if opts.Strict != nil {
		return *opts.Strict
	}
	b, _, _ := p.sourceStrict(t)
	return b
}

// sourceStrict returns the strict flag that t's source gave, in a format
// the target writes back, and that format.
func (p *Profile) sourceStrict(t *canonical.Tool) (strict bool, format string, ok bool) {
	for _, f := range p.extensionFormats() {
		if b, ok := t.Extensions[f].Get("strict").BoolValue(); ok {
			return b, f, true
		}
	}
	return false, "", false
}

func (p *Profile) extensionFormats() []string {
	if p.Extensions == nil {
		return []string{p.Format}
	}
	return p.Extensions
}

// sourceOnlyExtensions are the formats whose extensions say how to call a
// tool or where it was defined (OpenAPI's HTTP binding, LangChain's module
// and export) rather than what the model sees. They are kept in canonical
// bundles and left out of provider bundles without a loss report.
var sourceOnlyExtensions = []string{"openapi", "langchain"}

// Lower prepares tools for the profile's target, named target in
// diagnostics. Each tool is copied (the input is never modified), given its
// emitted name, stripped of the fields and foreign extensions the target
// cannot carry, and its schemas lowered by the target's rules (package
// lower); every change is a diagnostic located in the tool's source. Two
// tools on one name are a name.collision error. Limits of a whole bundle
// are reported without a file, for the caller to place.
func (p *Profile) Lower(tools []*canonical.Tool, target string, opts TargetOptions) *Lowered {
	var aliases []pendingAlias
	out := &Lowered{Aliases: map[string]string{}, Names: make(map[string]string, len(tools)), Optional: map[string][]canonical.Pointer{}, Renamed: map[string]map[canonical.Pointer]string{}, RenamedOutput: map[string]map[canonical.Pointer]string{}}
	byName := make(map[string]*canonical.Tool, len(tools))
	tmpl := cmp.Or(opts.Names, p.Names, DefaultNames)
	lowerOne := func(t *canonical.Tool) (o loweredTool) {
		at := func(code string, field canonical.Pointer, format string, args ...any) {
			d := diag.New(code, format, args...).At(t.Source.File, string(t.Source.Locate(field))).About(t.ID())
			d.Target = target
			o.diags = append(o.diags, d)
		}
		c := *t
		c.Extensions = maps.Clone(t.Extensions)
		id := t.ID()
		if p.Name.Max > 0 {
			want := render(tmpl, t)
			name := p.Name.Legal(want, id)
			if name != want {
				at("name.rewritten", "/name", "name %q is not legal for %s (%s); emitted as %q", want, p.Format, p.Name.Pattern(), name)
			}
			if !p.Name.Match(name) {
				at("name.invalid", "/name", "name %q is not legal for %s (want %s)", name, p.Format, p.Name.Pattern())
			}
			c.Namespace, c.Name = "", name
		}
		o.name = c.ID() // the emitted name; the ID itself where no rule renames
		for _, f := range toolFields {
			if f.has(&c) && !slices.Contains(p.Carries, f.name) {
				at(f.code, canonical.Pointer("").Append(f.name), "the target has no place for its %s; dropped", f.label)
				f.clear(&c)
			}
		}
		keepExt := p.extensionFormats()
		for _, format := range slices.Sorted(maps.Keys(c.Extensions)) {
			if slices.Contains(keepExt, format) || slices.Contains(keepExt, "*") {
				continue
			}
			if !slices.Contains(sourceOnlyExtensions, format) { // those are left out by design
				for _, m := range c.Extensions[format].Members {
					at("loss.extension", canonical.Pointer("").Append("extensions", format, m.Key),
						"the %s field %q has no place in the target; dropped", format, m.Key)
				}
			}
			delete(c.Extensions, format)
		}
		dialect, _ := p.dialect(opts)
		if !dialect.Strict {
			if ext := c.Extensions[p.Format]; ext.Get("strict") != nil {
				at("loss.extension", canonical.Pointer("").Append("extensions", p.Format, "strict"),
					"the %s dialect takes no \"strict\" flag (%s); dropped", dialect.Name, dialect.Source)
				e := canonical.NewObject()
				e.Members = slices.DeleteFunc(slices.Clone(ext.Members), func(m canonical.Member) bool { return m.Key == "strict" })
				c.Extensions[p.Format] = e
			}
		}
		strict := dialect.Strict && slices.Contains(p.Options, "strict") && p.strictOf(t, opts)
		mode := p.mode(opts)
		lowerSchema := func(s **canonical.Schema, base canonical.Pointer, r *lower.Rules) *lower.Result {
			if *s == nil || !lower.Applies(*s, r) {
				return nil
			}
			return lower.Schema(*s, r, lower.Options{Describe: opts.Describe})
		}
		report := func(res *lower.Result, base canonical.Pointer) {
			if res == nil {
				return
			}
			for _, ch := range res.Changes {
				msg := ch.Message
				if ch.Pointer != ch.Origin {
					msg += fmt.Sprintf(" (at %s of the emitted schema)", base.Join(ch.Pointer))
				}
				at(ch.Code, base.Join(ch.Origin), "%s", msg)
			}
		}
		rules := p.rules(mode)
		res := (*lower.Result)(nil)
		if strict {
			res = lowerSchema(&c.Input, "/input", p.rules("strict"))
			if ch, narrowed := res.Narrowed(); narrowed && opts.Auto {
				strict = false
				at("lower.strict-fallback", canonical.Pointer("/input").Join(ch.Origin), "left non-strict, as strict mode would narrow it (%s at %s: %s)", ch.Code, "/input"+ch.Pointer, ch.Message)
			} else {
				rules = p.rules("strict")
			}
		}
		if !strict {
			res = lowerSchema(&c.Input, "/input", rules)
		}
		if dialect.Strict && slices.Contains(p.Options, "strict") && opts.Strict != nil {
			if was, f, ok := p.sourceStrict(t); ok && was != strict && !opts.Auto {
				at("lower.strict-overridden", canonical.Pointer("").Append("extensions", f, "strict"),
					"its source says \"strict\": %v; the target's strict = %v wins", was, strict)
			}
			setExtension(&c, p.Format, "strict", canonical.NewBool(strict))
		}
		report(res, "/input")
		if res != nil {
			c.Input = res.Schema
			o.optional, o.renamed = res.Optional, res.Renamed
		}
		if c.Output != nil {
			if ores := lowerSchema(&c.Output, "/output", p.rules(mode)); ores != nil {
				report(ores, "/output")
				c.Output = ores.Schema
				o.renamedOutput = ores.Renamed
			}
		}
		if max, ok := rules.Limit("description"); ok && utf8.RuneCountInString(c.Description) > max {
			short := shorten(c.Description, max)
			at("loss.description", "/description", "the description has %d characters; %s takes at most %d, so it was cut to %d (the MCP and canonical bundles keep it whole)",
				utf8.RuneCountInString(c.Description), p.Format, max, utf8.RuneCountInString(short))
			c.Description = short
		}
		o.tool = &c
		if t.RenamedFrom != "" && p.Name.Max > 0 {
			ns, old, _ := canonical.ParseID(t.RenamedFrom)
			o.alias = p.Name.Legal(render(tmpl, &canonical.Tool{Namespace: ns, Name: old}), t.RenamedFrom)
		}
		return o
	}
	// Each tool is lowered on its own, in parallel; then, in catalog
	// order, names are checked against each other and the results joined,
	// so the outcome does not depend on the schedule.
	done := make([]loweredTool, len(tools))
	par.For(len(tools), 64, func(i int) { done[i] = lowerOne(tools[i]) })
	n := len(out.Diagnostics)
	for _, o := range done {
		n += len(o.diags)
	}
	out.Diagnostics = slices.Grow(out.Diagnostics, n-len(out.Diagnostics)) // once, not by doubling
	for i, t := range tools {
		o := done[i]
		id := t.ID()
		out.Diagnostics = append(out.Diagnostics, o.diags...)
		out.Names[id] = o.name
		if prev, ok := byName[o.name]; ok {
			d := diag.New("name.collision", "its name %q in %s is also the name of %s (%s)",
				o.name, target, prev.ID(), prev.Source.String()).At(t.Source.File, string(t.Source.Locate("/name"))).About(id)
			d.Target = target
			out.Diagnostics = append(out.Diagnostics, d)
		} else {
			byName[o.name] = t
		}
		if len(o.optional) > 0 {
			out.Optional[id] = o.optional
		}
		if len(o.renamed) > 0 {
			out.Renamed[id] = o.renamed
		}
		if len(o.renamedOutput) > 0 {
			out.RenamedOutput[id] = o.renamedOutput
		}
		out.Tools = append(out.Tools, o.tool)
		out.Sources = append(out.Sources, t)
		if o.alias != "" {
			aliases = append(aliases, pendingAlias{name: o.alias, tool: o.tool, src: t})
		}
	}
	// A renamed tool is served under its old name too, while the catalog
	// says renamed_from, so calls made to the old name keep working.
	for _, a := range aliases {
		id := a.src.ID()
		if prev, ok := byName[a.name]; ok {
			d := diag.New("name.collision", "renamed from %s, it keeps the old name %q as an alias in %s, which is the name of %s (%s)",
				a.src.RenamedFrom, a.name, target, prev.ID(), prev.Source.String()).At(a.src.Source.File, string(a.src.Source.Locate("/renamed_from"))).About(id)
			d.Target = target
			out.Diagnostics = append(out.Diagnostics, d)
			continue
		}
		byName[a.name] = a.src
		c := *a.tool
		c.Name, c.Deprecated, c.RenamedFrom, c.Sunset = a.name, true, "", ""
		c.Description = strings.TrimSpace(fmt.Sprintf("Deprecated: the old name of %s, kept while it was renamed; call %s instead. %s", a.tool.Name, a.tool.Name, a.tool.Description))
		out.Tools = append(out.Tools, &c)
		out.Sources = append(out.Sources, a.src)
		out.Aliases[id] = a.name
	}
	if len(out.Aliases) > 0 { // bundles list tools by ID: an alias by the ID it stands for
		sortKey := func(i int) string {
			if i >= len(tools) {
				return out.Sources[i].RenamedFrom
			}
			return out.Sources[i].ID()
		}
		order := make([]int, len(out.Tools))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(sortKey(a), sortKey(b)) })
		ts, ss := slices.Clone(out.Tools), slices.Clone(out.Sources)
		for i, j := range order {
			out.Tools[i], out.Sources[i] = ts[j], ss[j]
		}
	}
	return out
}

// loweredTool is what lowering one tool gives, before the tools' names
// are checked against each other.
type loweredTool struct {
	tool                   *canonical.Tool
	name, alias            string
	diags                  []diag.Diagnostic
	optional               []canonical.Pointer
	renamed, renamedOutput map[canonical.Pointer]string
}

// pendingAlias is the old name of a renamed tool, emitted once every tool
// has its name.
type pendingAlias struct {
	name string
	tool *canonical.Tool // the lowered tool
	src  *canonical.Tool
}

// shorten cuts s to at most max characters: at the end of the last
// sentence that fits when that keeps at least half, else at the last word
// boundary, with "…" after a cut inside a sentence.
func shorten(s string, max int) string {
	rs := []rune(s)
	if len(rs) <= max {
		return s
	}
	head := string(rs[:max])
	for _, end := range []string{". ", ".\n", "! ", "? "} {
		if i := strings.LastIndex(head, end); i >= 0 && utf8.RuneCountInString(head[:i+1]) >= max/2 {
			return head[:i+1]
		}
	}
	head = string(rs[:max-1])
	if next := rs[max-1]; next != ' ' && next != '\n' && next != '\t' { // inside a word: back to its start
		if i := strings.LastIndexAny(head, " \n\t"); i >= 0 && utf8.RuneCountInString(head[:i]) >= max/2 {
			head = head[:i]
		}
	}
	return strings.TrimRight(head, " \n\t,;:") + "…"
}

// rules returns the schema rules of a mode, those of the default mode for a
// mode the profile does not have.
func (p *Profile) rules(mode string) *lower.Rules {
	if r := p.Schema[mode]; r != nil {
		return r
	}
	if r := p.Schema[""]; r != nil {
		return r
	}
	return keepAll
}

// setExtension sets one field of t's extension map of format, copying the
// map first.
func setExtension(t *canonical.Tool, format, key string, v *canonical.Value) {
	ext := canonical.NewObject()
	if old := t.Extensions[format]; old != nil {
		ext.Members = slices.Clone(old.Members)
	}
	ext.Set(key, v)
	if t.Extensions == nil {
		t.Extensions = map[string]*canonical.Value{}
	}
	t.Extensions[format] = ext
}
