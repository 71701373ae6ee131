package breaking

import (
	"slices"

	"github.com/toolc-dev/toolc/canonical"
)

// verdict is what toolc can decide about the inclusion of two schemas.
type verdict int8

const (
	unknown verdict = iota // undecidable here: patterns, formats, not, if/then …
	yes
	no
)

func and(vs ...verdict) verdict {
	out := yes
	for _, v := range vs {
		switch v {
		case no:
			return no
		case unknown:
			out = unknown
		}
	}
	return out
}

// undecided are the assertions whose inclusion toolc does not decide: a
// schema with one of them, different on each side, gives unknown.
var undecided = []string{"pattern", "format", "multipleOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
	"dependencies", "patternProperties", "propertyNames", "contains", "minContains", "maxContains", "uniqueItems",
	"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "prefixItems", "minProperties", "maxProperties"}

// boundTypes say which JSON types a bound applies to.
var boundTypes = map[string][]string{
	"maximum": {"number", "integer"}, "exclusiveMaximum": {"number", "integer"}, "minimum": {"number", "integer"}, "exclusiveMinimum": {"number", "integer"},
	"maxLength": {"string"}, "minLength": {"string"}, "maxItems": {"array"}, "minItems": {"array"},
}

// incl decides whether every value schema b accepts, schema a accepts
// too (b ⊆ a); a is resolved in aRoot, b in bRoot. oneOf is read as anyOf:
// a value that matches two branches is the rare case it would miss.
type incl struct {
	aRoot, bRoot *canonical.Value
	depth        int
}

func isAny(v *canonical.Value) bool {
	if v == nil {
		return true
	}
	if v.Kind == canonical.Bool {
		return v.Bool
	}
	for _, m := range v.Members() {
		if !annotationKeyword[m.Key] {
			return false
		}
	}
	return true
}

var annotationKeyword = map[string]bool{"title": true, "description": true, "default": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$schema": true, "$id": true, "$anchor": true, "$defs": true, "definitions": true}

func union(v *canonical.Value) []*canonical.Value {
	for _, k := range []string{"anyOf", "oneOf"} {
		if u := v.Get(k); u != nil && u.Kind == canonical.Array {
			return u.Items()
		}
	}
	return nil
}

// without returns v without the keywords keys.
func without(v *canonical.Value, keys ...string) *canonical.Value {
	out := &canonical.Value{Kind: canonical.Object}
	for _, m := range v.Members() {
		if !slices.Contains(keys, m.Key) {
			out.SetMembers(append(out.Members(), m))
		}
	}
	return out
}

func (c *incl) includes(a, b *canonical.Value) verdict {
	a, b = resolve(c.aRoot, a), resolve(c.bRoot, b)
	if c.depth > 24 {
		return unknown
	}
	c.depth++
	defer func() { c.depth-- }()
	if v, ok := obvious(a, b); ok {
		return v
	}
	// b's union: every branch must be in a.
	if bs := union(b); bs != nil {
		v := yes
		for _, br := range bs {
			v = and(v, c.includes(a, br))
		}
		if v == no && !isAny(without(b, "anyOf", "oneOf")) {
			return unknown // b's other keywords may exclude what the branch adds
		}
		return v
	}
	if all := b.Get("allOf"); all != nil && all.Kind == canonical.Array {
		return c.allIn(a, b, all.Items())
	}
	if all := a.Get("allOf"); all != nil && all.Kind == canonical.Array {
		v := c.includes(without(a, "allOf"), b)
		for _, m := range all.Items() {
			v = and(v, c.includes(m, b))
		}
		return v
	}
	if values := enumValues(b); values != nil { // b takes these values only: each must fit a
		v := yes
		for _, x := range values {
			v = and(v, c.accepts(a, x))
		}
		return v
	}
	if as := union(a); as != nil {
		return c.inUnion(a, as, b)
	}
	return c.plain(a, b)
}

// obvious decides inclusion where one side accepts anything or nothing,
// or the two are equal; ok is false elsewhere.
func obvious(a, b *canonical.Value) (v verdict, ok bool) {
	switch {
	case isAny(a):
		return yes, true
	case b != nil && b.Kind == canonical.Bool && !b.Bool:
		return yes, true
	case b == nil || isAny(b):
		return no, true // a asserts something; b accepts anything
	case a.Kind == canonical.Bool: // false
		return no, true
	case a.Equal(b):
		return yes, true
	}
	return unknown, false
}

// allIn decides whether b, which is in each of its allOf members, is in
// a: it is where one member, or the rest of b, is.
func (c *incl) allIn(a, b *canonical.Value, members []*canonical.Value) verdict {
	for _, m := range members {
		if c.includes(a, m) == yes {
			return yes
		}
	}
	if c.includes(a, without(b, "allOf")) == yes {
		return yes
	}
	return unknown
}

// inUnion decides whether b is in a, whose branches are as: in a's other
// keywords and in one branch, or, split by type, each part in one.
func (c *incl) inUnion(a *canonical.Value, as []*canonical.Value, b *canonical.Value) verdict {
	rest := c.includes(without(a, "anyOf", "oneOf"), b)
	if rest == no {
		return no
	}
	best := no
	for _, br := range as {
		switch c.includes(br, b) {
		case yes:
			return and(rest, yes)
		case unknown:
			best = unknown
		}
	}
	if ts := typesOf(b); len(ts) > 1 { // split b by type: each part may fit another branch
		v := yes
		for _, t := range ts {
			part := without(b, "type")
			part.SetMembers(append(part.Members(), canonical.Member{Key: "type", Value: canonical.NewString(t)}))
			v = and(v, c.inAny(as, part))
		}
		return and(rest, v)
	}
	if best == no && (b.Has("not") || b.Has("if")) {
		best = unknown // b's values may be spread over the branches
	}
	return and(rest, best)
}

// inAny is whether b is in one of the branches: yes if in one, unknown if
// maybe in one.
func (c *incl) inAny(as []*canonical.Value, b *canonical.Value) verdict {
	v := no
	for _, br := range as {
		if x := c.includes(br, b); x == yes {
			return yes
		} else if x == unknown {
			v = unknown
		}
	}
	return v
}

// plain decides inclusion of two schemas without combinators in a.
func (c *incl) plain(a, b *canonical.Value) verdict {
	for _, k := range undecided {
		if av := a.Get(k); av != nil && !av.Equal(b.Get(k)) {
			return unknown
		}
	}
	bt := typesOf(b)
	values := enumValues(b)
	if values != nil { // b accepts only these values
		for _, v := range values {
			if x := c.accepts(a, v); x != yes {
				return x
			}
		}
		return yes
	}
	if ae := enumValues(a); ae != nil {
		return no // a takes only some values, b any of its types
	}
	at := typesOf(a)
	if at != nil {
		if bt == nil {
			return no
		}
		for _, t := range bt {
			if !accepts(at, t) {
				return no
			}
		}
	}
	v := yes
	for _, k := range upperBounds {
		v = and(v, c.bound(a, b, k, bt, func(x, y float64) bool { return y <= x }))
	}
	for _, k := range lowerBounds {
		v = and(v, c.bound(a, b, k, bt, func(x, y float64) bool { return y >= x }))
	}
	if v == no {
		return no
	}
	if bt == nil || slices.Contains(bt, "object") {
		v = and(v, c.object(a, b))
	}
	if ai := a.Get("items"); ai != nil && (bt == nil || slices.Contains(bt, "array")) {
		v = and(v, c.includes(ai, b.Get("items")))
	}
	return v
}

// bound decides whether b keeps within a's bound k.
func (c *incl) bound(a, b *canonical.Value, k string, bt []string, within func(x, y float64) bool) verdict {
	x, ok := a.Get(k).NumberValue()
	if !ok {
		return yes
	}
	if y, ok := b.Get(k).NumberValue(); ok && within(x, y) {
		return yes
	}
	if bt != nil && !slices.ContainsFunc(bt, func(t string) bool { return slices.Contains(boundTypes[k], t) }) {
		return yes // the bound applies to none of b's types
	}
	return no
}

// object decides the object keywords: required, properties and closed.
func (c *incl) object(a, b *canonical.Value) verdict {
	breq := requiredSet(b)
	for r := range requiredSet(a) {
		if !breq[r] {
			return no
		}
	}
	v := yes
	ap, bp := a.Get("properties"), b.Get("properties")
	bClosed := isFalse(b.Get("additionalProperties"))
	if ap != nil && ap.Kind == canonical.Object {
		for _, m := range ap.Members() {
			// A property only a declares is an added optional one: as
			// for breaking.optional-added, calls are taken to pass only
			// the properties their schema declared.
			if bv := bp.Get(m.Key); bv != nil {
				v = and(v, c.includes(m.Value, bv))
			}
		}
	}
	switch aa := a.Get("additionalProperties"); {
	case aa == nil || isAny(aa):
	case isFalse(aa):
		if !bClosed {
			return no
		}
		if bp != nil && bp.Kind == canonical.Object {
			for _, m := range bp.Members() {
				if ap.Get(m.Key) == nil && !isFalse(m.Value) {
					return no
				}
			}
		}
	default:
		return and(v, unknown)
	}
	return v
}

// enumValues returns the values b's enum or const allows, or nil.
func enumValues(v *canonical.Value) []*canonical.Value {
	if c := v.Get("const"); c != nil {
		return []*canonical.Value{c}
	}
	if e := v.Get("enum"); e != nil && e.Kind == canonical.Array {
		return e.Items()
	}
	return nil
}

// accepts decides whether schema a accepts the value x, for the keywords
// toolc compares.
func (c *incl) accepts(a, x *canonical.Value) verdict {
	a = resolve(c.aRoot, a)
	if isAny(a) {
		return yes
	}
	if a.Kind == canonical.Bool {
		return no
	}
	if as := union(a); as != nil {
		best := no
		for _, br := range as {
			switch c.accepts(br, x) {
			case yes:
				return yes
			case unknown:
				best = unknown
			}
		}
		return best
	}
	if a.Has("allOf") {
		return unknown
	}
	if vs := enumValues(a); vs != nil && !slices.ContainsFunc(vs, x.Equal) {
		return no
	}
	t := x.Kind.String()
	if x.Kind == canonical.Number {
		t = "number"
		if f, ok := x.NumberValue(); ok && f == float64(int64(f)) {
			t = "integer"
		}
	}
	if ts := typesOf(a); ts != nil && !accepts(ts, t) {
		return no
	}
	for _, k := range append(slices.Clone(undecided), append(upperBounds, lowerBounds...)...) {
		if a.Has(k) {
			return unknown
		}
	}
	if x.Kind == canonical.Object && (a.Has("properties") || a.Has("required") || a.Has("additionalProperties")) {
		return unknown
	}
	if x.Kind == canonical.Array && a.Has("items") {
		return unknown
	}
	return yes
}
