package lower

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// isNullSchema reports whether v is {"type": "null"} (annotations aside).
func isNullSchema(v *canonical.Value) bool {
	if v.Kind != canonical.Object {
		return false
	}
	for _, m := range v.Members() {
		if m.Key != "type" && !annotation[m.Key] {
			return false
		}
	}
	return slices.Equal(canonical.AsSchema(v).Types(), []string{"null"})
}

// setNullable writes "nullable": true after node's type, or last.
func setNullable(node *canonical.Value) {
	if node.Has("nullable") {
		node.Set("nullable", canonical.NewBool(true))
		return
	}
	m := canonical.Member{Key: "nullable", Value: canonical.NewBool(true)}
	if i := node.Index("type"); i >= 0 {
		node.SetMembers(slices.Insert(node.Members(), i+1, m))
		return
	}
	node.SetMembers(append(node.Members(), m))
}

func runNullable(u *Unit) {
	for _, s := range reversed(u.root) {
		n := s.node
		if t := n.Get("type"); t != nil && t.Kind == canonical.Array {
			ts, _ := t.Strings()
			var types []string
			for _, x := range ts {
				if x != "null" {
					types = append(types, x)
				}
			}
			null := len(types) < len(ts)
			switch {
			case len(types) <= 1:
				name := "null"
				if len(types) == 1 {
					name = types[0]
				}
				n.Set("type", canonical.NewString(name))
				if null && len(types) == 1 {
					setNullable(n)
				}
				u.Report("lower.type-as-nullable", s.at(), n, "type", "type %s written as %q%s", t.String(), name, nullNote(null && len(types) == 1))
			case n.Has("anyOf"):
				n.Set("type", canonical.NewString(types[0]))
				if null {
					setNullable(n)
				}
				u.Report("loss.type-union", s.at(), n, "type", "type %s narrowed to %q: the schema has an anyOf already, and the target has no type arrays", t.String(), types[0])
			default:
				var branches []*canonical.Value
				for _, x := range types {
					b := canonical.NewObject()
					b.Set("type", canonical.NewString(x))
					branches = append(branches, b)
				}
				i := n.Index("type")
				n.Members()[i] = canonical.Member{Key: "anyOf", Value: canonical.NewArray(branches...)}
				if null {
					setNullable(n)
				}
				u.Report("lower.type-as-nullable", s.at(), n, "type", "type %s written as anyOf of each type%s", t.String(), nullNote(null))
			}
		}
		if any := n.Get("anyOf"); any != nil && any.Kind == canonical.Array && slices.ContainsFunc(any.Items(), isNullSchema) {
			rest := slices.DeleteFunc(slices.Clone(any.Items()), isNullSchema)
			lifted := false
			var lost []string
			if len(rest) == 1 {
				if merged, ok := mergeSchemas(canonical.NewObject(without(n.Members(), "anyOf")...), rest[0], func(k string) { lost = append(lost, k) }); ok {
					n.SetMembers(merged.Members())
					lifted = true
				}
			}
			if !lifted {
				if len(rest) == 0 && !n.Has("type") {
					n.Delete("anyOf")
					n.Set("type", canonical.NewString("null"))
					u.Report("lower.type-as-nullable", s.at(), n, "anyOf", "an anyOf of only null written as type \"null\"")
					continue
				}
				if len(rest) == 0 {
					n.Delete("anyOf")
				} else {
					n.Set("anyOf", canonical.NewArray(rest...))
				}
			}
			setNullable(n)
			u.Report("lower.type-as-nullable", s.at(), n, "anyOf", "the null branch of anyOf written as \"nullable\": true%s", keptOver(lost, "the branch's"))
		}
		if e := n.Get("enum"); e != nil && e.Kind == canonical.Array && slices.ContainsFunc(e.Items(), isNull) {
			nullableEnum(u, n, s.at(), e)
		}
	}
}

// nullableEnum takes null out of n's enum e, which the target reads as
// "nullable": true; an enum of null alone becomes type null.
func nullableEnum(u *Unit, n *canonical.Value, at canonical.Pointer, e *canonical.Value) {
	rest := slices.DeleteFunc(slices.Clone(e.Items()), isNull)
	if len(rest) > 0 {
		n.Set("enum", canonical.NewArray(rest...))
		setNullable(n)
		u.Report("lower.type-as-nullable", at, n, "enum", "null in enum written as \"nullable\": true")
		return
	}
	// enum [null] (or const null) takes null only: an empty enum would
	// take nothing, so the type says it.
	n.Delete("enum")
	ts := canonical.AsSchema(n).Types()
	if nb, _ := n.Get("nullable").BoolValue(); ts != nil && !slices.Contains(ts, "null") && !nb {
		u.Report("loss.enum", at, n, "enum", "enum [null] dropped: the target has no null in enum, and the type %s does not list null, so the schema, which accepted no value, now accepts any", canonical.NewStrings(ts).String())
		return
	}
	n.Set("type", canonical.NewString("null"))
	setNullable(n)
	u.Report("lower.type-as-nullable", at, n, "enum", "enum [null] written as type \"null\" with \"nullable\": true, which takes null only")
}

func isNull(v *canonical.Value) bool { return v.Kind == canonical.Null }

func nullNote(null bool) string {
	if null {
		return ` with "nullable": true`
	}
	return ""
}

// ---- tuples ----

func runTuple(u *Unit) {
	for _, s := range reversed(u.root) {
		n := s.node
		key, restKey := "prefixItems", "items"
		tuple := n.Get("prefixItems")
		if tuple == nil || tuple.Kind != canonical.Array {
			key, restKey = "items", "additionalItems"
			if tuple = n.Get("items"); tuple == nil || tuple.Kind != canonical.Array {
				continue
			}
		}
		rest := n.Get(restKey)
		if key == "items" && n.Has("prefixItems") {
			rest = nil
		}
		var branches []*canonical.Value
		for _, it := range tuple.Items() {
			if !slices.ContainsFunc(branches, it.Equal) {
				branches = append(branches, it)
			}
		}
		// A tuple is closed by items: false, or by a maxItems no longer than
		// it (how the never pass writes items: false).
		closed := rest != nil && rest.Kind == canonical.Bool && !rest.Bool
		if m, ok := number(n.Get("maxItems")); ok && rest == nil && m.Cmp(new(big.Float).SetInt64(int64(len(tuple.Items())))) <= 0 {
			closed = true
		}
		open := !closed && (rest == nil || rest.Kind == canonical.Bool && rest.Bool)
		if !open && !closed && !slices.ContainsFunc(branches, rest.Equal) {
			branches = append(branches, rest)
		}
		i := n.Index(key)
		pos := n.Members()[i].KeyPos
		n.SetMembers(slices.Delete(n.Members(), i, i+1))
		if key != "items" {
			n.Delete(restKey)
		}
		n.Delete("additionalItems")
		var what string
		switch {
		case open:
			what = "dropped: items past the tuple may be anything, so no items schema can say more"
		case len(branches) == 1:
			n.SetMembers(slices.Insert(n.Members(), min(i, len(n.Members())), canonical.Member{Key: "items", Value: branches[0], KeyPos: pos}))
			what = "written as one items schema"
		default:
			any := canonical.NewObject()
			any.Set("anyOf", canonical.NewArray(branches...))
			n.SetMembers(slices.Insert(n.Members(), min(i, len(n.Members())), canonical.Member{Key: "items", Value: any, KeyPos: pos}))
			what = "written as items: {anyOf: [...]}"
		}
		if closed {
			limit := strconv.Itoa(len(tuple.Items()))
			if old, ok := number(n.Get("maxItems")); !ok || old.Cmp(new(big.Float).SetInt64(int64(len(tuple.Items())))) > 0 {
				n.Set("maxItems", canonical.NewNumber(limit))
			}
			what += ", with maxItems " + limit
		}
		u.Report("loss.prefix-items", s.at(), n, key, "the tuple of %d positions %s; which item goes where is lost", len(tuple.Items()), what)
	}
}

// olderDialect reports whether root's $schema names a dialect before
// 2020-12 (draft-04 to 2019-09), whose forms 2020-12 spells otherwise.
func olderDialect(root *canonical.Value) bool {
	id, ok := root.Get("$schema").StringValue()
	if !ok {
		return false
	}
	for _, d := range []string{"draft-04", "draft-06", "draft-07", "draft/2019-09"} {
		if strings.Contains(id, d) {
			return true
		}
	}
	return false
}

// runModernize writes a schema of an older dialect in 2020-12's forms,
// which accept the same values: a target that reads every schema as
// 2020-12 (Anthropic refuses the draft-07 items array) then takes it.
func runModernize(u *Unit) {
	if !olderDialect(u.root) {
		return
	}
	id, _ := u.root.Get("$schema").StringValue()
	u.root.Delete("$schema")
	u.Report("lower.legacy-form", "", u.root, "$schema", "$schema %q dropped: the schema is written as 2020-12, which the target reads it as", id)
	var moves []move // of subschemas, for the references into them
	defer func() { moveRefs(u.root, moves) }()
	for _, s := range reversed(u.root) {
		n := s.node
		if items := n.Get("items"); items != nil && items.Kind == canonical.Array {
			i := n.Index("items")
			n.Members()[i].Key = "prefixItems"
			moves = append(moves, move{s.at().Append("items"), s.at().Append("prefixItems")})
			what := "prefixItems"
			if rest := n.Get("additionalItems"); rest != nil {
				n.Delete("additionalItems")
				n.SetMembers(slices.Insert(n.Members(), i+1, canonical.Member{Key: "items", Value: rest}))
				moves = append(moves, move{s.at().Append("additionalItems"), s.at().Append("items")})
				what += ", and additionalItems as items"
			}
			u.Report("lower.legacy-form", s.at(), n, "items", "the draft-07 tuple form items: [...] written as %s, as 2020-12 spells it", what)
		} else if n.Has("additionalItems") {
			n.Delete("additionalItems")
			u.Report("lower.legacy-form", s.at(), n, "additionalItems", "additionalItems dropped: without an items array it has no effect, and 2020-12 has no such keyword")
		}
		exclusiveBounds(u, s.at(), n)
		deps := n.Get("dependencies")
		if deps == nil || deps.Kind != canonical.Object {
			continue
		}
		req, schemas := canonical.NewObject(), canonical.NewObject()
		for _, m := range deps.Members() {
			if m.Value.Kind == canonical.Array {
				req.SetMembers(append(req.Members(), m))
			} else {
				schemas.SetMembers(append(schemas.Members(), m))
				moves = append(moves, move{s.at().Append("dependencies", m.Key), s.at().Append("dependentSchemas", m.Key)})
			}
		}
		i := n.Index("dependencies")
		n.SetMembers(slices.Delete(n.Members(), i, i+1))
		var into []string
		for _, d := range []struct {
			key string
			v   *canonical.Value
		}{{"dependentSchemas", schemas}, {"dependentRequired", req}} {
			if len(d.v.Members()) == 0 {
				continue
			}
			into = append([]string{d.key}, into...)
			if n.Has(d.key) {
				// In the schema's own dialect the 2019-09 keyword means
				// nothing and dependencies does: it gives way.
				u.Report("lower.legacy-form", s.at(), n, d.key, "%s replaced by the entries of dependencies: the schema's dialect reads dependencies and ignores %s", d.key, d.key)
				n.Set(d.key, d.v)
				continue
			}
			n.SetMembers(slices.Insert(n.Members(), min(i, len(n.Members())), canonical.Member{Key: d.key, Value: d.v}))
		}
		u.Report("lower.legacy-form", s.at(), n, "dependencies", "the draft-07 dependencies written as %s, as 2020-12 spells them", strings.Join(into, " and "))
	}
}

// exclusiveBounds writes draft-04's boolean exclusiveMinimum and
// exclusiveMaximum, which modify minimum and maximum, as the numbers that
// later dialects use: {"minimum": 0, "exclusiveMinimum": true} is
// {"exclusiveMinimum": 0}. A false one, or one without its bound, says
// nothing and goes.
func exclusiveBounds(u *Unit, at canonical.Pointer, n *canonical.Value) {
	for _, k := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		ex, bound := k[0], k[1]
		on, ok := n.Get(ex).BoolValue()
		if !ok {
			continue
		}
		if b := n.Get(bound); on && b != nil && b.Kind == canonical.Number {
			n.Set(ex, b)
			n.Delete(bound)
			u.Report("lower.legacy-form", at, n, ex, "the draft-04 %s: true written as %s: %s, as later dialects spell it", ex, ex, b.String())
			continue
		}
		n.Delete(ex)
		u.Report("lower.legacy-form", at, n, ex, "the draft-04 %s: %t dropped: without %s beside it, or false, it says nothing", ex, on, bound)
	}
}

// ---- strict ----

func runUpper(u *Unit) {
	for _, s := range allSchemas(u.root) {
		if t := s.node.Get("type"); t != nil && t.Kind == canonical.String {
			t.SetText(strings.ToUpper(t.Text()))
		}
	}
}
