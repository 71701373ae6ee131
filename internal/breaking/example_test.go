package breaking_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/breaking"
)

// Compare two versions of a tool and ask which release the change needs.
func ExampleCompare() {
	schema := func(s string) *canonical.Schema {
		v, err := canonical.ParseJSON([]byte(s))
		if err != nil {
			panic(err)
		}
		return canonical.AsSchema(v)
	}
	old := []*canonical.Tool{{Name: "search", Input: schema(`{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "number"}}}`)}}
	new := []*canonical.Tool{{Name: "search", Input: schema(`{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]}`)}}
	ds := breaking.Compare(old, new, breaking.Options{})
	for _, d := range ds {
		fmt.Println(d.Severity, d.Code)
	}
	need := breaking.Needed(ds)
	fmt.Println(need, breaking.Next("1.4.2", need))
	// Output:
	// error breaking.made-required
	// error breaking.type-changed
	// major 2.0.0
}
