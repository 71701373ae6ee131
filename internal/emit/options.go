package emit

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The options of each provider format, declared once (package option
// reads them): the manifest decodes a target's table into its format's
// struct, strictly, and toolc.schema.json and docs/manifest.md are made
// from them.

// MCPOptions are the mcp target's options.
type MCPOptions struct {
	profile.Lowering
	Clients  []profile.ClientName `toml:"clients" doc:"the MCP clients the bundle is made for, whose rules it meets; the others' refusals are warnings"`
	Protocol profile.Revision     `toml:"protocol" doc:"the MCP revision the bundle is for, the newest by default: its tools/list result's shape; before 2026-07-28 an output schema must be an object schema"`
	// TTL and CacheScope are a 2026-07-28 tools/list result's caching
	// hints (server/utilities/caching): how long a client may keep the
	// list, and whether shared caches may. A catalog changes when it is
	// released, and is the same for every caller: five minutes (the
	// specification's own example, ttlMs 300000) bounds how long a
	// release takes to reach clients that do not listen for
	// list_changed, and "public" is what the specification advises for
	// a tool list identical for all users.
	TTL        string `toml:"ttl" default:"5m" doc:"2026-07-28: how long a client may consider the tool list fresh (ttlMs), a duration such as \"5m\" or \"0s\""`
	CacheScope string `toml:"cache_scope" enum:"public,private" default:"public" doc:"2026-07-28: public (any client or shared cache may keep the list) or private (one authorization context only: a list that differs per user)"`
}

// DefaultTTL is how long a 2026-07-28 tools/list result is fresh when the
// target does not say (MCPOptions.TTL).
const DefaultTTL = 5 * time.Minute

// CacheHints returns the caching hints of a 2026-07-28 tools/list result:
// ttlMs and cacheScope, the defaults where o does not set them (a TTL o's
// Check has found good).
func (o *MCPOptions) CacheHints() (ttlMs int64, scope string) {
	ttl := DefaultTTL
	if d, err := time.ParseDuration(o.TTL); err == nil {
		ttl = d
	}
	return ttl.Milliseconds(), cmp.Or(o.CacheScope, "public")
}

// Apply sets the lowering's options.
func (o *MCPOptions) Apply(to *profile.Options) {
	o.Lowering.Apply(to)
	to.Protocol = string(o.Protocol)
	to.Clients = nil
	for _, c := range o.Clients {
		to.Clients = append(to.Clients, string(c))
	}
}

// Check checks the clients and the revision.
func (o *MCPOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	var to profile.Options
	o.Apply(&to)
	errs := map[string]error{"clients": p.CheckClients(to), "protocol": profile.CheckProtocol(to.Protocol)}
	if d, err := time.ParseDuration(o.TTL); o.TTL != "" && (err != nil || d < 0 || d%time.Millisecond != 0) {
		errs["ttl"] = fmt.Errorf("ttl = %q is not a duration of whole milliseconds, 0 or more (\"5m\", \"30s\", \"0s\")", o.TTL)
	}
	if !profile.Stateless(to.Protocol) {
		for k, set := range map[string]bool{"ttl": o.TTL != "", "cache_scope": o.CacheScope != ""} {
			if set && errs[k] == nil {
				errs[k] = fmt.Errorf("%s is a caching hint of 2026-07-28 tools/list results; protocol %s has none", k, to.Protocol)
			}
		}
	}
	return checked(o.Lowering, p, errs)
}

// checked returns the lowering's check of the profile p after the errors
// of the format's own options, each at its key.
func checked(l profile.Lowering, p *profile.Profile, errs map[string]error) (*profile.Profile, []option.Problem) {
	var ps []option.Problem
	for _, k := range slices.Sorted(maps.Keys(errs)) {
		if errs[k] != nil {
			ps = append(ps, option.Problemf(k, "%v", errs[k]))
		}
	}
	over, more := l.Check(p)
	return over, append(ps, more...)
}

// OpenAIOptions are the openai target's options.
type OpenAIOptions struct {
	profile.Lowering
	profile.Strictness
	Dialect profile.DialectName `toml:"dialect" doc:"the server that speaks the format, where servers differ; only openai and cerebras take the strict flag" default:"openai"`
}

// Apply sets the lowering's options.
func (o *OpenAIOptions) Apply(to *profile.Options) {
	o.Lowering.Apply(to)
	o.Strictness.Apply(to)
	to.Dialect = string(o.Dialect)
}

// Check checks the dialect against strict mode.
func (o *OpenAIOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	var to profile.Options
	o.Apply(&to)
	var err error
	if o.Dialect != "" || o.Strict != nil {
		err = p.CheckDialect(to)
	}
	return checked(o.Lowering, p, map[string]error{"dialect": err})
}

// StrictOptions are the options of the other formats with a strict mode:
// openai-responses, anthropic and bedrock.
type StrictOptions struct {
	profile.Lowering
	profile.Strictness
}

// Apply sets the lowering's options.
func (o *StrictOptions) Apply(to *profile.Options) {
	o.Lowering.Apply(to)
	o.Strictness.Apply(to)
}

// Check checks the lowering's options.
func (o *StrictOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	return o.Lowering.Check(p)
}

// AnthropicOptions are the anthropic target's options: StrictOptions', and
// the tools a deferral plan names.
type AnthropicOptions struct {
	StrictOptions
	ToolSearch    string `toml:"tool_search" enum:"regex,bm25" default:"regex" doc:"the tool search tool added where a tool is deferred: tool_search_tool_regex_20251119 or tool_search_tool_bm25_20251119"`
	CodeExecution string `toml:"code_execution" enum:"code_execution_20250825,code_execution_20260120,code_execution_20260521" default:"code_execution_20250825" doc:"the code execution tool that allowed_callers names for callers = [\"code\"]: the one the requests send"`
}

// Apply sets the options.
func (o *AnthropicOptions) Apply(to *profile.Options) {
	o.StrictOptions.Apply(to)
	if o.ToolSearch == "bm25" {
		to.Search = "tool_search_tool_bm25_20251119"
	}
	to.CodeExecution = o.CodeExecution
}

// GeminiOptions are the gemini target's options.
type GeminiOptions struct {
	profile.Lowering
	Schema string `toml:"schema" enum:"json-schema,openapi" default:"json-schema" doc:"where the schemas go: parametersJsonSchema (json-schema), or parameters in the OpenAPI 3.0 subset it takes (openapi)"`
	Vertex bool   `toml:"vertex" default:"false" doc:"the bundle goes to Vertex AI, which checks every declaration's parameters before it answers: one not an OBJECT fails every request; the acceptance check holds the bundle to Vertex's table"`
}

// Apply sets the lowering's options.
func (o *GeminiOptions) Apply(to *profile.Options) {
	o.Lowering.Apply(to)
	to.Schema = o.Schema
	to.Vertex = o.Vertex
}

// Check checks the lowering's options.
func (o *GeminiOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	return o.Lowering.Check(p)
}

// NoOptions are the options of the formats that take none: canonical and
// jsonschema, which keep every tool as it is.
type NoOptions struct{}

// Apply sets nothing.
func (*NoOptions) Apply(*profile.Options) {}

// Check finds nothing.
func (*NoOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) { return p, nil }

// GeminiSchemas returns the values of the gemini target's schema option.
func GeminiSchemas() []string {
	f, _ := option.Lookup(reflect.TypeFor[GeminiOptions](), "schema")
	return f.Enum
}
