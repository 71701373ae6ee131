package manifest

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/option"
)

// checkOptions checks the options of a target a manifest built in code
// gives in its Table, as Decode checks those of a manifest's text, and
// decodes them into t.Options.
func (d *decoder) checkOptions(key string, t *Target, newOptions func() any, formats Formats) {
	if t.Options != nil {
		return // decoded already
	}
	table, err := normalize(t.Table)
	if err != nil {
		d.typeAt(key, "the target's options: %v", err)
		return
	}
	if d.walkOptions(key, t.Format, table, newOptions, formats) {
		t.Table, t.Options = table, decodeOptions(table, newOptions)
	}
}

// walkOptions checks the keys of a target's table that are its format's
// options against the format's declaration, as strictly as the manifest's
// own keys: each unknown key is reported with the key it most likely
// misspells, or with the formats that take it. It reports whether the
// values are of the types declared, so that the table decodes.
func (d *decoder) walkOptions(key, format string, table map[string]any, newOptions func() any, formats Formats) bool {
	typ := reflect.TypeOf(newOptions())
	ok := true
	for _, k := range slices.Sorted(maps.Keys(table)) {
		at := join(key, quotePart(k))
		if f, known := option.Lookup(typ, k); known {
			n := len(d.diags)
			d.checkField(at, table[k], f)
			ok = ok && !slices.ContainsFunc(d.diags[n:], func(x diag.Diagnostic) bool { return x.Code == "manifest.type" })
			continue
		}
		if takers := optionOf(k, formats); takers != "" {
			d.errorAt("manifest.unknown-key", at, "format %s has no option %q (%s takes it)", format, k, takers)
			continue
		}
		d.unknownAt(at, k, allKeys(formats))
	}
	return ok
}

// decodeOptions decodes a table whose values walkOptions found of the
// declared types into a new value of the format's options.
func decodeOptions(table map[string]any, newOptions func() any) any {
	opts := newOptions()
	if len(table) == 0 {
		return opts
	}
	if err := option.Recode(table, opts); err != nil {
		panic(fmt.Sprintf("manifest: a table checked by its declaration does not decode: %v", err)) // a bug in the walk
	}
	return opts
}

// allKeys are the keys a target may have: its own, and any format's
// options, for the key a misspelling most likely meant.
func allKeys(formats Formats) []string {
	keys := option.Keys(reflect.TypeFor[Target]())
	for _, newOptions := range formats.Targets {
		keys = append(keys, option.Keys(reflect.TypeOf(newOptions()))...)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// optionOf names the target formats that take the option key.
func optionOf(key string, formats Formats) string {
	var takers []string
	for _, f := range slices.Sorted(maps.Keys(formats.Targets)) {
		if _, ok := option.Lookup(reflect.TypeOf(formats.Targets[f]()), key); ok {
			takers = append(takers, f)
		}
	}
	switch len(takers) {
	case 0:
		return ""
	case 1:
		return takers[0]
	case 2:
		return takers[0] + " and " + takers[1]
	}
	return fmt.Sprintf("%s and %d more", takers[0], len(takers)-1)
}

// normalize returns table with the types TOML decodes to (int64, []any,
// map[string]any …), whatever Go types a manifest built in code gave.
func normalize(table map[string]any) (map[string]any, error) {
	out := map[string]any{}
	if len(table) == 0 {
		return out, nil
	}
	return out, option.Recode(table, &out)
}
