package validate

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolc-dev/toolc/canonical"
)

// The full check hands a whole schema to jsonschema, which validates it
// against the dialect's meta-schema and compiles it; checkValues then
// validates every default, const, enum and examples value against its
// schema. That costs about 250 µs per schema whatever its content, so a
// catalog of distinct schemas (every real one) pays it for each tool.
//
// quick proves the same result node by node, with the same library, the
// same meta-schema and the same regexp engine, caching by what decides it:
//
//   - The meta-schema checks each subschema on its own ($dynamicRef "#meta"
//     in 2020-12, $ref "#" before): a schema passes when each of its nodes
//     passes with its subschemas standing as {}. A node's shallow form is
//     that node with what the meta-schema does not look at erased — the
//     text of title, description and $comment (it asks only for a string),
//     the names of properties, $defs, definitions, dependentSchemas and
//     dependencies (it asks nothing of them), the strings of required (it
//     asks for distinct strings, so equal ones stay equal) — and a shallow
//     form that passed once passes again. Real catalogs repeat a few
//     hundred such forms across thousands of tools.
//   - A node with default, const, enum or examples is compiled on its own,
//     without its annotations, when nothing under it refers elsewhere, and
//     its values validated against it; compiled forms are cached too, and
//     so is each proof, by the form and the values.
//   - Compilation fails, for a schema the meta-schema passes, only on
//     identifiers, anchors, references and regular expressions: quick
//     declines schemas with identifiers or anchors, requires every $ref to
//     point at one of the schema's own nodes, and compiles every pattern.
//
// quick only ever answers "nothing to report" or "not proven": anything it
// does not prove (an invalid node, a value that fails, an identifier) goes to
// the full check, which writes the messages. FuzzQuick and
// TestQuickAgreesOnCorpus hold it to that.

// forbidden are the keywords that make quick decline a schema: identifiers,
// anchors, dynamic references and vocabularies, whose meaning depends on
// more than one node.
var forbidden = map[string]bool{
	"$id": true, "$anchor": true, "$dynamicAnchor": true, "$dynamicRef": true,
	"$recursiveAnchor": true, "$recursiveRef": true, "$vocabulary": true,
}

// renamed are the applicators whose member names the meta-schema does not
// constrain (patternProperties' names must be regular expressions).
var renamed = map[string]bool{
	"properties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true,
}

// annotations are the keywords that assert nothing about a value: they are
// left out of the forms compiled for checking values.
var annotations = map[string]bool{
	"title": true, "description": true, "$comment": true, "default": true,
	"examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// shapes caches what quick proved, keyed by the dialect and a form.
type shapes struct {
	valid    cache[bool]               // shallow form → it passes the meta-schema
	compiled cache[*jsonschema.Schema] // value-checking form → compiled
	values   cache[bool]               // value-checking form and values → the values are valid
}

// cache is a map that the workers share.
type cache[T any] struct {
	mu sync.RWMutex
	m  map[string]T
}

func (c *cache[T]) get(key []byte) T {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[string(key)]
}

func (c *cache[T]) put(key []byte, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]T{}
	}
	c.m[string(key)] = v
}

// metaSchemas holds each dialect's meta-schema, compiled as jsonschema
// compiles it for its own check: formats asserted, with toolc's regexp
// engine for "regex".
var metaSchemas sync.Map // *jsonschema.Draft → *jsonschema.Schema

func metaSchema(d *jsonschema.Draft) (*jsonschema.Schema, bool) {
	if m, ok := metaSchemas.Load(d); ok {
		return m.(*jsonschema.Schema), true
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(lenientRegexp)
	c.UseLoader(refuse{}) // the meta-schemas are built in: nothing is read
	m, err := c.Compile(d.String())
	if err != nil {
		return nil, false
	}
	metaSchemas.Store(d, m)
	return m, true
}

// quick reports whether the full check of s, whose references checkRefs
// found all local and resolved, would find nothing.
func (v *Validator) quick(s *canonical.Schema, draft *jsonschema.Draft) bool {
	meta, ok := metaSchema(draft)
	if !ok {
		return false
	}
	q := quickRun{v: v, draft: draft, meta: meta, root: s}
	if _, ok := q.node(s, true); !ok {
		return false
	}
	return q.refsLanded()
}

type quickRun struct {
	v       *Validator
	draft   *jsonschema.Draft
	meta    *jsonschema.Schema
	root    *canonical.Schema
	buf     []byte
	scratch []*canonical.Value
	refs    []string // every $ref's value
	all     []*canonical.Value
}

// node proves s and everything under it; it reports whether a $ref sits
// at or under s.
func (q *quickRun) node(s *canonical.Schema, root bool) (hasRef, ok bool) {
	q.all = append(q.all, s.JSON())
	if !s.IsObject() {
		return false, q.shallow(s)
	}
	for _, m := range s.JSON().Members() {
		switch {
		case forbidden[m.Key], m.Key == "$schema" && !root, m.Key == "id" && q.draft == jsonschema.Draft4:
			return false, false
		case m.Key == "$ref":
			ref, isString := m.Value.StringValue()
			if !isString {
				return false, false
			}
			q.refs = append(q.refs, ref)
			hasRef = true
		case m.Key == "pattern" && m.Value.Kind == canonical.String:
			if _, err := lenientRegexp(m.Value.Text()); err != nil {
				return false, false
			}
		case m.Key == "patternProperties" && m.Value.Kind == canonical.Object:
			for _, p := range m.Value.Members() {
				if _, err := lenientRegexp(p.Key); err != nil {
					return false, false
				}
			}
		}
	}
	ok = true
	s.EachSubschema(func(_ canonical.Step, sub *canonical.Schema) bool {
		r, subOK := q.node(sub, false)
		hasRef, ok = hasRef || r, subOK
		return ok
	})
	if !ok || !q.shallow(s) {
		return hasRef, false
	}
	return hasRef, q.values(s, hasRef)
}

// shallow proves that s's shallow form passes the meta-schema.
func (q *quickRun) shallow(s *canonical.Schema) bool {
	q.buf, q.scratch = appendShallow(append(q.buf[:0], q.draft.String()...), s, q.scratch)
	key := q.buf
	if q.v.shapes.valid.get(key) {
		return true
	}
	doc, ok := decodeAny(key[len(q.draft.String()):])
	if !ok || q.meta.Validate(doc) != nil {
		return false
	}
	q.v.shapes.valid.put(key, true)
	return true
}

// values proves that each default, const, enum and examples value of s is
// valid against s. The node's value-checking form and its values decide
// the answer, so a proof is kept by both: schemas that differ only in
// their text and names (most of a real catalog) share their enums and
// defaults, and validating them again was most of what quick cost.
func (q *quickRun) values(s *canonical.Schema, hasRef bool) bool {
	var vals [len(valueKeywords)]*canonical.Value
	found := false
	for i, vk := range valueKeywords {
		vals[i] = valueOf(s, vk)
		found = found || vals[i] != nil
	}
	if !found {
		return true
	}
	if hasRef {
		return false // it needs the rest of the schema: the full check does it
	}
	q.buf = appendValuesForm(append(q.buf[:0], q.draft.String()...), s)
	form := len(q.buf)
	for i, val := range vals {
		if val != nil {
			q.buf = append(canonical.AppendString(append(q.buf, 0), valueKeywords[i].keyword), ':')
			q.buf = val.AppendJSON(q.buf, "")
		}
	}
	proof, key := q.buf, q.buf[:form]
	if q.v.shapes.values.get(proof) {
		return true
	}
	sch := q.v.shapes.compiled.get(key)
	if sch == nil {
		doc, ok := decodeAny(key[len(q.draft.String()):])
		if !ok {
			return false
		}
		if sch = q.compileAlone(doc); sch == nil {
			return false
		}
		q.v.shapes.compiled.put(key, sch)
	}
	for i, val := range vals {
		if val == nil {
			continue
		}
		items := []*canonical.Value{val}
		if valueKeywords[i].list {
			items = val.Items()
		}
		against := sch
		if valueKeywords[i].keyword == "enum" && len(items) > bigEnum {
			if against = q.withoutEnum(key); against == nil {
				return false
			}
		}
		for _, it := range items {
			if against.Validate(ToAny(it)) != nil {
				return false
			}
		}
	}
	q.v.shapes.values.put(proof, true)
	return true
}

// withoutEnum compiles the node of value-checking form key without its
// enum, for the enum's own values (checkValues says why); nil when it
// cannot.
func (q *quickRun) withoutEnum(key []byte) *jsonschema.Schema {
	noEnumKey := append(append([]byte(nil), key...), "\x00without enum"...)
	if sch := q.v.shapes.compiled.get(noEnumKey); sch != nil {
		return sch
	}
	doc, ok := decodeAny(key[len(q.draft.String()):])
	m, isMap := doc.(map[string]any)
	if !ok || !isMap {
		return nil
	}
	delete(m, "enum")
	sch := q.compileAlone(m)
	if sch != nil {
		q.v.shapes.compiled.put(noEnumKey, sch)
	}
	return sch
}

// compileAlone compiles doc, one node's value-checking form, as a schema
// of its own in the run's draft; nil when it does not compile.
func (q *quickRun) compileAlone(doc any) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(q.draft)
	c.UseRegexpEngine(lenientRegexp)
	c.UseLoader(refuse{})
	if err := c.AddResource(baseURL, doc); err != nil {
		return nil
	}
	sch, err := c.Compile(baseURL)
	if err != nil {
		return nil
	}
	return sch
}

// refsLanded reports whether every $ref points at a node of the schema, so
// that jsonschema compiles it as a subschema quick has already proved.
func (q *quickRun) refsLanded() bool {
	if len(q.refs) == 0 {
		return true
	}
	nodes := make(map[*canonical.Value]struct{}, len(q.all))
	for _, n := range q.all {
		nodes[n] = struct{}{}
	}
	for _, ref := range q.refs {
		u, err := url.Parse(ref)
		if err != nil || ref == "" || ref[0] != '#' {
			return false
		}
		if u.Fragment != "" && u.Fragment[0] != '/' {
			return false
		}
		target := q.root.JSON().Resolve(canonical.Pointer(u.Fragment))
		if _, ok := nodes[target]; !ok {
			return false
		}
	}
	return true
}

// subs walks a node's direct subschemas in the order EachSubschema yields
// them, which is the order of the node's members and of their items: a
// writer going through the members meets them one after the other.
type subs struct {
	list []*canonical.Value
	next int
}

func subsOf(s *canonical.Schema, list []*canonical.Value) subs {
	list = list[:0]
	s.EachSubschema(func(_ canonical.Step, sub *canonical.Schema) bool {
		list = append(list, sub.JSON())
		return true
	})
	return subs{list: list}
}

// is reports whether v is the next subschema, and moves past it.
func (c *subs) is(v *canonical.Value) bool {
	if c.next < len(c.list) && c.list[c.next] == v {
		c.next++
		return true
	}
	return false
}

// appendShallow appends s's shallow form: its subschemas as {}, the text
// of its annotations as "", the names under renamed applicators as their
// position and the strings of required as the position of their first
// occurrence. scratch is reused for the list of subschemas.
func appendShallow(b []byte, s *canonical.Schema, scratch []*canonical.Value) ([]byte, []*canonical.Value) {
	if !s.IsObject() {
		return s.JSON().AppendJSON(b, ""), scratch
	}
	sub := subsOf(s, scratch)
	b = append(b, '{')
	for i, m := range s.JSON().Members() {
		if i > 0 {
			b = append(b, ',')
		}
		b = canonical.AppendString(b, m.Key)
		b = append(b, ':')
		v := m.Value
		switch {
		case (m.Key == "title" || m.Key == "description" || m.Key == "$comment") && v.Kind == canonical.String:
			b = append(b, `""`...)
		case m.Key == "required" && v.Kind == canonical.Array:
			b = appendRequired(b, v)
		case canonical.IsApplicator(m.Key):
			b = appendHolder(b, v, &sub, renamed[m.Key], func(b []byte, _ *canonical.Value) []byte { return append(b, "{}"...) })
		default:
			b = v.AppendJSON(b, "")
		}
	}
	return append(b, '}'), sub.list
}

// appendRequired appends required with each string as the position of its
// first occurrence: equal names stay equal, distinct ones distinct.
func appendRequired(b []byte, v *canonical.Value) []byte {
	b = append(b, '[')
	for j, it := range v.Items() {
		if j > 0 {
			b = append(b, ',')
		}
		if it.Kind != canonical.String {
			b = it.AppendJSON(b, "")
			continue
		}
		first := j
		for k := range j {
			if v.Items()[k].Kind == canonical.String && v.Items()[k].Text() == it.Text() {
				first = k
				break
			}
		}
		b = canonical.AppendString(b, strconv.Itoa(first))
	}
	return append(b, ']')
}

// appendHolder appends an applicator's value, writing each of its
// subschemas with sub; with rename, an object's member names are written
// as their position.
func appendHolder(b []byte, v *canonical.Value, c *subs, rename bool, sub func([]byte, *canonical.Value) []byte) []byte {
	switch {
	case c.is(v):
		return sub(b, v)
	case v.Kind == canonical.Array:
		b = append(b, '[')
		for i, it := range v.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			if c.is(it) {
				b = sub(b, it)
			} else {
				b = it.AppendJSON(b, "")
			}
		}
		return append(b, ']')
	case v.Kind == canonical.Object:
		b = append(b, '{')
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',')
			}
			if rename {
				b = canonical.AppendString(b, strconv.Itoa(i))
			} else {
				b = canonical.AppendString(b, m.Key)
			}
			b = append(b, ':')
			if c.is(m.Value) {
				b = sub(b, m.Value)
			} else {
				b = m.Value.AppendJSON(b, "")
			}
		}
		return append(b, '}')
	}
	return v.AppendJSON(b, "")
}

// appendValuesForm appends s whole, without the annotations of any of its
// nodes: what validating a value against s depends on.
func appendValuesForm(b []byte, s *canonical.Schema) []byte {
	if !s.IsObject() {
		return s.JSON().AppendJSON(b, "")
	}
	sub := subsOf(s, nil)
	b = append(b, '{')
	n := 0
	for _, m := range s.JSON().Members() {
		if annotations[m.Key] {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = canonical.AppendString(b, m.Key)
		b = append(b, ':')
		if canonical.IsApplicator(m.Key) {
			b = appendHolder(b, m.Value, &sub, false, func(b []byte, v *canonical.Value) []byte { return appendValuesForm(b, canonical.AsSchema(v)) })
		} else {
			b = m.Value.AppendJSON(b, "")
		}
	}
	return append(b, '}')
}

// decodeAny decodes JSON into the any form jsonschema validates.
func decodeAny(data []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, false
	}
	return doc, true
}
