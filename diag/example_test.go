package diag_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/diag"
)

// A policy decides what each finding does to a build: here loss.* warns
// and one code is denied, which makes it an error.
func ExampleApply() {
	ds := []diag.Diagnostic{
		diag.New("loss.title", "the target has no place for its title; dropped").At("tools.json", "/0/title"),
		diag.New("loss.one-of", "oneOf became anyOf").At("tools.json", "/0/inputSchema/properties/q"),
	}
	p := &diag.Policy{Warn: []string{"loss"}, Deny: []string{"loss.one-of"}}
	for _, d := range diag.Sort(diag.Apply(ds, p)) {
		fmt.Println(d)
	}
	// Output:
	// tools.json: error loss.one-of: oneOf became anyOf
	// tools.json: warning loss.title: the target has no place for its title; dropped
}
