package lower

import (
	"slices"

	"github.com/toolc-dev/toolc/canonical"
)

func isObjectSchema(n *canonical.Value) bool {
	return canonical.AsSchema(n).HasType("object") || n.Has("properties") && !n.Has("type")
}

func runStrict(u *Unit) {
	closeAll := u.Rules.Action("additionalProperties") == Close
	require := u.Rules.Action("optional") == Require
	var optional []*canonical.Value
	for _, s := range reversed(u.root) { // inner objects first: a parent may wrap them
		n := s.node
		if !isObjectSchema(n) {
			continue
		}
		if closeAll {
			switch ap := n.Get("additionalProperties"); {
			case ap == nil && len(n.Get("properties").Keys()) == 0 && s.at() != "":
				// The root without properties is a tool that takes no
				// arguments, not a map: closing it narrows nothing a
				// caller means (the next case).
				n.Set("additionalProperties", canonical.NewBool(false))
				u.Report("loss.additional-properties", s.at(), n, "", "a free-form object (no properties declared) closed with additionalProperties: false, as strict mode requires: it now accepts only {}")
			case ap == nil:
				n.Set("additionalProperties", canonical.NewBool(false))
				u.Report("lower.strict-closed", s.at(), n, "", "additionalProperties: false added, as strict mode requires on every object")
			case ap.Kind != canonical.Bool || ap.Bool:
				u.Report("loss.additional-properties", s.at(), n, "additionalProperties", "additionalProperties %s replaced by false, as strict mode requires: properties not declared are no longer accepted", ap.String())
				n.Set("additionalProperties", canonical.NewBool(false))
			}
		}
		props := n.Get("properties")
		if !require || props == nil || props.Kind != canonical.Object {
			continue
		}
		req, _ := n.Get("required").Strings()
		changed := false
		for _, pm := range props.Members() {
			if slices.Contains(req, pm.Key) {
				continue
			}
			req = append(req, pm.Key)
			changed = true
			optional = append(optional, pm.Value)
			if how := makeNullable(u, pm.Value); how != "" {
				u.Report("lower.strict-optional", s.at().Append("properties"), props, pm.Key, "optional property %q made required and %s, as strict mode requires; a null value means it was left out", pm.Key, how)
			} else {
				u.Report("lower.strict-optional", s.at().Append("properties"), props, pm.Key, "optional property %q made required, as strict mode requires; it accepts null already, so a null value now means null or left out", pm.Key)
			}
		}
		if changed {
			r := canonical.NewStrings(req)
			if old := n.Get("required"); old != nil {
				r.Pos = old.Pos
			}
			n.Set("required", r)
		}
	}
	// Record where the optional properties ended up, in document order.
	want := map[*canonical.Value]bool{}
	for _, v := range optional {
		want[v] = true
	}
	for _, s := range allSchemas(u.root) {
		if want[s.node] {
			u.optional = append(u.optional, s.at())
		}
	}
}

// makeNullable makes schema v also accept null, and says how.
func makeNullable(u *Unit, v *canonical.Value) string {
	if v.Kind != canonical.Object || len(v.Members()) == 0 {
		return "" // accepts null already
	}
	addNullToEnum := func() {
		if e := v.Get("enum"); e != nil && e.Kind == canonical.Array && !slices.ContainsFunc(e.Items(), isNull) {
			e.SetItems(append(e.Items(), canonical.NewNull()))
		}
	}
	if ts := canonical.AsSchema(v).Types(); ts != nil && !v.Has("const") {
		if slices.Contains(ts, "null") {
			return ""
		}
		v.Set("type", canonical.NewStrings(append(ts, "null")))
		addNullToEnum()
		return `nullable ("null" added to its type)`
	}
	if any := v.Get("anyOf"); any != nil && any.Kind == canonical.Array && len(v.Members()) == 1+countAnnotations(v) {
		if !slices.ContainsFunc(any.Items(), isNullSchema) {
			null := canonical.NewObject()
			null.Set("type", canonical.NewString("null"))
			any.SetItems(append(any.Items(), null))
		}
		return `nullable ({"type": "null"} added to its anyOf)`
	}
	if v.Has("enum") && len(v.Members()) == 1+countAnnotations(v) {
		addNullToEnum()
		return "nullable (null added to its enum)"
	}
	inner := &canonical.Value{Kind: canonical.Object, Pos: v.Pos}
	u.origins[inner] = u.origins[v]
	var outer []canonical.Member
	for _, m := range v.Members() {
		if m.Key == "description" || m.Key == "title" {
			outer = append(outer, m)
			continue
		}
		inner.SetMembers(append(inner.Members(), m))
	}
	null := canonical.NewObject()
	null.Set("type", canonical.NewString("null"))
	v.SetMembers(append(outer, canonical.Member{Key: "anyOf", Value: canonical.NewArray(inner, null)}))
	return `nullable (wrapped in anyOf with {"type": "null"})`
}

func countAnnotations(v *canonical.Value) int {
	n := 0
	for _, m := range v.Members() {
		if annotation[m.Key] {
			n++
		}
	}
	return n
}

// ---- drop ----
