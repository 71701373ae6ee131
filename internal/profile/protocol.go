package profile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// protocols are the MCP revisions an MCP bundle can be for, oldest first;
// the last is the default. anyOutput says the revision takes any JSON
// Schema as a tool's outputSchema; the earlier ones take an object schema
// only, as their structuredContent is a JSON object. stateless says its
// results carry resultType, a tools/list result's caching hints (ttlMs,
// cacheScope) and the server's identity in _meta (2026-07-28 changelog,
// SEP-2322, SEP-2549, SEP-2575). tasks says a tool may declare its task
// support in execution.taskSupport (2025-11-25 only: SEP-2663 moved tasks
// into an extension whose support is the server's, not a tool's).
var protocols = []protocol{
	{version: "2025-06-18"},
	{version: "2025-11-25", tasks: true},
	{version: "2026-07-28", anyOutput: true, stateless: true},
}

type protocol struct {
	version                     string
	anyOutput, stateless, tasks bool
}

// revision returns the row of the MCP revision v, the newest for "".
func revision(v string) protocol {
	if i := slices.IndexFunc(protocols, func(p protocol) bool { return p.version == v }); i >= 0 {
		return protocols[i]
	}
	return protocols[len(protocols)-1]
}

// Stateless reports whether the MCP revision v ("" for the newest) is
// stateless: its results carry resultType, a tools/list result ttlMs and
// cacheScope, and _meta the server's identity.
func Stateless(v string) bool { return revision(v).stateless }

// Protocols lists the MCP revisions a target can name, oldest first.
func Protocols() []string {
	var vs []string
	for _, p := range protocols {
		vs = append(vs, p.version)
	}
	return vs
}

// CheckProtocol says what is wrong with a target's protocol option, or nil.
func CheckProtocol(v string) error {
	if v == "" || slices.Contains(Protocols(), v) {
		return nil
	}
	return fmt.Errorf("unknown MCP revision %q (one of %s)%s", v, strings.Join(Protocols(), ", "), suggest.Hint(v, Protocols()))
}

// objectOutputOnly reports whether an MCP bundle for opts takes only object
// schemas as output schemas.
func (p *Profile) objectOutputOnly(opts Options) bool {
	return p.HasClients && !revision(opts.Protocol).anyOutput
}

// srcClaudeUnion is the evidence of claude.ai's rule on output schemas.
const srcClaudeUnion = "the claude.ai connector drops every tool of a server one of whose tools has an outputSchema with a root anyOf and no \"type\": \"object\", without an error (anthropics/claude-ai-mcp issue 485)"

// outputRoot checks the root of an output schema against what the target's
// MCP revision and clients take. Where the root is a union of object
// schemas it returns the schema with "type": "object" added, which says the
// same; where it cannot be made so, nil and why.
func (tl *toolLowering) outputRoot(s *canonical.Schema) (*canonical.Schema, string) {
	root := s.JSON()
	object := slices.Equal(s.Types(), []string{"object"})
	union := root.Has("anyOf") || root.Has("oneOf")
	var why string
	switch {
	case object:
		return s, ""
	case tl.p.objectOutputOnly(tl.opts):
		why = fmt.Sprintf("MCP %s takes only an object schema as outputSchema (structuredContent is a JSON object; the 2026-07-28 revision takes any schema)", tl.opts.Protocol)
	case union && slices.Contains(tl.opts.Clients, "claude-desktop"):
		why = srcClaudeUnion
	default:
		return s, ""
	}
	if !union || root.Has("type") || !objectBranches(root) {
		return nil, why
	}
	out := root.DeepCopy() // the lowered schema may be shared with other targets
	out.SetMembers(slices.Insert(out.Members(), 0, canonical.Member{Key: "type", Value: canonical.NewString("object")}))
	tl.at("lower.type-inferred", "/output", "\"type\": \"object\" added at the root of the output schema, whose branches are all object schemas, so it says the same: %s", why)
	return canonical.AsSchema(out), ""
}

// objectBranches reports whether every branch of root's anyOf and oneOf is
// an object schema.
func objectBranches(root *canonical.Value) bool {
	for _, k := range []string{"anyOf", "oneOf"} {
		if b := root.Get(k); b != nil {
			if b.Kind != canonical.Array || slices.ContainsFunc(b.Items(), func(x *canonical.Value) bool {
				return !slices.Equal(canonical.AsSchema(x).Types(), []string{"object"})
			}) {
				return false
			}
		}
	}
	return true
}
