package decode

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
)

// The OpenAPI 3.0 keywords converted to JSON Schema 2020-12, with what the
// conversion does.
var conversionText = map[string]string{
	"nullable":                `"nullable": true became "null" in "type" (and in "enum"), or a {"type": "null"} branch of anyOf/oneOf`,
	"nullable-no-type":        `"nullable" without "type" was removed: in OpenAPI 3.0.3 it has no effect without a type`,
	"exclusiveMinimum":        `boolean "exclusiveMinimum" with "minimum" became the number "exclusiveMinimum"`,
	"exclusiveMaximum":        `boolean "exclusiveMaximum" with "maximum" became the number "exclusiveMaximum"`,
	"example":                 `"example" became "examples": [example]`,
	"gemini-type":             `upper-case Gemini type names ("STRING") became JSON Schema's ("string")`,
	"gemini-type-unspecified": `"type": "TYPE_UNSPECIFIED" was removed: it means no type`,
	"gemini-int64":            `int64 bounds written as strings ("minItems": "1") became numbers`,
}

// Convert30 rewrites, in place, the OpenAPI 3.0 keywords of the schema s
// as JSON Schema 2020-12 says the same thing, calling report with the kind
// of each rewrite (a key of the table above) and where it happened.
func Convert30(s *canonical.Value, report func(kind string, p canonical.Pointer)) {
	canonical.Walk(canonical.AsSchema(s), func(p canonical.Pointer, sub *canonical.Schema) bool {
		v := sub.JSON()
		if v.Kind != canonical.Object {
			return true
		}
		if n := v.Get("nullable"); n != nil {
			nullable, _ := n.BoolValue()
			typ := v.Get("type")
			kind := "nullable"
			switch {
			case !nullable:
			case typ != nil && typ.Kind == canonical.String && typ.Text() != "null":
				v.Set("type", canonical.NewArray(canonical.NewString(typ.Text()), canonical.NewString("null")))
			case typ != nil && typ.Kind == canonical.Array:
				if !slices.ContainsFunc(typ.Items(), func(t *canonical.Value) bool { return t.Text() == "null" }) {
					typ.SetItems(append(typ.Items(), canonical.NewString("null")))
				}
			case typ == nil && (v.Has("anyOf") || v.Has("oneOf")):
				key := "anyOf"
				if !v.Has("anyOf") {
					key = "oneOf"
				}
				if l := v.Get(key); l.Kind == canonical.Array {
					null := canonical.NewObject()
					null.Set("type", canonical.NewString("null"))
					l.SetItems(append(l.Items(), null))
				}
			default:
				kind = "nullable-no-type"
			}
			if nullable && kind == "nullable" {
				if e := v.Get("enum"); e != nil && e.Kind == canonical.Array && !slices.ContainsFunc(e.Items(), func(x *canonical.Value) bool { return x.Kind == canonical.Null }) {
					e.SetItems(append(e.Items(), canonical.NewNull()))
				}
			}
			v.Delete("nullable")
			report(kind, p.Append("nullable"))
		}
		for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			ex := v.Get(b[0])
			if ex == nil || ex.Kind != canonical.Bool {
				continue
			}
			if bound := v.Get(b[1]); ex.Bool && bound != nil {
				v.Members()[v.Index(b[0])].Value = bound
				v.Delete(b[1])
			} else {
				v.Delete(b[0])
			}
			report(b[0], p.Append(b[0]))
		}
		if ex := v.Get("example"); ex != nil {
			if !v.Has("examples") {
				v.Members()[v.Index("example")] = canonical.Member{Key: "examples", Value: canonical.NewArray(ex), KeyPos: v.Members()[v.Index("example")].KeyPos}
			} else {
				v.Delete("example")
			}
			report("example", p.Append("example"))
		}
		return true
	})
}

// Conversions counts the rewrites of one file by kind, to report each kind
// once: a description can hold thousands of nullables.
type Conversions map[string]*conversion

type conversion struct {
	count int
	first canonical.Pointer
}

// Add returns a function that records a rewrite of a kind at a pointer
// relative to at.
func (c *Conversions) Add(at canonical.Pointer) func(kind string, p canonical.Pointer) {
	return func(kind string, p canonical.Pointer) {
		if *c == nil {
			*c = Conversions{}
		}
		if (*c)[kind] == nil {
			(*c)[kind] = &conversion{first: at.Join(p)}
		}
		(*c)[kind].count++
	}
}

// Report says, once per kind, what converting to JSON Schema 2020-12
// changed, how often, and where first.
func (c Conversions) Report(d *Decoder) {
	for _, k := range slices.Sorted(maps.Keys(c)) {
		times := "once"
		if c[k].count > 1 {
			times = fmt.Sprintf("%d times", c[k].count)
		}
		d.Report("source.openapi-converted", c[k].first, "OpenAPI 3.0 to JSON Schema 2020-12, %s (here first): %s", times, conversionText[k])
	}
}
