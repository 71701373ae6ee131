package profile

import (
	"slices"

	"github.com/toolc-dev/toolc/internal/lower"
)

// Sources of the facts in the tables below.
const (
	srcProviders = "PROVIDERS.md, schema keywords each target accepts"
	srcOpenAI    = "OpenAI structured outputs: supported schemas and limits (PROVIDERS.md)"
	srcAnthro    = "Anthropic strict tool use (PROVIDERS.md)"
	srcGemini    = "Gemini FunctionDeclaration.parameters, OpenAPI 3.0 subset; go-genai Schema (PROVIDERS.md)"
	srcGeminiJS  = "Gemini FunctionDeclaration.parametersJsonSchema (PROVIDERS.md)"
	srcBedrock   = "Bedrock Converse ToolSpecification: the schema rules are the model's (Claude answers with Anthropic's errors; Nova rejects definitions), so $ref is inlined (PROVIDERS.md)"

	srcRootOpenAI    = "OpenAI, every mode: parameters must have type 'object' and no anyOf, oneOf, allOf, enum or not at the top level; azure-openai-ha issue 146 (PROVIDERS.md, late 2026)"
	srcRootAnthropic = "Anthropic, every mode: input_schema takes no oneOf, allOf or anyOf at the top level; gitlab-mcp issue 551, mobile-mcp issue 344 (PROVIDERS.md, late 2026)"
	srcRootBedrock   = "Bedrock serves Claude with Anthropic's rule: no oneOf, allOf or anyOf at the top level of inputSchema.json (PROVIDERS.md, late 2026)"
	srcRequiredProps = "OpenAI and every server that speaks its format: required without properties is refused (\"'required' present but 'properties' is missing\"; strix issue 1088, livekit agents issue 4610; PROVIDERS.md, late 2026)"
	srcRefTargets    = "OpenAI, every mode: \"reference can only point to definitions defined at the top level of the schema\"; dotnet/extensions issue 6918 (PROVIDERS.md, late 2026)"
	srcUnusedDefs    = "toolc: a definition nothing refers to constrains nothing, and is sent in every request; OpenAI's rendering for the model leaves it out of the token count (issue 28)"
	src2020          = "Anthropic reads input_schema as JSON Schema 2020-12 and refuses the draft-07 items array: \"It must match JSON Schema draft 2020-12\"; hermes-agent issue 63674; Bedrock serves Claude alike (PROVIDERS.md, late 2026)"
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
	Rows: append(rows(srcOpenAI,
		"$ref", lower.Keep, // recursion included
		"oneOf", lower.AnyOf,
		"allOf", lower.Merge,
		"not", lower.Drop, "conditional", lower.Drop, "dependent", lower.Drop,
		"pattern", lower.Simple, // no lookaround
		"pattern-flavor", lower.Python, // OpenAI compiles patterns with Python's re
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
	), append(rows(srcRootOpenAI, "root-all-of", lower.Merge, "root-enum", lower.Drop, "root-not", lower.Drop),
		append(rows(srcRequiredProps, "required-alone", lower.Add), rows(srcRefTargets, "ref-targets", lower.Hoist)...)...)...),
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
	Rows: slices.Concat(
		rows("OpenAI: every array has items, in every mode; mark3labs/mcp-filesystem-server PR 23 (PROVIDERS.md, corrections); a tuple's items is an array, so it is written as strict mode writes it", "items-missing", lower.Add, "prefixItems", lower.Tuple),
		rows(srcPython, "pattern-flavor", lower.Python),
		rows(srcRootOpenAI, "root-any-of", lower.Merge, "root-all-of", lower.Merge, "root-enum", lower.Drop, "root-not", lower.Drop),
		rows(srcRequiredProps, "required-alone", lower.Add), rows(srcRefTargets, "ref-targets", lower.Hoist)),
	Limits: []lower.Limit{descriptionOpenAI},
}

var anthropicDefault = &lower.Rules{
	Rows: append(rows(srcRootAnthropic, "root-any-of", lower.Merge, "root-all-of", lower.Merge), rows(src2020, "legacy-forms", lower.Modern)...),
	Keys: keysAnthropic,
}

// anthropicStrict keeps required as written: Anthropic's strict mode takes
// optional properties (anthropic-sdk-python lib/_parse/_transform.py
// copies required; PROVIDERS.md, corrections). Its per-request budgets are
// checked on the emitted bundle by package accept.
var anthropicStrict = &lower.Rules{
	Rows: append(rows(srcAnthro,
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
	), append(rows(srcRootAnthropic, "root-all-of", lower.Merge), rows(src2020, "legacy-forms", lower.Modern)...)...),
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
	Limits: []lower.Limit{{Name: "inline-size", Max: lower.DefaultInlineSize, Source: "toolc: a cap on the growth that inlining can cause"}, maxItemsGemini},
	Keys:   keysGemini,
}

// maxItemsGemini is Gemini's undocumented budget of maxItems per
// declaration.
var maxItemsGemini = lower.Limit{Name: "max-items-sum", Max: 960, Source: "Gemini: INVALID_ARGUMENT when the maxItems of one declaration add up to more than about 960; python-genai issue 2170 (PROVIDERS.md, late 2026)"}

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
	Limits: []lower.Limit{maxItemsGemini},
}

var bedrockRules = &lower.Rules{
	Rows: append(append(rows(srcBedrock, "$ref", lower.Inline), rows(srcRootBedrock, "root-any-of", lower.Merge, "root-all-of", lower.Merge)...),
		rows(src2020, "legacy-forms", lower.Modern)...),
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

// srcRootProperties: the form of a tool without parameters that every
// client takes.
const srcRootProperties = "a tool without parameters is {\"type\": \"object\", \"properties\": {}, …}: GitHub Copilot CLI and Azure AI Foundry refuse an object schema without properties (\"object schema missing properties\", invalid_function_parameters; github/copilot-cli issue 1825, kagent-dev/kagent issue 1889; PROVIDERS.md, late November 2026)"

// srcMCPHeader: x-mcp-header is MCP's alone.
const srcMCPHeader = "x-mcp-header is read by MCP clients on the Streamable HTTP transport (MCP 2026-07-28, SEP-2243); a provider's API has no HTTP header per parameter"

// mcpRules are the MCP target's: the schemas as written, but for the
// form of a tool without parameters.
var mcpRules = &lower.Rules{Rows: rows(srcRootProperties, "root-properties", lower.Add)}

// Every provider target removes the definitions nothing refers to; the
// MCP, canonical and jsonschema bundles keep what was written. Every
// provider target but Gemini's OpenAPI mode, which refuses an OBJECT with
// empty properties, writes a tool without parameters with properties: {}.
func init() {
	for _, r := range []*lower.Rules{openAIStrict, anthropicStrict, geminiOpenAPI, geminiJSONSchema, bedrockStrict} {
		r.Rows = append(r.Rows, rows(srcNever, "never", lower.Prune)...)
	}
	for _, r := range []*lower.Rules{openAIStrict, openAIDefault, anthropicDefault, anthropicStrict, geminiOpenAPI, geminiJSONSchema, bedrockRules, bedrockStrict} {
		r.Rows = append(r.Rows, rows(srcUnusedDefs, "unused-defs", lower.Prune)...)
		r.Rows = append(r.Rows, rows(srcRefExternal, "ref-external", lower.Drop)...)
		if r != geminiOpenAPI {
			r.Rows = append(r.Rows, rows(srcRootProperties, "root-properties", lower.Add)...)
		}
		r.Rows = append(r.Rows, rows(srcMCPHeader, "mcp-header", lower.Drop)...)
	}
}

// srcNever: where not is dropped, {"not": {}} would accept every value.
const srcNever = "the target has no not (or no boolean schema), so {\"not\": {}} would be dropped to a schema that accepts every value: a schema that accepts none is removed where that says the same, or written {\"type\": T, \"enum\": []} (PROVIDERS.md, late November 2026)"

// keepAll is the rules of targets that carry JSON Schema as it is.
// srcPython: OpenAI compiles every pattern with Python's re.
const srcPython = "OpenAI compiles pattern with Python's re in every mode: \\p{…} and possessive quantifiers are refused (\"… is not a 'regex'\"; BerriAI/litellm issues 40358 and 40485; PROVIDERS.md, November 2026)"

// srcRefExternal: providers take the schema as it is and fetch nothing; a
// reference into another document points nowhere (PROVIDERS.md: local
// references only).
const srcRefExternal = "providers resolve only references within the schema; a $ref to another document, even a dialect's meta-schema, points nowhere (JSON-Schema-Test-Suite 2020-12 0064, draft7 0067)"

var keepAll = &lower.Rules{}

var nameOpenAI = NameRule{Chars: "a-zA-Z0-9_-", Max: 64, Source: "OpenAI API reference, FunctionDefinition.name"}

// profiles holds the profile of every target format, from PROVIDERS.md.
var profiles = map[string]*Profile{
	"mcp": {
		Format:     "mcp",
		Name:       NameRule{Chars: "A-Za-z0-9_.-", Max: 128, Source: "MCP specification 2025-11-25, Tool names (SHOULD)"},
		Carries:    []string{"title", "output", "annotations", "icons", "meta", "lifecycle"},
		HasClients: true,
		Defers:     true, Callers: true, Groups: true, // in _meta, for the harness
		Schema:     map[string]*lower.Rules{"": mcpRules},
		Acceptance: map[string]string{"": "mcp"},
		Source:     "MCP specification 2025-11-25, schema.json Tool",
	},
	"openai": {
		Format:     "openai",
		Name:       nameOpenAI,
		HasStrict:  true,
		APIFields:  []string{"strict"}, // openai-node FunctionDefinition: name, description, parameters, strict
		Schema:     map[string]*lower.Rules{"": openAIDefault, "strict": openAIStrict},
		Acceptance: map[string]string{"": "openai"},
		Source:     "OpenAI API reference, ChatCompletionTool / FunctionDefinition",
	},
	"openai-responses": {
		Format:     "openai-responses",
		Name:       nameOpenAI,
		Carries:    []string{"output"}, // output_schema: openai-python types/responses/function_tool_param.py
		HasStrict:  true,
		APIFields:  []string{"strict", "allowed_callers", "async", "defer_loading"}, // openai-node responses FunctionTool
		Extensions: []string{"openai-responses", "openai"},
		Defers:     true, Callers: true, Groups: true, Search: "tool_search", // openai-node responses ToolSearchTool, NamespaceTool
		Schema:     map[string]*lower.Rules{"": openAIDefault, "strict": openAIStrict},
		Acceptance: map[string]string{"": "openai-responses"},
		Source:     "OpenAI API reference, Responses FunctionTool",
	},
	"anthropic": {
		Format:    "anthropic",
		Name:      NameRule{Chars: "a-zA-Z0-9_-", Max: 128, Source: "Anthropic Tool.name ^[a-zA-Z0-9_-]{1,128}$; modelcontextprotocol issue 1345 (PROVIDERS.md, corrections)"},
		Carries:   []string{"examples"},
		HasStrict: true,
		Defers:    true, Callers: true, Search: "tool_search_tool_regex_20251119", // anthropic-sdk-typescript ToolSearchToolRegex20251119
		Schema:     map[string]*lower.Rules{"": anthropicDefault, "strict": anthropicStrict},
		Acceptance: map[string]string{"": "anthropic"},
		Source:     "Anthropic API reference, Messages Tool (input_examples)",
	},
	"gemini": {
		Format:     "gemini",
		Name:       NameRule{Chars: "A-Za-z0-9_.:-", First: "A-Za-z_", Max: 64, Source: "Gemini API and Vertex FunctionDeclaration.name: at most 64 characters, '.', ':' and '-' after the first; gemini-cli issue 20987, ccs issue 25 (PROVIDERS.md, late 2026)"},
		Names:      "{namespace}:{name}", // ':' is legal: the ID as it is
		Carries:    []string{"output"},
		Schema:     map[string]*lower.Rules{"": geminiJSONSchema, "openapi": geminiOpenAPI},
		Acceptance: map[string]string{"": "gemini", "openapi": "gemini-openapi"},
		Source:     "Gemini API reference, FunctionDeclaration",
	},
	"bedrock": {
		Format:     "bedrock",
		Name:       NameRule{Chars: "a-zA-Z0-9_-", Max: 64, Source: "Bedrock Converse ToolSpecification.name"},
		HasStrict:  true,
		Schema:     map[string]*lower.Rules{"": bedrockRules, "strict": bedrockStrict},
		Acceptance: map[string]string{"": "bedrock"},
		Source:     "Bedrock Converse API reference, ToolSpecification",
	},
	"canonical": {
		Format:     "canonical",
		Carries:    []string{"title", "version", "category", "output", "annotations", "examples", "timeout", "scopes", "security", "backend", "icons", "meta", "lifecycle"},
		Extensions: []string{"*"},
		Schema:     map[string]*lower.Rules{"": keepAll},
		Source:     "toolc's canonical form: lossless",
	},
	"jsonschema": {
		Format: "jsonschema",
		// x-security and x-capabilities; the rest of a tool is not a schema.
		Carries: []string{"annotations", "scopes", "security"},
		Schema:  map[string]*lower.Rules{"": keepAll},
		Source:  "JSON Schema 2020-12: one $defs entry per tool's input schema",
	},
}
