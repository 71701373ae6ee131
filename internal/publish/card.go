package publish

import (
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/profile"
)

// ---- MCP server card ----

// CardSchema is the $schema of the server card that server-card writes:
// SEP-1649's, as servers that publish one name it.
const CardSchema = "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json"

// CardVersion is the card format's version, SEP-1649's "1.0".
const CardVersion = "1.0"

// ServerCardOptions are the server-card target's options.
type ServerCardOptions struct {
	profile.Naming
	Card Card `toml:"card" doc:"what the card says that the catalog does not know"`
}

// Card is [targets.card]: the server card's fields that the catalog does
// not know.
type Card struct {
	Title          string              `toml:"title" doc:"the server's display name (serverInfo.title)"`
	IconURL        string              `toml:"icon_url" doc:"the server's icon, an https URL"`
	Documentation  string              `toml:"documentation_url" doc:"the URL of its documentation"`
	Transport      *CardTransport      `toml:"transport" doc:"how a client reaches it"`
	Authentication *CardAuthentication `toml:"authentication" doc:"whether a client must authenticate, and how"`
}

// CardTransport is how a client reaches a server that a card describes.
type CardTransport struct {
	Type     string `toml:"type" enum:"streamable-http,sse,stdio" doc:"the transport"`
	Endpoint string `toml:"endpoint" doc:"the MCP endpoint's path or URL, such as /mcp"`
}

// CardAuthentication is what a card says of a server's authentication.
type CardAuthentication struct {
	Required bool     `toml:"required" doc:"whether every request must authenticate"`
	Schemes  []string `toml:"schemes" doc:"the schemes it takes: bearer, oauth2 …"`
}

// ServerCard writes an MCP server card (/.well-known/mcp/server-card.json,
// SEP-1649): the server's identity and its tools as its tools/list answers
// them, input schemas whole. Smithery reads one where it cannot scan a
// server (an auth wall, required configuration) and refuses tools without
// their schemas; a discovery client reads it before it connects.
func ServerCard(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[ServerCardOptions](tools, sources, opts)
	c := o.Card
	out := canonical.NewObject()
	out.Set("$schema", canonical.NewString(CardSchema))
	out.Set("version", canonical.NewString(CardVersion))
	out.Set("protocolVersion", canonical.NewString(slices.Max(profile.Protocols())))
	info := canonical.NewObject()
	if opts.Catalog.Name == "" {
		r.atCatalog("publish.field-missing", `set [catalog] name = "…", the server's name`, "a server card needs the server's name (serverInfo.name), and [catalog] has none")
	}
	info.Set("name", canonical.NewString(opts.Catalog.Name))
	setStr(info, "title", c.Title)
	info.Set("version", canonical.NewString(r.version("a server card")))
	out.Set("serverInfo", info)
	setStr(out, "description", r.description(0, "a server card"))
	setStr(out, "iconUrl", c.IconURL)
	setStr(out, "documentationUrl", c.Documentation)
	if t := c.Transport; t != nil {
		if t.Type == "" {
			r.atTable("publish.field-missing", `set transport = { type = "streamable-http", endpoint = "/mcp" }`, "a server card's transport needs its type")
		}
		tr := canonical.NewObject()
		tr.Set("type", canonical.NewString(t.Type))
		setStr(tr, "endpoint", t.Endpoint)
		out.Set("transport", tr)
	}
	caps := canonical.NewObject()
	caps.Set("tools", canonical.NewObject())
	out.Set("capabilities", caps)
	if a := c.Authentication; a != nil {
		auth := canonical.NewObject()
		auth.Set("required", canonical.NewBool(a.Required))
		schemes := a.Schemes
		if schemes == nil {
			schemes = []string{}
		}
		auth.Set("schemes", canonical.NewStrings(schemes))
		out.Set("authentication", auth)
	}
	// The tools exactly as the MCP target writes them for the newest
	// revision: what the server's tools/list answers.
	answer := emit.MCP(emit.Tools(tools), profile.Options{Catalog: opts.Catalog})
	out.Set("tools", answer.Get("tools"))
	return out, r.ds
}
