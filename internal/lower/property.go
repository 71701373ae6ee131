package lower

import (
	"slices"
	"strconv"

	"github.com/toolc-dev/toolc/canonical"
)

// One type per property, for servers that render tools through a chat
// template: Gemma's writes value['type'] | upper for every property, and a
// property whose type is missing, an array or beside a union stops the
// render ("Cannot apply filter \"upper\" to type: UndefinedValue"; LM
// Studio, lmstudio-bug-tracker issue 2228).

var propertyTypePass = &Pass{
	Name:     "property-type",
	Doc:      "gives every property one type string: [T, \"null\"] and anyOf with a null branch as T with nullable: true (lower.type-as-nullable), a union of several types as its first (loss.any-of, loss.type-union), an untyped schema the type its keywords or values say, else string (loss.untyped)",
	Requires: []*Pass{shapeNodesPass, nullableTypesPass},
	When:     needs("property-type", Type),
	Run:      runPropertyType,
	Node: func(*Rules) func(*canonical.Value) bool {
		return func(n *canonical.Value) bool {
			p := n.Get("properties")
			return p != nil && p.Kind == canonical.Object && slices.ContainsFunc(p.Members(), func(m canonical.Member) bool { return !oneType(m.Value) })
		}
	},
}

// oneType reports whether v is a schema with one type string, or a
// boolean schema (another row's).
func oneType(v *canonical.Value) bool {
	if v.Kind != canonical.Object {
		return true
	}
	_, ok := v.Get("type").StringValue()
	return ok
}

// unionBeside reports whether v has a union beside its type, which a
// target that also refuses type beside anyOf (Moonshot, so compatible)
// cannot keep on a property.
func unionBeside(r *Rules, v *canonical.Value) bool {
	return v.Kind == canonical.Object && (v.Has("anyOf") || v.Has("oneOf")) && r.Action("any-of-type") == Alone
}

func runPropertyType(u *Unit) {
	for _, s := range reversed(u.root) {
		p := s.node.Get("properties")
		if p == nil || p.Kind != canonical.Object {
			continue
		}
		for _, m := range p.Members() {
			if !oneType(m.Value) || unionBeside(u.Rules, m.Value) {
				typeProperty(u, m.Value, s.at().Append("properties", m.Key))
			}
		}
	}
}

// typeProperty gives the property schema n one type.
func typeProperty(u *Unit, n *canonical.Value, at canonical.Pointer) {
	if t := n.Get("type"); t != nil && t.Kind == canonical.Array {
		ts, _ := t.Strings()
		rest := slices.DeleteFunc(slices.Clone(ts), func(x string) bool { return x == "null" })
		name, code, why := "null", "lower.type-as-nullable", ""
		if len(rest) > 0 {
			name = rest[0]
		}
		if len(rest) > 1 {
			code, why = "loss.type-union", ": the target needs one type on every property, so the others are no longer accepted"
		}
		n.Set("type", canonical.NewString(name))
		null := len(rest) < len(ts) && len(rest) > 0
		if null {
			setNullable(n)
		}
		u.Report(code, at, n, "type", "type %s written as %q%s%s", t.String(), name, nullNote(null), why)
		return
	}
	typed, _ := n.Get("type").StringValue()
	for _, k := range []string{"anyOf", "oneOf"} {
		b := n.Get(k)
		if b == nil || b.Kind != canonical.Array || len(b.Items()) == 0 {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(b.Items()), isNullSchema)
		null := len(rest) < len(b.Items())
		if len(rest) == 0 {
			n.Delete(k)
			n.Set("type", canonical.NewString("null"))
			u.Report("lower.type-as-nullable", at, n, k, "a %s of only null written as type \"null\"", k)
			return
		}
		merged, ok := mergeSchemas(canonical.NewObject(without(n.Members(), k)...), rest[0], func(string) {})
		if !ok || !oneType(merged) {
			if typed != "" { // a union beside a type: the union goes
				n.Delete(k)
				u.Report("loss.any-of", at, n, k, "the %s beside type %q dropped: the target needs one type on every property and no type beside a union", k, typed)
				return
			}
			continue
		}
		n.SetMembers(merged.Members())
		if null {
			setNullable(n)
		}
		if len(rest) == 1 {
			u.Report("lower.type-as-nullable", at, n, k, "the %s of one type and null written as that type%s: the target needs one type on every property", k, nullNote(null))
		} else {
			u.Report("loss.any-of", at, n, k, "the %s narrowed to its first branch: the target needs one type on every property, so a value that only its other %s accepted is no longer accepted", k, branchCount(len(rest)-1))
		}
		return
	}
	if ts := inferType(n); len(ts) > 0 {
		n.Set("type", canonical.NewString(ts[0]))
		if len(ts) > 1 {
			u.Report("loss.type-union", at, n, "", "type %q added, the first its keywords or values say: the target needs one type on every property, so values of %s are no longer accepted", ts[0], canonical.NewStrings(ts[1:]).String())
			return
		}
		u.Report("lower.type-inferred", at, n, "", "type %q added, as its keywords or values say", ts[0])
		return
	}
	n.Delete("anyOf")
	n.Delete("oneOf")
	n.Set("type", canonical.NewString("string"))
	u.Report("loss.untyped", at, n, "", "a property without one type (any value) written as type \"string\": the target needs one type on every property, so other values are no longer accepted")
}

// branchCount says n branches in words.
func branchCount(n int) string {
	if n == 1 {
		return "branch"
	}
	return strconv.Itoa(n) + " branches"
}
