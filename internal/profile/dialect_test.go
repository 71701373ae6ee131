package profile

import (
	"os"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/lower"
)

// TestDialectLoweringIdempotent lowers every JSON-Schema-Test-Suite schema
// under each OpenAI dialect's rules (their rows on the format's): the input
// must not change, and lowering what a dialect emits must change nothing,
// so that a bundle rebuilt from its own output stays byte-identical.
func TestDialectLoweringIdempotent(t *testing.T) {
	corpus.Heavy(t)
	files := append(corpus.Glob(t, "jsonschema-test-suite/draft2020-12/*.json"), corpus.Glob(t, "jsonschema-test-suite/draft7/*.json")...)
	p := profiles["openai"]
	for _, d := range Dialects("openai") {
		_, rulesOf := p.rulesFor(Options{Dialect: d.Name})
		rules := rulesOf("")
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := canonical.ParseSchema(data)
			if err != nil {
				t.Fatal(err)
			}
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
