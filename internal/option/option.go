// Package option reads declarations of options: Go structs whose fields'
// toml tags are the keys of a manifest table, each with what it means
// (doc), its default and, for a string, the values it takes (enum) or the
// pattern it matches, in tags beside it. A struct embedded without a tag
// adds its fields to the table, as TOML decoding takes them.
//
// One declaration makes the manifest's strict check of the table, the JSON
// Schema of toolc.toml, the option tables of docs/manifest.md and toolc
// explain FORMAT, so none of them can drift from what the format reads.
package option

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Field is one key of a declared table.
type Field struct {
	Key     string // the TOML key
	Doc     string // what it means, a phrase
	Default string // its default, as TOML writes it, or ""
	// Enum lists the values a string (or each string of a list) takes:
	// from the field's enum tag, or a Values method of its type (values
	// the format's tables decide).
	Enum []string
	// Static reports whether Enum is the tag's, which the decoder checks;
	// a type's Values are checked by the format, in its own words.
	Static  bool
	Pattern string       // a regular expression a string matches (RE2 and ECMA-262 alike)
	Type    reflect.Type // the Go type it decodes into
	Index   []int        // its place in the struct, for reflect.Value.FieldByIndex
}

// Valued is a type whose values are a closed list that the format's tables
// decide (an MCP client, a dialect): the schema and the docs list them.
type Valued interface{ Values() []string }

var valued = reflect.TypeFor[Valued]()

// Fields returns the keys of the struct type t (or of what t points to) in
// the order declared, the fields of embedded structs in their place.
func Fields(t reflect.Type) []Field {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []Field
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && name == "" {
			for _, in := range Fields(f.Type) {
				in.Index = append([]int{i}, in.Index...)
				out = append(out, in)
			}
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		fd := Field{Key: name, Doc: f.Tag.Get("doc"), Default: f.Tag.Get("default"), Pattern: f.Tag.Get("pattern"), Type: f.Type, Index: []int{i}}
		if e := f.Tag.Get("enum"); e != "" {
			fd.Enum, fd.Static = strings.Split(e, ","), true
		} else if v, ok := values(f.Type); ok {
			fd.Enum = v
		}
		out = append(out, fd)
	}
	return out
}

// values are the Values of t, or of the elements of a list t.
func values(t reflect.Type) ([]string, bool) {
	if t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if !t.Implements(valued) {
		return nil, false
	}
	return zero(t).(Valued).Values(), true
}

// zero is the zero value of t, a value to call a method on: for a pointer,
// a pointer to the zero value it points to.
func zero(t reflect.Type) any {
	if t.Kind() == reflect.Pointer {
		return reflect.New(t.Elem()).Interface()
	}
	return reflect.Zero(t).Interface()
}

// Lookup returns the field of t whose key is key.
func Lookup(t reflect.Type, key string) (Field, bool) {
	for _, f := range Fields(t) {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Keys returns the keys of t, sorted.
func Keys(t reflect.Type) []string {
	var keys []string
	for _, f := range Fields(t) {
		keys = append(keys, f.Key)
	}
	slices.Sort(keys)
	return keys
}

// Problem is what a check of options finds: where in the table, as the
// parts of its key path (unquoted: "operations", "GET /pets", "fixed";
// none for the table itself), and what. The caller writes the path in its
// own syntax.
type Problem struct {
	Key     []string
	Message string
}

// Problemf returns a Problem at the key whose path is key.
func Problemf(key string, format string, args ...any) Problem {
	return Problem{Key: []string{key}, Message: fmt.Sprintf(format, args...)}
}

// Object is a JSON object that keeps its members in the order written: a
// JSON Schema made from declarations reads as they are declared.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// Get returns the value of key, nil when o has none.
func (o Object) Get(key string) any {
	for _, m := range o {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// MarshalJSON writes o with its members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Schemer is a type whose JSON Schema is its own (true or "auto"; a table
// whose keys come from another table of toolc's).
type Schemer interface{ OptionSchema() Object }

var schemer = reflect.TypeFor[Schemer]()

// Schema returns the JSON Schema of the struct type t: an object that
// takes exactly its keys, each described by its doc.
func Schema(t reflect.Type) Object { return structSchema(t, nil) }

func structSchema(t reflect.Type, in []reflect.Type) Object {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if slices.Contains(in, t) { // a table of its own kind: any table
		return Object{{"type", "object"}}
	}
	var props Object
	for _, f := range Fields(t) {
		props = append(props, Member{f.Key, fieldSchema(f, append(in, t))})
	}
	return Object{{"type", "object"}, {"additionalProperties", false}, {"properties", props}}
}

// FieldSchema returns the JSON Schema of one field, with its doc.
func FieldSchema(f Field) Object { return fieldSchema(f, nil) }

func fieldSchema(f Field, in []reflect.Type) Object {
	s := typeSchema(f.Type, f.Enum, f.Pattern, in)
	if f.Default != "" {
		var v any
		if json.Unmarshal([]byte(f.Default), &v) != nil {
			v = f.Default
		}
		s = append(s, Member{"default", v})
	}
	if f.Doc != "" {
		s = append(s, Member{"description", f.Doc})
	}
	return s
}

// typeSchema is the schema of a value of type t; in are the structs it is
// inside of, whose own kind it does not describe again.
func typeSchema(t reflect.Type, enum []string, pattern string, in []reflect.Type) Object {
	if t.Implements(schemer) {
		return zero(t).(Schemer).OptionSchema()
	}
	if t.Kind() == reflect.Pointer && t.Elem().Kind() != reflect.Struct {
		return typeSchema(t.Elem(), enum, pattern, in)
	}
	switch t.Kind() {
	case reflect.String:
		switch {
		case enum != nil:
			return Object{{"enum", enum}}
		case pattern != "":
			return Object{{"type", "string"}, {"pattern", pattern}}
		}
		return Object{{"type", "string"}}
	case reflect.Bool:
		return Object{{"type", "boolean"}}
	case reflect.Int, reflect.Int64:
		return Object{{"type", "integer"}}
	case reflect.Float64:
		return Object{{"type", "number"}}
	case reflect.Slice:
		if enum != nil { // a list of choices, each chosen once
			return Object{{"type", "array"}, {"items", typeSchema(t.Elem(), enum, pattern, in)}, {"uniqueItems", true}}
		}
		return Object{{"type", "array"}, {"items", typeSchema(t.Elem(), enum, pattern, in)}}
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return Object{{"type", "object"}}
		}
		return Object{{"type", "object"}, {"additionalProperties", typeSchema(t.Elem(), enum, pattern, in)}}
	case reflect.Struct, reflect.Pointer:
		return structSchema(t, in)
	}
	return Object{} // any value
}

// TypeWord says what TOML value a Go type takes, for people: "a string",
// "an array of strings", "a table".
func TypeWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return TypeWord(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array of " + plural(TypeWord(t.Elem()))
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return "a table"
		}
		return "a table of " + plural(TypeWord(t.Elem()))
	case reflect.Struct:
		return "a table"
	case reflect.Interface:
		return "a value"
	}
	return "a " + t.String()
}

func plural(word string) string {
	return strings.TrimPrefix(strings.TrimPrefix(word, "a "), "an ") + "s"
}

// Worded is a type that says itself what values it takes, where TypeWord
// would not ("true, false or \"auto\"").
type Worded interface{ TypeWord() string }

var worded = reflect.TypeFor[Worded]()

// ValueWord says what a field takes, for the docs: its values where they
// are a list, else its type's word.
func ValueWord(f Field) string {
	t := f.Type
	switch {
	case t.Implements(worded):
		return zero(t).(Worded).TypeWord()
	case f.Enum != nil && t.Kind() == reflect.Slice:
		return "an array of " + quoted(f.Enum)
	case f.Enum != nil:
		return quoted(f.Enum)
	}
	return TypeWord(t)
}

func quoted(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " | ")
}

// WordOf names the TOML type of a decoded TOML value: "a string", "an
// integer", "a float", "a date", "an array", "a table".
func WordOf(v any) string {
	switch v.(type) {
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	}
	switch t := fmt.Sprintf("%T", v); t {
	case "time.Time", "toml.LocalDate", "toml.LocalDateTime", "toml.LocalTime":
		return "a date"
	default:
		return t
	}
}

// Recode encodes in as TOML and decodes the text into out: a table into a
// declared struct, a struct into a table, a table of Go's own types into
// TOML's (int64, []any, map[string]any).
func Recode(in, out any) error {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(in); err != nil {
		return err
	}
	_, err := toml.Decode(buf.String(), out)
	return err
}

// Tables returns an array of tables as TOML decodes it ([]map[string]any,
// or []any of tables).
func Tables(v any) []map[string]any {
	switch x := v.(type) {
	case []map[string]any:
		return x
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, it := range x {
			m, _ := it.(map[string]any)
			out = append(out, m)
		}
		return out
	}
	return nil
}

// Undeclared returns the entries of table whose keys the struct t does not
// declare, nil when there are none.
func Undeclared(table map[string]any, t reflect.Type) map[string]any {
	var out map[string]any
	for k, v := range table {
		if _, ok := Lookup(t, k); !ok {
			if out == nil {
				out = map[string]any{}
			}
			out[k] = v
		}
	}
	return out
}
