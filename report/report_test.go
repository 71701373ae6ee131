package report_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/report"
)

// TestSummaryIsMakeWithoutSchemas: the Markdown report's overview is the
// whole one less the schemas' texts, every status and count the same.
func TestSummaryIsMakeWithoutSchemas(t *testing.T) {
	res, err := compiler.Build(context.Background(), os.DirFS(".."), compiler.Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	whole, summary := report.Make(res, 2), report.Summary(res, 2)
	lowered := 0
	for i := range whole.Tools {
		if whole.Tools[i].Input == "" {
			t.Errorf("Make: tool %s has no input schema text", whole.Tools[i].ID)
		}
		whole.Tools[i].Input = ""
		for j := range whole.Tools[i].Cells {
			if whole.Tools[i].Cells[j].Schema != "" {
				lowered++
			}
			whole.Tools[i].Cells[j].Schema = ""
		}
	}
	if lowered == 0 {
		t.Fatal("the example catalog has no lowered schema: the test shows nothing")
	}
	if !reflect.DeepEqual(whole, summary) {
		t.Errorf("Summary differs from Make beyond the schemas' texts")
	}
}
