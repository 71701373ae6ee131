package openapi

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

func (o *oasDoc) operation(r operationRef, item *canonical.Value, itemAt canonical.Pointer, op *canonical.Value, opAt canonical.Pointer) *canonical.Tool {
	method, path := r.method, r.path
	if op.Kind != canonical.Object {
		o.d.Report("source.invalid", opAt, "an operation must be an object, got %s", op.Kind)
		return nil
	}
	ov, ovKey := o.override(r)
	sp := op.Get("x-speakeasy-mcp")
	f := o.d.NewTool(op, opAt, opAt)
	t := f.Tool
	opID := f.String("operationId", "/name")
	t.Name = toolName(opID, method, path)
	if n := cmp.Or(ov.Name, stringAt(sp, "name")); n != "" {
		t.Name = n
		if ov.Name == "" {
			t.Source.Fields["/name"] = opAt.Append("x-speakeasy-mcp", "name")
		}
	}
	if prev, dup := o.names[t.Name]; dup {
		o.d.Diags = append(o.d.Diags, diag.New("source.name-collision", "operations %s and %s both become the tool %q", prev, opAt, t.Name).
			At(o.d.File, string(opAt)).About(t.Name).WithFix("give the operations distinct operationIds, or one a name in [sources.openapi.operations]"))
		return nil
	}
	o.names[t.Name] = opAt
	o.describe(t, f, r, op, opAt, sp, ov.Description)
	t.Title = cmp.Or(ov.Title, stringAt(sp, "title"))
	t.Tags = f.Strings("tags", "/tags")
	if scopes, ok := sp.Get("scopes").Strings(); ok {
		t.Tags = append(t.Tags, scopes...)
	}
	if dep, _ := op.Get("deprecated").BoolValue(); dep {
		t.Deprecated = true // and the binding keeps it, as the description said
	}
	t.Annotations = o.hints(method, op, opAt, sp, ov.Annotations)

	http := canonical.NewObject()
	http.Set("method", canonical.NewString(method))
	http.Set("path", canonical.NewString(path))
	if opID != "" {
		http.Set("operationId", canonical.NewString(opID))
	}
	params, ok := o.parameters(item, itemAt, op, opAt)
	if !ok {
		f.Bad = true
	}
	in := o.input(t, params, op, opAt, http)
	if in == nil {
		return nil
	}
	o.reshape(t, in, http, ov, ovKey)
	t.Input = canonical.AsSchema(in)
	t.Source.Fields["/input"] = opAt
	t.Output = o.output(t, op, opAt)

	o.bind(t, f, http, item, op, opAt)
	// The operation runs at an HTTP API: a provider backend, with the
	// binding a caller turns a call into a request with.
	t.Backend = &canonical.Backend{Kind: canonical.BackendProvider, HTTP: http}
	t.Source.Fields["/backend/http"] = opAt
	return f.Done()
}

// describe sets the tool's description: the override's, Speakeasy's, the
// summary and description joined, or, without any, the method and path.
func (o *oasDoc) describe(t *canonical.Tool, f *decode.Fields, r operationRef, op *canonical.Value, opAt canonical.Pointer, sp *canonical.Value, override string) {
	method, path := r.method, r.path
	summary := f.String("summary", "")
	description := f.String("description", "")
	t.Description = joinDescription(summary, description)
	switch {
	case override != "":
		t.Description = override
	case stringAt(sp, "description") != "":
		t.Description = stringAt(sp, "description")
		t.Source.Fields["/description"] = opAt.Append("x-speakeasy-mcp", "description")
	case summary != "":
		t.Source.Fields["/description"] = opAt.Append("summary")
	case description != "":
		t.Source.Fields["/description"] = opAt.Append("description")
	default:
		t.Description = strings.ToUpper(method) + " " + path
		o.notes.add("described", opAt)
	}
}

// bind fills in the HTTP binding: the scopes and security the operation
// needs, its servers, and the fields of the operation a caller keeps.
func (o *oasDoc) bind(t *canonical.Tool, f *decode.Fields, http, item, op *canonical.Value, opAt canonical.Pointer) {
	security := op.Get("security")
	if security == nil {
		security = o.doc.Get("security")
	} else {
		t.Source.Fields["/scopes"] = opAt.Append("security")
	}
	t.Scopes = scopes(security)
	f.Used["security"] = true
	for _, k := range []string{"parameters", "requestBody", "responses", "callbacks", "servers"} {
		f.Used[k] = true
	}
	if v := cmp.Or(op.Get("servers"), item.Get("servers"), o.doc.Get("servers")); v != nil {
		http.Set("servers", v)
	}
	if security != nil {
		http.Set("security", security)
	}
	for _, m := range op.Members() {
		switch {
		case f.Used[m.Key]:
		case m.Key == "deprecated" || m.Key == "externalDocs" || strings.HasPrefix(m.Key, "x-"):
			http.Set(m.Key, m.Value)
		default:
			o.d.Report("source.ignored-field", opAt.Append(m.Key), "%q is not a field of an OpenAPI operation and is not carried into bundles", m.Key)
		}
	}
}

var illegalNameChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// toolName makes an operation's tool name: its operationId, or its method
// and path, with every run of other characters than [A-Za-z0-9_.-] one '_'
// (and, from a path, every run of '_' one '_').
func toolName(opID, method, path string) string {
	name := illegalNameChars.ReplaceAllString(opID, "_")
	if opID == "" {
		name = strings.Join(strings.FieldsFunc(illegalNameChars.ReplaceAllString(method+"_"+path, "_"), func(r rune) bool { return r == '_' }), "_")
	}
	name = strings.Trim(name, "_")
	if name == "" {
		name = method
	}
	return name
}

// joinDescription is the summary, a blank line and the description, or
// either alone when the other is missing or already says it.
func joinDescription(summary, description string) string {
	summary, description = strings.TrimSpace(summary), strings.TrimSpace(description)
	switch {
	case summary == "" || strings.HasPrefix(description, summary):
		return description
	case description == "":
		return summary
	}
	return summary + "\n\n" + description
}

// scopes lists every scope of a security requirement list, in order, once.
func scopes(security *canonical.Value) []string {
	var out []string
	if security == nil || security.Kind != canonical.Array {
		return nil
	}
	for _, req := range security.Items() {
		for _, m := range decode.Members(req) {
			ss, _ := m.Value.Strings()
			for _, s := range ss {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
