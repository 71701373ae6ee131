package manifest

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// checkTypes walks the document as TOML decoded it (tables, arrays,
// values) beside the Go type it will be decoded into, and reports every
// value of the wrong type and every key no field takes, each at the element
// it is in ("targets[0].strict", not the last block with that key):
// BurntSushi/toml keys its positions by dotted path without array indexes,
// and stops at its first mismatch, so the typed decode runs only once this
// walk has found nothing.
func (d *decoder) checkTypes(doc map[string]any) {
	d.checkValue("", doc, reflect.TypeFor[v1]())
}

var unmarshaler = reflect.TypeFor[toml.Unmarshaler]()

func (d *decoder) checkValue(key string, v any, t reflect.Type) {
	if reflect.PointerTo(t).Implements(unmarshaler) {
		if err := reflect.New(t).Interface().(toml.Unmarshaler).UnmarshalTOML(v); err != nil {
			d.typeAt(key, "%s", err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		d.checkValue(key, v, t.Elem())
	case reflect.Interface:
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			d.typeAt(key, "want a table, not %s", option.WordOf(v))
			return
		}
		rest := hasRest(t)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			f, ok := option.Lookup(t, k)
			switch {
			case ok:
				d.checkField(join(key, quotePart(k)), m[k], f)
			case !rest: // a table with a rest leaves its other keys to Check
				d.unknownAt(join(key, quotePart(k)), k, option.Keys(t))
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			d.typeAt(key, "want %s, not %s", option.TypeWord(t), option.WordOf(v))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			d.checkValue(join(key, quotePart(k)), m[k], t.Elem())
		}
	case reflect.Slice:
		var items []any
		switch x := v.(type) {
		case []any:
			items = x
		case []map[string]any:
			for _, m := range x {
				items = append(items, m)
			}
		default:
			d.typeAt(key, "want %s, not %s", option.TypeWord(t), option.WordOf(v))
			return
		}
		elem := t.Elem()
		scalar := elem.Kind() != reflect.Struct && !(elem.Kind() == reflect.Pointer && elem.Elem().Kind() == reflect.Struct)
		for i, it := range items {
			if scalar && !fits(it, elem) {
				// One message for the array, as a string list reads.
				d.typeAt(key, "want %s, not an array with %s", option.TypeWord(t), option.WordOf(it))
				return
			}
			d.checkValue(key+"["+strconv.Itoa(i)+"]", it, elem)
		}
	default:
		if !fits(v, t) {
			d.typeAt(key, "want %s, not %s", option.TypeWord(t), option.WordOf(v))
		}
	}
}

// checkField checks the value v of the field f at key: its type, and its
// value where the declaration lists the values.
func (d *decoder) checkField(key string, v any, f option.Field) {
	n := len(d.diags)
	d.checkValue(key, v, f.Type)
	if len(d.diags) > n || !f.Static {
		return
	}
	switch x := v.(type) {
	case string:
		d.checkOneOf(key, f.Key, x, f.Enum)
	case []any:
		for i, it := range x {
			if s, ok := it.(string); ok {
				d.checkOneOf(fmt.Sprintf("%s[%d]", key, i), f.Key, s, f.Enum)
			}
		}
	}
}

// hasRest reports whether the struct t keeps the keys it does not declare
// (a field tagged manifest:"rest"), for a later check.
func hasRest(t reflect.Type) bool {
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("manifest") == "rest" {
			return true
		}
	}
	return false
}

// fits reports whether a decoded TOML scalar goes into a field of kind t.
func fits(v any, t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Int, reflect.Int64:
		_, ok := v.(int64)
		return ok
	case reflect.Float64:
		switch v.(type) {
		case int64, float64:
			return true
		}
		return false
	}
	return true
}

// typeAt reports a value of the wrong type at key, at the column of the
// value where the key is written on one line.
func (d *decoder) typeAt(key, format string, args ...any) {
	line, col := d.keys.pos(key)
	if p, ok := d.keys[key]; ok {
		col = d.valueColumn(p)
	}
	// An UnmarshalTOML error may name its key again.
	msg := strings.TrimPrefix(fmt.Sprintf(format, args...), key[strings.LastIndex(key, ".")+1:]+": ")
	d.add("manifest.type", key, line, col, msg)
}

// unknownAt reports key, which no field takes, with the one of known that
// it most likely misspells.
func (d *decoder) unknownAt(key, name string, known []string) {
	msg := fmt.Sprintf("unknown key %q", name)
	if c := suggest.Closest(name, known); c != "" {
		msg += fmt.Sprintf("; did you mean %q?", c)
		if d.meant == nil {
			d.meant = map[string]bool{}
		}
		d.meant[key[:len(key)-len(quotePart(name))]+c] = true
	}
	line, col := d.keys.pos(key)
	if _, ok := d.keys[key]; !ok {
		if p, ok := d.keys[key+"[0]"]; ok { // an unknown array of tables: its first header
			line, col = p[0], p[1]
		}
	}
	d.add("manifest.unknown-key", key, line, col, msg)
}
