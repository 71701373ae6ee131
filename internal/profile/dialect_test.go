package profile

import (
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/schematest"
)

// TestDialectLoweringIdempotent lowers every JSON-Schema-Test-Suite schema
// under each OpenAI dialect's rules (their rows on the format's): the input
// must not change, and lowering what a dialect emits must change nothing,
// so that a bundle rebuilt from its own output stays byte-identical.
func TestDialectLoweringIdempotent(t *testing.T) {
	corpus.Heavy(t)
	suite := schematest.SuiteSchemas(t) // read once for every dialect: lowering changes no input
	p := profiles["openai"]
	for _, d := range Dialects("openai") {
		_, rulesOf := p.rulesFor(Options{Dialect: d.Name})
		rules := rulesOf("")
		for _, ts := range suite {
			f, s := ts.File, ts.Schema
			before := s.DeepCopy()
			res := lower.Schema(s, rules, lower.Options{})
			if !s.Equal(before) {
				t.Fatalf("%s (%s): the input changed", f, d.Name)
			}
			if again := lower.Schema(res.Schema, rules, lower.Options{}); !again.Schema.Equal(res.Schema) {
				t.Errorf("%s (%s): not idempotent:\n%s\nthen\n%s", f, d.Name, res.Schema.JSON().Indent(), again.Schema.JSON().Indent())
			}
		}
	}
}
