package profile

import "github.com/toolc-dev/toolc/internal/lower"

// Publish is what a release target (server-json, mcpb, a2a-card, llms-txt)
// writes besides the tools: what the catalog does not know, from the
// target's manifest entry. The targets that publish a catalog describe the
// server as a whole; their tools are a summary of the catalog's.
type Publish struct {
	// Description is the catalog's description ([catalog] description).
	Description string
	// Server is [targets.server] of a server-json target, MCPB
	// [targets.mcpb] of an mcpb target: tables of the destination's own
	// fields, kept as the manifest wrote them (TOML's types), which the
	// encoder reads and the target's checks refuse when incomplete.
	Server map[string]any
	MCPB   map[string]any
	// Table names the table in diagnostics ("targets[3].mcpb"); File,
	// Line and Column place it, or the target where it is missing.
	Table        string
	File         string
	Line, Column int
	// DescriptionLine and DescriptionColumn place [catalog] description.
	DescriptionLine, DescriptionColumn int
	// StaticResponses (mcpb) adds the MCP tools/list answer under
	// _meta["com.microsoft.windows"].static_responses; Flavor "smithery"
	// writes each tool's inputSchema.
	StaticResponses bool
	Flavor          string
	// Skills (a2a-card) makes a skill of each tool ("tools") or of each tag
	// ("tags"); Sections (llms-txt) a section of each namespace or tag.
	Skills, Sections string
	// Links is the URL template of each tool's page: {id}, {namespace},
	// {name}.
	Links string
	// Package is the Go package of a go target; Types names the types of
	// tools whose PascalCase names collide, by tool ID.
	Package string
	Types   map[string]string
	// Runtime (go) adds a Decode over toolcall.
	Runtime bool
}

// release is the profile of a format that publishes the catalog: tools
// named as MCP names them, schemas as written, and every tool field kept,
// for the encoder to summarize.
func release(format, source string, options ...string) *Profile {
	return &Profile{
		Format:  format,
		Name:    profiles["mcp"].Name,
		Carries: []string{"title", "version", "category", "output", "annotations", "examples", "timeout", "scopes", "security", "backend", "icons", "meta", "lifecycle"},
		Options: append(options, "names"),
		// What other formats say of a tool is the server's business.
		Extensions: []string{"*"},
		Schema:     map[string]*lower.Rules{"": keepAll},
		Source:     source,
	}
}

func init() {
	profiles["server-json"] = release("server-json", "MCP registry server.json, schema 2025-12-11", "server")
	profiles["mcpb"] = release("mcpb", "MCPB manifest.json, manifest_version 0.3", "mcpb", "static_responses", "flavor")
	profiles["a2a-card"] = release("a2a-card", "A2A agent card (a2a-js SDK 1.3.0 types)", "server", "skills")
	profiles["llms-txt"] = release("llms-txt", "llms.txt (llmstxt.org)", "sections", "links")
	profiles["typescript"] = release("typescript", "TypeScript declarations, checked by tsc --strict", "types")
	profiles["go"] = release("go", "Go types, checked by go vet; the MCP Go SDK infers the catalog's schemas from them", "types", "package", "runtime")
	profiles["python"] = release("python", "Python TypedDicts, checked by pyright --strict", "types")
}
