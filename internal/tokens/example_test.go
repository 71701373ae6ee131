package tokens_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/tokens"
)

// Counting what an OpenAI bundle costs: each function exactly, in the
// rendering OpenAI publishes.
func ExampleBundle() {
	bundle, _ := canonical.ParseJSON([]byte(`[{"type": "function", "function": {
		"name": "get_weather", "description": "Get the weather in a city.",
		"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]`))
	c, err := tokens.Bundle("openai", bundle, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Tools[0].Name, c.Tools[0].Tokens, c.Method.Exact)
	fmt.Print(tokens.Render([]tokens.Function{{Name: "get_weather", Description: "Get the weather in a city.", Parameters: bundle.Items()[0].Get("function").Get("parameters")}}))
	// Output:
	// get_weather 23 true
	// # Tools
	//
	// ## functions
	//
	// namespace functions {
	//
	// // Get the weather in a city.
	// type get_weather = (_: {
	// city: string,
	// }) => any;
	//
	// } // namespace functions
}
