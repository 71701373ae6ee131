package accept

import "slices"

// Evidence for the rules, as PROVIDERS.md gives it ("Corrections and
// additions" first). Each rule of the tables below cites one.
const (
	evOpenAIName    = "OpenAI FunctionDefinition.name ^[a-zA-Z0-9_-]{1,64}$"
	evOpenAITools   = "OpenAI: at most 128 tools per request, array_above_max_length; openai-openapi PR 76, zed issue 42393"
	evOpenAIItems   = "OpenAI: every array has items, in every mode; mark3labs/mcp-filesystem-server PR 23"
	evOpenAIDesc    = "OpenAI: function description at most 1,024 characters; getsentry/sentry-mcp issue 106"
	evOpenAIRoot    = "OpenAI: parameters must be an object schema"
	evOpenAIRootNo  = "OpenAI, strict or not: \"schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level\"; azure-openai-ha issue 146"
	evStrictProps   = "OpenAI strict: every object has a properties key; google/adk-go PR 1614"
	evStrictTyped   = "OpenAI strict: \"schema must have a 'type' key\"; pydantic-ai profiles/openai.py"
	evStrictRef     = "OpenAI strict: \"$ref cannot have keywords {'description'}\"; openai-python lib/_pydantic.py"
	evStrictReq     = "OpenAI strict: required equals the keys of properties; vercel/ai issue 7888"
	evStrictClosed  = "OpenAI strict: \"'additionalProperties' is required to be supplied and to be false\"; langchain-ai/langchain issue 34596"
	evStrictKeys    = "OpenAI structured outputs, supported schemas (PROVIDERS.md keyword table; default rejected by Azure OpenAI)"
	evStrictFormats = "OpenAI structured outputs: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid"
	evStrictPattern = "OpenAI structured outputs: patterns without lookaround"
	evStrictRoot    = "OpenAI strict: the root is an object, not anyOf"

	evAnthropicDefer  = "Anthropic's tool search tool: deferred tools need tool_search_tool_regex_20251119 or tool_search_tool_bm25_20251119 in the request, which may not be deferred itself, and a request with every tool deferred is refused (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool)"
	evOpenAIDefer     = "OpenAI's tool search: functions with defer_loading: true are loaded by the tool_search tool, and a namespace needs a description (developers.openai.com/api/docs/guides/tools-tool-search; openai-node NamespaceTool.description is required)"
	evAnthropicName   = "Anthropic tool names ^[a-zA-Z0-9_-]{1,128}$; modelcontextprotocol issue 1345"
	evAnthropicKeys   = "Anthropic: \"Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'\"; n8n issue 30590"
	evAnthropicRoot   = "Anthropic: input_schema must have type object"
	evAnthropic2020   = "Anthropic: \"JSON schema is invalid. It must match JSON Schema draft 2020-12\"; hermes-agent issue 63674"
	evAnthropicRootNo = "Anthropic, strict or not: \"input_schema does not support oneOf, allOf, or anyOf at the top level\"; gitlab-mcp issue 551, mobile-mcp issue 344"
	evAnthropicStrict = "Anthropic strict tool use: supported schema subset; experientiallabs/experiential issue 804"
	evAnthropicTyped  = "anthropic-sdk-python lib/_parse/_transform.py: a type, anyOf or allOf on every node"
	evAnthropicBudget = "Anthropic strict tool use: at most 20 strict tools, 24 optional and 16 union-typed parameters per request"

	evGeminiTools    = "Gemini: at most 512 function declarations per request; gemini-cli issue 19083"
	evGeminiName     = "Gemini API and Vertex FunctionDeclaration.name: at most 64 characters; gemini-cli issue 20987, ccs issue 25"
	evGeminiKeys     = "python-genai FunctionDeclaration.parameters: property names [A-Za-z_][A-Za-z0-9_]{0,63}"
	evGeminiSchema   = "go-genai Schema: the fields of Gemini's OpenAPI 3.0 subset; \"Unknown name ... Cannot find field\""
	evGeminiTyped    = "Gemini 3 rejects TYPE_UNSPECIFIED; inspect_ai PR 3097"
	evGeminiAnyOf    = "Gemini: \"When using any_of, it must be the only field set\"; vercel/ai issue 19000"
	evGeminiRequired = "Gemini: required[i]: property is not defined; vercel/ai issue 4412"
	evGeminiFormats  = "python-genai Schema.format"
	evGeminiItems    = "Gemini: ARRAY needs items"
	evGeminiEnum     = "Gemini parameters: enum of strings (format: enum)"
	evGeminiCore     = "Gemini parametersJsonSchema: Unknown name \"$schema\"; pydantic-ai issue 1250"
	evGeminiRef      = "Gemini parametersJsonSchema: $ref takes only description and default beside it; opencode issue 12295"
	evGeminiRoot     = "Gemini: parameters must be an object schema"

	evBedrockName   = "Bedrock ToolSpecification.name ^[a-zA-Z0-9_-]{1,64}$"
	evBedrockRoot   = "Bedrock: inputSchema.json.type must be object"
	evBedrockRootNo = "Bedrock serves Claude with Anthropic's rule: no oneOf, allOf or anyOf at the top level of inputSchema.json"
	evBedrockDefs   = "Bedrock Nova: \"extraneous key [definitions] is not permitted\"; pydantic-ai issue 1623"
	evBedrockStrict = "Bedrock toolSpec.strict, verified by pydantic-ai on Claude: no numeric bounds, minItems at most 1, no maxItems"
	evBedrockKeys   = "Claude on Bedrock answers with Anthropic's errors: property keys ^[a-zA-Z0-9_.-]{1,64}$"

	evRefs    = "JSON Schema: a $ref that points nowhere cannot be resolved"
	evMCPName = "MCP specification 2025-11-25, tool names (SHOULD)"
	evMCPRoot = "MCP: inputSchema must be an object schema; go-sdk Server.AddTool panics otherwise"
)

// strictNo are the keywords OpenAI's strict mode refuses.
var strictNo = []string{"oneOf", "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
	"minLength", "maxLength", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems", "additionalItems",
	"patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems",
	"default", "$dynamicRef", "$recursiveRef"}

// anthropicStrictNo are the keywords Anthropic's strict mode refuses.
var anthropicStrictNo = []string{"oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems",
	"uniqueItems", "contains", "minContains", "maxContains", "prefixItems", "additionalItems", "patternProperties",
	"propertyNames", "minProperties", "maxProperties", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"}

var objectTypes = []string{"object"}

// openAIStrict are the rules of a tool whose strict flag is true.
var openAIStrict = []Rule{
	{Kind: NoKeywords, Values: strictNo, Evidence: evStrictKeys},
	{Kind: Formats, Values: []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}, Evidence: evStrictFormats},
	{Kind: Typed, Values: []string{"type", "anyOf", "$ref", "enum", "const"}, Evidence: evStrictTyped},
	{Kind: Properties, Evidence: evStrictProps},
	{Kind: Closed, Evidence: evStrictClosed},
	{Kind: AllRequired, Evidence: evStrictReq},
	{Kind: RefSiblings, Evidence: evStrictRef},
	{Kind: NoLookaround, Evidence: evStrictPattern},
	{Kind: RootObject, Values: objectTypes, Evidence: evStrictRoot},
}

var openAISchema = []Rule{
	{Kind: Items, Evidence: evOpenAIItems},
	{Kind: RequiredProps, Evidence: "OpenAI and every server that speaks its format: \"'required' present but 'properties' is missing\"; strix issue 1088, livekit agents issue 4610"},
	{Kind: RefsResolve, Evidence: evRefs},
	{Kind: RefTargets, Evidence: "OpenAI: \"reference can only point to definitions defined at the top level of the schema\"; dotnet/extensions issue 6918"},
	{Kind: RootObject, Values: objectTypes, Evidence: evOpenAIRoot},
	{Kind: RootKeywords, Values: []string{"anyOf", "oneOf", "allOf", "enum", "not"}, Evidence: evOpenAIRootNo},
}

var openAITool = []Rule{
	{Kind: Name, Values: []string{`^[a-zA-Z0-9_-]{1,64}$`}, Evidence: evOpenAIName},
	{Kind: Description, Max: 1024, Evidence: evOpenAIDesc},
}

var anthropicStrict = []Rule{
	{Kind: NoKeywords, Values: anthropicStrictNo, Evidence: evAnthropicStrict},
	{Kind: Formats, Values: []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}, Evidence: evAnthropicStrict},
	{Kind: MinItems, Values: []string{"0", "1"}, Evidence: evAnthropicStrict},
	{Kind: Typed, Values: []string{"type", "anyOf", "allOf", "$ref", "enum", "const"}, Evidence: evAnthropicTyped},
	{Kind: Closed, Evidence: evAnthropicStrict},
	{Kind: Acyclic, Evidence: evAnthropicStrict},
}

var anthropicBudget = []Rule{
	{Kind: StrictTools, Max: 20, Evidence: evAnthropicBudget},
	{Kind: Optional, Max: 24, Evidence: evAnthropicBudget},
	{Kind: Unions, Max: 16, Evidence: evAnthropicBudget},
}

var geminiTool = []Rule{{Kind: Name, Values: []string{`^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`}, Evidence: evGeminiName}}

var geminiRequest = []Rule{{Kind: Tools, Max: 512, Evidence: evGeminiTools}}

// openAI is the table of an OpenAI API whose tools have the shape s.
func openAI(name string, s Shape) *Table {
	schema := append(slices.Clone(openAISchema), Rule{Kind: PythonPattern, Evidence: "OpenAI, every mode: \"… is not a 'regex'\" for \\p{…} and possessive quantifiers, which Python's re lacks; BerriAI/litellm issues 40358 and 40485"},
		Rule{Kind: Lookaround, Evidence: "OpenAI answered \"regex lookaround is not supported\" to requests whose strict flag the reports do not show; cline/cline issue 14013, tombii/better-ccflare issue 357 (PROVIDERS.md, late November 2026)"})
	return &Table{Name: name, Provider: "OpenAI", Shape: s, Tool: openAITool, Schema: schema, Strict: openAIStrict,
		Request: []Rule{{Kind: Tools, Max: 128, Evidence: evOpenAITools}}}
}

// chatShape is the shape of a Chat Completions tools array.
var chatShape = Shape{Name: "/function/name", Description: "/function/description", Input: "/function/parameters", Strict: "/function/strict"}

// responses adds to t the rules of the Responses API's deferred loading.
func responses(t *Table) *Table {
	t.Request = append(t.Request,
		Rule{Kind: Deferral, Values: []string{"tool_search"}, Evidence: evOpenAIDefer},
		Rule{Kind: NamespaceSize, Max: 10, Evidence: "OpenAI's tool search guide: keep each namespace under about ten functions (developers.openai.com/api/docs/guides/tools-tool-search)"})
	return t
}

// tools sets how many tools t's provider takes in one request.
func tools(t *Table, max int, evidence string) *Table {
	t.Request = slices.DeleteFunc(slices.Clone(t.Request), func(r Rule) bool { return r.Kind == Tools })
	t.Request = append(t.Request, Rule{Kind: Tools, Max: max, Evidence: evidence})
	return t
}

// sameStrict makes t's provider take one strict value for all the tools of
// a request.
func sameStrict(t *Table) *Table {
	t.Request = append(slices.Clone(t.Request), Rule{Kind: SameStrict, Evidence: "Cerebras: \"Tools with mixed values for 'strict' are not allowed\"; Kilo-Org/kilocode issue 5193"})
	return t
}

// withName gives t's server a name rule of its own.
func withName(t *Table, name Rule) *Table {
	t.Tool = append([]Rule{name}, slices.DeleteFunc(slices.Clone(t.Tool), func(r Rule) bool { return r.Kind == Name })...)
	return t
}

// dialect is the table of a server that speaks OpenAI's Chat Completions
// format, with the rules it adds to OpenAI's.
func dialect(name, provider string, extra ...Rule) *Table {
	t := openAI(name, chatShape)
	t.Provider = provider
	t.Schema = append(slices.Clone(t.Schema), extra...)
	return t
}

var (
	ruleXAI      = Rule{Kind: EnumNoNull, Evidence: "xAI: \"Client specified an invalid argument\" for null inside enum; forgecode issue 2809"}
	ruleMistral  = Rule{Kind: NoKeywords, Values: []string{"$schema", "$id", "$comment"}, Evidence: "Mistral: \"Grammar error … failed to compile JSON schema\"; litellm issue 13389"}
	ruleDeepSeek = []Rule{
		{Kind: PortablePattern, Evidence: "DeepSeek compiles pattern with an engine of its own and refuses \\0; zed issue 64386"},
		{Kind: BranchTyped, Evidence: "DeepSeek V4: \"field `anyOf`: missing field `type`\"; can1357/oh-my-pi issue 2270"},
		{Kind: RootKeywords, Values: []string{"$ref"}, Evidence: "DeepSeek V4.1: error 11129 \"invalid function call parameters\" for a $ref at the root; techysy/10router issue 27"},
	}
	ruleMoonshot = []Rule{
		{Kind: AnyOfUntyped, Evidence: "Moonshot: \"when using anyOf, type should be defined in anyOf items instead of the parent schema\"; MoonshotAI/kimi-cli issue 2531, vercel/ai issue 18921"},
		{Kind: NoBoolSchemas, Evidence: "Moonshot: \"property schema … must be an object\", \"items must be an object\"; PROVIDERS.md, November 2026"},
		{Kind: Typed, Values: []string{"type", "anyOf", "oneOf"}, Evidence: "Moonshot: \"type is not defined\" for a property without type; earendil-works/pi issue 4138"},
		{Kind: RefSiblings, Evidence: "Moonshot: \"conflicting keywords found after $ref expansion: description\"; MoonshotAI/kimi-cli issues 2061 and 1903"},
		{Kind: RequiredDefined, Evidence: "Moonshot refuses required naming a property not in properties; MoonshotAI/kimi-cli issue 2457"},
	}
	nameMoonshot  = Rule{Kind: Name, Values: []string{`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`}, Evidence: "Moonshot: HTTP 400 for a tool name that starts with a digit; MoonshotAI/kimi-cli issues 2531 and 1806"}
	ruleOllama    = Rule{Kind: NoBoolSchemas, Evidence: "Ollama: HTTP 400 from /api/chat for a boolean schema where a property goes; oh-my-pi issue 4488, magec pull request 61"}
	ruleFireworks = Rule{Kind: NotEmpty, Evidence: "Fireworks: \"JSON Schema not supported: could not understand the instance {'not': {}}\"; danny-avila/LibreChat issue 9242, TencentCloudBase/CloudBase-AI-Toolkit issue 626"}
	ruleVLLM      = Rule{Kind: Formats, Values: []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}, Evidence: "vLLM: \"Grammar error: Unknown format: uri\" from llguidance, which it compiles what xgrammar lacks with (backend_xgrammar.py; llguidance parser/src/json/formats.rs); z-lab/paroquant issue 31, vllm-project/vllm issue 26421"}
	ruleSGLang    = Rule{Kind: MetaSchema, Evidence: "SGLang: \"Tool 17 function has invalid 'parameters' schema: None is not of type 'array'. Failed validating 'type' in metaschema\"; sgl-project/sglang issue 35242"}
	ruleLMStudio  = Rule{Kind: PropertyType, Evidence: "LM Studio renders tools through the model's chat template; Gemma 4's writes value['type'] | upper for every property and stops at one without a type string (\"Cannot apply filter upper to type: UndefinedValue\"); lmstudio-ai/lmstudio-bug-tracker issue 2228"}
	ruleLlamaCpp  = []Rule{
		{Kind: NoBoolSchemas, Evidence: "llama.cpp: \"JSON schema conversion failed: Unrecognized schema: true\"; oh-my-pi pull request 5919"},
		{Kind: GrammarPattern, Evidence: "llama.cpp: \"Pattern must start with '^' and end with '$'\" (containers/kubernetes-mcp-server issue 277) and \"unknown escape at \\d\" (rowboatlabs/rowboat issue 741)"},
	}
)

// acceptTables holds the acceptance table of every target and mode, by name:
// the target format, then "-" and the mode where it has several. The
// lowering profiles name the table that applies to them.
var acceptTables = map[string]*Table{
	"mcp": {
		Name: "mcp", Provider: "an MCP client",
		Shape: Shape{List: "/tools", Name: "/name", Description: "/description", Input: "/inputSchema", Output: "/outputSchema"},
		Tool:  []Rule{{Kind: Name, Values: []string{`^[A-Za-z0-9_.-]{1,128}$`}, Evidence: evMCPName}},
		Schema: []Rule{
			{Kind: RootObject, Values: objectTypes, Evidence: evMCPRoot},
			// A reference to a dialect's meta-schema resolves in every
			// validator a client uses: each ships the meta-schemas.
			{Kind: RefsResolve, Values: []string{MetaSchemas}, Evidence: evRefs},
			{Kind: MCPHeaders, Evidence: evMCPHeader},
		},
	},
	// Chat Completions nests the function; Responses is flat and carries
	// output_schema. The rules are the same.
	"openai":            openAI("openai", chatShape),
	"openai-xai":        tools(dialect("openai-xai", "xAI", ruleXAI), 200, "xAI takes up to 200 tools in one request, not OpenAI's 128 (router-for-me/CLIProxyAPI issue 5214; PROVIDERS.md, November 2026)"),
	"openai-mistral":    dialect("openai-mistral", "Mistral", ruleMistral),
	"openai-deepseek":   dialect("openai-deepseek", "DeepSeek", ruleDeepSeek...),
	"openai-moonshot":   withName(dialect("openai-moonshot", "Moonshot", ruleMoonshot...), nameMoonshot),
	"openai-ollama":     dialect("openai-ollama", "Ollama", ruleOllama),
	"openai-cerebras":   sameStrict(dialect("openai-cerebras", "Cerebras")),
	"openai-llamacpp":   dialect("openai-llamacpp", "llama.cpp's server", ruleLlamaCpp...),
	"openai-fireworks":  dialect("openai-fireworks", "Fireworks", ruleFireworks),
	"openai-vllm":       dialect("openai-vllm", "vLLM", ruleVLLM),
	"openai-sglang":     dialect("openai-sglang", "SGLang", ruleSGLang),
	"openai-lmstudio":   dialect("openai-lmstudio", "LM Studio", append(slices.Clone(ruleLlamaCpp), ruleLMStudio)...),
	"openai-compatible": withName(sameStrict(dialect("openai-compatible", "an OpenAI-compatible server", slices.Concat([]Rule{ruleXAI, ruleMistral, ruleOllama, ruleFireworks, ruleVLLM, ruleSGLang, ruleLMStudio}, ruleDeepSeek, ruleLlamaCpp, ruleMoonshot)...)), nameMoonshot),
	"openai-responses":  responses(openAI("openai-responses", Shape{Name: "/name", Description: "/description", Input: "/parameters", Output: "/output_schema", Strict: "/strict"})),
	"anthropic": {
		Name: "anthropic", Provider: "Anthropic",
		Shape: Shape{Name: "/name", Description: "/description", Input: "/input_schema", Strict: "/strict"},
		Tool:  []Rule{{Kind: Name, Values: []string{`^[a-zA-Z0-9_-]{1,128}$`}, Evidence: evAnthropicName}},
		Schema: []Rule{
			{Kind: PropertyKeys, Values: []string{`^[a-zA-Z0-9_.-]{1,64}$`}, Evidence: evAnthropicKeys},
			{Kind: RefsResolve, Evidence: "JSON Schema 2020-12: input_schema is validated as a schema; claude-code issue 7365"},
			{Kind: RootObject, Values: objectTypes, Evidence: evAnthropicRoot},
			{Kind: RootKeywords, Values: []string{"anyOf", "oneOf", "allOf"}, Evidence: evAnthropicRootNo},
			{Kind: Draft2020, Evidence: evAnthropic2020},
		},
		Strict:        anthropicStrict,
		StrictRequest: anthropicBudget,
		Request:       []Rule{{Kind: Deferral, Values: []string{"tool_search_tool_regex", "tool_search_tool_bm25"}, Evidence: evAnthropicDefer}},
	},
	"gemini": {
		Name: "gemini", Provider: "Gemini",
		Shape: Shape{List: "/functionDeclarations", Name: "/name", Description: "/description", Input: "/parametersJsonSchema", Output: "/responseJsonSchema"},
		Tool:  geminiTool,
		Schema: []Rule{
			{Kind: NoKeywords, Values: []string{"$schema", "$id", "$comment"}, Evidence: evGeminiCore},
			{Kind: RefSiblings, Values: []string{"description", "default"}, Evidence: evGeminiRef},
			{Kind: RefsResolve, Evidence: evRefs},
			{Kind: RootObject, Values: objectTypes, Evidence: evGeminiRoot},
		},
		Request: geminiRequest,
	},
	"gemini-openapi": {
		Name: "gemini-openapi", Provider: "Gemini",
		Shape: Shape{List: "/functionDeclarations", Name: "/name", Description: "/description", Input: "/parameters", Output: "/response"},
		Tool:  geminiTool,
		Schema: []Rule{
			{Kind: Keywords, Values: []string{"anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
				"maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern", "properties",
				"propertyOrdering", "required", "title", "type"}, Evidence: evGeminiSchema},
			{Kind: TypeNames, Values: []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}, Evidence: evGeminiSchema},
			{Kind: Typed, Values: []string{"type", "anyOf"}, Evidence: evGeminiTyped},
			{Kind: AnyOfAlone, Evidence: evGeminiAnyOf},
			{Kind: RequiredDefined, Evidence: evGeminiRequired},
			{Kind: Items, Evidence: evGeminiItems},
			{Kind: Formats, Values: []string{"enum", "date-time", "float", "double", "int32", "int64", "email", "byte", "date", "password"}, Evidence: evGeminiFormats},
			{Kind: EnumTypes, Values: []string{"string"}, Evidence: evGeminiEnum},
			{Kind: PropertyKeys, Values: []string{`^[A-Za-z_][A-Za-z0-9_]{0,63}$`}, Evidence: evGeminiKeys},
			{Kind: RootObject, Values: []string{"OBJECT"}, Evidence: evGeminiRoot},
		},
		Request: geminiRequest,
	},
	"bedrock": {
		Name: "bedrock", Provider: "Bedrock",
		Shape: Shape{List: "/tools", Name: "/toolSpec/name", Description: "/toolSpec/description", Input: "/toolSpec/inputSchema/json", Strict: "/toolSpec/strict"},
		Tool:  []Rule{{Kind: Name, Values: []string{`^[a-zA-Z0-9_-]{1,64}$`}, Evidence: evBedrockName}},
		Schema: []Rule{
			{Kind: NoKeywords, Values: []string{"definitions", "$defs", "$ref"}, Evidence: evBedrockDefs},
			{Kind: PropertyKeys, Values: []string{`^[a-zA-Z0-9_.-]{1,64}$`}, Evidence: evBedrockKeys},
			{Kind: RootObject, Values: objectTypes, Evidence: evBedrockRoot},
			{Kind: RootKeywords, Values: []string{"anyOf", "oneOf", "allOf"}, Evidence: evBedrockRootNo},
			{Kind: Draft2020, Evidence: evAnthropic2020 + "; Bedrock serves Claude alike"},
		},
		Strict: append([]Rule{{Kind: NoKeywords, Values: []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems"}, Evidence: evBedrockStrict},
			{Kind: MinItems, Values: []string{"0", "1"}, Evidence: evBedrockStrict}}, anthropicStrict...),
		// Claude on Bedrock: Anthropic's budgets, assumed (a warning only)
		StrictRequest: anthropicBudget,
	},
}

// evVertex: Vertex AI checks each declaration before generation.
const evVertex = "Vertex AI: \"Unable to submit request because `…` functionDeclaration parameters schema should be of type OBJECT\", for a declaration without parameters or with a root that is not an object, checked for every declaration before the model runs; ComposioHQ/composio issue 4518, BerriAI/litellm issue 18442, googleapis/python-aiplatform issue 3405"

// vertex is Vertex AI's table for the Gemini table t: every declaration
// has parameters, an object schema, and one Tool takes 128 of them.
func vertex(t *Table) *Table {
	c := *t
	c.Name, c.Provider = t.Name+"-vertex", "Vertex AI"
	c.Tool = append(slices.Clone(t.Tool), Rule{Kind: InputPresent, Evidence: evVertex})
	c.Schema = slices.Clone(t.Schema)
	for i, r := range c.Schema {
		if r.Kind == RootObject {
			c.Schema[i].Evidence = evVertex
		}
	}
	return tools(&c, 128, "Vertex AI: at most 128 function declarations per Tool, where the Gemini API takes 512 (PROVIDERS.md, late 2026)")
}

func init() {
	for _, name := range []string{"gemini", "gemini-openapi"} {
		t := vertex(acceptTables[name])
		acceptTables[t.Name] = t
	}
}

// TableNamed returns the table name.
func TableNamed(name string) (*Table, bool) {
	t, ok := acceptTables[name]
	return t, ok
}
