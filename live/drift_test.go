package live

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
)

// TestDriftNonASCIIDescription: a long description rewritten in a script
// of several bytes a character is quoted, cut at 400 characters, in
// verify.description-changed (it was cut at 399 runes of a text measured
// in bytes, and panicked).
func TestDriftNonASCIIDescription(t *testing.T) {
	tool := func(desc string) *canonical.Tool {
		in, err := canonical.ParseSchema([]byte(`{"type":"object"}`))
		if err != nil {
			t.Fatal(err)
		}
		return &canonical.Tool{Name: "search", Description: desc, Input: in}
	}
	was, now := strings.Repeat("説明", 150), strings.Repeat("記述", 300)
	ds, _ := Drift([]*canonical.Tool{tool(was)}, []*canonical.Tool{tool(now)})
	if len(ds) != 1 || ds[0].Code != "verify.description-changed" {
		t.Fatalf("Drift = %v", ds)
	}
	_, quoted, _ := strings.Cut(ds[0].Message, "now ")
	if !strings.HasPrefix(quoted, `"記述`) || !strings.HasSuffix(quoted, `…"`) || utf8.RuneCountInString(quoted) != 402 {
		t.Errorf("the live description is quoted as %d characters: %.60s…", utf8.RuneCountInString(quoted), quoted)
	}
}
