package profile

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/internal/lower"

	"github.com/toolc-dev/toolc/internal/suggest"
)

// Client is an MCP client that takes less than the protocol allows: what
// an MCP target that names it (clients = [...]) changes so the client
// takes the bundle, with its evidence. Package accept holds, apart, what
// each client refuses.
type Client struct {
	Name string
	// Rows are schema rules the client adds to MCP's.
	Rows []lower.Row
	// Names, when set, is the client's rule for tool names, which replaces
	// MCP's; the emitted names are recorded in the lock, as every target's
	// are, so decode maps them back.
	Names  NameRule
	Source string
}

// clients are the MCP clients a target can name (PROVIDERS.md, late 2026).
// cursor and windsurf change nothing in a bundle: they only take fewer
// tools, which the acceptance check warns of.
var clients = map[string]Client{
	"vscode": {Name: "vscode",
		Rows:   []lower.Row{{Feature: "items-missing", Action: lower.Add, Source: "VS Code drops a tool whose array parameter has no items (vscode issue 284536); items: {} says the same as none"}},
		Source: "VS Code: arrays need items; 128 tools"},
	"claude-desktop": {Name: "claude-desktop",
		Rows:   []lower.Row{{Feature: "legacy-forms", Action: lower.Modern, Source: "Claude Code and Claude Desktop validate outputSchema with a 2020-12-only validator; a draft-07 $schema fails every call (claude-code issues 86142 and 88882); written as 2020-12, the schema says the same"}},
		Names:  NameRule{Chars: "a-zA-Z0-9_-", Max: 64, Source: "Claude Desktop and claude.ai refuse the connector when a tool name breaks ^[a-zA-Z0-9_-]{1,64}$; loomle issue 168, hostinger api-mcp-server issue 51"},
		Source: "Claude Desktop: tool names ^[a-zA-Z0-9_-]{1,64}$; schemas in 2020-12's forms"},
	"cursor":   {Name: "cursor", Source: "Cursor: 80 tools (Snowflake-Labs/mcp issue 77)"},
	"windsurf": {Name: "windsurf", Source: "Windsurf: 100 tools"},
	"copilot-cli": {Name: "copilot-cli",
		Rows:   []lower.Row{{Feature: "properties-missing", Action: lower.Add, Source: srcCopilotCLI + "; properties: {} says the same as none"}},
		Source: "GitHub Copilot CLI: every object schema has properties"},
	"codex": {Name: "codex",
		Rows: []lower.Row{
			{Feature: "properties-missing", Action: lower.Add, Source: srcCodex + "; properties: {} says the same as none"},
			{Feature: "items-missing", Action: lower.Add, Source: srcCodex + "; items: {} says the same as none"},
			{Feature: "legacy-forms", Action: lower.Modern, Source: srcCodex + ": a draft-07 list of items is written as 2020-12's prefixItems, which says the same"},
		},
		Source: "Codex CLI: every object schema has properties, every array items"},
	"gemini-cli": {Name: "gemini-cli",
		Rows:   []lower.Row{{Feature: "dialect-default", Action: lower.Drop, Source: srcDialect2020}},
		Source: "Gemini CLI: no $schema of 2020-12 on an input schema"},
	"augment": {Name: "augment",
		Rows:   []lower.Row{{Feature: "dialect-default", Action: lower.Drop, Source: srcDialect2020}},
		Source: "Augment (JetBrains, VS Code): no $schema of 2020-12 on an input schema"},
}

// The evidence of the coding-agent clients' rows (PROVIDERS.md, late
// November 2026, and their trackers).
const (
	srcCopilotCLI  = "GitHub Copilot CLI refuses an object schema without properties (\"object schema missing properties\", invalid_function_parameters; github/copilot-cli issue 1825, kagent-dev/kagent issue 1889)"
	srcCodex       = "Codex CLI needs properties on every object schema and an items schema on every array (nnemirovsky/iwdp-mcp pull request 4, \"sanitize tool schemas for codex\")"
	srcDialect2020 = "Gemini CLI and Augment refuse an inputSchema declaring \"$schema\": \"https://json-schema.org/draft/2020-12/schema\" (\"no schema with key or ref\"; google-gemini/gemini-cli issue 17235, eyaltoledano/claude-task-master issue 1284); MCP reads a schema without $schema as 2020-12, so leaving it out says the same"
)

// Clients lists the MCP clients a target can name, sorted.
func Clients() []string { return slices.Sorted(maps.Keys(clients)) }

// CheckClients says what is wrong with a target's clients option, or nil.
func (p *Profile) CheckClients(opts Options) error {
	for _, c := range opts.Clients {
		if _, ok := clients[c]; !ok {
			return fmt.Errorf("unknown MCP client %q (one of %s)%s", c, strings.Join(Clients(), ", "), suggest.Hint(c, Clients()))
		}
	}
	return nil
}

// clientRows returns the schema rows of the clients named.
func clientRows(names []string) []lower.Row {
	var rows []lower.Row
	for _, n := range names {
		rows = append(rows, clients[n].Rows...)
	}
	return rows
}

// nameRule returns the name rule of p for opts: a client's rule where a
// named client has one, else the profile's.
func (p *Profile) nameRule(opts Options) NameRule {
	r := p.Name
	if d, ok := p.dialect(opts); ok && d.Names.Max > 0 {
		r = d.Names
	}
	for _, n := range opts.Clients {
		if c := clients[n]; c.Names.Max > 0 && (r.Max == 0 || c.Names.Max <= r.Max) {
			r = c.Names
		}
	}
	return r
}
