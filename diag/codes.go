package diag

import (
	"slices"
	"strings"
)

// Code describes one diagnostic code: one row of the table that the policy
// checks names against and that the README, rules listings and SARIF
// output are made from.
type Code struct {
	Code        string   // "category.name"
	Severity    Severity // default severity, before the policy
	Summary     string   // one line
	Explanation string   // what it means, why it matters, how to fix or silence it
}

// Category returns the part of the code before the first dot.
func (c Code) Category() string {
	cat, _, _ := strings.Cut(c.Code, ".")
	return cat
}

// codes is the table of every code toolc reports, sorted by code. Errors
// cannot be downgraded by a policy; warnings and infos can be denied, warned
// or ignored.
var codes = []Code{
	{"breaking.additional-properties-closed", Error, "an input object takes no other properties now",
		"additionalProperties became false where it was absent, true or a schema: a call that passes a property the schema does not list, which was accepted, is rejected now. Release it as a major version, or keep the object open."},
	{"breaking.bound-tightened", Error, "an input bound was added or tightened",
		"maximum, exclusiveMaximum, maxLength, maxItems or maxProperties was added or lowered, or minimum, exclusiveMinimum, minLength, minItems or minProperties was added or raised: values that were accepted are rejected now. Release it as a major version, or keep the old bound."},
	{"breaking.const-changed", Error, "an input const was added or changed",
		"The only value an input accepts changed, or an input that took any value takes one only now: calls with the old value are rejected. Release it as a major version."},
	{"breaking.constraint-loosened", Info, "an input constraint was removed or loosened",
		"A bound, pattern, enum, const or required property was removed or relaxed, or additionalProperties was opened: every call that was accepted still is, and more are. It needs a minor version."},
	{"breaking.description-changed", Info, "a description or title changed",
		"The wording of a tool's description or title, or of a property's description, changed. Callers are not broken, but models may call the tool differently; evals are worth re-running. It needs a patch version."},
	{"breaking.enum-value-added", Info, "an input enum takes another value",
		"An enum gained a value: every call that was accepted still is. It needs a minor version."},
	{"breaking.enum-value-removed", Error, "an input enum value was removed, or an enum was added",
		"A value that an input enum listed is gone, or an input that took any value takes only an enum's values now: calls with the old value are rejected. Release it as a major version, or keep the value (deprecated in its description)."},
	{"breaking.made-required", Error, "an optional input property is required now",
		"A property that calls could leave out is in required now: a stored or queued call without it is rejected. Release it as a major version, or keep it optional with a default."},
	{"breaking.optional-added", Info, "an optional input property was added",
		"A new property that calls may leave out: every call that was accepted still is. It needs a minor version. Under strict targets it is breaking.optional-added-strict instead."},
	{"breaking.optional-added-strict", Error, "an optional input property was added, which strict targets make required",
		"OpenAI and Anthropic strict mode make every property required (optional ones nullable), so under a strict target a new optional property is a new required one: a stored call without it is rejected there. Release it as a major version, or ignore the code if your strict callers are regenerated with the catalog."},
	{"breaking.output-made-optional", Error, "an output property that was required is optional now",
		"Callers that read a tool's structured result may rely on a required property; now it can be missing. Release it as a major version."},
	{"breaking.output-property-removed", Error, "an output property, or the whole output schema, was removed",
		"Callers that read a tool's structured result lose a property they could read, or the structured result itself. Release it as a major version."},
	{"breaking.pattern-changed", Error, "an input pattern was added or changed",
		"A string input must match a new or different regular expression: values that matched the old one (or any value) may be rejected now. Release it as a major version."},
	{"breaking.property-removed", Error, "an input property was removed",
		"A property that calls could pass is gone: a call that passes it is rejected (closed objects, strict mode) or its value is silently ignored. Release it as a major version, or keep the property (deprecated in its description)."},
	{"breaking.required-added", Error, "a required input property was added",
		"A new property that every call must pass: stored and queued calls, which lack it, are rejected. Release it as a major version, or make it optional with a default."},
	{"breaking.tool-added", Info, "a tool was added",
		"A new tool ID in the catalog. It needs a minor version."},
	{"breaking.tool-removed", Error, "a tool was removed or renamed",
		"A tool ID of the old catalog is not in the new one (a rename is a removal and an addition): calls to it fail. Release it as a major version, or keep the old tool beside the new one for a while."},
	{"breaking.type-changed", Error, "an input type was narrowed or changed, or an output type widened",
		"An input accepts fewer JSON types than it did (integer instead of number, string instead of any), so calls with the old types are rejected; or an output may now be of a type it never was, which callers do not expect. Release it as a major version."},
	{"breaking.unverified", Warning, "an assertion that toolc does not compare changed",
		"toolc breaking compares types, enums, consts, patterns, bounds, properties, required and additionalProperties, through $refs and items. A change to anyOf, oneOf, allOf, not, if/then/else, dependentRequired/dependentSchemas, patternProperties, propertyNames, contains, uniqueItems, multipleOf, format or unevaluated* may or may not break callers, so it is reported instead of being passed over. Check it by hand, then ignore the code for this release if it is harmless."},
	{"breaking.version", Error, "the catalog version does not bump its major number for a breaking change",
		"toolc breaking compares [catalog] version in the two manifests: a breaking change needs a new major version (in 0.y.z, a new minor one, as cargo reads it), or callers that trust semver upgrade into it. Set the version it names, or ignore the breaking codes that do not apply."},
	{"breaking.version-minor", Warning, "the catalog version is a patch release but the catalog gained something",
		"Additions (a tool, an optional property, an enum value, a loosened constraint) call for a minor version, so that callers can tell which release has them. Set the version it names."},

	{"catalog.duplicate-id", Error, "two tools in the catalog have the same ID",
		"Tool IDs (namespace:name, or name without a namespace) must be unique in a catalog. The message names both sources. Give one of the sources a namespace, or rename one tool."},
	{"catalog.empty", Warning, "the catalog has no tools",
		"No source file yielded a tool, so every bundle is empty. Check the include globs of [[sources]]."},

	{"check.missing", Error, "an output or toolc.lock that the build writes does not exist",
		"toolc build --check found that a bundle or the lock file is not on disk. Run toolc build and commit what it writes; the pre-commit hook and the CI check then pass."},
	{"check.out-of-date", Error, "an output or toolc.lock differs from what the build writes",
		"toolc build --check found that a bundle or the lock file on disk is not what building the manifest and sources now gives: a source, the manifest or toolc changed without a rebuild, or the file was edited by hand. Run toolc build and commit the result; add --diff to see the difference."},

	{"limit.description", Warning, "a tool description is longer than the target takes",
		"OpenAI has rejected function descriptions over 1,024 characters (unverified whether it still does)."},
	{"limit.inline-size", Warning, "inlining would grow a schema past the inline-size limit",
		"Shared definitions used many times and nested can grow exponentially when inlined. Past the limit (10,000 nodes unless [targets.limits] says otherwise) references are cut as loss.ref."},
	{"limit.strict-depth", Warning, "a schema nests objects deeper than strict mode takes",
		"OpenAI strict mode takes at most 10 levels of nested objects."},
	{"limit.strict-enum-chars", Warning, "a long string enum has more characters than strict mode takes",
		"OpenAI strict mode takes at most 15,000 characters in a string enum of more than 250 values."},
	{"limit.strict-enum-values", Warning, "a schema has more enum values than strict mode takes",
		"OpenAI strict mode takes at most 1,000 enum values in a schema."},
	{"limit.strict-name-chars", Warning, "a schema's names are longer in total than strict mode takes",
		"OpenAI strict mode takes at most 120,000 characters of property names, definition names and enum and const values."},
	{"limit.strict-optional", Warning, "a bundle has more optional parameters than Anthropic strict mode takes per request",
		"Anthropic strict mode takes at most 24 optional parameters per request, counted after $ref expansion (from secondary sources). Split the bundle or make parameters required."},
	{"limit.strict-properties", Warning, "a schema has more object properties than strict mode takes",
		"OpenAI strict mode takes at most 5,000 object properties in a schema."},
	{"limit.strict-tools", Warning, "a bundle has more strict tools than Anthropic takes per request",
		"Anthropic takes at most 20 strict tools per request (from secondary sources)."},
	{"limit.strict-unions", Warning, "a bundle has more union-typed parameters than Anthropic strict mode takes per request",
		"Anthropic strict mode takes at most 16 union-typed parameters (anyOf or type arrays) per request, counted after $ref expansion (from secondary sources)."},

	{"lint.array-items-missing", Warning, "an array schema has no items",
		"An array without \"items\" (or \"prefixItems\") accepts anything, so the model cannot know what to put in it; OpenAI and Anthropic strict modes and Gemini reject such schemas. Add items."},
	{"lint.const-invalid", Warning, "a const value is not valid against its own schema",
		"The const value breaks another keyword of the same schema (its type, pattern, bounds …), so no value can ever be valid. Fix the const or the schema."},
	{"lint.def-unused", Warning, "a definition is never referenced",
		"An entry of $defs or definitions that no $ref uses is dead weight in every request and hides mistakes in reference paths. Remove it or refer to it."},
	{"lint.default-invalid", Warning, "a default value is not valid against its own schema",
		"A default that the schema rejects misleads the model and the tool's callers, and strict providers reject some. Fix the default or the schema."},
	{"lint.description-missing", Warning, "a tool has no description",
		"Without a description the model has only the tool's name to decide when to call it. Say what the tool does and when to use it."},
	{"lint.description-too-long", Warning, "a tool's description is longer than 1,024 characters",
		"OpenAI has rejected function descriptions over 1,024 characters (unverified whether it still does), and long descriptions cost tokens on every request. Move details into parameter descriptions."},
	{"lint.enum-duplicate", Warning, "an enum lists a value twice",
		"A repeated enum value is usually a copy-and-paste slip, and strict modes count every value against their limits. Remove the repeat."},
	{"lint.enum-invalid", Warning, "an enum value is not valid against its own schema",
		"An enum value that the rest of the schema rejects (a string in an integer enum, a value breaking the pattern) can never be sent. Fix the value or the schema."},
	{"lint.example-invalid", Warning, "an example (a schema's examples entry or a tool's input example) is not valid against its schema",
		"A schema's examples entry, or a tool's input example, that the schema rejects teaches the model the wrong shape. Fix the example or the schema."},
	{"lint.parameter-description-missing", Warning, "an input parameter has no description (nor title, nor $ref)",
		"Models pick argument values from parameter descriptions; a parameter with only a name is often filled wrong. Describe what it is and which values make sense (a title or a $ref'd definition's description also counts)."},
	{"lint.required-unknown-property", Warning, "required names a property that properties lacks",
		"A name in \"required\" that no \"properties\" entry (here or in an allOf/anyOf/oneOf branch) declares is a frequent cause of provider rejections and usually a typo. Add the property or remove the name."},

	{"loss.additional-properties", Warning, "additionalProperties was dropped or closed",
		"Strict modes require additionalProperties: false on every object, so an open map ({\"additionalProperties\": {...}}) is closed; Gemini's OpenAPI schema has no additionalProperties at all."},
	{"loss.all-of", Warning, "an allOf member could not be merged",
		"The target has no allOf, so toolc merges the members into their schema where the result accepts exactly the same values; a member that would change what is accepted (conflicting types, a closed object with other properties, an unresolvable $ref) is dropped."},
	{"loss.annotations", Warning, "the target cannot carry the tool's annotations",
		"MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title) have no place in this target's tool format and are left out of its bundle. Clients of this target will not see the hints. Ignore the code for the target if that is expected."},
	{"loss.any-of", Warning, "the target cannot carry anyOf",
		"anyOf is dropped, so the schema accepts any value its other keywords allow."},
	{"loss.conditional", Warning, "the target cannot carry if/then/else",
		"Conditional subschemas are dropped: their constraints are not checked by the provider."},
	{"loss.const", Warning, "a const could not be carried",
		"The target has no const and the value is not one of the schema's enum values, so the const is dropped."},
	{"loss.contains", Warning, "the target cannot carry contains",
		"contains, minContains and maxContains are dropped."},
	{"loss.core", Warning, "the target cannot carry $schema, $id, $comment or an anchor",
		"Strict modes and Gemini's OpenAPI schema take none of the core keywords besides $ref and $defs; they are dropped."},
	{"loss.default", Warning, "the target cannot carry default",
		"OpenAI strict mode and Gemini's JSON Schema field take no default; it is dropped."},
	{"loss.dependent", Warning, "the target cannot carry dependentRequired/dependentSchemas",
		"Dependencies between properties are dropped. State them in the description, or use the describe option."},
	{"loss.enum", Warning, "the target cannot carry this enum",
		"The target takes enums only of some value types (Gemini's OpenAPI schema: strings only), so the whole enum is dropped: dropping single values would narrow the schema."},
	{"loss.examples", Warning, "the target cannot carry the tool's input examples",
		"Input examples (Anthropic input_examples) have no place in this target's tool format and are left out of its bundle."},
	{"loss.exclusive-maximum", Warning, "the target cannot carry exclusiveMaximum",
		"The bound is dropped (Gemini and Anthropic strict mode)."},
	{"loss.exclusive-minimum", Warning, "the target cannot carry exclusiveMinimum",
		"The bound is dropped (Gemini and Anthropic strict mode)."},
	{"loss.extension", Warning, "a field specific to another format is left out",
		"The source format had fields with no canonical meaning (strict, cache_control, defer_loading, execution, unknown fields …). They are kept for a bundle of the same format and left out of bundles of other formats."},
	{"loss.format", Warning, "the target cannot carry this format",
		"Strict modes and Gemini accept only some formats; others are dropped."},
	{"loss.icons", Warning, "the target cannot carry the tool's icons",
		"MCP icons have no place in this target's tool format and are left out of its bundle."},
	{"loss.keyword", Warning, "the target cannot carry a keyword",
		"A keyword outside every other family (x- extensions, readOnly, deprecated, contentMediaType, nullable …) is dropped by targets that take only a fixed set of keywords (strict modes, Gemini)."},
	{"loss.max-items", Warning, "the target cannot carry maxItems",
		"Anthropic strict mode has no maxItems."},
	{"loss.max-length", Warning, "the target cannot carry maxLength",
		"String lengths are dropped in OpenAI and Anthropic strict mode and Gemini's JSON Schema field."},
	{"loss.max-properties", Warning, "the target cannot carry maxProperties",
		"maxProperties is dropped."},
	{"loss.maximum", Warning, "the target cannot carry maximum",
		"The bound is dropped (Anthropic strict mode has no numeric bounds)."},
	{"loss.meta", Warning, "the target cannot carry the tool's _meta",
		"MCP _meta has no place in this target's tool format and is left out of its bundle."},
	{"loss.metadata", Warning, "the target cannot carry the tool's catalog metadata (version, category, timeout, scopes)",
		"version, category, timeout and scopes are kept in toolc.lock and canonical bundles; provider formats have no field for them."},
	{"loss.min-items", Warning, "the target cannot carry this minItems",
		"Anthropic strict mode takes minItems 0 or 1 only."},
	{"loss.min-length", Warning, "the target cannot carry minLength",
		"String lengths are dropped in OpenAI and Anthropic strict mode and Gemini's JSON Schema field."},
	{"loss.min-properties", Warning, "the target cannot carry minProperties",
		"minProperties is dropped."},
	{"loss.minimum", Warning, "the target cannot carry minimum",
		"The bound is dropped (Anthropic strict mode has no numeric bounds)."},
	{"loss.multiple-of", Warning, "the target cannot carry multipleOf",
		"multipleOf is dropped (Gemini and Anthropic strict mode)."},
	{"loss.not", Warning, "the target cannot carry not",
		"The not keyword is dropped: values it excluded are accepted."},
	{"loss.one-of", Warning, "the target cannot carry oneOf",
		"oneOf could not be written as anyOf (the schema has an anyOf already) and is dropped."},
	{"loss.output-schema", Warning, "the target cannot carry the tool's output schema",
		"Only MCP carries an output schema (for structuredContent). Other targets drop it: a model using them will not know the shape of the result."},
	{"loss.pattern", Warning, "the target cannot carry this pattern",
		"The target has no pattern, or none with lookaround (OpenAI strict). The pattern is dropped; use the describe option to keep it in the description."},
	{"loss.pattern-properties", Warning, "the target cannot carry patternProperties",
		"patternProperties is dropped."},
	{"loss.prefix-items", Warning, "a tuple was rewritten or dropped",
		"The target has no prefixItems, so a tuple becomes items: {anyOf: [...]} (with maxItems when it was closed): each position may now hold any of the tuple's item types."},
	{"loss.property-names", Warning, "the target cannot carry propertyNames",
		"propertyNames is dropped."},
	{"loss.ref", Warning, "a $ref could not be carried or inlined",
		"The target has no $ref (or no recursive one), and this reference could not be inlined: it is recursive, points to another document or nowhere, or inlining it would pass the inline-size limit. It is replaced by the type of its definition, or dropped, so the target accepts more than the source. Remove the recursion, or deny this code to fail the build."},
	{"loss.title", Warning, "the target cannot carry the tool's title",
		"The human-readable title has no place in this target's tool format. The description is kept."},
	{"loss.type-union", Warning, "a type array could not be expressed",
		"The target has no type arrays and the schema also has an anyOf, so the type was narrowed to its first non-null member."},
	{"loss.unevaluated", Warning, "the target cannot carry unevaluatedProperties/unevaluatedItems",
		"unevaluated* keywords are dropped."},
	{"loss.unique-items", Warning, "the target cannot carry uniqueItems",
		"uniqueItems is dropped."},

	{"lower.all-of-merged", Info, "allOf members were merged into their schema",
		"The target has no allOf. The merged schema accepts exactly the values the allOf did."},
	{"lower.const-as-enum", Info, "const was written as a one-value enum",
		"The target has no const (Gemini); enum: [value] means the same."},
	{"lower.one-of-as-any-of", Warning, "oneOf was written as anyOf",
		"The target has no oneOf (strict modes, Gemini). anyOf also accepts a value that matches more than one branch; for disjoint branches nothing changes."},
	{"lower.ref-inlined", Info, "a $ref was replaced by a copy of its definition",
		"The target has no $ref (Gemini's OpenAPI schema, Bedrock), so the definition is copied in place. Nothing is lost; the schema grows (see limit.inline-size)."},
	{"lower.strict-closed", Info, "additionalProperties: false was added to an object",
		"Strict modes require every object to be closed. A model in strict mode cannot send properties the schema does not declare."},
	{"lower.strict-optional", Info, "an optional property was made required and nullable",
		"Strict modes require every property to be listed in required, so optional ones are made nullable instead. toolc.lock lists them under [tools.optional] per target: treat null there as \"left out\"."},
	{"lower.strict-overridden", Info, "a target's strict option replaced the strict flag of a tool's source",
		"The source said \"strict\": true (or false) and the target's strict option says otherwise; the target wins, and the schema is lowered for the mode the option names. Remove one of the two to silence it."},
	{"lower.type-as-nullable", Info, "a type array or null branch was written with nullable",
		"Gemini's OpenAPI schema has no type arrays and no null type: [T, \"null\"] becomes T with \"nullable\": true, several types become anyOf."},

	{"manifest.invalid", Error, "a value in toolc.toml is not valid",
		"A manifest value is out of range or inconsistent with another (an unknown format, two targets with one out path, an output that is also a source). The message names the key and its line."},
	{"manifest.path-escape", Error, "a path in toolc.toml leaves the manifest's folder",
		"Paths in the manifest are relative to its folder and must stay inside it: no '..', no absolute paths, no symlink that points outside. This keeps builds reproducible and stops a manifest from reading or writing files it does not own."},
	{"manifest.syntax", Error, "toolc.toml is not valid TOML (or cannot be read)",
		"The manifest could not be parsed. The message gives the line and column of the first syntax error."},
	{"manifest.type", Error, "a key in toolc.toml has the wrong type",
		"A manifest key has a value of the wrong TOML type, e.g. a string where a list of strings is expected."},
	{"manifest.unknown-code", Error, "a policy names an unknown code or category",
		"[policy] and per-target policy entries must be codes or categories that toolc reports; the README lists them. A typo would otherwise silently deny or ignore nothing."},
	{"manifest.unknown-key", Error, "toolc.toml has a key that toolc does not know",
		"Manifest decoding is strict so that a misspelt key is not silently ignored. Target options are per format: an option that the target's format does not take is unknown too."},
	{"manifest.version", Error, "toolc.toml has a missing or unsupported version",
		"The manifest must start with `version = 1`."},

	{"name.collision", Error, "two tools map to the same name in a target",
		"After mapping IDs to the target's legal names, two tools would have one name, and a model's tool call could not be routed back. Rename one tool or change its namespace."},
	{"name.invalid", Error, "a tool's name is not legal for a target",
		"Each provider accepts a different set of characters and length for tool names (OpenAI, Anthropic and Bedrock: ^[a-zA-Z0-9_-]{1,64}$; MCP: ^[A-Za-z0-9_.-]{1,128}$). Rename the tool."},
	{"name.rewritten", Info, "a tool's name was changed to be legal for a target",
		"Characters the target does not take became '_', and a name that was too long kept its start and got a stable hash suffix. toolc.lock maps every tool ID to its emitted name per target."},

	{"repair.exclusive-bound", Warning, "a boolean exclusiveMinimum/exclusiveMaximum was rewritten",
		"draft-04 and OpenAPI 3.0 write \"exclusiveMinimum\": true next to \"minimum\"; later dialects take the bound itself. With repair = true toolc rewrites it; without, it is schema.invalid."},
	{"repair.nullable", Warning, "OpenAPI 3.0 nullable was rewritten as a JSON Schema type",
		"\"nullable\": true is OpenAPI 3.0, not JSON Schema: every validator ignores it. With repair = true toolc adds \"null\" to the type (and to the enum)."},
	{"repair.optional", Warning, "a non-standard optional list or flag was rewritten",
		"ToolBench and others mark optional parameters with \"optional\"; JSON Schema uses the parent's \"required\" list. With repair = true toolc moves the information there."},
	{"repair.required-flag", Warning, "a draft-03 required flag was rewritten",
		"\"required\": true on a property is draft-03; later dialects list required names in the parent. With repair = true toolc moves it there."},
	{"repair.type", Warning, "a non-standard type name was rewritten",
		"Catalogs written for Python or Java (the BFCL benchmark, some MCP servers) use type names such as dict, float, tuple, any, str, String, HashMap or long. With repair = true toolc rewrites them to JSON Schema types (any: no type keyword); without, they are schema.invalid."},

	{"schema.dangling-ref", Error, "a local $ref points to nothing",
		"A $ref inside the schema (#/$defs/…, #/definitions/…, an anchor) names a place the schema does not have. Providers reject such schemas, and lowering cannot inline them. Fix the pointer or add the definition."},
	{"schema.external-ref", Warning, "a $ref points outside the schema (never fetched or read)",
		"toolc never fetches a URL or reads a file because a schema says so, so a remote or file reference stays unresolved: no provider will resolve it either. Copy the referenced schema into $defs."},
	{"schema.invalid", Error, "a schema is not valid against its dialect's meta-schema",
		"Every input and output schema is checked against the meta-schema of its dialect (2020-12 unless $schema says draft-07, 2019-09, draft-06 or draft-04). The message gives the keyword and the meta-schema's reason."},
	{"schema.not-object", Error, "a tool's input or output schema is not an object schema",
		"Every provider requires the input schema to be an object schema (\"type\": \"object\"), and MCP requires the same of the output schema. A tool with no parameters has {\"type\": \"object\", \"additionalProperties\": false}."},
	{"schema.unknown-dialect", Error, "a schema's $schema names a dialect toolc does not know",
		"Without a known dialect a schema cannot be validated or lowered soundly. Use a JSON Schema dialect URI (2020-12, 2019-09, draft-07, draft-06, draft-04) or remove $schema for 2020-12, MCP's default."},

	{"source.ignored-field", Warning, "a field of a source file that toolc does not read",
		"A field outside any tool (such as the server description in a tools/list dump) has no place in the catalog and is not carried into any bundle."},
	{"source.invalid", Error, "a source file does not have the shape of its format",
		"A required field is missing or has the wrong JSON type (a tool without a name, input_schema that is a string …). The message says what was expected."},
	{"source.name-collision", Error, "two tools of one source file get the same name",
		"An OpenAPI operation's tool name is its operationId made legal (every run of characters outside [A-Za-z0-9_.-] becomes '_'), or its method and path without one. Two operations that map to one name would be one tool; give them distinct operationIds."},
	{"source.no-match", Warning, "an include glob matches no file",
		"A [[sources]] include pattern matched nothing, which is usually a typo or a moved folder."},
	{"source.openapi-converted", Info, "OpenAPI 3.0 schema keywords were rewritten as JSON Schema 2020-12",
		"OpenAPI 3.0 schemas are a dialect of JSON Schema: nullable, boolean exclusiveMinimum/exclusiveMaximum and example mean the same as a \"null\" type, numeric exclusive bounds and examples in 2020-12, which every target reads. Each kind of rewrite is reported once per file, with its count and the first place. The meaning is kept; a nullable without a type, which means nothing in OpenAPI 3.0.3, is removed. Gemini parameters, an OpenAPI 3.0 subset, are read the same way."},
	{"source.openapi-skipped", Warning, "a part of an OpenAPI operation has no JSON Schema form and is left out",
		"A request body of a media type other than JSON or a form (XML, octet-stream …), a success response whose schema is not an object (an MCP output schema must be one), or a $ref to another file is left out of the tool. The tool still works for what it kept; describe the body or response as JSON to keep it."},
	{"source.parse", Error, "a source file is not valid JSON (or YAML, for .yaml and .yml files)",
		"The file could not be parsed; the position is that of the first syntax error. Files named .yaml or .yml are read as YAML (one document; anchors, aliases and merge keys expanded; keys and values that JSON cannot hold, such as a mapping used as a key or .inf, are errors); every other file is JSON."},
	{"source.read", Error, "a source file cannot be read",
		"The file named by the manifest could not be opened or read."},
	{"source.unknown-format", Error, "the format of a source file cannot be detected",
		"With format = \"auto\", toolc scores every format on the file's shape. When no format fits, or two fit equally well, set format = \"…\" on the source."},
	{"source.unsupported-tool-type", Warning, "a provider-defined tool without a schema is skipped",
		"Provider-defined tools (Anthropic computer_*, bash_*, text_editor_*, web_search_*; OpenAI file_search …) are configured by the provider, not by a JSON Schema, and cannot be converted. They are skipped."},
	{"source.unsupported-version", Error, "a source file is in a version of its format that toolc does not read",
		"toolc reads OpenAPI 3.0, 3.1 and 3.2. Swagger 2.0 descriptions differ in shape (definitions, body parameters, produces/consumes); convert them to OpenAPI 3 first, for example with swagger2openapi or the Swagger Editor."},
}

// Lookup returns the row of the table for code.
func Lookup(code string) (Code, bool) {
	i, ok := slices.BinarySearchFunc(codes, code, func(c Code, code string) int { return strings.Compare(c.Code, code) })
	if !ok {
		return Code{}, false
	}
	return codes[i], true
}

// Codes returns every code, sorted.
func Codes() []Code { return slices.Clone(codes) }

// IsCategory reports whether name is the category of at least one code.
func IsCategory(name string) bool {
	return slices.ContainsFunc(codes, func(c Code) bool { return c.Category() == name })
}

// Known reports whether entry is a code or a category, as a policy entry may be.
func Known(entry string) bool {
	_, ok := Lookup(entry)
	return ok || IsCategory(entry)
}
