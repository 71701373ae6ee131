package lower

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/toolc-dev/toolc/canonical"
)

// Schemas that accept no value, for the servers that refuse how JSON
// Schema writes one: false (Ollama, llama.cpp, Moonshot) and {"not": {}}
// (Fireworks: "could not understand the instance {'not': {}}"; LibreChat
// issue 9242). Where the schema around one says the same without it, it is
// removed: a branch of anyOf, a property of a closed object; items as
// maxItems, propertyNames as maxProperties: 0. The others are written as
// {"type": T, "enum": []}, which accepts no value either, in keywords every
// server reads. None becomes a schema that accepts a value.

var neverPass = &Pass{
	Name: "never",
	Doc:  "removes the schemas that accept no value (false, {\"not\": {}}) where the schema around them says the same without them, and writes the others as {\"type\": T, \"enum\": []}, which accepts none either (lower.never)",
	When: needs("never", Prune),
	Run:  runNever,
	// Only where a schema accepts no value by its form, or holds false as
	// a subschema, and not in the form this pass writes: in one walk with
	// the other passes' tests.
	Node: func(*Rules) func(*canonical.Value) bool { return hasNever },
}

// hasNever reports whether the object schema n accepts no value by its
// form, not written as this pass writes it, or has false as a subschema
// where false does not close an object.
func hasNever(n *canonical.Value) bool {
	if neverForm(n) && !written(n) {
		return true
	}
	found := false
	canonical.AsSchema(n).EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
		v := sub.JSON()
		found = v.Kind == canonical.Bool && !v.Bool && !boolPlaces[st.Keyword]
		return !found
	})
	return found
}

// neverForm reports whether the schema v accepts no value by its form:
// false, a not that accepts every value, or an empty enum.
func neverForm(v *canonical.Value) bool {
	switch v.Kind {
	case canonical.Bool:
		return !v.Bool
	case canonical.Object:
		if n := v.Get("not"); n != nil && (n.Kind == canonical.Bool && n.Bool || n.Kind == canonical.Object && len(n.Members()) == 0) {
			return true
		}
		e := v.Get("enum")
		return e != nil && e.Kind == canonical.Array && len(e.Items()) == 0
	}
	return false
}

// written reports whether v is already in the form this pass writes.
func written(v *canonical.Value) bool {
	if v.Kind != canonical.Object || v.Has("not") {
		return false
	}
	_, typed := v.Get("type").StringValue()
	e := v.Get("enum")
	return typed && e != nil && e.Kind == canonical.Array && len(e.Items()) == 0
}

// boolPlaces are the keywords whose false every server reads: it closes an
// object to more properties or items.
var boolPlaces = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true}

func runNever(u *Unit) {
	var visit func(n *canonical.Value, at canonical.Pointer) bool
	// visit prunes under n, inner schemas first, and reports whether n
	// accepts no value.
	visit = func(n *canonical.Value, at canonical.Pointer) bool {
		if n.Kind != canonical.Object {
			return neverForm(n)
		}
		never := map[*canonical.Value]bool{}
		for rel, sub := range canonical.AsSchema(n).Subschemas() {
			if visit(sub.JSON(), at.Join(rel)) {
				never[sub.JSON()] = true
			}
		}
		out := neverForm(n)
		out = pruneBranches(u, n, at, never) || out
		out = pruneProperties(u, n, at, never) || out
		out = pruneItems(u, n, at, never) || out
		if m := n.Get("allOf"); m != nil && slices.ContainsFunc(m.Items(), func(x *canonical.Value) bool { return never[x] }) {
			out = true
		}
		if p := n.Get("propertyNames"); p != nil && never[p] {
			n.Delete("propertyNames")
			setMax(n, "maxProperties", 0)
			u.Report("lower.never", at.Append("propertyNames"), p, "", "propertyNames accepts no name: written as maxProperties: 0, which says the same")
		}
		if m := n.Get("not"); m != nil && never[m] {
			n.Delete("not")
			u.Report("lower.never", at.Append("not"), m, "", "not of a schema that accepts no value accepts every value: removed, which says the same")
		}
		return out
	}
	visit(u.root, "")
	if neverForm(u.root) && u.root.Kind == canonical.Object { // a boolean root is no subschema: it stays
		u.root = u.writeNever(u.root, "", false)
	}
	u.writeLeft(u.root, "")
}

// writeLeft writes each schema under n that accepts no value by its form,
// and that pruning left, as writeNever does.
func (u *Unit) writeLeft(n *canonical.Value, at canonical.Pointer) {
	type place struct {
		st  canonical.Step
		sub *canonical.Value
	}
	var left []place
	canonical.AsSchema(n).EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
		if v := sub.JSON(); neverForm(v) {
			left = append(left, place{st, v})
		} else {
			u.writeLeft(v, st.AppendTo(at))
		}
		return true
	})
	for _, l := range left {
		w := u.writeNever(l.sub, l.st.AppendTo(at), boolPlaces[l.st.Keyword])
		switch c := n.Get(l.st.Keyword); {
		case l.st.Named:
			ms := c.Members()
			ms[c.Index(l.st.Name)].Value = w
		case l.st.Index >= 0:
			c.Items()[l.st.Index] = w
		default:
			n.Set(l.st.Keyword, w)
		}
	}
}

// writeNever returns the schema v, which accepts no value, as {"type": T,
// "enum": []} with v's description, or false where closing takes false.
func (u *Unit) writeNever(v *canonical.Value, at canonical.Pointer, closing bool) *canonical.Value {
	if closing {
		if v.Kind == canonical.Bool {
			return v
		}
		u.Report("lower.never", at, v, "", "a schema that accepts no value written as false, which says the same")
		return canonical.NewBool(false)
	}
	if written(v) {
		return v
	}
	t := "string"
	if s, ok := v.Get("type").StringValue(); ok && v.Kind == canonical.Object {
		t = s
	}
	w := canonical.NewObject()
	w.Set("type", canonical.NewString(t))
	w.Set("enum", canonical.NewArray())
	if d := v.Get("description"); d != nil && v.Kind == canonical.Object {
		w.Set("description", d)
	}
	w.Pos = v.Pos
	u.origins[w] = u.origins[v]
	u.Report("lower.never", at, w, "", "a schema that accepts no value written as {\"type\": %q, \"enum\": []}, which accepts none either: the target refuses false and {\"not\": {}}", t)
	return w
}

// pruneBranches removes the branches of anyOf and oneOf that accept no
// value, and reports whether none is left.
func pruneBranches(u *Unit, n *canonical.Value, at canonical.Pointer, never map[*canonical.Value]bool) bool {
	out := false
	for _, k := range []string{"anyOf", "oneOf"} {
		b := n.Get(k)
		if b == nil || b.Kind != canonical.Array || !slices.ContainsFunc(b.Items(), func(x *canonical.Value) bool { return never[x] }) {
			continue
		}
		var kept []*canonical.Value
		for i, x := range b.Items() {
			if never[x] {
				u.Report("lower.never", at.Append(k).Index(i), x, "", "the branch %s/%d accepts no value: removed, which says the same", k, i)
				continue
			}
			kept = append(kept, x)
		}
		if len(kept) == 0 {
			out = true // every branch is left, for the schema to be written whole
			continue
		}
		b.SetItems(kept)
	}
	return out
}

// pruneProperties removes the properties that accept no value from a
// closed object, and reports whether a required one accepts none.
func pruneProperties(u *Unit, n *canonical.Value, at canonical.Pointer, never map[*canonical.Value]bool) bool {
	props := n.Get("properties")
	if props == nil || props.Kind != canonical.Object {
		return false
	}
	req, _ := n.Get("required").Strings()
	// closed by its additionalProperties, or by strict mode, which closes
	// every object after this pass
	closed := n.Get("additionalProperties") != nil && neverForm(n.Get("additionalProperties")) && !n.Has("patternProperties") ||
		u.Rules.Action("additionalProperties") == Close
	out := false
	var kept []canonical.Member
	for _, m := range props.Members() {
		switch {
		case !never[m.Value]:
		case slices.Contains(req, m.Key):
			out = true
		case closed:
			u.Report("lower.never", at.Append("properties", m.Key), m.Value, "", "the property %q accepts no value and the object is closed: removed, which says the same", m.Key)
			continue
		}
		kept = append(kept, m)
	}
	props.SetMembers(kept)
	return out
}

// pruneItems writes items and tuple positions that accept no value as
// maxItems, and reports whether the array schema then accepts none.
func pruneItems(u *Unit, n *canonical.Value, at canonical.Pointer, never map[*canonical.Value]bool) bool {
	prefix := n.Get("prefixItems")
	if prefix != nil && prefix.Kind == canonical.Array {
		if i := slices.IndexFunc(prefix.Items(), func(x *canonical.Value) bool { return never[x] }); i >= 0 {
			u.Report("lower.never", at.Append("prefixItems").Index(i), prefix.Items()[i], "", "the tuple position %d accepts no value: the tuple cut there and written as maxItems: %d, which says the same", i, i)
			prefix.SetItems(prefix.Items()[:i])
			setMax(n, "maxItems", i)
			if len(prefix.Items()) == 0 {
				n.Delete("prefixItems")
			}
		}
	}
	if items := n.Get("items"); items != nil && items.Kind == canonical.Array && !n.Has("prefixItems") {
		// draft-07's tuple: additionalItems says what follows it
		if rest := n.Get("additionalItems"); rest != nil && never[rest] {
			u.Report("lower.never", at.Append("additionalItems"), rest, "", "additionalItems accepts no value: written as maxItems: %d, which says the same", len(items.Items()))
			n.Delete("additionalItems")
			setMax(n, "maxItems", len(items.Items()))
		}
	}
	if it := n.Get("items"); it != nil && never[it] && it.Kind != canonical.Array {
		length := 0
		if p := n.Get("prefixItems"); p != nil {
			length = len(p.Items())
		}
		u.Report("lower.never", at.Append("items"), it, "", "items accepts no value: written as maxItems: %d, which says the same", length)
		n.Delete("items")
		setMax(n, "maxItems", length)
	}
	lo, hasMin := number(n.Get("minItems"))
	hi, hasMax := number(n.Get("maxItems"))
	return hasMin && hasMax && lo.Cmp(hi) > 0 && slices.Equal(canonical.AsSchema(n).Types(), []string{"array"})
}

// setMax sets keyword k of n to max, or keeps a smaller bound it has.
func setMax(n *canonical.Value, k string, max int) {
	if cur, ok := number(n.Get(k)); ok && cur.Cmp(new(big.Float).SetInt64(int64(max))) <= 0 {
		return
	}
	n.Set(k, canonical.NewNumber(strconv.Itoa(max)))
}
