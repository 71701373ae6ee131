// Package bundle reads back the bundles toolc wrote: the canonical bundle
// whole (every field of every tool), and, for every other target format,
// each tool's emitted name and schemas, found where that format's encoder
// puts them. It is what the runtime (toolcall) needs of a built catalog, so
// it reads no source format, parses no YAML and links no SDK.
package bundle

import (
	"slices"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// Marker is the value of the "toolc" member that marks a canonical bundle.
const Marker = "canonical"

type decoder struct{ decode.Decoder }

// Detect scores whether doc is a canonical bundle: 1 or 0.
func Detect(doc *canonical.Value) float64 {
	if s, ok := doc.Get("toolc").StringValue(); ok && s == Marker && doc.Kind == canonical.Object {
		return 1
	}
	return 0
}

// DecodeCanonical reads the tools of a canonical bundle, a file named file,
// with a located diagnostic for each problem.
func DecodeCanonical(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic) {
	d := &decoder{decode.Decoder{File: file, Format: "canonical"}}
	if doc.Kind != canonical.Object || Detect(doc) == 0 {
		d.Report("source.invalid", "", `a canonical bundle is an object with "toolc": %q`, Marker)
		return nil, d.Diags
	}
	if v := doc.Get("version"); v == nil || v.Kind != canonical.Number || v.Text() != "1" {
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
	if sec := f.Typed("security", "/security", canonical.Object); sec != nil {
		t.Security = decodeSecurity(sec, func(key, format string, args ...any) {
			f.Bad = true
			d.Report("source.invalid", p.Append("security", key), format, args...)
		})
	}
	if b := f.Typed("backend", "/backend", canonical.Object); b != nil {
		t.Backend = decodeBackend(b, func(key, format string, args ...any) {
			f.Bad = true
			d.Report("source.invalid", p.Append("backend", key), format, args...)
		})
		t.Source.Fields["/backend/http"] = p.Append("backend", "http")
	}
	t.Icons = f.Icons("icons")
	t.Meta = f.Typed("meta", "/meta", canonical.Object)
	if v := f.Typed("deprecated", "/deprecated", canonical.Bool); v != nil {
		t.Deprecated = v.Bool
	}
	t.Sunset = f.String("sunset", "/sunset")
	t.RenamedFrom = f.String("renamed_from", "/renamed_from")
	t.Origin = f.Typed("origin", "/origin", canonical.Object)
	t.Stability = f.String("stability", "/stability")
	f.Lifecycle()
	extensions(f, t, p)
	d.IgnoreRest(v, p, f.UsedKeys()...)
	return f.Done()
}

// extensions reads a canonical tool's format-specific fields, each
// format's an object.
func extensions(f *decode.Fields, t *canonical.Tool, p canonical.Pointer) {
	if ext := f.Typed("extensions", "", canonical.Object); ext != nil {
		t.Extensions = map[string]*canonical.Value{}
		for _, m := range ext.Members() {
			if m.Value.Kind != canonical.Object {
				f.Invalid("extensions", "extensions.%s must be an object, got %s", m.Key, m.Value.Kind)
				continue
			}
			t.Extensions[m.Key] = m.Value
			for _, em := range m.Value.Members() {
				t.Source.Fields[canonical.Pointer("").Append("extensions", m.Key, em.Key)] = p.Append("extensions", m.Key, em.Key)
			}
		}
	}
}

// decodeSecurity reads a tool's security metadata, reporting unknown keys
// and values with bad.
func decodeSecurity(v *canonical.Value, bad func(key, format string, args ...any)) *canonical.Security {
	sec := &canonical.Security{}
	for _, m := range v.Members() {
		var dst *string
		var allowed []string
		switch m.Key {
		case "data_classification":
			dst, allowed = &sec.Classification, canonical.Classifications()
		case "pii_handling":
			dst, allowed = &sec.PII, canonical.PIIHandlings()
		default:
			bad(m.Key, "unknown security field %q (data_classification, pii_handling; the permissions are the tool's scopes)", m.Key)
			continue
		}
		s, _ := m.Value.StringValue()
		if !slices.Contains(allowed, s) {
			bad(m.Key, "%s is %s, not one of %s%s", m.Key, m.Value, strings.Join(allowed, ", "), suggest.Hint(s, allowed))
			continue
		}
		*dst = s
	}
	return sec
}

// decodeBackend reads where a tool runs, reporting what is wrong with bad.
func decodeBackend(v *canonical.Value, bad func(key, format string, args ...any)) *canonical.Backend {
	b := &canonical.Backend{}
	b.Kind, _ = v.Get("kind").StringValue()
	if !slices.Contains(canonical.BackendKinds(), b.Kind) {
		bad("kind", "backend kind is %s, not one of %s%s", v.Get("kind"), strings.Join(canonical.BackendKinds(), ", "), suggest.Hint(b.Kind, canonical.BackendKinds()))
	}
	for _, m := range v.Members() {
		switch m.Key {
		case "kind":
		case "http":
			if m.Value.Kind != canonical.Object {
				bad("http", "backend http must be an object (the HTTP binding)")
			}
			b.HTTP = m.Value
		case "command":
			cmd, ok := m.Value.Strings()
			if !ok || len(cmd) == 0 {
				bad("command", "backend command must be an array of strings")
			}
			b.Command = cmd
		case "url":
			b.URL, _ = m.Value.StringValue()
		default:
			bad(m.Key, "unknown backend field %q (kind, http, command, url)", m.Key)
		}
	}
	return b
}
