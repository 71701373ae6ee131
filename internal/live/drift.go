package live

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/diagfmt"
)

// fieldNames are the MCP names of the canonical form's fields, for
// messages.
var fieldNames = map[string]string{"input": "inputSchema", "output": "outputSchema", "meta": "_meta"}

// Drift compares the pinned tools of one capture with the live ones and
// returns a verify.* diagnostic for each tool added, removed, renamed
// (found by content: the same tool under another name) or changed (naming
// every changed field), with the breaking.* findings of each changed
// schema, and the semantic-version bump the drift calls for. Findings are
// located at the pinned tool where there is one.
func Drift(pinned, live []*canonical.Tool) ([]diag.Diagnostic, breaking.Bump) {
	var out []diag.Diagnostic
	bump := breaking.None
	byName := func(ts []*canonical.Tool) map[string]*canonical.Tool {
		m := map[string]*canonical.Tool{}
		for _, t := range ts {
			m[t.ID()] = t
		}
		return m
	}
	old, now := byName(pinned), byName(live)
	removed, added, renames := compareIDs(pinned, live, old, now)
	out = append(out, renames...)
	if len(renames) > 0 {
		bump = breaking.Major
	}
	for _, r := range removed {
		out = append(out, at(r, "verify.tool-removed", "", "the live server no longer offers it: a call to it fails"))
		bump = breaking.Major
	}
	for _, a := range added {
		d := diag.New("verify.tool-added", "the live server offers it, and the pinned capture does not: %s", diagfmt.Elide(a.Description, 80)).About(a.ID())
		d.File = a.Source.File
		out = append(out, d)
		bump = max(bump, breaking.Minor)
	}
	for _, p := range pinned {
		l := now[p.ID()]
		if l == nil {
			continue
		}
		ds, b := changed(p, l)
		out = append(out, ds...)
		bump = max(bump, b)
	}
	return diag.Sort(out), bump
}

// compareIDs returns the tools removed and added between the pinned and
// live lists, and a verify.tool-renamed for each removed tool and added one
// that are the same but for the name, which are a rename.
func compareIDs(pinned, live []*canonical.Tool, old, now map[string]*canonical.Tool) (removed, added []*canonical.Tool, renames []diag.Diagnostic) {
	for _, p := range pinned {
		if now[p.ID()] == nil {
			removed = append(removed, p)
		}
	}
	for _, l := range live {
		if old[l.ID()] == nil {
			added = append(added, l)
		}
	}
	for i := 0; i < len(removed); i++ {
		r := removed[i]
		j := slices.IndexFunc(added, func(a *canonical.Tool) bool { return sameButName(r, a) })
		if j < 0 {
			continue
		}
		a := added[j]
		renames = append(renames, at(r, "verify.tool-renamed", "", "renamed to %s on the live server, otherwise the same: a call to %s fails", a.ID(), r.ID()))
		removed = slices.Delete(removed, i, i+1)
		added = slices.Delete(added, j, j+1)
		i--
	}
	return removed, added, renames
}

// changed compares one tool's pinned and live forms.
func changed(p, l *canonical.Tool) ([]diag.Diagnostic, breaking.Bump) {
	pv, lv := p.ToValue(), l.ToValue()
	var fields []string
	var out []diag.Diagnostic
	bump := breaking.None
	keys := pv.Keys()
	for _, k := range lv.Keys() {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if k == "origin" {
			continue // the manifest's transforms, not what the server offers: their drift is transform.*
		}
		fs, ds, b := fieldChange(p, l, k, pv.Get(k), lv.Get(k))
		fields, out, bump = append(fields, fs...), append(out, ds...), max(bump, b)
	}
	// The schemas, through the breaking rules: what each change does to
	// callers.
	schema := breaking.Compare([]*canonical.Tool{p}, []*canonical.Tool{withSource(l, p)}, breaking.Options{})
	schema = slices.DeleteFunc(schema, func(d diag.Diagnostic) bool { return d.Code == "breaking.description-changed" })
	if len(schema) > 0 {
		bump = max(bump, breaking.Needed(schema), breaking.Patch)
		out = append(out, schema...)
	}
	if len(fields) > 0 {
		msg := "changed on the live server: " + strings.Join(fields, ", ")
		if len(schema) > 0 {
			msg += fmt.Sprintf(" (%s below)", diagfmt.Plural(len(schema), "schema change"))
		}
		out = append(out, at(p, "verify.tool-changed", "", "%s", msg))
	}
	return out, bump
}

// fieldChange is what a change to the tool field k (a pinned, b live)
// says: the field names it adds to verify.tool-changed, a finding of its
// own (a changed description), and the bump it needs.
func fieldChange(p, l *canonical.Tool, k string, a, b *canonical.Value) (fields []string, out []diag.Diagnostic, bump breaking.Bump) {
	if a != nil && b != nil && a.Equal(b) {
		return nil, nil, breaking.None
	}
	name := k
	if n, ok := fieldNames[k]; ok {
		name = n
	}
	switch k {
	case "description":
		was, now := excerpts(p.Description, l.Description)
		out = append(out, at(p, "verify.description-changed", "/description", "the description changed, and a model does what it says: was %s, now %s", was, now))
		bump = max(bump, breaking.Patch)
	case "annotations":
		for _, h := range hintChanges(a, b) {
			fields = append(fields, "annotations."+h)
		}
		bump = max(bump, breaking.Patch)
	case "input", "output":
		fields = append(fields, name)
	default:
		fields = append(fields, fmt.Sprintf("%s (was %s, now %s)", name, diagfmt.Elide(text(a), 60), diagfmt.Elide(text(b), 60)))
		bump = max(bump, breaking.Patch)
	}
	return fields, out, bump
}

// hintChanges names each annotation that differs, with both values.
func hintChanges(a, b *canonical.Value) []string {
	get := func(v *canonical.Value, k string) *canonical.Value {
		if v == nil {
			return nil
		}
		return v.Get(k)
	}
	var keys []string
	for _, v := range []*canonical.Value{a, b} {
		if v != nil {
			for _, k := range v.Keys() {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	var out []string
	for _, k := range keys {
		x, y := get(a, k), get(b, k)
		if x != nil && y != nil && x.Equal(y) {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s → %s)", k, text(x), text(y)))
	}
	return out
}

// sameButName reports whether two tools differ in their name alone.
func sameButName(a, b *canonical.Tool) bool {
	x, y := *a, *b
	x.Name, y.Name = "", ""
	return x.Equal(&y)
}

// withSource is t located as p: the live tool's findings point into the
// pinned file, where the user will look.
func withSource(t, p *canonical.Tool) *canonical.Tool {
	c := *t
	c.Source = p.Source
	return &c
}

func at(t *canonical.Tool, code string, ptr canonical.Pointer, format string, args ...any) diag.Diagnostic {
	return diag.New(code, format, args...).At(t.Source.Place(ptr)).About(t.ID())
}

func text(v *canonical.Value) string {
	if v == nil {
		return "absent"
	}
	return v.String()
}

// excerpts quotes the part of a and b that differs, with a little of what
// is the same around it: a sentence appended to a long description shows
// as that sentence.
func excerpts(a, b string) (string, string) {
	x, y := []rune(a), []rune(b)
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	const around = 24
	cut := func(r []rune) string {
		from, to := max(p-around, 0), min(len(r)-s+around, len(r))
		q := fmt.Sprintf("%q", diagfmt.Elide(string(r[from:to]), 400))
		if from > 0 {
			q = "…" + q
		}
		if to < len(r) {
			q += "…"
		}
		return q
	}
	return cut(x), cut(y)
}
