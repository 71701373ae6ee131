package option

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Markdown returns the table of the keys of t for docs: key, value,
// default and meaning, one row each, the fields of a table's own tables
// under it as key.sub.
func Markdown(t reflect.Type) string {
	var b strings.Builder
	b.WriteString("| key | value | default | what it does |\n|---|---|---|---|\n")
	for _, r := range rows("", t, nil) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.key, cell(r.value), cell(r.def), cell(r.doc))
	}
	return b.String()
}

// Text returns the keys of t for a terminal: each key with its value and
// default, then what it does, indented.
func Text(t reflect.Type) string {
	var b strings.Builder
	for _, r := range rows("", t, nil) {
		fmt.Fprintf(&b, "  %s = %s", r.key, r.value)
		if r.def != "" {
			fmt.Fprintf(&b, " (default %s)", r.def)
		}
		b.WriteString("\n")
		if r.doc != "" {
			fmt.Fprintf(&b, "      %s\n", r.doc)
		}
	}
	return b.String()
}

type row struct{ key, value, def, doc string }

// rows lists the fields of t, and those of the tables it declares (a
// struct, a list of structs, a table of structs) after each, as dotted keys:
// once each, where a table holds tables of its own kind (in are the
// structs it is inside of).
func rows(prefix string, t reflect.Type, in []reflect.Type) []row {
	var out []row
	in = append(in, t)
	for _, f := range Fields(t) {
		key := prefix + f.Key
		out = append(out, row{key, ValueWord(f), f.Default, f.Doc})
		if f.Type.Implements(schemer) || f.Type.Implements(worded) {
			continue
		}
		switch e := elem(f.Type); {
		case e == nil || slices.Contains(in, e):
		case f.Type.Kind() == reflect.Slice:
			out = append(out, rows(key+"[].", e, in)...)
		case f.Type.Kind() == reflect.Map:
			out = append(out, rows(key+".NAME.", e, in)...)
		default:
			out = append(out, rows(key+".", e, in)...)
		}
	}
	return out
}

// elem is the struct type a field of type t declares the keys of: t itself,
// or the elements of a list or table; nil for another type.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}

// cell escapes s for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
