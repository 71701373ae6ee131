package profile

import "github.com/toolc-dev/toolc/internal/lower"

// Publish is where a release target (server-json, mcpb, a2a-card,
// llms-txt, typed code) finds what it writes besides the tools: the
// catalog's description, and the places of the target's table and of
// [catalog] description for its diagnostics. Its options are the
// format's own (Options.Format). The targets that publish a catalog
// describe the server as a whole; their tools are a summary of the
// catalog's.
type Publish struct {
	// Description is the catalog's description ([catalog] description).
	Description string
	// Table names the target's table in diagnostics ("targets[3].mcpb");
	// File, Line and Column place it, or the target where it is missing.
	Table        string
	File         string
	Line, Column int
	// DescriptionLine and DescriptionColumn place [catalog] description.
	DescriptionLine, DescriptionColumn int
}

// release is the profile of a format that publishes the catalog: tools
// named as MCP names them, schemas as written, and every tool field kept,
// for the encoder to summarize.
func release(format, source string) *Profile {
	return &Profile{
		Format:  format,
		Name:    profiles["mcp"].Name,
		Carries: []string{"title", "version", "category", "output", "annotations", "examples", "timeout", "scopes", "security", "backend", "icons", "meta", "lifecycle"},
		// What other formats say of a tool is the server's business.
		Extensions: []string{"*"},
		Schema:     map[string]*lower.Rules{"": keepAll},
		Source:     source,
	}
}

// published is the profile of a file that describes one server to those
// who install it: its tools by the names the server itself serves them
// under, whatever namespace the catalog gives them (names =
// "{namespace}__{name}" on the target opts in to the catalog's).
func published(format, source string) *Profile {
	p := release(format, source)
	p.Names = "{name}"
	return p
}

func init() {
	profiles["server-json"] = published("server-json", "MCP registry server.json, schema 2025-12-11")
	profiles["mcpb"] = published("mcpb", "MCPB manifest.json, manifest_version 0.3 or 0.4")
	profiles["server-card"] = published("server-card", "MCP server card (SEP-1649), /.well-known/mcp/server-card.json, as Smithery reads it")
	profiles["skills"] = published("skills", "Agent Skills folders (agentskills.io specification): SKILL.md and references/")
	profiles["a2a-card"] = published("a2a-card", "A2A agent card (a2a-js SDK 1.3.0 types)")
	profiles["llms-txt"] = published("llms-txt", "llms.txt (llmstxt.org)")
	profiles["typescript"] = release("typescript", "TypeScript declarations, checked by tsc --strict")
	profiles["go"] = release("go", "Go types, checked by go vet; the MCP Go SDK infers the catalog's schemas from them")
	profiles["python"] = release("python", "Python TypedDicts, checked by pyright --strict")
}
