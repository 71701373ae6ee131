package typegen

import (
	"math"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
)

// What the validator writers (zod, Pydantic) share: how a schema reads
// when it is turned into a validator's words.

// schemaValues is what a schema says of values by itself: the values of
// its const or enum, those of its type where it has one (a value of
// another type is refused anyway), or the JSON types its keywords apply to.
type schemaValues struct {
	literals  []*canonical.Value
	literalAt canonical.Pointer // where the const or enum is; "" for none
	types     []string          // integer left out beside number
}

// valuesOf reads v at at; false where it says nothing of values (no
// const, enum, type or keyword of a type).
func valuesOf(v *canonical.Value, at canonical.Pointer) (schemaValues, bool) {
	types, typed := v.Get("type").Strings()
	if s, isString := v.Get("type").StringValue(); isString {
		types, typed = []string{s}, true
	}
	ofType := func(values []*canonical.Value) []*canonical.Value {
		if !typed {
			return values
		}
		return slices.DeleteFunc(slices.Clone(values), func(x *canonical.Value) bool {
			return !slices.ContainsFunc(types, func(t string) bool { return jsonTypeIs(x, t) })
		})
	}
	if c := v.Get("const"); c != nil {
		return schemaValues{literals: ofType([]*canonical.Value{c}), literalAt: at.Append("const")}, true
	}
	if e := v.Get("enum"); e != nil && e.Kind == canonical.Array {
		return schemaValues{literals: ofType(e.Items()), literalAt: at.Append("enum")}, true
	}
	if !typed {
		// No type: each keyword applies to values of its own type, and
		// every other value is valid.
		constrained := false
		for _, ks := range typeKeywords {
			for _, k := range ks {
				constrained = constrained || k != "format" && v.Has(k)
			}
		}
		if !constrained {
			return schemaValues{}, false
		}
		types = []string{"object", "string", "number", "boolean", "null", "array"}
	}
	if slices.Contains(types, "number") {
		types = slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "integer" })
	}
	return schemaValues{types: types}, true
}

// typeKeywords are, per JSON type, the keywords that apply to it only.
var typeKeywords = map[string][]string{
	"string": {"minLength", "maxLength", "pattern", "format"},
	"number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"array":  {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems"},
	"object": {"properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"},
}

// localRef is the schema in root that v's $ref names, or false where v
// has none, or one to another document, by anchor, or that resolves to
// nothing.
func localRef(root, v *canonical.Value) (canonical.Pointer, bool) {
	ref, ok := v.Get("$ref").StringValue()
	if !ok {
		return "", false
	}
	p, ok := canonical.RefPointer(ref)
	if !ok || root.Resolve(p) == nil {
		return "", false
	}
	return p, true
}

// jsonTypeIs reports whether x is of the JSON Schema type t.
func jsonTypeIs(x *canonical.Value, t string) bool {
	switch t {
	case "string":
		return x.Kind == canonical.String
	case "number":
		return x.Kind == canonical.Number
	case "integer":
		f, ok := x.NumberValue()
		return ok && f == math.Trunc(f)
	case "boolean":
		return x.Kind == canonical.Bool
	case "null":
		return x.Kind == canonical.Null
	case "array":
		return x.Kind == canonical.Array
	case "object":
		return x.Kind == canonical.Object
	}
	return false
}
