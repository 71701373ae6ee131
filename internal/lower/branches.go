package lower

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// ---- the type of anyOf's branches ----

// jsonTypes are the JSON types: a schema typed with all of them takes every
// value, as one without a type does.
var jsonTypes = []string{"array", "boolean", "null", "number", "object", "string"}

// untypedBranch reports whether n has a branch of anyOf or oneOf that is an
// object schema without "type".
func untypedBranch(n *canonical.Value) bool {
	for _, k := range []string{"anyOf", "oneOf"} {
		if b := n.Get(k); b != nil && b.Kind == canonical.Array {
			if slices.ContainsFunc(b.Items(), func(x *canonical.Value) bool { return x.Kind == canonical.Object && !x.Has("type") }) {
				return true
			}
		}
	}
	return false
}

// typeBranch gives a branch of anyOf or oneOf without "type" the type it
// already has, for a server that reads a branch without one as an error
// (DeepSeek V4): its parent's, the one its enum, const or keywords imply,
// its $ref target's, or else every JSON type. Each says the same as the
// branch did.
func typeBranch(u *Unit, res **resolver, b *canonical.Value, at canonical.Pointer, parent []string) {
	if b.Kind != canonical.Object || b.Has("type") {
		return
	}
	ts, why := parent, "the branch's parent has that type"
	if ts == nil {
		ts, why = inferType(b), "as its enum, const or keywords say"
	}
	if ref, ok := b.Get("$ref").StringValue(); ts == nil && ok {
		if *res == nil {
			*res = newResolver(u)
		}
		if target, local, _ := (*res).resolve(b, ref); local {
			if def := u.orig.Resolve(target); def != nil && def.Kind == canonical.Object {
				ts, _ = typeSet(def.Get("type"))
				ts, why = cmpTypes(ts, inferType(def)), "the type of what its $ref points to"
			}
		}
	}
	if ts == nil {
		ts, why = jsonTypes, "every JSON type, which takes what a schema without a type takes"
	}
	setType(b, ts)
	u.Report("lower.type-inferred", at, b, "", "type %s added to a branch without one (%s), as the target needs a type on every branch", canonical.NewStrings(ts).String(), why)
}

// cmpTypes returns a, or b where a is empty.
func cmpTypes(a, b []string) []string {
	if len(a) > 0 {
		return a
	}
	return b
}

// flattenAnyOf splices into n's anyOf each branch that is an anyOf alone
// (annotations and x- extensions aside): a union of unions is one union, and a
// target that takes no type beside anyOf and needs one on every branch
// takes no such branch in any other form.
func flattenAnyOf(u *Unit, n *canonical.Value, at canonical.Pointer) {
	any := n.Get("anyOf")
	if any == nil || any.Kind != canonical.Array {
		return
	}
	bare := func(b *canonical.Value) bool {
		inner := b.Get("anyOf")
		return b.Kind == canonical.Object && inner != nil && inner.Kind == canonical.Array &&
			!slices.ContainsFunc(b.Members(), func(m canonical.Member) bool {
				return m.Key != "anyOf" && !annotation[m.Key] && m.Key != "example" && !strings.HasPrefix(m.Key, "x-")
			})
	}
	if !slices.ContainsFunc(any.Items(), bare) {
		return
	}
	out := any.Items()
	for slices.ContainsFunc(out, bare) { // a union of unions of unions …
		var next []*canonical.Value
		for _, b := range out {
			if bare(b) {
				next = append(next, b.Get("anyOf").Items()...)
			} else {
				next = append(next, b)
			}
		}
		out = next
	}
	n.Set("anyOf", canonical.NewArray(out...))
	u.Report("lower.any-of-flattened", at, n, "anyOf", "a branch of anyOf that was itself only an anyOf had its branches moved into this one (the branch's annotations went with it), which accepts the same values")
}
