package refs

import (
	"testing"

	"github.com/toolc-dev/toolc/canonical"
)

func TestRefs(t *testing.T) {
	doc, err := canonical.ParseJSON([]byte(`{
		"$id": "http://example.com/root.json",
		"properties": {
			"a": {"$ref": "#/$defs/A"},
			"b": {"$ref": "#anchor"},
			"c": {"$ref": "item.json#/$defs/inner"},
			"d": {"$ref": "urn:uuid:deadbeef"},
			"e": {"$ref": "#/$defs/missing"},
			"f": {"$ref": "http://other.example/x.json"},
			"g": {"$ref": "#old"},
			"h": {"$ref": "%"}
		},
		"$defs": {
			"A": {"$anchor": "anchor", "type": "string"},
			"item": {"$id": "item.json", "$defs": {"inner": {"type": "integer"}}, "items": {"$ref": "#/$defs/inner"}},
			"u": {"$id": "urn:uuid:deadbeef", "type": "boolean"},
			"o": {"$id": "#old", "type": "null"}
		}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	x := IndexOf(doc)
	want := map[canonical.Pointer]Result{
		"/properties/a":     {Target: "/$defs/A", Local: true},
		"/properties/b":     {Target: "/$defs/A", Local: true},
		"/properties/c":     {Target: "/$defs/item/$defs/inner", Local: true},
		"/properties/d":     {Target: "/$defs/u", Local: true},
		"/properties/e":     {},
		"/properties/f":     {External: "http://other.example/x.json"},
		"/properties/g":     {Target: "/$defs/o", Local: true},
		"/properties/h":     {Invalid: true},
		"/$defs/item/items": {Target: "/$defs/item/$defs/inner", Local: true}, // "#/…" in the embedded resource
	}
	for _, r := range x.All() {
		w, ok := want[r.At]
		if !ok {
			t.Errorf("unexpected reference at %s", r.At)
			continue
		}
		if r.Result != w {
			t.Errorf("Resolve(%s, %q) = %+v, want %+v", r.At, r.Value, r.Result, w)
		}
		delete(want, r.At)
	}
	for at := range want {
		t.Errorf("no reference found at %s", at)
	}
	if !x.InResource("/$defs/item/items") || x.InResource("/properties/a") {
		t.Errorf("InResource: the embedded item.json is a resource; the root's properties are not")
	}
}
