// Package decode holds what the decoders of every source format share:
// collecting located diagnostics, reading one tool object field by field
// (recording where each canonical field came from and keeping the rest as
// extensions), and the conversion of OpenAPI 3.0 schemas to JSON Schema
// 2020-12 that OpenAPI and Gemini sources both need. It is internal to the
// readers of package formats.
package decode

import (
	"fmt"
	"slices"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Decoder collects the diagnostics of decoding one file.
type Decoder struct {
	File   string // the file's manifest-relative path
	Format string // the format name: the extension key of kept fields
	Diags  []diag.Diagnostic
}

// Report appends a diagnostic located at p in the file.
func (d *Decoder) Report(code string, p canonical.Pointer, format string, args ...any) {
	d.Diags = append(d.Diags, diag.New(code, format, args...).At(d.File, string(p)))
}

// List reads an array of tools at p and decodes each element with one.
func (d *Decoder) List(v *canonical.Value, p canonical.Pointer, one func(*canonical.Value, canonical.Pointer) *canonical.Tool) []*canonical.Tool {
	var tools []*canonical.Tool
	if v.Kind != canonical.Array {
		d.Report("source.invalid", p, "want an array of tools, got %s", v.Kind)
		return nil
	}
	for i, it := range v.Items() {
		if t := one(it, p.Index(i)); t != nil {
			tools = append(tools, t)
		}
	}
	return tools
}

// All decodes the tools of doc with one, wherever the format keeps them: an
// array of tools, an object (a request body or a tools/list result) whose
// listKeys members are arrays of tools, or a single tool object. An object
// with a "name" is a tool, whatever else it holds.
func (d *Decoder) All(doc *canonical.Value, one func(*canonical.Value, canonical.Pointer) *canonical.Tool, listKeys ...string) []*canonical.Tool {
	switch {
	case doc.Kind == canonical.Array:
		return d.List(doc, "", one)
	case doc.Kind == canonical.Object && !doc.Has("name") && slices.ContainsFunc(listKeys, doc.Has):
		var tools []*canonical.Tool
		for _, key := range listKeys {
			if v := doc.Get(key); v != nil {
				tools = append(tools, d.List(v, canonical.Pointer("").Append(key), one)...)
			}
		}
		return tools
	}
	if t := one(doc, ""); t != nil {
		return []*canonical.Tool{t}
	}
	return nil
}

// IgnoreRest warns about the keys of an envelope object that are not in known.
func (d *Decoder) IgnoreRest(v *canonical.Value, p canonical.Pointer, known ...string) {
	for _, m := range v.Members() {
		if !slices.Contains(known, m.Key) {
			d.Report("source.ignored-field", p.Append(m.Key), "field %q is not part of any tool and is not carried into bundles", m.Key)
		}
	}
}

// Fields reads the members of one tool object, records where each canonical
// field came from, and keeps what it does not read as an extension.
type Fields struct {
	D    *Decoder
	Obj  *canonical.Value
	At   canonical.Pointer // the object in the file
	Tool *canonical.Tool
	Used map[string]bool // the keys read
	Bad  bool            // an error was reported: Done returns nil
	// reported holds the pointers already reported as invalid, so that
	// Validate does not report the same field again.
	reported map[canonical.Pointer]bool
}

// NewTool starts reading the tool object v at p (the tool's own pointer in
// the file is toolAt, which differs from p when the tool's fields are nested,
// as in OpenAI's {"type":"function","function":{…}}). It returns nil when v
// is not an object.
func (d *Decoder) NewTool(v *canonical.Value, p, toolAt canonical.Pointer) *Fields {
	if v.Kind != canonical.Object {
		d.Report("source.invalid", p, "want a tool object, got %s", v.Kind)
		if last := &d.Diags[len(d.Diags)-1]; last.Line == 0 && v.Pos.IsValid() {
			last.Line, last.Column = int(v.Pos.Line), int(v.Pos.Column) // the document itself has no pointer to place it by
		}
		return nil
	}
	return &Fields{D: d, Obj: v, At: p, Used: map[string]bool{}, reported: map[canonical.Pointer]bool{}, Tool: &canonical.Tool{
		Source: canonical.Source{File: d.File, Format: d.Format, Pointer: toolAt, Fields: map[canonical.Pointer]canonical.Pointer{}},
	}}
}

// NamedTool starts reading the tool object v at p, as NewTool does, and
// reads the name and description that every tool format but OpenAPI
// keeps under "name" and "description". It returns nil when v is not an
// object.
func (d *Decoder) NamedTool(v *canonical.Value, p, toolAt canonical.Pointer) *Fields {
	f := d.NewTool(v, p, toolAt)
	if f != nil {
		f.Tool.Name = f.String("name", "/name")
		f.Tool.Description = f.String("description", "/description")
	}
	return f
}

// Take returns the value of key and marks it read; field is the canonical
// pointer it becomes ("" for none).
func (f *Fields) Take(key string, field canonical.Pointer) *canonical.Value {
	f.Used[key] = true
	v := f.Obj.Get(key)
	if v != nil && field != "" {
		f.Tool.Source.Fields[field] = f.At.Append(key)
	}
	return v
}

// Invalid reports the value of key as invalid input: the tool is dropped.
func (f *Fields) Invalid(key, format string, args ...any) {
	f.Bad = true
	f.reported[f.At.Append(key)] = true
	f.D.Report("source.invalid", f.At.Append(key), format, args...)
}

// String reads a string-valued key; field is the canonical pointer it
// becomes.
func (f *Fields) String(key string, field canonical.Pointer) string {
	v := f.Take(key, field)
	if v == nil {
		return ""
	}
	s, ok := v.StringValue()
	if !ok {
		f.Invalid(key, "%q must be a string, got %s", key, v.Kind)
	}
	return s
}

// Schema reads a schema-valued key: a JSON object or boolean.
func (f *Fields) Schema(key string, field canonical.Pointer) *canonical.Schema {
	v := f.Take(key, field)
	if v == nil {
		return nil
	}
	if v.Kind == canonical.Null {
		f.Bad = true
		f.reported[f.At.Append(key)] = true
		f.D.Diags = append(f.D.Diags, diag.New("schema.not-object", "%q is null; a tool without parameters has {\"type\": \"object\", \"additionalProperties\": false}", key).
			At(f.D.File, string(f.At.Append(key))).WithFix(`write {"type": "object", "additionalProperties": false}`))
		return nil
	}
	if v.Kind != canonical.Object && v.Kind != canonical.Bool {
		f.Invalid(key, "%q must be a JSON Schema (an object), got %s", key, v.Kind)
		return nil
	}
	return canonical.AsSchema(v)
}

// Typed reads key, which must hold a JSON value of kind; it returns nil when
// the key is absent or has another kind (reported).
func (f *Fields) Typed(key string, field canonical.Pointer, kind canonical.Kind) *canonical.Value {
	v := f.Take(key, field)
	if v == nil {
		return nil
	}
	if v.Kind != kind {
		f.Invalid(key, "%q must be an %s, got %s", key, kind, v.Kind)
		return nil
	}
	return v
}

// Keep keeps v, the value of key, as an extension of the tool's format.
func (f *Fields) Keep(key string, v *canonical.Value) {
	t := f.Tool
	if t.Extensions == nil {
		t.Extensions = map[string]*canonical.Value{}
	}
	ext := t.Extensions[f.D.Format]
	if ext == nil {
		ext = canonical.NewObject()
		t.Extensions[f.D.Format] = ext
	}
	ext.Set(key, v)
	t.Source.Fields[canonical.Pointer("").Append("extensions", f.D.Format, key)] = f.At.Append(key)
}

// Rest keeps every key not read so far as an extension, in source order.
func (f *Fields) Rest() {
	for _, m := range f.Obj.Members() {
		if !f.Used[m.Key] {
			f.Used[m.Key] = true
			f.Keep(m.Key, m.Value)
		}
	}
}

// Annotations reads MCP tool annotations.
func (f *Fields) Annotations(key string) *canonical.Annotations {
	v := f.Typed(key, "/annotations", canonical.Object)
	if v == nil {
		return nil
	}
	a := &canonical.Annotations{}
	for _, m := range v.Members() {
		switch h := a.Hint(m.Key); {
		case m.Key == "title":
			s, ok := m.Value.StringValue()
			if !ok {
				f.Invalid(key, "annotations.title must be a string, got %s", m.Value.Kind)
			}
			a.Title = s
		case h != nil:
			b, ok := m.Value.BoolValue()
			if !ok {
				f.Invalid(key, "annotations.%s must be a boolean, got %s", m.Key, m.Value.Kind)
				continue
			}
			*h = &b
		default:
			a.Extra = append(a.Extra, m)
		}
	}
	return a
}

// Icons reads MCP icons.
func (f *Fields) Icons(key string) []canonical.Icon {
	v := f.Typed(key, "/icons", canonical.Array)
	if v == nil {
		return nil
	}
	var icons []canonical.Icon
	for i, it := range v.Items() {
		p := f.At.Append(key).Index(i)
		if it.Kind != canonical.Object {
			f.Bad = true
			f.D.Report("source.invalid", p, "an icon must be an object, got %s", it.Kind)
			continue
		}
		var ic canonical.Icon
		for _, m := range it.Members() {
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
				f.D.Report("source.ignored-field", p.Append(m.Key), "icon field %q is not part of MCP icons and is not carried into bundles", m.Key)
				ok = true
			}
			if !ok {
				f.Bad = true
				f.D.Report("source.invalid", p.Append(m.Key), "icon field %q has the wrong type (%s)", m.Key, m.Value.Kind)
			}
		}
		if ic.Src == "" {
			f.Bad = true
			f.D.Report("source.invalid", p, "an icon needs \"src\"")
		}
		icons = append(icons, ic)
	}
	return icons
}

// Examples reads an array of input examples.
func (f *Fields) Examples(key string) []*canonical.Value {
	v := f.Typed(key, "/examples", canonical.Array)
	if v == nil {
		return nil
	}
	return v.Items()
}

// Done checks the tool as the canonical form requires and returns it, or nil
// when it has errors. Whether the schemas are object schemas is not checked
// here: a repair may still make them so (the compiler checks after repair,
// Convert checks right after decoding). A tool without an input schema at all
// is dropped, since no stage could give it one.
func (f *Fields) Done() *canonical.Tool {
	t := f.Tool
	for _, e := range t.Validate() {
		if e.NotObj && !e.Missing {
			continue
		}
		f.Bad = true
		p := t.Source.Locate(e.Pointer)
		if f.reported[p] {
			continue
		}
		code := "source.invalid"
		if e.NotObj {
			code = "schema.not-object"
		}
		f.D.Report(code, p, "tool %s: %s", describe(t), e.Msg)
	}
	if f.Bad {
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

// Strings reads an array of strings.
func (f *Fields) Strings(key string, field canonical.Pointer) []string {
	v := f.Typed(key, field, canonical.Array)
	if v == nil {
		return nil
	}
	ss, ok := v.Strings()
	if !ok {
		f.Invalid(key, "%q must be an array of strings", key)
	}
	return ss
}

// Lifecycle checks the tool's sunset date and former ID.
func (f *Fields) Lifecycle() {
	t := f.Tool
	if t.Sunset != "" {
		if _, err := time.Parse(time.DateOnly, t.Sunset); err != nil {
			f.Invalid("sunset", "sunset %q is not a date such as \"2027-01-31\"", t.Sunset)
		}
	}
	if t.RenamedFrom != "" {
		if _, _, err := canonical.ParseID(t.RenamedFrom); err != nil {
			f.Invalid("renamed_from", "renamed_from: %v", err)
		}
	}
}

// UsedKeys lists the keys read so far.
func (f *Fields) UsedKeys() []string {
	var keys []string
	for k := range f.Used {
		keys = append(keys, k)
	}
	return keys
}

// Members returns the members of an object, or nil for anything else.
func Members(v *canonical.Value) []canonical.Member {
	if v == nil || v.Kind != canonical.Object {
		return nil
	}
	return v.Members()
}
