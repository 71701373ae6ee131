package typegen

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/accept"
)

// The Pydantic module: each tool's input (and output) schema as Pydantic v2
// models, which Python MCP servers and agent frameworks validate calls
// with. Like the zod module it is written from the JSON Schema itself, so
// that a model accepts exactly what the schema accepts: strict mode (no
// "1" for 1), a field the schema leaves optional defaults to None (made by
// a factory, never validated) without taking null, keys that are no identifiers as aliases, extra as
// additionalProperties says, and what no annotation says (oneOf, allOf,
// not, uniqueItems, a combinator beside properties) checked by a validator
// over the raw value. What it does not check is a loss.validator-*.

// pyReserved are the names a model's field may not take: Python's keywords,
// the builtins the module's annotations name, and BaseModel's attributes.
var pyReserved = []string{"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
	"elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
	"raise", "return", "try", "while", "with", "yield", "match", "case", "type",
	"str", "int", "float", "bool", "list", "dict", "object", "Any",
	"construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw", "schema", "schema_json", "update_forward_refs", "validate",
	"model_computed_fields", "model_config", "model_construct", "model_copy", "model_dump", "model_dump_json", "model_extra", "model_fields",
	"model_fields_set", "model_json_schema", "model_parametrized_name", "model_post_init", "model_rebuild", "model_validate",
	"model_validate_json", "model_validate_strings"}

// pySchema writes one schema of a tool as Pydantic: its classes, and the
// type of its root.
type pySchema struct {
	tool   *canonical.Tool
	root   *canonical.Value
	base   canonical.Pointer
	prefix string
	scope  *scope
	names  map[canonical.Pointer]string // a referenced schema's class or alias
	b      *strings.Builder
	losses []Loss
}

func (p *pySchema) loss(code string, at canonical.Pointer, format string, args ...any) {
	p.losses = append(p.losses, Loss{Code: code, Message: fmt.Sprintf(format, args...), Tool: p.tool, At: p.base.Join(at)})
}

// lambdas are Python lambdas of each type, read when a validator runs (a
// class may be declared after the validator).
func lambdas(types []string) string {
	var out []string
	for _, t := range types {
		out = append(out, "lambda: "+t)
	}
	return strings.Join(out, ", ")
}

// typ is the Python type of the schema v at at; name is the class a plain
// object schema there becomes.
func (p *pySchema) typ(v *canonical.Value, at canonical.Pointer, name string) string {
	switch {
	case v == nil:
		return "_t.Any"
	case v.Kind == canonical.Bool:
		if b, _ := v.BoolValue(); b {
			return "_t.Any"
		}
		return "_t.Annotated[_t.Any, _p.BeforeValidator(_never)]"
	case v.Kind != canonical.Object:
		p.loss("loss.validator-keyword", at, "a schema that is neither an object nor a boolean: the model takes any value here")
		return "_t.Any"
	}
	for _, k := range []string{"if", "then", "else", "contains", "minContains", "maxContains", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "dependencies", "$dynamicRef", "$recursiveRef", "prefixItems"} {
		if v.Has(k) {
			p.loss("loss.validator-keyword", at.Append(k), "the Pydantic model does not check %s", k)
		}
	}
	var checks []string // validators over the raw value
	base := ""
	if target, ok := p.refTarget(v); ok {
		base = p.names[target]
		if base == "" {
			p.names[target] = "?" // being declared: what refers to it now reads it late
			name := p.scope.name(p.prefix+Pascal(lastToken(target)), "_")
			p.names[target] = name
			def := p.typ(p.root.Resolve(target), target, name)
			if def != name {
				fmt.Fprintf(p.b, "\n%s = %s\n", name, def)
			}
			base = name
		} else if base == "?" {
			p.loss("loss.validator-ref", at.Append("$ref"), "a recursive reference to a schema that is no object: the model takes any value here")
			base = ""
		}
	} else if v.Has("$ref") {
		p.loss("loss.validator-ref", at.Append("$ref"), "a $ref that is not to this schema: the model takes any value here")
	}
	own := p.valueType(v, at, name)
	switch {
	case base == "":
		base = own
	case own != "":
		checks = append(checks, "_all_of("+lambdas([]string{own})+")")
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		bs := v.Get(k)
		if bs == nil || bs.Kind != canonical.Array || len(bs.Items()) == 0 {
			continue
		}
		var branches []string
		for i, br := range bs.Items() {
			branches = append(branches, p.typ(br, at.Append(k).Index(i), p.scope.name(name+Pascal(k)+fmt.Sprint(i+1), "_")))
		}
		fn := map[string]string{"anyOf": "_any_of", "oneOf": "_one_of", "allOf": "_all_of"}[k]
		if base == "" && k == "anyOf" {
			base = "_t.Union[" + strings.Join(branches, ", ") + "]"
			if len(branches) == 1 {
				base = branches[0]
			}
			continue
		}
		checks = append(checks, fn+"("+lambdas(branches)+")")
	}
	if n := v.Get("not"); n != nil {
		checks = append(checks, "_not("+lambdas([]string{p.typ(n, at.Append("not"), p.scope.name(name+"Not", "_"))})+")")
	}
	if base == "" {
		base = "_t.Any"
	}
	if len(checks) == 0 {
		return base
	}
	var vs []string
	for _, c := range checks {
		vs = append(vs, "_p.BeforeValidator("+c+")")
	}
	return "_t.Annotated[" + base + ", " + strings.Join(vs, ", ") + "]"
}

func (p *pySchema) refTarget(v *canonical.Value) (canonical.Pointer, bool) {
	return localRef(p.root, v)
}

// valueType is the type of what v says by itself: const, enum, or its
// types; "" where it says nothing.
func (p *pySchema) valueType(v *canonical.Value, at canonical.Pointer, name string) string {
	sv, ok := valuesOf(v, at)
	switch {
	case !ok:
		return ""
	case sv.literalAt != "":
		return p.literals(sv.literals, sv.literalAt)
	}
	types := sv.types
	var out []string
	for _, t := range types {
		out = append(out, p.typeOf(t, v, at, name))
	}
	if len(out) == 1 {
		return out[0]
	}
	return "_t.Union[" + strings.Join(out, ", ") + "]"
}

// literals is the Literal of the JSON scalars values.
func (p *pySchema) literals(values []*canonical.Value, at canonical.Pointer) string {
	var lits []string
	for _, x := range values {
		switch {
		case x.Kind == canonical.String:
			lits = append(lits, pyString(x.Text()))
		case x.Kind == canonical.Null:
			lits = append(lits, "None")
		case x.Kind == canonical.Bool:
			lits = append(lits, map[bool]string{true: "True", false: "False"}[x.Bool])
		case jsonTypeIs(x, "integer") && !strings.ContainsAny(x.Text(), ".eE"):
			lits = append(lits, x.Text())
		default:
			p.loss("loss.validator-const", at, "a value in %s that a Literal cannot hold (an object, an array or a fraction): the model leaves it out", lastToken(at))
		}
	}
	if len(lits) == 0 {
		return "_t.Annotated[_t.Any, _p.BeforeValidator(_never)]"
	}
	return "_t.Literal[" + strings.Join(lits, ", ") + "]"
}

// typeOf is the type of the values of JSON type t that v takes.
func (p *pySchema) typeOf(t string, v *canonical.Value, at canonical.Pointer, name string) string {
	num := func(k string) (string, bool) {
		n := v.Get(k)
		if n == nil || n.Kind != canonical.Number {
			if n != nil {
				p.loss("loss.validator-keyword", at.Append(k), "%s is not a number (draft-04's boolean form): the model does not check it", k)
			}
			return "", false
		}
		return n.Text(), true
	}
	field := func(pairs ...[2]string) string {
		var args []string
		for _, kv := range pairs {
			if n, ok := num(kv[0]); ok {
				args = append(args, kv[1]+"="+n)
			}
		}
		return strings.Join(args, ", ")
	}
	annotated := func(typ, constraint string) string {
		if constraint == "" {
			return typ
		}
		return "_t.Annotated[" + typ + ", " + constraint + "]"
	}
	switch t {
	case "string":
		args := field([2]string{"minLength", "min_length"}, [2]string{"maxLength", "max_length"})
		if pat, ok := v.Get("pattern").StringValue(); ok {
			if accept.PythonRE(pat) {
				args = strings.TrimPrefix(args+", pattern="+pyString(pat), ", ")
			} else {
				p.loss("loss.validator-keyword", at.Append("pattern"), "Python's re does not read the pattern %q: the model does not check it", pat)
			}
		}
		if args == "" {
			return "str"
		}
		return "_t.Annotated[str, _p.StringConstraints(" + args + ")]"
	case "number", "integer":
		typ := "float"
		if t == "integer" {
			typ = "int"
		}
		args := field([2]string{"minimum", "ge"}, [2]string{"maximum", "le"}, [2]string{"exclusiveMinimum", "gt"}, [2]string{"exclusiveMaximum", "lt"}, [2]string{"multipleOf", "multiple_of"})
		if args == "" {
			return typ
		}
		return annotated(typ, "_p.Field("+args+")")
	case "boolean":
		return "bool"
	case "null":
		return "None"
	case "array":
		items := "_t.Any"
		if it := v.Get("items"); it != nil {
			items = p.typ(it, at.Append("items"), p.scope.name(name+"Item", "_"))
		}
		typ := annotated("list["+items+"]", strings.TrimSuffix("_p.Field("+field([2]string{"minItems", "min_length"}, [2]string{"maxItems", "max_length"})+")", "_p.Field()"))
		if u, _ := v.Get("uniqueItems").BoolValue(); u {
			typ = "_t.Annotated[" + typ + ", _p.BeforeValidator(_unique)]"
		}
		return typ
	case "object":
		return p.class(v, at, name)
	}
	p.loss("loss.validator-keyword", at.Append("type"), "type %q is no JSON type: the model takes any value here", t)
	return "_t.Any"
}

// class declares the model of the object schema v named name, or returns
// a dict type where v declares no property.
func (p *pySchema) class(v *canonical.Value, at canonical.Pointer, name string) string {
	required, _ := v.Get("required").Strings()
	props := v.Get("properties")
	ap := v.Get("additionalProperties")
	closed := ap != nil && ap.Kind == canonical.Bool && !ap.Bool
	if (props == nil || len(props.Members()) == 0) && len(required) == 0 && !closed && name != p.prefix {
		vt := "_t.Any"
		if ap != nil && ap.Kind == canonical.Object {
			vt = p.typ(ap, at.Append("additionalProperties"), p.scope.name(name+"Value", "_"))
		}
		return "dict[str, " + vt + "]"
	}
	type field struct{ name, key, typ, doc string }
	var fields []field
	fs := newScope(pyReserved)
	add := func(key string, s *canonical.Value, sat canonical.Pointer) {
		typ := "_t.Any"
		if s != nil {
			typ = p.typ(s, sat, p.scope.name(name+Pascal(key), "_"))
		}
		want := strings.Trim(strings.Map(func(r rune) rune {
			if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, key), "_")
		if want == "" || want[0] >= '0' && want[0] <= '9' {
			want = "f_" + want
		}
		doc := ""
		if s != nil {
			doc, _ = s.Get("description").StringValue()
		}
		fields = append(fields, field{fs.name(want, "_"), key, typ, doc})
	}
	seen := map[string]bool{}
	if props != nil {
		for _, m := range props.Members() {
			seen[m.Key] = true
			add(m.Key, m.Value, at.Append("properties", m.Key))
		}
	}
	for _, r := range required {
		if !seen[r] {
			seen[r] = true
			add(r, nil, at)
		}
	}
	extra := "allow"
	if closed {
		extra = "forbid"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nclass %s(_p.BaseModel):\n", name)
	if d, ok := v.Get("description").StringValue(); ok {
		pyDoc(&b, "    ", d)
	}
	fmt.Fprintf(&b, "    model_config = _p.ConfigDict(strict=True, extra=%q, regex_engine=\"python-re\", protected_namespaces=())\n", extra)
	if ap != nil && ap.Kind == canonical.Object {
		fmt.Fprintf(&b, "    __pydantic_extra__: dict[str, %s] = _p.Field(init=False)\n", p.typ(ap, at.Append("additionalProperties"), p.scope.name(name+"Value", "_")))
	}
	for _, f := range fields {
		var args []string
		if !slices.Contains(required, f.key) {
			args = append(args, "default_factory=_missing")
		}
		if f.name != f.key {
			args = append(args, "alias="+pyString(f.key))
		}
		if f.doc != "" {
			args = append(args, "description="+pyString(f.doc))
		}
		if len(args) == 0 {
			fmt.Fprintf(&b, "    %s: %s\n", f.name, f.typ)
			continue
		}
		fmt.Fprintf(&b, "    %s: %s = _p.Field(%s)\n", f.name, f.typ, strings.Join(args, ", "))
	}
	if len(fields) == 0 && (ap == nil || ap.Kind != canonical.Object) {
		b.WriteString("    pass\n")
	}
	p.b.WriteString(b.String())
	return name
}

// pyHead is the module's imports.
const pyHead = `
from __future__ import annotations

import typing as _t

import pydantic as _p
`

// pyHelpers are the validators of what no annotation says, each over the
// raw value, in order, with the helpers each needs: a module has those its
// models use.
var pyHelpers = []struct{ name, code string }{
	{"_adapters", `_adapters: dict[_t.Callable[[], _t.Any], _p.TypeAdapter[_t.Any]] = {}`},
	{"_adapter", `def _adapter(t: _t.Callable[[], _t.Any]) -> _p.TypeAdapter[_t.Any]:
    """The adapter of the type t gives, made once: t reads a class declared after it."""
    a = _adapters.get(t)
    if a is None:
        a = _adapters[t] = _p.TypeAdapter(t())
    return a`},
	{"_takes", `def _takes(t: _t.Callable[[], _t.Any], v: _t.Any) -> bool:
    try:
        _adapter(t).validate_python(v)
        return True
    except _p.ValidationError:
        return False`},
	{"_any_of", `def _any_of(*ts: _t.Callable[[], _t.Any]) -> _t.Callable[[_t.Any], _t.Any]:
    def check(v: _t.Any) -> _t.Any:
        if not any(_takes(t, v) for t in ts):
            raise ValueError("matches none of anyOf")
        return v
    return check`},
	{"_one_of", `def _one_of(*ts: _t.Callable[[], _t.Any]) -> _t.Callable[[_t.Any], _t.Any]:
    def check(v: _t.Any) -> _t.Any:
        if sum(1 for t in ts if _takes(t, v)) != 1:
            raise ValueError("matches not exactly one of oneOf")
        return v
    return check`},
	{"_all_of", `def _all_of(*ts: _t.Callable[[], _t.Any]) -> _t.Callable[[_t.Any], _t.Any]:
    def check(v: _t.Any) -> _t.Any:
        if not all(_takes(t, v) for t in ts):
            raise ValueError("does not match every schema of allOf")
        return v
    return check`},
	{"_not", `def _not(t: _t.Callable[[], _t.Any]) -> _t.Callable[[_t.Any], _t.Any]:
    def check(v: _t.Any) -> _t.Any:
        if _takes(t, v):
            raise ValueError("matches the schema of not")
        return v
    return check`},
	{"_never", `def _never(v: _t.Any) -> _t.Any:
    raise ValueError("no value is valid here")`},
	{"_json_key", `def _json_key(v: _t.Any) -> str:
    import json
    return json.dumps(v, sort_keys=True)`},
	{"_unique", `def _unique(v: _t.Any) -> _t.Any:
    if not isinstance(v, list):
        return v
    items = _t.cast(list[_t.Any], v)
    if len({_json_key(x) for x in items}) != len(items):
        raise ValueError("items are not unique")
    return items`},
	{"_missing", `def _missing() -> _t.Any:
    """The value of a property left out: None, which no null sent stands for."""
    return None`},
}

// pyMention marks in used each helper that text names.
func pyMention(text string, used map[string]bool) {
	for _, h := range pyHelpers {
		if !used[h.name] && mentions(text, h.name) {
			used[h.name] = true
		}
	}
}

// pyUsed returns the code of the helpers that used names, and of those
// they use, which it adds to used.
func pyUsed(used map[string]bool) string {
	for changed := true; changed; {
		changed = false
		for _, h := range pyHelpers {
			if used[h.name] {
				n := len(used)
				pyMention(h.code, used)
				changed = changed || len(used) > n
			}
		}
	}
	var b strings.Builder
	for _, h := range pyHelpers {
		if used[h.name] {
			b.WriteString("\n\n" + h.code + "\n")
		}
	}
	return b.String()
}

// Pydantic writes the Pydantic v2 module of the model's tools: per tool
// the model of its input (and output, where it has one), and TOOLS, from
// each tool's emitted name to its input model. The losses are what the
// models do not check.
func (m *Model) Pydantic(header string) (string, []Loss) {
	losses, used := m.PydanticLosses()
	var b strings.Builder
	m.writePydantic(&b, header, used)
	return b.String(), losses
}

// PydanticLosses are what the Pydantic module's models do not check, and
// the helpers it uses: what its text says, found without keeping it.
func (m *Model) PydanticLosses() (losses []Loss, used map[string]bool) {
	used = map[string]bool{}
	losses = m.pydanticBody(func(text string) { pyMention(text, used) })
	return losses, used
}

// WritePydantic writes the Pydantic module to w as it makes it; used are
// the helpers PydanticLosses found.
func (m *Model) WritePydantic(w io.Writer, header string, used map[string]bool) error {
	return buffered(w, func(b sink) {
		m.writePydantic(b, header, used)
	})
}

// writePydantic writes the module: the helpers its models use, then the
// models.
func (m *Model) writePydantic(b sink, header string, used map[string]bool) {
	pyLineComment(b, header)
	b.WriteString("# Code generated by toolc. DO NOT EDIT.\n")
	b.WriteString(pyHead)
	b.WriteString(pyUsed(maps.Clone(used)))
	m.pydanticBody(func(text string) { b.WriteString(text) })
}

// pydanticBody makes the module's models, a tool's schema at a time, and
// gives each to emit; it returns the losses.
func (m *Model) pydanticBody(emit func(string)) []Loss {
	sc := newScope(reservedTypeNames, []string{"TOOLS"})
	for _, t := range m.Tools {
		sc.reserve(t.TypeName + "Input")
		sc.reserve(t.TypeName + "Output")
	}
	var losses []Loss
	var b strings.Builder
	for _, t := range m.Tools {
		src := t.Source
		for _, part := range []struct {
			s    *canonical.Schema
			at   canonical.Pointer
			name string
		}{{src.Input, "/input", t.TypeName + "Input"}, {src.Output, "/output", t.TypeName + "Output"}} {
			if part.s == nil {
				continue
			}
			b.Reset()
			p := &pySchema{tool: src, root: part.s.JSON(), base: part.at, prefix: part.name, scope: sc, names: map[canonical.Pointer]string{}, b: &b}
			p.names[""] = part.name
			root := part.s.JSON()
			if plainObject(root) {
				p.typ(root, "", part.name)
			} else { // a model over the root's type
				typ := p.typ(root, "", p.scope.name(part.name+"Object", "_"))
				fmt.Fprintf(&b, "\n\nclass %s(_p.RootModel[%s]):\n    pass\n", part.name, typ)
			}
			emit(b.String())
			losses = append(losses, p.losses...)
		}
	}
	b.Reset()
	b.WriteString("\n\nTOOLS: dict[str, type[_p.BaseModel]] = {\n")
	for _, t := range m.Tools {
		fmt.Fprintf(&b, "    %s: %s,\n", pyString(t.Name), t.TypeName+"Input")
	}
	b.WriteString("}\n")
	emit(b.String())
	return losses
}

// plainObject reports whether v is an object schema that a model class
// says whole: no combinator, reference, const or enum beside it.
func plainObject(v *canonical.Value) bool {
	if v.Kind != canonical.Object {
		return false
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "$ref", "const", "enum"} {
		if v.Has(k) {
			return false
		}
	}
	t, ok := v.Get("type").StringValue()
	return ok && t == "object"
}

// mentions reports whether text names the identifier name.
func mentions(text, name string) bool {
	ident := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !ident(text[j-1])) && (end == len(text) || !ident(text[end])) {
			return true
		}
		i = end
	}
}
