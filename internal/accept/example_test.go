package accept_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/accept"
)

// Check reads a bundle as the provider would and says what it would
// refuse: here an OpenAI strict tool whose $ref has a sibling description,
// one of the real rejections ("$ref cannot have keywords {'description'}").
func ExampleCheck() {
	bundle, _ := canonical.ParseJSON([]byte(`[{"type": "function", "function": {"name": "chart", "strict": true,
		"parameters": {"type": "object", "properties": {"hero": {"$ref": "#/$defs/Hero", "description": "The hero chart"}},
		"required": ["hero"], "additionalProperties": false,
		"$defs": {"Hero": {"type": "object", "properties": {}, "additionalProperties": false}}}}}]`))
	table, _ := accept.TableNamed("openai")
	for _, d := range accept.Check(table, bundle, nil, "openai", accept.Options{}) {
		fmt.Println(d.Code)
	}
	// Output:
	// accept.ref-siblings
}
