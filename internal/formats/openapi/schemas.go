package openapi

import (
	"cmp"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/decode"
)

// maxRefHops bounds a chain of $refs to $refs, so a cycle ends.
const maxRefHops = 32

// deref follows the local $ref of a Reference Object (a parameter, request
// body, response or path item that is "$ref": "#/components/…") to what it
// names, with that value's pointer. For a $ref it cannot follow it returns
// nil, having reported why: bad is true for an error (a $ref to nothing, not
// an object), false for a warning (a $ref that bundle did not read into the
// document: a URL, or a file outside the manifest's folder; the part is
// left out and the tool kept).
func (o *oasDoc) deref(v *canonical.Value, at canonical.Pointer) (_ *canonical.Value, _ canonical.Pointer, bad bool) {
	for hops := 0; v != nil && v.Kind == canonical.Object && v.Has("$ref"); hops++ {
		ref, _ := v.Get("$ref").StringValue()
		p, ok := localRef(ref)
		if !ok {
			o.d.Report("source.openapi-skipped", at.Append("$ref"), "$ref %q names nothing toolc reads (it reads other files of the manifest's folder in a build, never a URL), so this part is left out", ref)
			return nil, "", false
		}
		target := o.doc.Resolve(p)
		if target == nil || hops == maxRefHops {
			o.d.Report("source.invalid", at.Append("$ref"), "$ref %q points to nothing", ref)
			return nil, "", true
		}
		v, at = target, p
	}
	if v == nil || v.Kind != canonical.Object {
		if v != nil {
			o.d.Report("source.invalid", at, "want an object, got %s", v.Kind)
		}
		return nil, "", v != nil
	}
	return v, at, false
}

// localRef returns the JSON Pointer of a "#/…" reference.
func localRef(ref string) (canonical.Pointer, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && frag[0] != '/') {
		return "", false
	}
	if un, err := url.PathUnescape(frag); err == nil {
		frag = un
	}
	return canonical.Pointer(frag), true
}

// oasSchema is a schema copied out of the description: converted, with its
// refs rewritten, where it came from, and the $defs keys it refers to.
type oasSchema struct {
	v    *canonical.Value
	at   canonical.Pointer
	refs []string
}

// root copies the schema v at at, first following $refs that are all there
// is to it, so that what is checked (object? flattenable?) is what it names.
func (o *oasDoc) root(v *canonical.Value, at canonical.Pointer) oasSchema {
	ref, ok := pureRef(v)
	if !ok {
		return o.schema(v, at)
	}
	p, ok := localRef(ref)
	if !ok {
		return o.schema(v, at)
	}
	key, rest, ok := o.defFor(p)
	if !ok || len(rest) > 0 {
		return o.schema(v, at)
	}
	def := o.defs[key]
	if last := o.follow(def.schema); last != nil {
		def = last
	}
	return oasSchema{v: def.schema.DeepCopy(), at: def.at, refs: slices.Clone(def.refs)}
}

// follow returns the last definition of the chain of $defs that s, a
// converted schema, names when it is only {"$ref": "#/$defs/K"}, and
// that definition is only such a $ref in turn …; nil when s is more than a
// $ref into $defs.
func (o *oasDoc) follow(s *canonical.Value) *oasDef {
	var last *oasDef
	for hops := 0; hops < maxRefHops; hops++ {
		ref, ok := pureRef(s)
		if !ok {
			break
		}
		p, _ := localRef(ref)
		toks, _ := p.Tokens()
		if len(toks) != 2 || toks[0] != "$defs" || o.defs[toks[1]] == nil {
			break
		}
		last = o.defs[toks[1]]
		s = last.schema
	}
	return last
}

// pureRef returns the $ref of a schema that has nothing else.
func pureRef(v *canonical.Value) (string, bool) {
	if v == nil || v.Kind != canonical.Object || len(v.Members()) != 1 {
		return "", false
	}
	return v.Get("$ref").StringValue()
}

// schema copies the schema v at at: converted from OpenAPI 3.0 where the
// description is 3.0, with its refs pointing into $defs.
func (o *oasDoc) schema(v *canonical.Value, at canonical.Pointer) oasSchema {
	if v == nil {
		return oasSchema{v: canonical.NewObject(), at: at}
	}
	c := v.DeepCopy()
	if o.v30 {
		decode.Convert30(c, o.conv.Add(at))
	}
	return oasSchema{v: c, at: at, refs: o.rewriteRefs(c)}
}

// maxOutputValues bounds an output schema with its definitions. Responses
// of large APIs can reach most of the API's schemas (Stripe's objects reach
// 500 of them, 800 KB of JSON, through their expandable fields); copied into
// each tool they would make the MCP bundle hundreds of megabytes. Inputs
// have no such bound: a tool cannot do without its input schema.
const maxOutputValues = 10_000

// reach lists the definitions that refs reach, directly or through others.
func (o *oasDoc) reach(refs []string) []*oasDef {
	seen := map[string]bool{}
	var reached []*oasDef
	for len(refs) > 0 {
		k := refs[0]
		refs = refs[1:]
		if seen[k] {
			continue
		}
		seen[k] = true
		def := o.defs[k]
		reached = append(reached, def)
		refs = append(refs, def.refs...)
	}
	return reached
}

// attachDefs adds to root, as "$defs", the reached definitions, in the order
// of the description's components.
func attachDefs(t *canonical.Tool, root *canonical.Value, reached []*oasDef, field canonical.Pointer) {
	if len(reached) == 0 {
		return
	}
	slices.SortFunc(reached, func(a, b *oasDef) int { return cmp.Or(cmp.Compare(a.order, b.order), strings.Compare(a.key, b.key)) })
	defs := root.Get("$defs")
	if defs == nil || defs.Kind != canonical.Object {
		defs = canonical.NewObject()
		root.Set("$defs", defs)
	}
	for _, def := range reached {
		if !defs.Has(def.key) {
			defs.Set(def.key, def.schema.DeepCopy())
			t.Source.Fields[field.Append("$defs", def.key)] = def.at
		}
	}
}

// defFor names the definition that a local $ref to p needs: a component
// schema is its own name, with the rest of the pointer inside it; any other
// schema in the description gets a name made from its pointer. It converts
// the definition the first time it is asked for, and reports false when p
// names no schema.
func (o *oasDoc) defFor(p canonical.Pointer) (key string, rest []string, ok bool) {
	toks, err := p.Tokens()
	if err != nil || len(toks) == 0 {
		return "", nil, false
	}
	at := p
	switch {
	case len(toks) >= 3 && toks[0] == "components" && toks[1] == "schemas":
		key, rest, at = toks[2], toks[3:], canonical.Pointer("/components/schemas").Append(toks[2])
	case len(toks) >= 2 && toks[0] == graftKey:
		// In another file: its component's name, or the file's stem and
		// the pointer, never a name of this file's components.
		stem := strings.TrimSuffix(path.Base(toks[1]), path.Ext(toks[1]))
		parts := append([]string{stem}, toks[2:]...)
		if len(toks) >= 5 && toks[2] == "components" && toks[3] == "schemas" {
			parts, rest, at = toks[4:5], toks[5:], canonical.Pointer("").Append(toks[:5]...)
		}
		key = o.freeKey(illegalNameChars.ReplaceAllString(strings.Join(parts, "."), "_"), at)
	default:
		key = o.freeKey(illegalNameChars.ReplaceAllString(strings.Join(toks, "."), "_"), at)
	}
	if def, ok := o.defs[key]; ok {
		if def.at != at { // two pointers that sanitise to one name
			return "", nil, false
		}
		return key, rest, true
	}
	target := o.doc.Resolve(at)
	if target == nil || (target.Kind != canonical.Object && target.Kind != canonical.Bool) {
		return "", nil, false
	}
	order, isComponent := o.order[key]
	if !isComponent || at != canonical.Pointer("/components/schemas").Append(key) {
		order = len(o.order) + len(o.defs)
	}
	def := &oasDef{key: key, at: at, order: order}
	o.defs[key] = def // before converting: a definition may refer to itself
	s := o.schema(target, at)
	def.schema, def.refs, def.nodes = s.v, s.refs, s.v.Size()
	return key, rest, true
}

// freeKey returns base, or base with '_' added until it names no component
// of this file and no definition of another pointer than at.
func (o *oasDoc) freeKey(base string, at canonical.Pointer) string {
	for {
		_, component := o.order[base]
		if def, ok := o.defs[base]; !component && (!ok || def.at == at) {
			return base
		}
		base += "_"
	}
}

// rewriteRefs points every local $ref in the schema s (a copy) at the
// tool's own $defs and returns the $defs keys they need. A $ref that
// cannot be followed is left as it is, for validation to report.
func (o *oasDoc) rewriteRefs(s *canonical.Value) []string {
	var keys []string
	canonical.Visit(canonical.AsSchema(s), func(sub *canonical.Schema) bool {
		if !sub.IsObject() {
			return true
		}
		i := sub.JSON().Index("$ref")
		if i < 0 {
			return true
		}
		rv := sub.JSON().Members()[i].Value
		ref, isString := rv.StringValue()
		p, local := localRef(ref)
		if !isString || !local {
			return true
		}
		key, rest, ok := o.defFor(p)
		if !ok {
			return true
		}
		rv.SetText("#" + fragmentEscape(string(canonical.Pointer("/$defs").Append(key).Append(rest...))))
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
		return true
	})
	return keys
}

// fragmentEscape percent-encodes what a URI fragment cannot hold as is.
func fragmentEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
