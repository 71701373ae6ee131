package targets

import (
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/profile"
)

// TestBundleLayouts holds internal/bundle's table of where each format puts
// a tool's name and schemas to what the encoders write: toolcall reads the
// bundles through it.
func TestBundleLayouts(t *testing.T) {
	in, err := canonical.ParseJSON([]byte(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := canonical.ParseJSON([]byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	tool := &canonical.Tool{Name: "search", Description: "Search.", Input: canonical.AsSchema(in), Output: canonical.AsSchema(out)}
	read := 0
	for _, a := range allFormats().List() {
		for _, schema := range []string{"", "openapi"} {
			if a.Encode == nil || !bundle.Readable(a.Name) || schema != "" && a.Name != "gemini" {
				continue
			}
			read++
			doc := a.Encode(emit.Tools([]*canonical.Tool{tool}), profile.Options{Schema: schema})
			got, err := bundle.Tools(a.Name, doc)
			if err != nil {
				t.Fatalf("bundle.Tools(%s, %s): %v", a.Name, doc, err)
			}
			e, ok := got["search"]
			if !ok || !e.Input.Equal(in) {
				t.Errorf("bundle.Tools(%s %s) = %+v, want the input schema %s", a.Name, schema, e, in)
			}
			if e.Output != nil && !e.Output.Equal(out) {
				t.Errorf("bundle.Tools(%s %s): output %s, want %s", a.Name, schema, e.Output, out)
			}
		}
	}
	if read < 7 {
		t.Errorf("read %d bundles back, want every format a model calls through", read)
	}
	if _, err := bundle.Tools("mcp", canonical.NewArray()); err == nil {
		t.Error("bundle.Tools(mcp, []) = nil error, want the bundle refused")
	}
}
