package emit

import (
	"net/url"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// JSONSchemaDialect is the dialect of the jsonschema bundle.
const JSONSchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// JSONSchema writes the jsonschema target: one JSON Schema 2020-12
// document with a $defs entry per tool, keyed by tool ID, holding its input
// schema, for validating a model's arguments at run time ({"$ref":
// "#/$defs/<ID>"} against the document). An input schema with local
// references of its own gets an "$id" (urn:toolc:tool:<ID>) so that they
// resolve inside it; the tool's description is added where the schema has
// none.
func JSONSchema(low *profile.Lowered, opts profile.Options) *canonical.Value {
	doc := canonical.NewObject()
	doc.Set("$schema", canonical.NewString(JSONSchemaDialect))
	if opts.Catalog.Name != "" {
		doc.Set("title", canonical.NewString(opts.Catalog.Name))
	}
	defs := canonical.NewObject()
	for _, t := range low.Tools {
		in := t.Input.JSON()
		s := &canonical.Value{Kind: in.Kind, Bool: in.Bool}
		if in.Kind == canonical.Object {
			if !in.Has("$id") && hasLocalRef(t.Input) {
				s.Set("$id", canonical.NewString("urn:toolc:tool:"+url.PathEscape(t.ID())))
			}
			s.SetMembers(append(s.Members(), in.Members()...))
			if t.Description != "" && !in.Has("description") {
				s.Set("description", canonical.NewString(t.Description))
			}
			if v := xSecurity(t); v != nil {
				s.Set("x-security", v)
			}
			if v := xCapabilities(t.Annotations); v != nil {
				s.Set("x-capabilities", v)
			}
		}
		defs.Set(t.ID(), s)
	}
	doc.Set("$defs", defs)
	return doc
}

func hasLocalRef(s *canonical.Schema) bool {
	found := false
	canonical.Visit(s, func(sub *canonical.Schema) bool {
		if r, ok := sub.Keyword("$ref").StringValue(); ok && len(r) > 0 && r[0] == '#' {
			found = true
		}
		return !found
	})
	return found
}

// xSecurity is a tool's security metadata as the Python canonicalizer's
// JSON Schema export writes it: required_permissions (the scopes),
// data_classification and pii_handling; nil when none is said.
func xSecurity(t *canonical.Tool) *canonical.Value {
	v := canonical.NewObject()
	if len(t.Scopes) > 0 {
		v.Set("required_permissions", canonical.NewStrings(t.Scopes))
	}
	if sec := t.Security; sec != nil {
		if sec.Classification != "" {
			v.Set("data_classification", canonical.NewString(sec.Classification))
		}
		if sec.PII != "" {
			v.Set("pii_handling", canonical.NewString(sec.PII))
		}
	}
	if len(v.Members()) == 0 {
		return nil
	}
	return v
}

// xCapabilities is what a tool does, from its MCP annotations only (never
// guessed from its name): side_effects (readOnlyHint false), destructive,
// idempotent and open_world; nil when no hint is set.
func xCapabilities(a *canonical.Annotations) *canonical.Value {
	if a == nil {
		return nil
	}
	v := canonical.NewObject()
	for _, h := range []struct {
		key    string
		hint   *bool
		invert bool
	}{{"side_effects", a.ReadOnlyHint, true}, {"destructive", a.DestructiveHint, false}, {"idempotent", a.IdempotentHint, false}, {"open_world", a.OpenWorldHint, false}} {
		if h.hint != nil {
			v.Set(h.key, canonical.NewBool(*h.hint != h.invert))
		}
	}
	if len(v.Members()) == 0 {
		return nil
	}
	return v
}
