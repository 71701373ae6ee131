package accept

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Client is an MCP client that refuses tools, or a whole server, that the
// protocol allows: its rules, each with its evidence (PROVIDERS.md, late
// 2026). The client is not the protocol: an MCP bundle is checked against
// them only as advice, unless the target names the client.
type Client struct {
	Name    string // as a manifest names it: "vscode"
	Product string // as messages name it: "VS Code"
	Tool    []Rule
	Schema  []Rule
	Input   []Rule // of input schemas only: what a client hands the model
	Output  []Rule // of output schemas only
	Request []Rule
}

// Clients are the MCP clients whose refusals are known, by name.
var clientTables = map[string]*Client{
	"vscode": {Name: "vscode", Product: "VS Code",
		Schema:  []Rule{{Kind: Items, Values: []string{"list"}, Evidence: "VS Code drops a tool whose array parameter has no items: \"tool parameters array type must have items\"; vscode issue 284536"}},
		Request: []Rule{{Kind: Tools, Max: 128, Evidence: "VS Code takes 128 tools"}},
	},
	"claude-desktop": {Name: "claude-desktop", Product: "Claude Desktop",
		Tool: []Rule{{Kind: Name, Values: []string{`^[a-zA-Z0-9_-]{1,64}$`}, Evidence: "Claude Desktop and claude.ai refuse the whole connector when one tool name breaks it; loomle issue 168, hostinger api-mcp-server issue 51"}},
		Output: []Rule{{Kind: Draft2020, Evidence: "Claude Code and Claude Desktop validate outputSchema with a 2020-12-only validator, and every call of a tool whose output schema declares draft-07 fails: \"JSON Schema declares an unsupported dialect\"; anthropics/claude-code issues 86142 and 88882, claude-ai-mcp issue 1016, n8n issue 36361"},
			{Kind: OutputUnion, Evidence: "the claude.ai connector drops every tool of a server one of whose tools has an outputSchema with a root anyOf and no type: object, without an error; anthropics/claude-ai-mcp issue 485"}},
	},
	"cursor": {Name: "cursor", Product: "Cursor",
		Request: []Rule{{Kind: Tools, Max: 80, Evidence: "Cursor takes 80 tools (40 before); Snowflake-Labs/mcp issue 77"}},
	},
	"windsurf": {Name: "windsurf", Product: "Windsurf",
		Request: []Rule{{Kind: Tools, Max: 100, Evidence: "Windsurf takes 100 tools (50 before)"}},
	},
	"copilot-cli": {Name: "copilot-cli", Product: "GitHub Copilot CLI",
		Input: []Rule{{Kind: Properties, Evidence: "GitHub Copilot CLI refuses an object schema without properties: \"object schema missing properties\", invalid_function_parameters; github/copilot-cli issue 1825"}},
	},
	"codex": {Name: "codex", Product: "Codex CLI",
		Input: []Rule{
			{Kind: Properties, Evidence: evCodex},
			{Kind: Items, Evidence: evCodex},
		},
	},
	"gemini-cli": {Name: "gemini-cli", Product: "Gemini CLI",
		Input: []Rule{{Kind: NoDialect2020, Evidence: "Gemini CLI: \"no schema with key or ref https://json-schema.org/draft/2020-12/schema\"; google-gemini/gemini-cli issue 17235"}},
	},
	"augment": {Name: "augment", Product: "Augment",
		Input: []Rule{{Kind: NoDialect2020, Evidence: "Augment (JetBrains): \"no schema with key or ref\" for a 2020-12 $schema; eyaltoledano/claude-task-master issue 1284"}},
	},
}

// evCodex is the evidence of Codex CLI's rules.
const evCodex = "Codex CLI needs properties on every object schema and an items schema on every array; nnemirovsky/iwdp-mcp pull request 4 (\"sanitize tool schemas for codex\")"

// WithOutput returns t with rules added to its output schemas' rules.
func (t *Table) WithOutput(rules ...Rule) *Table {
	c := *t
	c.Output = append(slices.Clone(t.Output), rules...)
	return &c
}

// ForClients returns t with the rules of the clients named added: what a
// bundle made for them must pass. Unknown names are left out.
func (t *Table) ForClients(names []string) *Table {
	if len(names) == 0 {
		return t
	}
	c := *t
	c.Tool, c.Schema, c.Input, c.Output, c.Request = slices.Clone(t.Tool), slices.Clone(t.Schema), slices.Clone(t.Input), slices.Clone(t.Output), slices.Clone(t.Request)
	for _, n := range names {
		if cl := clientTables[n]; cl != nil {
			c.Tool = append(c.Tool, cl.Tool...)
			c.Schema = append(c.Schema, cl.Schema...)
			c.Input = append(c.Input, cl.Input...)
			c.Output = append(c.Output, cl.Output...)
			c.Request = append(c.Request, cl.Request...)
		}
	}
	return &c
}

// Advise checks bundle, an MCP bundle made for the clients named, against
// every other known client, and returns each refusal as an accept.client
// warning that names the client and the setting that makes a bundle it
// takes.
func Advise(t *Table, bundle *canonical.Value, tools []*canonical.Tool, target string, names []string, opts Options) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, n := range slices.Sorted(maps.Keys(clientTables)) {
		cl := clientTables[n]
		if slices.Contains(names, n) {
			continue
		}
		ct := &Table{Name: t.Name, Provider: cl.Product, Shape: t.Shape, Tool: cl.Tool, Schema: cl.Schema, Input: cl.Input, Output: cl.Output, Request: cl.Request}
		for _, d := range Check(ct, bundle, tools, target, Options{Unchecked: opts.Unchecked}) {
			if max, ok := toolLimit(cl); ok && d.Code == "accept.tools" {
				// No lowering makes a bundle smaller: what fixes it is
				// fewer tools in the target.
				d.Message += fmt.Sprintf("; clients = [%q] does not change that: give %s a target of at most %d tools (select = { namespaces = [...] } or { tags = [...] }), or split the catalog into such targets", n, cl.Product, max)
			} else {
				d.Message += fmt.Sprintf("; clients = [%q] on the target makes a bundle %s takes", n, cl.Product)
			}
			d.Code, d.Severity = "accept.client", diag.Warning
			out = append(out, d)
		}
	}
	return out
}

// toolLimit is how many tools the client takes in one server, if it says.
func toolLimit(cl *Client) (int, bool) {
	for _, r := range cl.Request {
		if r.Kind == Tools {
			return r.Max, true
		}
	}
	return 0, false
}
