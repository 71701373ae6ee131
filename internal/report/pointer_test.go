package report

import (
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// TestCanonicalPointerIsDeterministic: where two fields have one source
// (Stripe's file_link is the output schema and one of its $defs), the
// finding is placed at the same one whatever order the map yields them in.
func TestCanonicalPointerIsDeterministic(t *testing.T) {
	tool := &canonical.Tool{Source: canonical.Source{File: "stripe.json", Fields: map[canonical.Pointer]canonical.Pointer{
		"/output":                 "/components/schemas/file_link",
		"/output/$defs/file_link": "/components/schemas/file_link",
		"/input":                  "/paths/~1v1~1file_links/post/requestBody",
	}}}
	d := diag.Diagnostic{File: "stripe.json", Pointer: "/components/schemas/file_link/x-expandableFields"}
	want := "/output/$defs/file_link/x-expandableFields"
	for range 200 {
		if got := canonicalPointer(tool, d); got != want {
			t.Fatalf("canonicalPointer = %q, want %q", got, want)
		}
	}
}
