package adapters

import (
	"fmt"
	"slices"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// decoder collects the diagnostics of decoding one file.
type decoder struct {
	file   string
	format string
	diags  []diag.Diagnostic
}

func (d *decoder) report(code string, p canonical.Pointer, format string, args ...any) {
	d.diags = append(d.diags, diag.New(code, format, args...).At(d.file, string(p)))
}

// list reads an array of tools at p and decodes each element with one.
func (d *decoder) list(v *canonical.Value, p canonical.Pointer, one func(*canonical.Value, canonical.Pointer) *canonical.Tool) []*canonical.Tool {
	var tools []*canonical.Tool
	if v.Kind != canonical.Array {
		d.report("source.invalid", p, "want an array of tools, got %s", v.Kind)
		return nil
	}
	for i, it := range v.Items {
		if t := one(it, p.Index(i)); t != nil {
			tools = append(tools, t)
		}
	}
	return tools
}

// all decodes the tools of doc with one, wherever the format keeps them: an
// array of tools, an object (a request body or a tools/list result) whose
// listKeys members are arrays of tools, or a single tool object. An object
// with a "name" is a tool, whatever else it holds.
func (d *decoder) all(doc *canonical.Value, one func(*canonical.Value, canonical.Pointer) *canonical.Tool, listKeys ...string) []*canonical.Tool {
	switch {
	case doc.Kind == canonical.Array:
		return d.list(doc, "", one)
	case doc.Kind == canonical.Object && !doc.Has("name") && slices.ContainsFunc(listKeys, doc.Has):
		var tools []*canonical.Tool
		for _, key := range listKeys {
			if v := doc.Get(key); v != nil {
				tools = append(tools, d.list(v, canonical.Pointer("").Append(key), one)...)
			}
		}
		return tools
	}
	if t := one(doc, ""); t != nil {
		return []*canonical.Tool{t}
	}
	return nil
}

// ignoreRest warns about the keys of an envelope object that are not in known.
func (d *decoder) ignoreRest(v *canonical.Value, p canonical.Pointer, known ...string) {
	for _, m := range v.Members {
		if !slices.Contains(known, m.Key) {
			d.report("source.ignored-field", p.Append(m.Key), "field %q is not part of any tool and is not carried into bundles", m.Key)
		}
	}
}

// fields reads the members of one tool object, records where each canonical
// field came from, and keeps what it does not read as an extension.
type fields struct {
	d    *decoder
	obj  *canonical.Value
	at   canonical.Pointer // the object in the file
	tool *canonical.Tool
	used map[string]bool
	bad  bool
	// reported holds the pointers already reported as invalid, so that
	// Validate does not report the same field again.
	reported map[canonical.Pointer]bool
}

// newTool starts reading the tool object v at p (the tool's own pointer in
// the file is toolAt, which differs from p when the tool's fields are nested,
// as in OpenAI's {"type":"function","function":{…}}). It returns nil when v
// is not an object.
func (d *decoder) newTool(v *canonical.Value, p, toolAt canonical.Pointer) *fields {
	if v.Kind != canonical.Object {
		d.report("source.invalid", p, "want a tool object, got %s", v.Kind)
		return nil
	}
	return &fields{d: d, obj: v, at: p, used: map[string]bool{}, reported: map[canonical.Pointer]bool{}, tool: &canonical.Tool{
		Source: canonical.Source{File: d.file, Format: d.format, Pointer: toolAt, Fields: map[canonical.Pointer]canonical.Pointer{}},
	}}
}

// take returns the value of key and marks it read; field is the canonical
// pointer it becomes ("" for none).
func (f *fields) take(key string, field canonical.Pointer) *canonical.Value {
	f.used[key] = true
	v := f.obj.Get(key)
	if v != nil && field != "" {
		f.tool.Source.Fields[field] = f.at.Append(key)
	}
	return v
}

func (f *fields) invalid(key, format string, args ...any) {
	f.bad = true
	f.reported[f.at.Append(key)] = true
	f.d.report("source.invalid", f.at.Append(key), format, args...)
}

func (f *fields) string(key string, field canonical.Pointer) string {
	v := f.take(key, field)
	if v == nil {
		return ""
	}
	s, ok := v.StringValue()
	if !ok {
		f.invalid(key, "%q must be a string, got %s", key, v.Kind)
	}
	return s
}

// schema reads a schema-valued key: a JSON object or boolean.
func (f *fields) schema(key string, field canonical.Pointer) *canonical.Schema {
	v := f.take(key, field)
	if v == nil {
		return nil
	}
	if v.Kind == canonical.Null {
		f.bad = true
		f.reported[f.at.Append(key)] = true
		f.d.diags = append(f.d.diags, diag.New("schema.not-object", "%q is null; a tool without parameters has {\"type\": \"object\", \"additionalProperties\": false}", key).
			At(f.d.file, string(f.at.Append(key))).WithFix(`write {"type": "object", "additionalProperties": false}`))
		return nil
	}
	if v.Kind != canonical.Object && v.Kind != canonical.Bool {
		f.invalid(key, "%q must be a JSON Schema (an object), got %s", key, v.Kind)
		return nil
	}
	return canonical.AsSchema(v)
}

// typed reads key, which must hold a JSON value of kind; it returns nil when
// the key is absent or has another kind (reported).
func (f *fields) typed(key string, field canonical.Pointer, kind canonical.Kind) *canonical.Value {
	v := f.take(key, field)
	if v == nil {
		return nil
	}
	if v.Kind != kind {
		f.invalid(key, "%q must be an %s, got %s", key, kind, v.Kind)
		return nil
	}
	return v
}

func (f *fields) keep(key string, v *canonical.Value) {
	t := f.tool
	if t.Extensions == nil {
		t.Extensions = map[string]*canonical.Value{}
	}
	ext := t.Extensions[f.d.format]
	if ext == nil {
		ext = canonical.NewObject()
		t.Extensions[f.d.format] = ext
	}
	ext.Set(key, v)
	t.Source.Fields[canonical.Pointer("").Append("extensions", f.d.format, key)] = f.at.Append(key)
}

// rest keeps every key not read so far as an extension, in source order.
func (f *fields) rest() {
	for _, m := range f.obj.Members {
		if !f.used[m.Key] {
			f.used[m.Key] = true
			f.keep(m.Key, m.Value)
		}
	}
}

// annotations reads MCP tool annotations.
func (f *fields) annotations(key string) *canonical.Annotations {
	v := f.typed(key, "/annotations", canonical.Object)
	if v == nil {
		return nil
	}
	a := &canonical.Annotations{}
	hints := map[string]**bool{
		"readOnlyHint": &a.ReadOnlyHint, "destructiveHint": &a.DestructiveHint,
		"idempotentHint": &a.IdempotentHint, "openWorldHint": &a.OpenWorldHint,
	}
	for _, m := range v.Members {
		switch h, isHint := hints[m.Key]; {
		case m.Key == "title":
			s, ok := m.Value.StringValue()
			if !ok {
				f.invalid(key, "annotations.title must be a string, got %s", m.Value.Kind)
			}
			a.Title = s
		case isHint:
			b, ok := m.Value.BoolValue()
			if !ok {
				f.invalid(key, "annotations.%s must be a boolean, got %s", m.Key, m.Value.Kind)
				continue
			}
			*h = &b
		default:
			a.Extra = append(a.Extra, m)
		}
	}
	return a
}

// icons reads MCP icons.
func (f *fields) icons(key string) []canonical.Icon {
	v := f.typed(key, "/icons", canonical.Array)
	if v == nil {
		return nil
	}
	var icons []canonical.Icon
	for i, it := range v.Items {
		p := f.at.Append(key).Index(i)
		if it.Kind != canonical.Object {
			f.bad = true
			f.d.report("source.invalid", p, "an icon must be an object, got %s", it.Kind)
			continue
		}
		var ic canonical.Icon
		for _, m := range it.Members {
			var ok bool
			switch m.Key {
			case "src":
				ic.Src, ok = m.Value.StringValue()
			case "mimeType":
				ic.MIMEType, ok = m.Value.StringValue()
			case "theme":
				ic.Theme, ok = m.Value.StringValue()
			case "sizes":
				ic.Sizes, ok = m.Value.Strings()
			default:
				f.d.report("source.ignored-field", p.Append(m.Key), "icon field %q is not part of MCP icons and is not carried into bundles", m.Key)
				ok = true
			}
			if !ok {
				f.bad = true
				f.d.report("source.invalid", p.Append(m.Key), "icon field %q has the wrong type (%s)", m.Key, m.Value.Kind)
			}
		}
		if ic.Src == "" {
			f.bad = true
			f.d.report("source.invalid", p, "an icon needs \"src\"")
		}
		icons = append(icons, ic)
	}
	return icons
}

// examples reads an array of input examples.
func (f *fields) examples(key string) []*canonical.Value {
	v := f.typed(key, "/examples", canonical.Array)
	if v == nil {
		return nil
	}
	return v.Items
}

// done checks the tool as the canonical form requires and returns it, or nil
// when it has errors. Whether the schemas are object schemas is not checked
// here: a repair may still make them so (the compiler checks after repair,
// Convert checks right after decoding). A tool without an input schema at all
// is dropped, since no stage could give it one.
func (f *fields) done() *canonical.Tool {
	t := f.tool
	for _, e := range t.Validate() {
		if e.NotObj && !e.Missing {
			continue
		}
		f.bad = true
		p := t.Source.Locate(e.Pointer)
		if f.reported[p] {
			continue
		}
		code := "source.invalid"
		if e.NotObj {
			code = "schema.not-object"
		}
		f.d.report(code, p, "tool %s: %s", describe(t), e.Msg)
	}
	if f.bad {
		return nil
	}
	return t
}

func describe(t *canonical.Tool) string {
	if t.Name == "" {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q", t.Name)
}

// strings reads an array of strings.
func (f *fields) strings(key string, field canonical.Pointer) []string {
	v := f.typed(key, field, canonical.Array)
	if v == nil {
		return nil
	}
	ss, ok := v.Strings()
	if !ok {
		f.invalid(key, "%q must be an array of strings", key)
	}
	return ss
}

// lifecycle checks the tool's sunset date and former ID.
func (f *fields) lifecycle() {
	t := f.tool
	if t.Sunset != "" {
		if _, err := time.Parse(time.DateOnly, t.Sunset); err != nil {
			f.invalid("sunset", "sunset %q is not a date such as \"2027-01-31\"", t.Sunset)
		}
	}
	if t.RenamedFrom != "" {
		if _, _, err := canonical.ParseID(t.RenamedFrom); err != nil {
			f.invalid("renamed_from", "renamed_from: %v", err)
		}
	}
}

// usedKeys lists the keys read so far.
func (f *fields) usedKeys() []string {
	var keys []string
	for k := range f.used {
		keys = append(keys, k)
	}
	return keys
}
