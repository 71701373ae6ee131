package profile

import (
	"fmt"

	"slices"
	"strings"

	"github.com/toolc-dev/toolc/internal/lower"

	"github.com/toolc-dev/toolc/internal/suggest"
)

// Dialect is a server that speaks a target's format but differs from the
// provider in what it takes: one row per server, with its evidence, so
// that a server is a line of this table rather than a branch in the code.
type Dialect struct {
	Name string
	// Strict says whether the server takes the "strict" flag, and so strict
	// mode; where it does not, the flag is never written.
	Strict bool
	// SameStrict says the server takes one strict value for all the tools
	// of a request: strict = "auto" is refused, and without strict on the
	// target every tool is written non-strict.
	SameStrict bool
	// Rows are schema rules the server adds to the format's, in every
	// mode; a manifest's profile override of the same feature wins.
	Rows []lower.Row
	// Names, when set, is the server's rule for tool names, which replaces
	// the format's.
	Names NameRule
	// Acceptance names the acceptance table that checks what the server
	// takes; "" is the format's.
	Acceptance string
	Source     string
}

// The servers' own rules (PROVIDERS.md, late 2026), each a row with its
// evidence. compatible, for a server nobody has described, takes them all.
var (
	rowXAI      = lower.Row{Feature: "enum-null", Action: lower.Drop, Source: "xAI refuses null inside enum (\"Client specified an invalid argument\"; forgecode issue 2809): a nullable enum keeps null in type only"}
	rowMistral  = lower.Row{Feature: "core", Action: lower.Drop, Source: "Mistral refuses $schema and $id in parameters (\"Grammar error … failed to compile JSON schema\"; litellm issue 13389)"}
	rowDeepSeek = lower.Row{Feature: "pattern", Action: lower.Portable, Source: "DeepSeek compiles pattern with an engine of its own and refuses ECMA-262-only escapes such as \\0 (zed issue 64386)"}
	rowLlamaCpp = []lower.Row{
		{Feature: "bool-schemas", Action: lower.Object, Source: "llama.cpp's grammar conversion fails on a boolean schema (\"Unrecognized schema: true\"; oh-my-pi pull request 5919)"},
		{Feature: "never", Action: lower.Prune, Source: "llama.cpp's grammar conversion fails on false too, and reads {\"not\": {}} as any value (common/json-schema-to-grammar.cpp); a schema that accepts none is removed or written {\"type\": T, \"enum\": []}"},
		{Feature: "pattern", Action: lower.Grammar, Source: "llama.cpp's server compiles a pattern into a grammar: it must be anchored ^…$ (containers/kubernetes-mcp-server issue 277) and may not use \\d, \\w, \\s (rowboatlabs/rowboat issue 741); written portably, as DeepSeek needs, too"},
	}
	rowDeepSeekV41 = lower.Row{Feature: "root-ref", Action: lower.Inline, Source: "DeepSeek V4.1 refuses a $ref at the root of parameters (error 11129 \"invalid function call parameters\"; techysy/10router issue 27): its target is merged into the root"}
	rowDeepSeekV4  = lower.Row{Feature: "branch-types", Action: lower.Type, Source: "DeepSeek V4 refuses an anyOf branch without type (\"field `anyOf`: missing field `type`\"; can1357/oh-my-pi issue 2270): each gets the type it already has"}
	rowMoonshot    = []lower.Row{
		{Feature: "any-of-type", Action: lower.Alone, Source: "Moonshot refuses type beside anyOf (\"when using anyOf, type should be defined in anyOf items instead of the parent schema\"; MoonshotAI/kimi-cli issue 2531, vercel/ai issue 18921)"},
		{Feature: "bool-schemas", Action: lower.Object, Source: "Moonshot refuses a boolean subschema (\"property schema … must be an object\", \"items must be an object\"; PROVIDERS.md, November 2026)"},
		{Feature: "never", Action: lower.Prune, Source: "Moonshot refuses false as a subschema and a property without type, so a schema that accepts no value is removed or written {\"type\": T, \"enum\": []}"},
		{Feature: "untyped", Action: lower.Type, Source: "Moonshot refuses a property without type (\"type is not defined\"; earendil-works/pi issue 4138)"},
		{Feature: "allOf", Action: lower.Merge, Source: "Moonshot refuses a property without type, and allOf gives it none (earendil-works/pi issue 4138)"},
		{Feature: "$ref", Action: lower.Inline, Source: "Moonshot expands $ref itself and refuses one with sibling keywords (\"conflicting keywords found after $ref expansion: description\"; MoonshotAI/kimi-cli issues 2061 and 1903)"},
		{Feature: "required-undefined", Action: lower.Prune, Source: "Moonshot refuses required naming a property not in properties (MoonshotAI/kimi-cli issue 2457)"},
	}
	namesMoonshot = NameRule{Chars: "a-zA-Z0-9_-", First: "a-zA-Z_", Max: 64, Source: "Moonshot answers HTTP 400 to a tool name that starts with a digit (MoonshotAI/kimi-cli issues 2531 and 1806)"}
	rowOllama     = []lower.Row{
		{Feature: "bool-schemas", Action: lower.Object, Source: "Ollama answers HTTP 400 to a boolean schema where a property goes (oh-my-pi issue 4488, magec pull request 61): true is written {}"},
		{Feature: "never", Action: lower.Prune, Source: "Ollama refuses false where a property goes (oh-my-pi issue 4488): a schema that accepts no value is removed or written {\"type\": T, \"enum\": []}, not {\"not\": {}}, which Fireworks refuses (LibreChat issue 9242)"},
	}
	rowFireworks = lower.Row{Feature: "never", Action: lower.Prune, Source: "Fireworks refuses {\"not\": {}} (\"could not understand the instance {'not': {}}\"; danny-avila/LibreChat issue 9242, CloudBase-AI-Toolkit issue 626): a schema that accepts no value is removed or written {\"type\": T, \"enum\": []}"}
	// formatsLLGuidance are the formats llguidance knows (parser/src/json/formats.rs),
	// all of which xgrammar knows too (cpp/json_schema_converter.cc).
	formatsLLGuidance = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	rowVLLM           = lower.Row{Feature: "format", Action: lower.Only, Values: formatsLLGuidance, Source: "vLLM compiles a tool's schema with xgrammar and, for what xgrammar lacks (vllm/v1/structured_output/backend_xgrammar.py), with llguidance, which refuses a format it does not know (\"Grammar error: Unknown format: uri\"; z-lab/paroquant issue 31, vllm-project/vllm issue 26421): only the formats both engines know are kept"}
	rowLMStudio       = append(slices.Clone(rowLlamaCpp),
		lower.Row{Feature: "property-type", Action: lower.Type, Source: "LM Studio renders tools through the model's chat template, and Gemma 4's writes value['type'] | upper for every property: one without a type string stops the request (\"Cannot apply filter upper to type: UndefinedValue\"; lmstudio-ai/lmstudio-bug-tracker issue 2228)"},
		lower.Row{Feature: "$ref", Action: lower.Inline, Source: "LM Studio: a property that is a $ref has no type for the chat template to render (lmstudio-bug-tracker issue 2228), so references are inlined"})
)

// dialects lists, per target format, the servers that speak it; the first
// is the default.
var dialects = map[string][]Dialect{
	"openai": {
		{Name: "openai", Strict: true, Source: "OpenAI Chat Completions: FunctionDefinition.strict"},
		{Name: "xai", Rows: []lower.Row{rowXAI}, Acceptance: "openai-xai", Source: "xAI rejects strict (PROVIDERS.md, corrections) and null inside enum (forgecode issue 2809); it takes 200 tools per request (CLIProxyAPI issue 5214)"},
		{Name: "groq", Source: "Groq refuses required without properties (strix issue 1088, livekit agents issue 4610), as every OpenAI dialect now gets; 128 tools per request"},
		{Name: "mistral", Rows: []lower.Row{rowMistral}, Acceptance: "openai-mistral", Source: "Mistral refuses $schema and $id in parameters (litellm issue 13389)"},
		{Name: "deepseek", Rows: []lower.Row{rowDeepSeek, rowDeepSeekV4, rowDeepSeekV41}, Acceptance: "openai-deepseek", Source: "DeepSeek refuses ECMA-262-only pattern escapes (zed issue 64386), from V4 an anyOf branch without type (oh-my-pi issue 2270), and from V4.1 a $ref at the root (10router issue 27)"},
		{Name: "moonshot", Rows: rowMoonshot, Names: namesMoonshot, Acceptance: "openai-moonshot", Source: "Moonshot (Kimi) refuses type beside anyOf, boolean subschemas, untyped properties, $ref with siblings, required naming undefined properties and tool names that start with a digit (MoonshotAI/kimi-cli issues 2531, 2061, 2457, 1806; earendil-works/pi issue 4138)"},
		{Name: "ollama", Rows: rowOllama, Acceptance: "openai-ollama", Source: "Ollama refuses boolean subschemas (oh-my-pi issue 4488)"},
		{Name: "cerebras", Strict: true, SameStrict: true, Acceptance: "openai-cerebras", Source: "Cerebras refuses a request whose tools have mixed strict values (\"Tools with mixed values for 'strict' are not allowed\"; Kilo-Org/kilocode issue 5193)"},
		{Name: "llamacpp", Rows: rowLlamaCpp, Acceptance: "openai-llamacpp", Source: "llama.cpp's server refuses boolean subschemas and patterns not anchored or with \\d, \\w, \\s (oh-my-pi pull request 5919; kubernetes-mcp-server issue 277, rowboat issue 741)"},
		// compatible takes llama.cpp's pattern row, which writes patterns
		// portably as DeepSeek's does, and more.
		{Name: "fireworks", Rows: []lower.Row{rowFireworks}, Acceptance: "openai-fireworks", Source: "Fireworks refuses {\"not\": {}} (LibreChat issue 9242) and, reportedly, a subschema holding only required (earendil-works/pi issue 5352), which every OpenAI dialect writes with properties: {}"},
		{Name: "vllm", Rows: []lower.Row{rowVLLM}, Acceptance: "openai-vllm", Source: "vLLM refuses a format its grammar engines do not know (z-lab/paroquant issue 31, vllm-project/vllm issue 26421)"},
		{Name: "sglang", Acceptance: "openai-sglang", Source: "SGLang validates parameters against the JSON Schema 2020-12 meta-schema (\"None is not of type 'array'\"; sgl-project/sglang issue 35242), which toolc holds every schema to already"},
		{Name: "lmstudio", Rows: rowLMStudio, Acceptance: "openai-lmstudio", Source: "LM Studio compiles schemas with llama.cpp and renders tools through the model's chat template, which needs one type on every property (lmstudio-bug-tracker issue 2228) and, for gpt-oss, items on every array (\"Function is not a bool value\", HTTP 500; codexu/note-gen pull request 1227), which every OpenAI dialect adds"},
		{Name: "compatible", Rows: union([]lower.Row{rowXAI, rowMistral}, rowLlamaCpp, []lower.Row{rowDeepSeekV4, rowDeepSeekV41}, rowMoonshot, []lower.Row{rowVLLM}, rowLMStudio), Names: namesMoonshot, Acceptance: "openai-compatible",
			Source: "OpenAI-compatible servers differ; legacy functions reject strict (PROVIDERS.md, corrections): every dialect's rules at once"},
	},
}

// union returns the rows of every list, the first of each feature: a
// feature two servers lower alike is one row.
func union(lists ...[]lower.Row) []lower.Row {
	var out []lower.Row
	for _, l := range lists {
		for _, r := range l {
			if !slices.ContainsFunc(out, func(o lower.Row) bool { return o.Feature == r.Feature }) {
				out = append(out, r)
			}
		}
	}
	return out
}

// Dialects returns the dialects of a target format, the default first; nil
// for a format that has none.
func Dialects(format string) []Dialect { return slices.Clone(dialects[format]) }

// dialect returns the dialect opts name, the default when none.
func (p *Profile) dialect(opts Options) (Dialect, bool) {
	ds := dialects[p.Format]
	if len(ds) == 0 {
		return Dialect{Name: p.Format, Strict: p.HasStrict}, opts.Dialect == ""
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
func (p *Profile) CheckDialect(opts Options) error {
	d, ok := p.dialect(opts)
	if !ok {
		var names []string
		for _, d := range dialects[p.Format] {
			names = append(names, d.Name)
		}
		return fmt.Errorf("unknown dialect %q of %s (one of %s)%s", opts.Dialect, p.Format, strings.Join(names, ", "), suggest.Hint(opts.Dialect, names))
	}
	if !d.Strict && opts.Strict != nil && *opts.Strict {
		return fmt.Errorf("dialect %q takes no strict mode (%s)", d.Name, d.Source)
	}
	if d.SameStrict && opts.Auto {
		return fmt.Errorf("dialect %q takes one strict value for every tool of a request, and strict = \"auto\" writes a different one where strict mode would narrow a tool (%s); set strict = true or false", d.Name, d.Source)
	}
	return nil
}
