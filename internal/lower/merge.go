package lower

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

func runAllOf(u *Unit) {
	// Inlining a member's $ref can bring in definitions that have an allOf
	// of their own: walk again until none is left (bounded, as inlining is).
	for range 16 {
		if !mergeAllOf(u) {
			return
		}
	}
}

// mergeAllOf merges or drops every allOf present now, and reports whether
// it inlined a definition, which may have brought in another allOf.
func mergeAllOf(u *Unit) bool {
	var r *resolver
	inlined := false
	for _, s := range reversed(u.root) {
		if mergeAllOfAt(u, s, &r) {
			inlined = true
		}
	}
	return inlined
}

// mergeAllOfAt merges the allOf of the schema s into it, member by member,
// and drops each member that cannot be merged; it reports whether it
// inlined a definition. *r is the unit's resolver, made when first needed.
func mergeAllOfAt(u *Unit, s located, r **resolver) (inlined bool) {
	all := s.node.Get("allOf")
	if all == nil || all.Kind != canonical.Array {
		return false
	}
	base := canonical.NewObject(without(s.node.Members(), "allOf")...)
	merged := 0
	var lost []string
	for i, m := range all.Items() {
		at := s.at().Append("allOf").Index(i)
		if _, ok := refOf(m); ok {
			if *r == nil {
				*r = newResolver(u)
			}
			if _, st := (*r).expand(m, at, nil); st != refInlined {
				u.Report("loss.all-of", at, m, "", "allOf member dropped: %s %s cannot be merged", refWhy[st], m.Get("$ref").Text())
				continue
			}
			inlined = true
		}
		if out, ok := mergeSchemas(base, m, func(k string) { lost = append(lost, k) }); ok {
			base = out
			merged++
			continue
		}
		u.Report("loss.all-of", at, m, "", "allOf member dropped: it cannot be merged into its schema without changing what is accepted")
	}
	s.node.SetMembers(base.Members())
	if merged > 0 {
		u.Report("lower.all-of-merged", s.at(), s.node, "allOf", "merged %d allOf member(s) into the schema%s", merged, keptOver(lost, "a member's"))
	}
	return inlined
}

var (
	lowerBounds = map[string]bool{"minimum": true, "exclusiveMinimum": true, "minLength": true, "minItems": true, "minProperties": true, "minContains": true}
	upperBounds = map[string]bool{"maximum": true, "exclusiveMaximum": true, "maxLength": true, "maxItems": true, "maxProperties": true, "maxContains": true}
	// closers make the set of properties an object may have depend on its
	// own properties, so merging two with different properties is unsound.
	closers = []string{"additionalProperties", "patternProperties", "unevaluatedProperties"}
)

// keptOver says which annotations of the other side a merge left out.
func keptOver(lost []string, whose string) string {
	if len(lost) == 0 {
		return ""
	}
	slices.Sort(lost)
	return fmt.Sprintf("; %s %s differed and gave way", whose, strings.Join(slices.Compact(lost), ", "))
}

// mergeSchemas returns one schema that accepts exactly what both a and b
// accept, and false when it cannot make one. It shares b's values. Where
// both have an annotation (a description, a title …) with different values,
// a's is kept and lost is told b's keyword.
func mergeSchemas(a, b *canonical.Value, lost func(keyword string)) (*canonical.Value, bool) {
	if b.Kind == canonical.Bool {
		return a, b.Bool
	}
	if a.Kind != canonical.Object || b.Kind != canonical.Object {
		return nil, false
	}
	if !sameProperties(a, b) {
		return nil, false
	}
	out := canonical.NewObject(slices.Clone(a.Members())...)
	for _, m := range b.Members() {
		av := out.Get(m.Key)
		switch {
		case av == nil:
			out.SetMembers(append(out.Members(), m))
		case av.Equal(m.Value):
		case annotation[m.Key]:
			lost(m.Key)
		case m.Key == "properties" && av.Kind == canonical.Object && m.Value.Kind == canonical.Object:
			props := canonical.NewObject(slices.Clone(av.Members())...)
			for _, pm := range m.Value.Members() {
				prev := props.Get(pm.Key)
				if prev == nil {
					props.SetMembers(append(props.Members(), pm))
					continue
				}
				both, ok := mergeSchemas(prev, pm.Value, lost)
				if !ok {
					return nil, false
				}
				props.Set(pm.Key, both)
			}
			out.Set("properties", props)
		case m.Key == "items" && (av.Kind == canonical.Object || av.Kind == canonical.Bool):
			both, ok := mergeSchemas(av, m.Value, lost)
			if !ok {
				return nil, false
			}
			out.Set("items", both)
		case m.Key == "required":
			as, ok1 := av.Strings()
			bs, ok2 := m.Value.Strings()
			if !ok1 || !ok2 {
				return nil, false
			}
			for _, s := range bs {
				if !slices.Contains(as, s) {
					as = append(as, s)
				}
			}
			out.Set("required", canonical.NewStrings(as))
		case m.Key == "type":
			t := intersectTypes(av, m.Value)
			if t == nil {
				return nil, false
			}
			out.Set("type", t)
		case m.Key == "enum" && av.Kind == canonical.Array && m.Value.Kind == canonical.Array:
			var keep []*canonical.Value
			for _, x := range av.Items() {
				if slices.ContainsFunc(m.Value.Items(), x.Equal) {
					keep = append(keep, x)
				}
			}
			if len(keep) == 0 {
				return nil, false
			}
			out.Set("enum", canonical.NewArray(keep...))
		case lowerBounds[m.Key] || upperBounds[m.Key]:
			x, ok1 := number(av)
			y, ok2 := number(m.Value)
			if !ok1 || !ok2 {
				return nil, false
			}
			if c := x.Cmp(y); c < 0 && lowerBounds[m.Key] || c > 0 && upperBounds[m.Key] {
				out.Set(m.Key, m.Value)
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// sameProperties reports whether merging a and b keeps the properties each
// lets through: when one closes its object (additionalProperties and the
// like), the other may declare only properties it declares too; when both
// do, they must declare the same.
func sameProperties(a, b *canonical.Value) bool {
	closed := func(v *canonical.Value) bool {
		for _, k := range closers {
			if x := v.Get(k); x != nil && !(x.Kind == canonical.Bool && x.Bool) {
				return true
			}
		}
		return false
	}
	keys := func(v *canonical.Value) []string {
		var ks []string
		if p := v.Get("properties"); p != nil {
			ks = p.Keys()
		}
		slices.Sort(ks)
		return ks
	}
	subset := func(x, y []string) bool {
		for _, k := range x {
			if !slices.Contains(y, k) {
				return false
			}
		}
		return true
	}
	switch ca, cb := closed(a), closed(b); {
	case ca && cb:
		return slices.Equal(keys(a), keys(b))
	case ca:
		return subset(keys(b), keys(a))
	case cb:
		return subset(keys(a), keys(b))
	}
	return true
}

func number(v *canonical.Value) (*big.Float, bool) {
	if v == nil || v.Kind != canonical.Number {
		return nil, false
	}
	f, _, err := big.ParseFloat(v.Text(), 10, 256, big.ToNearestEven)
	return f, err == nil
}

func typeSet(v *canonical.Value) ([]string, bool) {
	if s, ok := v.StringValue(); ok {
		return []string{s}, true
	}
	return v.Strings()
}

// intersectTypes returns the types both a and b allow ("integer" being a
// "number"), or nil when they share none.
func intersectTypes(a, b *canonical.Value) *canonical.Value {
	as, ok1 := typeSet(a)
	bs, ok2 := typeSet(b)
	if !ok1 || !ok2 {
		return nil
	}
	var out []string
	for _, t := range as {
		switch {
		case slices.Contains(bs, t):
			out = append(out, t)
		case t == "integer" && slices.Contains(bs, "number"):
			out = append(out, t)
		case t == "number" && slices.Contains(bs, "integer"):
			out = append(out, "integer")
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return canonical.NewString(out[0])
	}
	return canonical.NewStrings(out)
}

// ---- oneOf, const ----

func runOneOf(u *Unit) {
	for _, s := range allSchemas(u.root) {
		i := s.node.Index("oneOf")
		if i < 0 {
			continue
		}
		if s.node.Has("anyOf") {
			s.node.SetMembers(append(s.node.Members()[:i], s.node.Members()[i+1:]...))
			u.Report("loss.one-of", s.at(), s.node, "oneOf", "oneOf dropped: the schema has an anyOf already, and the target has no oneOf")
			continue
		}
		s.node.Members()[i].Key = "anyOf"
		u.Report("lower.one-of-as-any-of", s.at(), s.node, "oneOf", "oneOf written as anyOf: a value that matches more than one branch is accepted too")
	}
}

func runConst(u *Unit) {
	for _, s := range allSchemas(u.root) {
		i := s.node.Index("const")
		if i < 0 {
			continue
		}
		c := s.node.Members()[i].Value
		if e := s.node.Get("enum"); e != nil {
			if e.Kind != canonical.Array || !slices.ContainsFunc(e.Items(), c.Equal) {
				s.node.SetMembers(append(s.node.Members()[:i], s.node.Members()[i+1:]...))
				u.Report("loss.const", s.at(), s.node, "const", "const %s dropped: it is not one of the enum's values, and the target has no const", quote(c))
				continue
			}
			s.node.Delete("enum")
			i = s.node.Index("const")
		}
		s.node.Members()[i] = canonical.Member{Key: "enum", Value: canonical.NewArray(c), KeyPos: s.node.Members()[i].KeyPos}
		u.Report("lower.const-as-enum", s.at(), s.node, "const", "const %s written as enum [%s]", quote(c), quote(c))
	}
}

// ---- nullable ----
