package canonical_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
)

// Parse a schema, walk every subschema, and hash a tool.
func Example() {
	s, err := canonical.ParseSchema([]byte(`{
	  "type": "object",
	  "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "maximum": 1.0E2}},
	  "$defs": {"page": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}
	}`))
	if err != nil {
		panic(err)
	}
	canonical.Walk(s, func(p canonical.Pointer, sub *canonical.Schema) bool {
		fmt.Printf("%q %v\n", p, sub.Types())
		return true
	})
	fmt.Println(string(s.JSON().Get("properties").Get("limit").AppendJSON(nil, "")))

	t := &canonical.Tool{Namespace: "search", Name: "query", Input: s}
	fmt.Println(t.ID(), len(t.Validate()) == 0, t.Hash()[:15])
	// Output:
	// "" [object]
	// "/properties/q" [string]
	// "/properties/limit" [integer]
	// "/$defs/page" []
	// "/$defs/page/anyOf/0" [integer]
	// "/$defs/page/anyOf/1" [null]
	// {"type":"integer","maximum":1.0E2}
	// search:query true sha256:18a4416c
}
