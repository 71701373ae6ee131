package canonical

import (
	"iter"
	"strconv"
	"strings"
)

// Schema is a JSON Schema (2020-12, 2019-09, draft-07 or draft-04). It is the
// JSON value itself, so nothing is lost: every keyword (unknown ones and x-
// extensions too) keeps its place and its exact value, and the boolean schemas
// true and false are schemas. Typed accessors read the common keywords; the
// walker visits every subschema under every applicator keyword.
//
// A *Schema and a *Value are two views of the same node and convert freely:
// (*Value)(s) and AsSchema(v).
type Schema Value

// AsSchema views the JSON value v as a schema.
func AsSchema(v *Value) *Schema { return (*Schema)(v) }

// JSON returns the schema as a JSON value (the same node).
func (s *Schema) JSON() *Value { return (*Value)(s) }

// ParseSchema parses JSON text as a schema.
func ParseSchema(data []byte) (*Schema, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, err
	}
	return AsSchema(v), nil
}

// IsBool reports whether s is the boolean schema true or false.
func (s *Schema) IsBool() bool { return s != nil && s.Kind == Bool }

// IsObject reports whether s is a JSON object (a schema with keywords).
func (s *Schema) IsObject() bool { return s != nil && s.Kind == Object }

// Keyword returns the value of keyword k, or nil.
func (s *Schema) Keyword(k string) *Value { return s.JSON().Get(k) }

// Sub returns the subschema under a single-schema keyword such as "items",
// "not" or "additionalProperties", or nil when the keyword is absent or holds
// no schema.
func (s *Schema) Sub(k string) *Schema {
	v := s.Keyword(k)
	if v == nil || (v.Kind != Object && v.Kind != Bool) {
		return nil
	}
	return AsSchema(v)
}

// Types returns the "type" keyword as a list: ["object"] for "object",
// the array's strings for ["string","null"], nil when absent or malformed.
func (s *Schema) Types() []string {
	v := s.Keyword("type")
	if v == nil {
		return nil
	}
	if t, ok := v.StringValue(); ok {
		return []string{t}
	}
	ts, _ := v.Strings()
	return ts
}

// HasType reports whether the "type" keyword allows t.
func (s *Schema) HasType(t string) bool {
	v := s.Keyword("type")
	if v == nil {
		return false
	}
	if v.Kind == String {
		return v.Text() == t // without the slice Types makes: walks ask this of every schema
	}
	found := false
	for _, x := range v.Items() {
		if x.Kind != String {
			return false // not a list of types, as Types says
		}
		found = found || x.Text() == t
	}
	return found
}

// Description returns the "description" keyword, or "".
func (s *Schema) Description() string {
	d, _ := s.Keyword("description").StringValue()
	return d
}

// Required returns the "required" keyword's property names.
func (s *Schema) Required() []string {
	r, _ := s.Keyword("required").Strings()
	return r
}

// Properties yields each property name and its schema in order.
func (s *Schema) Properties() iter.Seq2[string, *Schema] {
	return func(yield func(string, *Schema) bool) {
		props := s.Keyword("properties")
		if props == nil || props.Kind != Object {
			return
		}
		for _, m := range props.Members() {
			if m.Value.Kind != Object && m.Value.Kind != Bool {
				continue
			}
			if !yield(m.Key, AsSchema(m.Value)) {
				return
			}
		}
	}
}

// DeepCopy returns a copy of s that shares no memory with s.
func (s *Schema) DeepCopy() *Schema { return AsSchema(s.JSON().DeepCopy()) }

// Equal reports whether s and t are the same JSON.
func (s *Schema) Equal(t *Schema) bool { return s.JSON().Equal(t.JSON()) }

// applicator says how a keyword holds subschemas.
type applicator uint8

const (
	single       applicator = iota + 1 // one schema
	list                               // an array of schemas
	named                              // an object whose values are schemas
	singleOrList                       // "items": a schema (2020-12) or an array of schemas (draft-07, 2019-09)
	namedMixed                         // "dependencies": values are schemas or arrays of property names
)

// applicatorOf tells, for every keyword that holds subschemas in any of
// 2020-12, 2019-09, draft-07 and draft-04, how it holds them, and 0 for
// any other: annotations or assertions whose values are not schemas
// (unknown keywords included, as the specifications say).
func applicatorOf(k string) applicator {
	// A switch, not a map: every walk asks this of every key of every
	// schema, and most keys (type, description, enum) are none of these,
	// which a switch tells by length at once, where a map hashes them.
	switch k {
	case "additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "not",
		"propertyNames", "then", "unevaluatedItems", "unevaluatedProperties":
		return single
	case "items":
		return singleOrList
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return list
	case "$defs", "definitions", "dependentSchemas", "patternProperties", "properties":
		return named
	case "dependencies":
		return namedMixed
	}
	return 0
}

// IsApplicator reports whether keyword k holds subschemas.
func IsApplicator(k string) bool { return applicatorOf(k) != 0 }

func isSchemaValue(v *Value) bool { return v != nil && (v.Kind == Object || v.Kind == Bool) }

// Subschemas yields the direct subschemas of s in keyword order, each with its
// pointer relative to s ("/properties/name", "/items", "/anyOf/0" …). A
// keyword whose value has the wrong shape for a schema holder is skipped, so
// malformed input never panics a walk.
func (s *Schema) Subschemas() iter.Seq2[Pointer, *Schema] {
	return func(yield func(Pointer, *Schema) bool) {
		s.EachSubschema(func(st Step, sub *Schema) bool { return yield(st.AppendTo(""), sub) })
	}
}

// Step is where a direct subschema is in its parent: under Keyword, and
// there at member Name (properties, $defs …: Named) or at Index (anyOf,
// prefixItems …: Index ≥ 0), or the keyword's value itself (items, not …).
type Step struct {
	Keyword string
	Name    string
	Named   bool
	Index   int // -1 when not in a list
}

// AppendTo returns p extended by the step.
func (st Step) AppendTo(p Pointer) Pointer {
	var b strings.Builder
	b.Grow(len(p) + len(st.Keyword) + len(st.Name) + 8)
	b.WriteString(string(p))
	b.WriteByte('/')
	writeToken(&b, st.Keyword)
	switch {
	case st.Named:
		b.WriteByte('/')
		writeToken(&b, st.Name)
	case st.Index >= 0:
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(st.Index))
	}
	return Pointer(b.String())
}

// Leads returns the length of the step's tokens at the start of p, a JSON
// Pointer relative to the step's schema, and whether p starts with them
// (whole tokens): a walk towards a known pointer follows the one step
// that leads there without building a pointer for the others.
func (st Step) Leads(p Pointer) (int, bool) {
	n, ok := leadingToken(p, st.Keyword)
	if !ok {
		return 0, false
	}
	var m int
	switch {
	case st.Named:
		m, ok = leadingToken(p[n:], st.Name)
	case st.Index >= 0:
		m, ok = leadingToken(p[n:], strconv.Itoa(st.Index))
	}
	return n + m, ok
}

// leadingToken returns the length of "/" and tok, escaped, at the start
// of p, when p starts with that whole token.
func leadingToken(p Pointer, tok string) (int, bool) {
	if len(p) == 0 || p[0] != '/' {
		return 0, false
	}
	i := 1
	for j := 0; j < len(tok); j++ {
		var want string
		switch tok[j] {
		case '~':
			want = "~0"
		case '/':
			want = "~1"
		default:
			if i >= len(p) || p[i] != tok[j] {
				return 0, false
			}
			i++
			continue
		}
		if !strings.HasPrefix(string(p[i:]), want) {
			return 0, false
		}
		i += 2
	}
	return i, i == len(p) || p[i] == '/'
}

// EachSubschema calls fn for each direct subschema of s, in the order
// Subschemas yields them, with its step instead of its pointer: it builds
// no string, for walks that need a pointer only for the few schemas they
// report on. It stops when fn returns false.
func (s *Schema) EachSubschema(fn func(st Step, sub *Schema) bool) {
	if !s.IsObject() {
		return
	}
	for _, m := range s.JSON().Members() {
		kind := applicatorOf(m.Key)
		if kind == 0 {
			continue
		}
		v := m.Value
		switch {
		case (kind == single || kind == singleOrList) && isSchemaValue(v):
			if !fn(Step{Keyword: m.Key, Index: -1}, AsSchema(v)) {
				return
			}
		case (kind == list || kind == singleOrList) && v.Kind == Array:
			for i, it := range v.Items() {
				if isSchemaValue(it) && !fn(Step{Keyword: m.Key, Index: i}, AsSchema(it)) {
					return
				}
			}
		case (kind == named || kind == namedMixed) && v.Kind == Object:
			for _, nm := range v.Members() {
				if isSchemaValue(nm.Value) && !fn(Step{Keyword: m.Key, Name: nm.Key, Named: true, Index: -1}, AsSchema(nm.Value)) {
					return
				}
			}
		}
	}
}

// Walk calls fn for s and then, depth first in keyword order, for every
// subschema of s under every applicator keyword, with its pointer relative to
// s. If fn returns false, Walk does not descend into that schema's
// subschemas. Walk does not follow $ref.
func Walk(s *Schema, fn func(p Pointer, s *Schema) bool) {
	walk("", s, fn)
}

func walk(p Pointer, s *Schema, fn func(Pointer, *Schema) bool) {
	if s == nil || !fn(p, s) {
		return
	}
	for rel, sub := range s.Subschemas() {
		walk(p.Join(rel), sub, fn)
	}
}

// Path is the steps from a walk's root to a schema. Walks that report on
// few of the schemas they visit take one instead of a pointer, and build
// the pointer only for those.
type Path []Step

// Pointer returns the path as a JSON Pointer.
func (p Path) Pointer() Pointer {
	var out Pointer
	for _, st := range p {
		out = st.AppendTo(out)
	}
	return out
}

// WalkPath is Walk with each schema's path instead of its pointer. The path
// is valid only during the call to fn (the walk reuses it); fn copies it,
// or its Pointer, to keep it.
func WalkPath(s *Schema, fn func(path Path, s *Schema) bool) {
	var path Path
	var walk func(s *Schema)
	walk = func(s *Schema) {
		if !fn(path, s) {
			return
		}
		s.EachSubschema(func(st Step, sub *Schema) bool {
			path = append(path, st)
			walk(sub)
			path = path[:len(path)-1]
			return true
		})
	}
	if s != nil {
		walk(s)
	}
}

// Visit calls fn for s and every subschema, in Walk's order, for walks
// that need no pointer. If fn returns false, Visit does not descend into
// that schema's subschemas.
func Visit(s *Schema, fn func(s *Schema) bool) {
	if s == nil || !fn(s) {
		return
	}
	s.EachSubschema(func(_ Step, sub *Schema) bool {
		Visit(sub, fn)
		return true
	})
}

// All yields every schema in s (s first), depth first, with its pointer.
func (s *Schema) All() iter.Seq2[Pointer, *Schema] {
	return func(yield func(Pointer, *Schema) bool) {
		stop := false
		Walk(s, func(p Pointer, sub *Schema) bool {
			if stop {
				return false
			}
			if !yield(p, sub) {
				stop = true
				return false
			}
			return true
		})
	}
}
