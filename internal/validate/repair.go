package validate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// typeRepairs maps the non-standard type names that real catalogs use
// (BFCL's Python names, Java class names, capitalised JSON types) to the JSON
// Schema type, "" meaning any type (the keyword is removed). Keys are lower
// case; the standard names are not in the table.
var typeRepairs = map[string]string{
	"dict": "object", "map": "object", "hashmap": "object", "hashtable": "object", "treemap": "object", "json": "object",
	"list": "array", "tuple": "array", "arraylist": "array", "linkedlist": "array", "set": "array", "hashset": "array",
	"str": "string", "char": "string", "character": "string", "text": "string",
	"int": "integer", "long": "integer", "short": "integer", "byte": "integer", "bigint": "integer", "biginteger": "integer",
	"float": "number", "double": "number", "decimal": "number", "bigdecimal": "number",
	"bool": "boolean",
	"none": "null", "nil": "null",
	"any": "", "": "",
}

// repairType returns the standard type for a non-standard name t, and false
// when t is standard or unknown. Capitalised standard names ("String",
// "Number", "Array") are repaired too.
func repairType(t string) (string, bool) {
	if slices.Contains([]string{"string", "number", "integer", "boolean", "object", "array", "null"}, t) {
		return "", false
	}
	l := strings.ToLower(t)
	if slices.Contains([]string{"string", "number", "integer", "boolean", "object", "array", "null"}, l) {
		return l, true
	}
	r, ok := typeRepairs[l]
	return r, ok
}

// Repair rewrites the non-standard constructs that real catalogs contain into
// standard JSON Schema, in the input and output schemas of t, and reports
// each rewrite as a repair.* warning at its location:
//
//   - type names such as "dict", "float", "tuple", "any", "str", "String",
//     "HashMap", "long" (repair.type);
//   - OpenAPI 3.0's "nullable": true, as "null" added to type (repair.nullable);
//   - draft-04 and OpenAPI 3.0 boolean exclusiveMinimum / exclusiveMaximum in
//     a later dialect, as the numeric form (repair.exclusive-bound);
//   - "optional" lists and flags, and draft-03 "required": true flags on
//     properties, as the parent's "required" list (repair.optional,
//     repair.required-flag);
//   - an input schema of {} or null, which some servers write for a tool
//     without parameters, as {"type": "object", "properties": {}}
//     (repair.input-schema);
//   - additionalProperties written as a type name ("object"), as a schema
//     of that type (repair.additional-properties);
//   - "required": null, removed (repair.required-null);
//   - a root without a type that is an object schema by its keywords (it
//     has properties, or every member of its allOf is an object schema),
//     given "type": "object" (repair.root-type).
//
// The schemas are copied before they change; t gets the copies.
func Repair(t *canonical.Tool) []diag.Diagnostic {
	var ds []diag.Diagnostic
	if in := t.Input; in == nil || in.Kind == canonical.Null || in.IsObject() && len(in.JSON().Members()) == 0 {
		was := "null"
		if in != nil && in.Kind == canonical.Object {
			was = "{}"
		}
		fixed := canonical.NewObject()
		fixed.Set("type", canonical.NewString("object"))
		fixed.Set("properties", canonical.NewObject())
		if in != nil {
			fixed.Pos = in.Pos
		}
		t.Input = canonical.AsSchema(fixed)
		ds = append(ds, diag.New("repair.input-schema", "the input schema %s of a tool without parameters rewritten as {\"type\": \"object\", \"properties\": {}}", was).
			At(t.Source.Place("/input")).About(t.ID()))
	}
	for _, f := range []struct {
		field canonical.Pointer
		s     **canonical.Schema
	}{{"/input", &t.Input}, {"/output", &t.Output}} {
		if *f.s == nil || !(*f.s).IsObject() {
			continue
		}
		draft, _ := Dialect(*f.s)
		_, rootType := RootNeedsType(*f.s)
		if !rootType && !needsRepair(*f.s, draft) {
			continue // nothing to repair: no copy
		}
		c := (*f.s).DeepCopy()
		var fs []finding
		for p, s := range c.All() {
			fs = append(fs, repairSchema(p, s, draft)...)
		}
		if why, ok := RootNeedsType(c); ok {
			c.JSON().SetMembers(append([]canonical.Member{{Key: "type", Value: canonical.NewString("object")}}, c.JSON().Members()...))
			fs = append(fs, finding{code: "repair.root-type", ptr: "", msg: fmt.Sprintf("the root has no type but is an object schema (%s): \"type\": \"object\" added", why)})
		}
		if len(fs) == 0 {
			continue
		}
		*f.s = c
		for _, fd := range fs {
			ds = append(ds, diag.NewText(fd.code, fd.msg).At(t.Source.Place(f.field.Join(fd.ptr))).About(t.ID()))
		}
	}
	return ds
}

// rootNeedsType reports whether the root of s has no type but is an object
// schema by its keywords, and why: it has properties, or every member of
// its allOf is an object schema.
func RootNeedsType(s *canonical.Schema) (why string, ok bool) {
	v := s.JSON()
	if v.Kind != canonical.Object || v.Has("type") {
		return "", false
	}
	if v.Has("properties") {
		return "it has properties", true
	}
	all := v.Get("allOf")
	if all == nil || all.Kind != canonical.Array || len(all.Items()) == 0 {
		return "", false
	}
	for _, m := range all.Items() {
		ts := canonical.AsSchema(m).Types()
		if m.Kind != canonical.Object || !slices.Equal(ts, []string{"object"}) && (ts != nil || !m.Has("properties")) {
			return "", false
		}
	}
	return "every member of its allOf is an object schema", true
}

// needsRepair reports whether a schema of s holds what repairSchema
// rewrites: its keywords, checked without copying or changing anything. It
// may say yes where repairSchema then finds nothing, never the reverse
// (TestNeedsRepairCoversRepair).
func needsRepair(s *canonical.Schema, draft *jsonschema.Draft) bool {
	found := false
	canonical.Visit(s, func(sub *canonical.Schema) bool {
		found = found || sub.IsObject() && nodeNeedsRepair(sub.JSON(), draft)
		return !found
	})
	return found
}

func nodeNeedsRepair(v *canonical.Value, draft *jsonschema.Draft) bool {
	for _, m := range v.Members() {
		switch k, x := m.Key, m.Value; {
		case k == "type" && x.Kind == canonical.String:
			if _, bad := repairType(x.Text()); bad {
				return true
			}
		case k == "type" && x.Kind == canonical.Array:
			for _, it := range x.Items() {
				if _, bad := repairType(it.Text()); it.Kind == canonical.String && bad {
					return true
				}
			}
		case k == "required" && x.Kind == canonical.Null,
			k == "nullable" && x.Kind == canonical.Bool,
			(k == "exclusiveMinimum" || k == "exclusiveMaximum") && x.Kind == canonical.Bool && draft != jsonschema.Draft4,
			k == "additionalProperties" && x.Kind == canonical.String,
			k == "optional" && x.Kind == canonical.Array:
			return true
		case k == "properties" && x.Kind == canonical.Object:
			for _, pm := range x.Members() {
				if o := pm.Value.Get("optional"); o != nil && o.Kind == canonical.Bool {
					return true
				}
				if r := pm.Value.Get("required"); r != nil && r.Kind == canonical.Bool {
					return true
				}
			}
		}
	}
	return false
}

func repairSchema(p canonical.Pointer, s *canonical.Schema, draft *jsonschema.Draft) []finding {
	if !s.IsObject() {
		return nil
	}
	var fs []finding
	v := s.JSON()
	if typ := v.Get("type"); typ != nil {
		fs = append(fs, repairTypeKeyword(p, v, typ)...)
	}
	if n := v.Get("nullable"); n != nil && n.Kind == canonical.Bool {
		if n.Bool {
			addNull(v)
		}
		v.Delete("nullable")
		fs = append(fs, finding{code: "repair.nullable", ptr: p.Append("nullable"),
			msg: fmt.Sprintf("OpenAPI 3.0 \"nullable\": %t rewritten as JSON Schema (%s)", n.Bool, typeText(v))})
	}
	if draft != jsonschema.Draft4 {
		for _, b := range []struct{ excl, bound string }{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			e := v.Get(b.excl)
			if e == nil || e.Kind != canonical.Bool {
				continue
			}
			msg := fmt.Sprintf("boolean %s: false removed (the later dialects take a number)", b.excl)
			v.Delete(b.excl)
			if bound := v.Get(b.bound); e.Bool && bound != nil {
				v.Set(b.excl, bound)
				v.Delete(b.bound)
				msg = fmt.Sprintf("boolean %s with %s %s rewritten as \"%s\": %s", b.excl, b.bound, bound.Text(), b.excl, bound.Text())
			}
			fs = append(fs, finding{code: "repair.exclusive-bound", ptr: p.Append(b.excl), msg: msg})
		}
	}
	if ap := v.Get("additionalProperties"); ap != nil && ap.Kind == canonical.String {
		t := ap.Text()
		if r, ok := repairType(t); ok {
			t = r
		}
		fixed := canonical.NewObject()
		if t != "" {
			fixed.Set("type", canonical.NewString(t))
		}
		fixed.Pos = ap.Pos
		v.Set("additionalProperties", fixed)
		fs = append(fs, finding{code: "repair.additional-properties", ptr: p.Append("additionalProperties"),
			msg: fmt.Sprintf("additionalProperties %q (a type name where a schema belongs) rewritten as %s", ap.Text(), fixed.String())})
	}
	if r := v.Get("required"); r != nil && r.Kind == canonical.Null {
		v.Delete("required")
		fs = append(fs, finding{code: "repair.required-null", ptr: p.Append("required"),
			msg: "\"required\": null removed: required is a list, and none means no property is required"})
	}
	props := v.Get("properties")
	if opt := v.Get("optional"); opt != nil && opt.Kind == canonical.Array {
		names, _ := opt.Strings()
		removeRequired(v, names)
		v.Delete("optional")
		fs = append(fs, finding{code: "repair.optional", ptr: p.Append("optional"),
			msg: fmt.Sprintf("non-standard \"optional\" list %q removed; its names are left out of required", names)})
	}
	if props != nil && props.Kind == canonical.Object {
		for _, m := range props.Members() {
			ps := m.Value
			if ps.Kind != canonical.Object {
				continue
			}
			if o := ps.Get("optional"); o != nil && o.Kind == canonical.Bool {
				if o.Bool {
					removeRequired(v, []string{m.Key})
				} else {
					addRequired(v, m.Key)
				}
				ps.Delete("optional")
				fs = append(fs, finding{code: "repair.optional", ptr: p.Append("properties", m.Key, "optional"),
					msg: fmt.Sprintf("non-standard \"optional\": %t on %q rewritten in the parent's required", o.Bool, m.Key)})
			}
			if r := ps.Get("required"); r != nil && r.Kind == canonical.Bool {
				if r.Bool {
					addRequired(v, m.Key)
				}
				ps.Delete("required")
				fs = append(fs, finding{code: "repair.required-flag", ptr: p.Append("properties", m.Key, "required"),
					msg: fmt.Sprintf("draft-03 \"required\": %t on %q rewritten in the parent's required list", r.Bool, m.Key)})
			}
		}
	}
	return fs
}

func repairTypeKeyword(p canonical.Pointer, v, typ *canonical.Value) []finding {
	at := p.Append("type")
	switch typ.Kind {
	case canonical.String:
		to, ok := repairType(typ.Text())
		if !ok {
			return nil
		}
		if to == "" {
			v.Delete("type")
			return []finding{{code: "repair.type", ptr: at, msg: fmt.Sprintf("type %q (any value) rewritten as no type keyword", typ.Text())}}
		}
		v.Set("type", canonical.NewString(to).At(typ.Pos))
		return []finding{{code: "repair.type", ptr: at, msg: fmt.Sprintf("type %q rewritten as %q", typ.Text(), to)}}
	case canonical.Array:
		var fs []finding
		var out []*canonical.Value
		anyType := false
		for i, it := range typ.Items() {
			name, ok := it.StringValue()
			to, bad := repairType(name)
			switch {
			case !ok || !bad:
				out = append(out, it)
				continue
			case to == "":
				anyType = true
			default:
				out = append(out, canonical.NewString(to))
			}
			fs = append(fs, finding{code: "repair.type", ptr: at.Index(i), msg: fmt.Sprintf("type %q rewritten as %q", name, cmp.Or(to, "any"))})
		}
		if anyType {
			v.Delete("type")
		} else if len(fs) > 0 {
			typ.SetItems(out)
		}
		return fs
	}
	return nil
}

// addNull makes the schema v admit null: "null" joins its type, and its enum
// if it has one.
func addNull(v *canonical.Value) {
	switch typ := v.Get("type"); {
	case typ == nil:
	case typ.Kind == canonical.String && typ.Text() != "null":
		v.Set("type", canonical.NewArray(typ, canonical.NewString("null")))
	case typ.Kind == canonical.Array:
		if names, _ := typ.Strings(); !slices.Contains(names, "null") {
			typ.SetItems(append(typ.Items(), canonical.NewString("null")))
		}
	}
	if enum := v.Get("enum"); enum != nil && enum.Kind == canonical.Array && !slices.ContainsFunc(enum.Items(), func(x *canonical.Value) bool { return x.Kind == canonical.Null }) {
		enum.SetItems(append(enum.Items(), canonical.NewNull()))
	}
}

func typeText(v *canonical.Value) string {
	if t := v.Get("type"); t != nil {
		return "type " + t.String()
	}
	return "no type"
}

func removeRequired(v *canonical.Value, names []string) {
	req := v.Get("required")
	if req == nil || req.Kind != canonical.Array {
		return
	}
	req.SetItems(slices.DeleteFunc(req.Items(), func(x *canonical.Value) bool {
		s, ok := x.StringValue()
		return ok && slices.Contains(names, s)
	}))
}

func addRequired(v *canonical.Value, name string) {
	req := v.Get("required")
	if req == nil || req.Kind != canonical.Array {
		v.Set("required", canonical.NewStrings([]string{name}))
		return
	}
	if names, _ := req.Strings(); !slices.Contains(names, name) {
		req.SetItems(append(req.Items(), canonical.NewString(name)))
	}
}
