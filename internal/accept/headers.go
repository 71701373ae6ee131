package accept

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// MCPHeaderKey is the keyword of a property's schema that mirrors its
// value into the HTTP header Mcp-Param-{value} on MCP's Streamable HTTP
// transport (2026-07-28, SEP-2243).
const MCPHeaderKey = "x-mcp-header"

// evMCPHeader is the evidence of the rules on x-mcp-header.
const evMCPHeader = "MCP 2026-07-28, basic/transports/streamable-http: a Streamable HTTP client MUST exclude from tools/list a tool whose x-mcp-header breaks a constraint"

// tchar is RFC 9110's token: the characters of an HTTP field name.
var tchar = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// secretWords are the names and descriptions of parameters that a server
// SHOULD NOT mirror into a header, which intermediaries see: passwords,
// keys, tokens, personal data (server/tools, x-mcp-header).
var (
	secretName = regexp.MustCompile(`(?i)(^|[^a-z])(token|password|passwd|passphrase|secret|authorization|auth|cookie|credentials?|email|e_?mail|ssn|(api|access|private|secret|auth)_?key|key)([^a-z]|$)`)
	secretText = regexp.MustCompile(`(?i)\b(token|password|passphrase|secret|api key|access key|private key|authorization|bearer|cookie|credentials?|e-?mail address|social security)\b`)
)

// header is one x-mcp-header annotation found in an input schema.
type header struct {
	name string
	at   canonical.Pointer
}

// mcpHeaders checks every x-mcp-header of an input schema against the
// rules of 2026-07-28 (each break is r's error: the client drops the
// tool), and warns where one marks a parameter that looks secret.
func (c *checker) mcpHeaders(root *canonical.Value, r Rule) {
	var seen []header
	var visit func(v *canonical.Value, at canonical.Pointer, key string, static bool)
	visit = func(v *canonical.Value, at canonical.Pointer, key string, static bool) {
		if v.Kind != canonical.Object {
			return
		}
		if i := v.Index(MCPHeaderKey); i >= 0 {
			c.mcpHeader(r, v, v.Members()[i], at, key, static, &seen)
		}
		canonical.AsSchema(v).EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
			p := at.Append(st.Keyword)
			name := ""
			switch {
			case st.Named:
				p, name = p.Append(st.Name), st.Name
			case st.Index >= 0:
				p = p.Append(fmt.Sprint(st.Index))
			}
			visit(sub.JSON(), p, name, static && st.Keyword == "properties" && st.Named)
			return true
		})
	}
	visit(root, "", "", true)
}

// mcpHeader checks one annotation m on the property schema v, at at.
func (c *checker) mcpHeader(r Rule, v *canonical.Value, m canonical.Member, at canonical.Pointer, key string, static bool, seen *[]header) {
	kat := at.Append(MCPHeaderKey)
	pos := m.KeyPos
	name, isString := m.Value.StringValue()
	switch {
	case !static || at == "":
		c.report(r, c.field, kat, pos, "%s at %s is not reached from the root through properties alone, so no call has one value for it", MCPHeaderKey, pointerText(at))
		return
	case !isString:
		c.report(r, c.field, kat, pos, "%s is %s, not the name of a header", MCPHeaderKey, m.Value.JSONType())
		return
	case name == "":
		c.report(r, c.field, kat, pos, "%s is empty; it names the header Mcp-Param-{name}", MCPHeaderKey)
		return
	case !tchar.MatchString(name):
		c.report(r, c.field, kat, pos, "%s %q is not an HTTP field-name token (RFC 9110: letters, digits and !#$%%&'*+-.^_`|~), so Mcp-Param-%s cannot be sent", MCPHeaderKey, name, name)
		return
	}
	if i := slices.IndexFunc(*seen, func(h header) bool { return strings.EqualFold(h.name, name) }); i >= 0 {
		c.report(r, c.field, kat, pos, "%s %q names the header that %q at %s names already (header names are case-insensitive)", MCPHeaderKey, name, (*seen)[i].name, pointerText((*seen)[i].at))
		return
	}
	*seen = append(*seen, header{name, at})
	ts := types(v)
	if len(ts) == 0 || slices.ContainsFunc(ts, func(t string) bool { return t != "string" && t != "integer" && t != "boolean" }) {
		c.report(r, c.field, kat, pos, "%s %q is on a property of type %s; only a string, integer or boolean goes into a header (not number)", MCPHeaderKey, name, typeText(v))
		return
	}
	desc, _ := v.Get("description").StringValue()
	if secretName.MatchString(key) || secretText.MatchString(desc) {
		d := diag.New("accept.mcp-header-secret", "%s %q mirrors the parameter %q, which looks secret, into an HTTP header, which every intermediary sees: servers SHOULD NOT mark passwords, keys, tokens or personal data so (MCP 2026-07-28, server/tools)", MCPHeaderKey, name, key).About(c.name())
		d.Target = c.target
		if c.tool != nil {
			d = d.At(c.tool.Source.Place(c.field.Join(kat)))
			if pos.IsValid() {
				d.Line, d.Column = int(pos.Line), int(pos.Column)
			}
		}
		c.out = append(c.out, d.WithFix("take the annotation off, and pass the secret in the request's authorization instead"))
	}
}
