package lower

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// ---- alone ----

// keywordTypes say which JSON types a keyword beside anyOf applies to;
// one missing applies to all.
var keywordTypes = map[string][]string{
	"properties": {"object"}, "required": {"object"}, "additionalProperties": {"object"}, "minProperties": {"object"},
	"maxProperties": {"object"}, "propertyOrdering": {"object"},
	"items": {"array"}, "minItems": {"array"}, "maxItems": {"array"},
	"minLength": {"string"}, "maxLength": {"string"}, "pattern": {"string"},
	"minimum": {"number", "integer"}, "maximum": {"number", "integer"},
}

func runAlone(u *Unit) {
	all := u.Rules.Action("anyOf") == Alone
	var walk func(n *canonical.Value, at canonical.Pointer)
	walk = func(n *canonical.Value, at canonical.Pointer) {
		if n.Kind != canonical.Object {
			return
		}
		if any := n.Get("anyOf"); any != nil && any.Kind == canonical.Array && len(n.Members()) > 1 {
			switch {
			case all:
				distribute(u, n, at, nil)
			case n.Has("type"):
				distribute(u, n, at, []string{"type"})
			}
		}
		// Outer schemas first: what they move into a branch that has an
		// anyOf of its own moves on into its branches when it is walked.
		for rel, sub := range canonical.AsSchema(n).Subschemas() {
			walk(sub.JSON(), at.Join(rel))
		}
		if !all {
			flattenAnyOf(u, n, at)
		}
	}
	walk(u.root, "")
}

// distribute moves the keywords beside n's anyOf into its branches: all of
// them, or those of only.
func distribute(u *Unit, n *canonical.Value, at canonical.Pointer, only []string) {
	any := n.Get("anyOf")
	siblings := slices.DeleteFunc(without(n.Members(), "anyOf"), func(m canonical.Member) bool {
		return only != nil && !slices.Contains(only, m.Key)
	})
	var branches []*canonical.Value
	var lost []string
	for _, b := range any.Items() {
		if b.Kind == canonical.Bool {
			if !b.Bool {
				continue
			}
			b = canonical.NewObject()
		}
		if b.Kind != canonical.Object {
			continue
		}
		out := canonical.NewObject(slices.Clone(b.Members())...).At(b.Pos)
		u.origins[out] = u.origins[b]
		bt := canonical.AsSchema(out).Types()
		empty := false
		for _, m := range siblings {
			if ts, ok := keywordTypes[m.Key]; ok && bt != nil && !slices.ContainsFunc(bt, func(t string) bool { return slices.Contains(ts, t) }) {
				continue // does not apply to this branch's type
			}
			prev := out.Get(m.Key)
			switch {
			case prev == nil:
				out.SetMembers(append(out.Members(), m))
			case prev.Equal(m.Value), annotation[m.Key]:
			case m.Key == "nullable":
				out.Set("nullable", canonical.NewBool(true))
			case m.Key == "type":
				t := intersectTypes(prev, m.Value)
				if t == nil {
					empty = true
				} else {
					out.Set("type", t)
				}
			default:
				one := canonical.NewObject(m)
				if merged, ok := mergeSchemas(out, one, func(string) {}); ok {
					out.SetMembers(merged.Members())
				} else if !slices.Contains(lost, m.Key) {
					lost = append(lost, m.Key)
				}
			}
		}
		if !empty {
			branches = append(branches, out)
		}
	}
	var keys []string
	for _, m := range siblings {
		keys = append(keys, m.Key)
	}
	n.SetMembers(slices.DeleteFunc(n.Members(), func(m canonical.Member) bool { return slices.Contains(keys, m.Key) }))
	n.Set("anyOf", canonical.NewArray(branches...))
	why := "as the target takes anyOf only alone"
	if only != nil {
		why = "as the target refuses them beside anyOf"
	}
	u.Report("lower.any-of-distributed", at, n, "anyOf", "the keyword(s) %s beside anyOf moved into its branches, %s", strings.Join(quoteAll(keys), ", "), why)
	if len(lost) > 0 {
		u.Report("loss.any-of", at, n, "anyOf", "the keyword(s) %s beside anyOf could not be merged into a branch that says otherwise; that branch keeps its own", strings.Join(quoteAll(lost), ", "))
	}
}
