package typegen

import (
	"slices"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
)

// TestLossesAreSaid: what a type cannot say is a loss, never a silent
// widening: branches beside declared properties keep the properties, and
// the schema false is any value with a loss.
func TestLossesAreSaid(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "never": false},
		"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := Build([]*canonical.Tool{{Name: "pick", Input: in}}, nil, nil)
	root := m.Decls[0].Type
	if root.Kind != Object || len(root.Fields) != 3 {
		t.Fatalf("the input is %+v, want the object of its three properties", root)
	}
	var at []string
	for _, l := range m.Losses {
		at = append(at, l.Code+" "+string(l.At))
	}
	for _, want := range []string{"loss.type-one-of /input/anyOf", "loss.type-constraint /input/properties/never"} {
		if !slices.Contains(at, want) {
			t.Errorf("losses %q, want %q", at, want)
		}
	}
}
