package adapters

import (
	"time"

	"github.com/toolc-dev/toolc/adapters/internal/decode"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/profile"
)

// CanonicalMarker is the value of the "toolc" member that marks a canonical
// bundle.
const CanonicalMarker = "canonical"

// Canonical returns the adapter of toolc's own canonical bundle:
// {"toolc": "canonical", "version": 1, "catalog": {name, version}, "tools":
// [...]}, each tool in its canonical JSON form (canonical.Tool.ToValue). It
// is lossless: every field of every tool is kept, format-specific fields
// under "extensions", so a canonical bundle reads back as the same catalog.
func Canonical() *Adapter {
	return &Adapter{
		Name:    "canonical",
		Detect:  detectCanonical,
		Decode:  decodeCanonical,
		Encode:  encodeCanonical,
		Profile: profileOf("canonical"),
	}
}

func encodeCanonical(tools []*canonical.Tool, opts profile.Options) *canonical.Value {
	b := canonical.NewObject()
	b.Set("toolc", canonical.NewString(CanonicalMarker))
	b.Set("version", canonical.NewNumber("1"))
	if cat := catalogValue(opts.Catalog); cat != nil {
		b.Set("catalog", cat)
	}
	list := canonical.NewArray()
	for _, t := range tools {
		list.Items = append(list.Items, t.ToValue())
	}
	b.Set("tools", list)
	return b
}

// catalogValue is {name, version} of a catalog, or nil when both are empty.
func catalogValue(c Catalog) *canonical.Value {
	if c.Name == "" && c.Version == "" {
		return nil
	}
	o := canonical.NewObject()
	if c.Name != "" {
		o.Set("name", canonical.NewString(c.Name))
	}
	if c.Version != "" {
		o.Set("version", canonical.NewString(c.Version))
	}
	return o
}

func detectCanonical(doc *canonical.Value) float64 {
	if s, ok := doc.Get("toolc").StringValue(); ok && s == CanonicalMarker && doc.Kind == canonical.Object {
		return 1
	}
	return 0
}

func decodeCanonical(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "canonical"}}
	if doc.Kind != canonical.Object || detectCanonical(doc) == 0 {
		d.Report("source.invalid", "", `a canonical bundle is an object with "toolc": %q`, CanonicalMarker)
		return nil, d.Diags
	}
	if v := doc.Get("version"); v == nil || v.Kind != canonical.Number || v.Text != "1" {
		d.Report("source.invalid", "/version", "a canonical bundle needs \"version\": 1, the version this toolc reads")
		return nil, d.Diags
	}
	d.IgnoreRest(doc, "", "toolc", "version", "catalog", "tools")
	tools := doc.Get("tools")
	if tools == nil {
		return nil, d.Diags
	}
	return d.List(tools, "/tools", d.canonicalTool), d.Diags
}

func (d *decoder) canonicalTool(v *canonical.Value, p canonical.Pointer) *canonical.Tool {
	f := d.NamedTool(v, p, p)
	if f == nil {
		return nil
	}
	t := f.Tool
	t.Namespace = f.String("namespace", "/namespace")
	t.Title = f.String("title", "/title")
	t.Version = f.String("version", "/version")
	t.Category = f.String("category", "/category")
	t.Tags = f.Strings("tags", "/tags")
	t.Input = f.Schema("input", "/input")
	t.Output = f.Schema("output", "/output")
	t.Annotations = f.Annotations("annotations")
	t.Examples = f.Examples("examples")
	if s := f.String("timeout", "/timeout"); s != "" {
		dur, err := time.ParseDuration(s)
		if err != nil {
			f.Invalid("timeout", "timeout %q is not a duration such as \"30s\"", s)
		}
		t.Timeout = dur
	}
	t.Scopes = f.Strings("scopes", "/scopes")
	t.Icons = f.Icons("icons")
	t.Meta = f.Typed("meta", "/meta", canonical.Object)
	if v := f.Typed("deprecated", "/deprecated", canonical.Bool); v != nil {
		t.Deprecated = v.Bool
	}
	t.Sunset = f.String("sunset", "/sunset")
	t.RenamedFrom = f.String("renamed_from", "/renamed_from")
	f.Lifecycle()
	if ext := f.Typed("extensions", "", canonical.Object); ext != nil {
		t.Extensions = map[string]*canonical.Value{}
		for _, m := range ext.Members {
			if m.Value.Kind != canonical.Object {
				f.Invalid("extensions", "extensions.%s must be an object, got %s", m.Key, m.Value.Kind)
				continue
			}
			t.Extensions[m.Key] = m.Value
			for _, em := range m.Value.Members {
				t.Source.Fields[canonical.Pointer("").Append("extensions", m.Key, em.Key)] = p.Append("extensions", m.Key, em.Key)
			}
		}
	}
	d.IgnoreRest(v, p, f.UsedKeys()...)
	return f.Done()
}
