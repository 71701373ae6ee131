package pipeline

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// TestStripeCurated builds examples/stripe/toolc.toml on Stripe's
// description from the corpus: its 468 operations curated to a core set
// under OpenAI's 128 tools per request, strict, that no provider check
// refuses.
func TestStripeCurated(t *testing.T) {
	spec, err := os.ReadFile(corpus.Path(t, "openapi", "stripe", "spec3.2023-09-12.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("../../examples/stripe/toolc.toml")
	if err != nil {
		t.Fatal(err)
	}
	res := mustBuild(t, fstest.MapFS{"toolc.toml": {Data: manifest}, "stripe.json": {Data: spec}}, 2)
	if res.Failed {
		t.Fatalf("the curated build failed: %v", codes(res.Diagnostics))
	}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "accept.") || d.Code == "source.openapi-unmatched" {
			t.Errorf("%s", d.String())
		}
	}
	if res.Tools < 50 || res.Tools > 128 {
		t.Errorf("%d tools, want the core set: more than 50, at most OpenAI's 128", res.Tools)
	}
	var bundle []struct {
		Function struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
		} `json:"function"`
	}
	for _, o := range res.Outputs {
		if o.Path != "dist/openai.json" {
			continue
		}
		if err := json.Unmarshal(o.Bytes(), &bundle); err != nil {
			t.Fatal(err)
		}
	}
	names := map[string]bool{}
	for _, f := range bundle {
		names[f.Function.Name] = true
		if !f.Function.Strict {
			t.Errorf("%s is not strict", f.Function.Name)
		}
	}
	for _, want := range []string{"stripe__list_customers", "stripe__create_refund", "stripe__PostPaymentIntents"} {
		if !names[want] {
			t.Errorf("the OpenAI bundle has no %s", want)
		}
	}
	if len(bundle) != res.Tools {
		t.Errorf("the OpenAI bundle has %d tools, the catalog %d", len(bundle), res.Tools)
	}
}
