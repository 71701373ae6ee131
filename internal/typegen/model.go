// Package typegen turns a catalog's tools into typed declarations:
// TypeScript, Go and Python, from one model of each input and output
// schema. What a type system cannot say (a constraint, a union Go has no
// type for, an open object beside declared properties) is a located loss,
// never a silent any.
package typegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// Kind is what a type is.
type Kind int

// The kinds of type.
const (
	Any Kind = iota
	String
	Number
	Integer
	Boolean
	Null
	Array
	Map     // an object of any keys, each value Elem
	Object  // declared properties: Fields
	Union   // one of Union
	Literal // one of Values, JSON scalars
	Named   // the declaration Name
)

// Type is one type of the model.
type Type struct {
	Kind   Kind
	Elem   *Type
	Fields []Field
	Union  []*Type
	Values []*canonical.Value
	Name   string
}

// basic are the types that are their kind alone, one of each, shared by
// every model: nothing changes a type once it is built, and a catalog's
// 20,000 tools have hundreds of thousands of string properties.
var basic = [...]*Type{Any: {Kind: Any}, String: {Kind: String}, Number: {Kind: Number}, Integer: {Kind: Integer}, Boolean: {Kind: Boolean}, Null: {Kind: Null}}

// Field is one property of an object type.
type Field struct {
	JSON       string // the property's name
	Type       *Type
	Doc        string
	Tags       []string // constraints as JSDoc tags: "@minimum 1"
	Required   bool
	Deprecated bool
}

// Decl is one named type: a tool's input or output, or a nested object,
// enum or definition.
type Decl struct {
	Name string
	Type *Type
	Doc  string
	// Tool is the tool it belongs to, and At where it is in the tool's
	// canonical form.
	Tool *canonical.Tool
	At   canonical.Pointer
}

// Tool is one tool's declarations.
type Tool struct {
	ID, Name string // the catalog's ID, and the name the target emits
	TypeName string // PascalCase of the ID, or the types map's
	Input    string // the input's declaration
	Output   string // the output's declaration, or the name of its unknown type
	// NoOutput says the tool has no output schema: Output names a type of
	// any value, which each writer declares in its words.
	NoOutput   bool
	Doc        string
	Deprecated bool
	Source     *canonical.Tool
}

// Loss is what a type cannot say, at a pointer of the tool's canonical form.
type Loss struct {
	Code, Message string
	Tool          *canonical.Tool
	At            canonical.Pointer
}

// Model is a catalog's tools as types.
type Model struct {
	Tools  []Tool
	Decls  []*Decl
	Losses []Loss
	// GoLosses are what Go alone cannot say: a union of several types.
	GoLosses []Loss
	// PythonLosses are what Python alone cannot say: a property named ""
	// (a TypedDict's names cannot be empty).
	PythonLosses []Loss
	// Collisions are pairs of tools whose type names are one after casing.
	Collisions [][2]*canonical.Tool
	byName     map[string]bool // the names taken, while the model is built
}

// Build makes the model of tools, named as names says (the emitted name of
// each tool, by ID), with overrides the types map's names by ID.
func Build(tools []*canonical.Tool, names map[string]string, overrides map[string]string) *Model {
	m := &Model{byName: map[string]bool{}, Tools: make([]Tool, 0, len(tools))}
	for _, r := range reservedTypeNames {
		m.byName[r] = true
	}
	owner := map[string]*canonical.Tool{}
	for _, t := range tools {
		tn := overrides[t.ID()]
		if tn == "" {
			tn = Pascal(t.ID())
		}
		tn = fit(tn)
		if prev, ok := owner[tn]; ok {
			m.Collisions = append(m.Collisions, [2]*canonical.Tool{prev, t})
			continue
		}
		owner[tn] = t
		tt := Tool{ID: t.ID(), Name: names[t.ID()], TypeName: tn, Doc: t.Description, Deprecated: t.Deprecated, Source: t}
		if tt.Name == "" {
			tt.Name = t.ID()
		}
		c := &conv{m: m, tool: t, root: t.Input.JSON(), base: "/input", defs: map[string]string{}}
		tt.Input = c.declare(tn+"Input", t.Input.JSON(), "/input", t.Description)
		c.flush()
		if t.Output != nil {
			c = &conv{m: m, tool: t, root: t.Output.JSON(), base: "/output", defs: map[string]string{}}
			tt.Output = c.declare(tn+"Output", t.Output.JSON(), "/output", "")
			c.flush()
		} else {
			tt.Output, tt.NoOutput = m.unique(tn+"Output"), true
			m.Losses = append(m.Losses, Loss{"loss.type-output-unknown", "the tool has no output schema, so its result's type is unknown", t, ""})
		}
		m.Tools = append(m.Tools, tt)
	}
	for _, d := range m.Decls {
		if d.Type.Kind == Object && slices.ContainsFunc(d.Type.Fields, func(f Field) bool { return f.JSON == "" }) {
			m.PythonLosses = append(m.PythonLosses, Loss{"loss.type-key", "a property named \"\" cannot be a TypedDict's key (its names are not empty): the object is dict[str, Any] in Python", d.Tool, d.At.Append("properties", "")})
		}
	}
	m.byName = nil // every name is taken: the model lives on while its files are written
	return m
}

// unique takes a declaration name: name, fitted, with Type added while
// it is taken (never a number, which would renumber between releases).
func (m *Model) unique(name string) string {
	name = fit(name)
	for m.byName[name] {
		name += "Type"
	}
	m.byName[name] = true
	return name
}

// conv converts the schemas of one tool's input or output.
type conv struct {
	m          *Model
	tool       *canonical.Tool
	root       *canonical.Value
	base       canonical.Pointer
	defs       map[string]string // $ref → declaration name
	constraint []string          // keywords no type says, for one loss
	at         canonical.Pointer // where the first of them is
}

func (c *conv) loss(code string, at canonical.Pointer, format string, args ...any) {
	c.m.Losses = append(c.m.Losses, Loss{code, fmt.Sprintf(format, args...), c.tool, at})
}

// flush reports the constraints that no type says, once per schema.
func (c *conv) flush() {
	if len(c.constraint) > 0 {
		slices.Sort(c.constraint)
		c.constraint = slices.Compact(c.constraint)
		c.loss("loss.type-constraint", c.at, "%s cannot be said by a type (they are in the doc comments, and a validator checks them)", strings.Join(c.constraint, ", "))
	}
}

// declare makes the named declaration of node and returns its name: a name
// taken already gets the owner's path, never a number.
func (c *conv) declare(name string, node *canonical.Value, at canonical.Pointer, doc string) string {
	name = c.m.unique(name)
	d := &Decl{Name: name, Doc: doc, Tool: c.tool, At: at}
	c.m.Decls = append(c.m.Decls, d)
	d.Type = c.typ(node, at, name)
	if d.Type.Kind != Object {
		d.Type = c.named(d.Type, name, "", at)
	}
	if d.Doc == "" {
		d.Doc = description(node)
	}
	return name
}

// constraintKeys are the keywords that no type of the three languages says.
var constraintKeys = []string{"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "not", "if", "contains",
	"dependentRequired", "dependentSchemas", "propertyNames", "patternProperties"}

// Tags are node's constraints as JSDoc tags.
func Tags(node *canonical.Value) []string {
	var tags []string
	for _, k := range constraintKeys {
		if v := node.Get(k); v != nil && (v.Kind != canonical.Object && v.Kind != canonical.Array) {
			tags = append(tags, "@"+k+" "+v.String())
		}
	}
	return tags
}

func description(node *canonical.Value) string {
	s, _ := node.Get("description").StringValue()
	return s
}

// typ is the type of node, nested objects declared under name's path.
func (c *conv) typ(node *canonical.Value, at canonical.Pointer, name string) *Type {
	if node != nil && node.Kind == canonical.Bool && !node.Bool {
		c.loss("loss.type-constraint", at, "the schema false takes no value, which no type says: any value")
	}
	if node == nil || node.Kind == canonical.Bool {
		return basic[Any]
	}
	if node.Kind != canonical.Object {
		return basic[Any]
	}
	for _, k := range constraintKeys {
		if node.Has(k) {
			if len(c.constraint) == 0 {
				c.at = at
			}
			c.constraint = append(c.constraint, k)
		}
	}
	if ref, ok := node.Get("$ref").StringValue(); ok {
		return c.ref(ref, at, name)
	}
	if e := node.Get("enum"); e != nil && e.Kind == canonical.Array {
		return c.literals(e.Items(), at)
	}
	if v := node.Get("const"); v != nil {
		return c.literals([]*canonical.Value{v}, at)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if b := node.Get(k); b != nil && b.Kind == canonical.Array && len(b.Items()) > 0 {
			if props := node.Get("properties"); props != nil && props.Kind == canonical.Object && len(props.Members()) > 0 {
				// Branches beside declared properties (most often lists
				// of required ones) narrow the object: the type keeps its
				// properties, and says it does not narrow.
				c.loss("loss.type-one-of", at.Append(k), "the %s beside the object's properties narrows it, which the type cannot say: it has the declared properties, and a validator checks the rest", k)
				return c.object(node, at, name)
			}
			u := &Type{Kind: Union}
			for i, br := range b.Items() {
				u.Union = append(u.Union, c.typ(br, at.Append(k).Index(i), name+"Variant"+fmt.Sprint(i+1)))
			}
			return c.union(simplify(u), at.Append(k))
		}
	}
	if a := node.Get("allOf"); a != nil && a.Kind == canonical.Array && len(a.Items()) > 0 {
		return c.allOf(node, a.Items(), at, name)
	}
	return c.byType(node, at, name)
}

// byType is the type of a schema that says its type by "type", or by the
// keywords of one.
func (c *conv) byType(node *canonical.Value, at canonical.Pointer, name string) *Type {
	types := typeNames(node)
	if len(types) > 1 {
		u := &Type{Kind: Union}
		for _, tn := range types {
			one := canonical.NewObject()
			one.SetMembers(slices.DeleteFunc(slices.Clone(node.Members()), func(m canonical.Member) bool { return m.Key == "type" }))
			one.Set("type", canonical.NewString(tn))
			u.Union = append(u.Union, c.typ(one, at, name))
		}
		return c.union(simplify(u), at.Append("type"))
	}
	t := ""
	if len(types) == 1 {
		t = types[0]
	} else if node.Has("properties") {
		t = "object"
	} else if node.Has("items") {
		t = "array"
	}
	switch t {
	case "string":
		return basic[String]
	case "number":
		return basic[Number]
	case "integer":
		return basic[Integer]
	case "boolean":
		return basic[Boolean]
	case "null":
		return basic[Null]
	case "array":
		if node.Get("prefixItems") != nil || node.Get("items") != nil && node.Get("items").Kind == canonical.Array {
			c.loss("loss.type-one-of", at, "a tuple's positions cannot be said: the array's items are any of its members")
			return &Type{Kind: Array, Elem: basic[Any]}
		}
		return &Type{Kind: Array, Elem: c.typ(node.Get("items"), at.Append("items"), name+"Item")}
	case "object":
		return c.object(node, at, name)
	}
	return basic[Any]
}

// object is the type of an object schema.
func (c *conv) object(node *canonical.Value, at canonical.Pointer, name string) *Type {
	props := node.Get("properties")
	ap := node.Get("additionalProperties")
	if props == nil || props.Kind != canonical.Object || len(props.Members()) == 0 {
		if ap != nil && ap.Kind == canonical.Object {
			return &Type{Kind: Map, Elem: c.typ(ap, at.Append("additionalProperties"), name+"Value")}
		}
		return &Type{Kind: Map, Elem: basic[Any]}
	}
	if ap != nil && ap.Kind == canonical.Object && len(ap.Members()) > 0 {
		c.loss("loss.type-open-object", at.Append("additionalProperties"), "an object with declared properties and other properties of a schema: the type has the declared ones only")
	}
	req, _ := node.Get("required").Strings()
	o := &Type{Kind: Object, Fields: make([]Field, 0, len(props.Members()))}
	for _, p := range props.Members() {
		f := Field{JSON: p.Key, Required: slices.Contains(req, p.Key), Doc: description(p.Value), Tags: Tags(p.Value)}
		if p.Value.Kind == canonical.Object {
			f.Deprecated, _ = p.Value.Get("deprecated").BoolValue()
		}
		f.Type = c.nested(p.Value, at.Append("properties", p.Key), name+Pascal(p.Key))
		o.Fields = append(o.Fields, f)
	}
	return o
}

// nested is the type of a subschema, with an object or an enum declared
// under its own name: Go and Python name every struct and TypedDict.
func (c *conv) nested(node *canonical.Value, at canonical.Pointer, name string) *Type {
	t := c.typ(node, at, name)
	return c.named(t, name, description(node), at)
}

// named declares t under name where it is an object, or an array or union
// of them, so that every emitter can name it.
func (c *conv) named(t *Type, name, doc string, at canonical.Pointer) *Type {
	switch t.Kind {
	case Object:
		name = c.m.unique(name)
		c.m.Decls = append(c.m.Decls, &Decl{Name: name, Type: t, Doc: doc, Tool: c.tool, At: at})
		return &Type{Kind: Named, Name: name}
	case Array, Map:
		t.Elem = c.named(t.Elem, name+"Item", "", at)
	case Union:
		for i := range t.Union {
			t.Union[i] = c.named(t.Union[i], fmt.Sprintf("%sVariant%d", name, i+1), "", at)
		}
	case Literal:
		if len(t.Values) > 1 && !slices.ContainsFunc(t.Values, func(v *canonical.Value) bool { return v.Kind != canonical.String }) {
			name = c.m.unique(name)
			c.m.Decls = append(c.m.Decls, &Decl{Name: name, Type: t, Doc: doc, Tool: c.tool, At: at})
			return &Type{Kind: Named, Name: name}
		}
	}
	return t
}

// ref is the type a local reference names: one declaration per target.
func (c *conv) ref(ref string, at canonical.Pointer, name string) *Type {
	if n, ok := c.defs[ref]; ok {
		return &Type{Kind: Named, Name: n}
	}
	p := strings.TrimPrefix(ref, "#")
	target := c.root.Resolve(canonical.Pointer(p))
	if !strings.HasPrefix(ref, "#") || target == nil {
		c.loss("loss.type-one-of", at, "the reference %s is not to a definition of the schema: any value", ref)
		return basic[Any]
	}
	parts := strings.Split(p, "/")
	declName := c.typeBase() + "Root"
	if last := parts[len(parts)-1]; last != "" {
		declName = c.typeBase() + Pascal(last)
	}
	declName = c.m.unique(declName)
	c.defs[ref] = declName
	at = canonical.Pointer(string(c.base) + p)
	d := &Decl{Name: declName, Doc: description(target), Tool: c.tool, At: at}
	c.m.Decls = append(c.m.Decls, d)
	t := c.typ(target, at, declName)
	if t.Kind != Object {
		t = c.named(t, declName, "", at)
	}
	d.Type = t
	return &Type{Kind: Named, Name: declName}
}

// typeBase is the tool's type name, with the side of the schema.
func (c *conv) typeBase() string {
	side := "Input"
	if c.base == "/output" {
		side = "Output"
	}
	return Pascal(c.tool.ID()) + side
}

// allOf is an allOf of object schemas merged into one object, the
// node's own properties first; members that are not objects are lost.
func (c *conv) allOf(node *canonical.Value, members []*canonical.Value, at canonical.Pointer, name string) *Type {
	merged := &Type{Kind: Object}
	add := func(t *Type) bool {
		if t.Kind == Named {
			if d := c.decl(t.Name); d != nil {
				t = d.Type
			}
		}
		if t.Kind != Object {
			return t.Kind == Any
		}
		for _, f := range t.Fields {
			if !slices.ContainsFunc(merged.Fields, func(g Field) bool { return g.JSON == f.JSON }) {
				merged.Fields = append(merged.Fields, f)
			}
		}
		return true
	}
	own := canonical.NewObject()
	own.SetMembers(slices.DeleteFunc(slices.Clone(node.Members()), func(m canonical.Member) bool { return m.Key == "allOf" }))
	if own.Has("properties") {
		add(c.object(own, at, name))
	}
	for i, mem := range members {
		if !add(c.typ(mem, at.Append("allOf").Index(i), name)) {
			c.loss("loss.type-one-of", at.Append("allOf").Index(i), "an allOf member that is not an object schema cannot be merged into the type")
		}
	}
	if len(merged.Fields) == 0 {
		return &Type{Kind: Map, Elem: basic[Any]}
	}
	return merged
}

func (c *conv) decl(name string) *Decl {
	for _, d := range c.m.Decls {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// literals is the type of an enum or const: its JSON scalars.
func (c *conv) literals(vs []*canonical.Value, at canonical.Pointer) *Type {
	t := &Type{Kind: Literal}
	for _, v := range vs {
		switch v.Kind {
		case canonical.String, canonical.Number, canonical.Bool, canonical.Null:
			t.Values = append(t.Values, v)
		default:
			c.loss("loss.type-one-of", at, "an enum or const with an object or array value cannot be a literal type: any value")
			return basic[Any]
		}
	}
	return t
}

// typeNames are node's "type" names, sorted as written.
func typeNames(node *canonical.Value) []string {
	t := node.Get("type")
	if s, ok := t.StringValue(); ok {
		return []string{s}
	}
	ss, _ := t.Strings()
	return ss
}

// union records, for Go, a union of more than one type besides null.
func (c *conv) union(t *Type, at canonical.Pointer) *Type {
	if t.Kind == Union && len(slices.DeleteFunc(slices.Clone(t.Union), func(u *Type) bool { return u.Kind == Null })) > 1 {
		c.m.GoLosses = append(c.m.GoLosses, Loss{"loss.type-one-of", "a value of one of several types, which Go has no type for: json.RawMessage", c.tool, at})
	}
	return t
}

// simplify flattens nested unions and folds a union of one.
func simplify(u *Type) *Type {
	var out []*Type
	for _, t := range u.Union {
		if t.Kind == Union {
			out = append(out, t.Union...)
		} else {
			out = append(out, t)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	u.Union = out
	return u
}
