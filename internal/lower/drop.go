package lower

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

var lookaround = []string{"(?=", "(?!", "(?<=", "(?<!"}

// keeps reports whether the target keeps keyword k with value v under row.
func keeps(row Row, k string, v *canonical.Value) bool {
	switch row.Action {
	case Drop, Inline: // what inlining left: $dynamicRef, $recursiveRef
		return false
	case Only:
		switch row.Feature {
		case "enum":
			if v.Kind != canonical.Array {
				return false
			}
			for _, it := range v.Items() {
				if !slices.Contains(row.Values, it.JSONType()) && !(it.JSONType() == "integer" && slices.Contains(row.Values, "number")) {
					return false
				}
			}
			return true
		case "format":
			s, _ := v.StringValue()
			return slices.Contains(row.Values, s)
		default:
			return slices.Contains(row.Values, v.Text()) || slices.Contains(row.Values, v.String())
		}
	case Simple:
		s, _ := v.StringValue()
		for _, l := range lookaround {
			if strings.Contains(s, l) {
				return false
			}
		}
	}
	return true
}

func runDrop(u *Unit) {
	canonical.WalkPath(canonical.AsSchema(u.root), func(path canonical.Path, s *canonical.Schema) bool {
		if s.IsObject() {
			dropNode(u, path, s.JSON())
		}
		return true
	})
}

// dropNode drops the keywords of one schema that the target cannot carry.
// Walk descends into what is left afterwards, so nothing under a dropped
// keyword is reported twice.
func dropNode(u *Unit, path canonical.Path, n *canonical.Value) {
	var at canonical.Pointer // built at the first report: most schemas have none
	loc := func() canonical.Pointer {
		if at == "" && len(path) > 0 {
			at = path.Pointer()
		}
		return at
	}
	nullable := u.Rules.Action("type-array") == Nullable
	var described []string
	for _, k := range n.Keys() {
		v := n.Get(k)
		f := dropFeature(k, v, nullable)
		if f == nil {
			continue
		}
		row := u.Rules.Row(f.Name)
		if enumWithNull(f, row, v) {
			rest := canonical.NewArray(slices.DeleteFunc(slices.Clone(v.Items()), isNull)...).At(v.Pos)
			if len(rest.Items()) > 0 && keeps(row, k, rest) {
				n.Set(k, rest)
				u.Report(f.Loss, loc(), n, k, "null removed from the enum, as the target takes enum values of the types %s only; the other values are kept", strings.Join(row.Values, ", "))
				continue
			}
		}
		if !dropsKeyword(u.Rules, row, k, v) {
			continue
		}
		n.Delete(k)
		text := k + ": " + quoteRaw(v)
		if u.Options.Describe && describable[f.Name] && len(text) <= 200 {
			described = append(described, text)
			u.Report(f.Loss, loc(), n, k, "%s %s moved into the description: the target cannot carry it", k, quote(v))
			continue
		}
		if k == "$schema" {
			// It names a dialect; no value the model may send changes.
			u.Report("lower.schema-dropped", loc(), n, k, "$schema %s removed: the target takes none, and it constrains nothing", short(v))
			continue
		}
		u.Report(f.Loss, loc(), n, k, "%s %s dropped: the target cannot carry it", k, short(v))
	}
	if len(described) > 0 {
		text := strings.Join(described, "; ")
		if d, ok := n.Get("description").StringValue(); ok && d != "" {
			text = d + " (" + text + ")"
		}
		n.Set("description", canonical.NewString(text))
	}
}

// dropFeature is the feature under which the drop pass judges keyword k
// with value v; nil for a keyword it leaves alone.
func dropFeature(k string, v *canonical.Value, nullable bool) *Feature {
	f := keywordFeature(k)
	switch {
	case k == "items" && v.Kind == canonical.Array:
		f, _ = FeatureNamed("prefixItems")
	case k == "type" && v.Kind == canonical.Array:
		f, _ = FeatureNamed("type-array")
	case k == "nullable" && nullable:
		f = nil
	}
	return f
}

// enumWithNull reports whether v, an enum under row, holds a null that the
// target's enum takes no values of.
func enumWithNull(f *Feature, row Row, v *canonical.Value) bool {
	return f.Name == "enum" && row.Action == Only && v.Kind == canonical.Array && slices.ContainsFunc(v.Items(), isNull)
}

// dropsKeyword reports whether the target cannot carry keyword k, with
// value v, under row.
func dropsKeyword(r *Rules, row Row, k string, v *canonical.Value) bool {
	dynamic := (k == "$dynamicRef" || k == "$recursiveRef") && r.Action("core") == Drop // its anchor goes
	return dynamic || !keeps(row, k, v)
}

// dropTest is the drop pass's Node test: whether a schema has a keyword
// the target cannot carry. Most schemas of most targets have none, and
// are then not copied for it.
func dropTest(r *Rules) func(*canonical.Value) bool {
	nullable := r.Action("type-array") == Nullable
	return func(n *canonical.Value) bool {
		for _, m := range n.Members() {
			if f := dropFeature(m.Key, m.Value, nullable); f != nil {
				if row := r.Row(f.Name); enumWithNull(f, row, m.Value) || dropsKeyword(r, row, m.Key, m.Value) {
					return true
				}
			}
		}
		return false
	}
}

// quoteRaw renders a value for a description: strings as they are.
func quoteRaw(v *canonical.Value) string {
	if v.Kind == canonical.String {
		return v.Text()
	}
	return v.String()
}

// short renders a value for a message, cut to a readable length.
func short(v *canonical.Value) string {
	s := quote(v)
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// ---- upper ----
