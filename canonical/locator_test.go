package canonical

import (
	"fmt"
	"strings"
	"testing"
)

// TestLocator: locating one finding per member of a big object indexes the
// object once (n steps, not n²), and finds what PosOf finds.
func TestLocator(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"properties": {`)
	for i := range 1000 {
		fmt.Fprintf(&b, "\n  %q: {\"type\": \"string\"},", fmt.Sprintf("p%d", i))
	}
	b.WriteString("\n  \"last\": {\"type\": \"integer\"}}}")
	doc, err := ParseJSON([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var l Locator
	for i := range 1000 {
		p := Pointer("/properties").Append(fmt.Sprintf("p%d", i), "type")
		if got, want := l.PosOf(doc, p), doc.PosOf(p); got != want {
			t.Fatalf("Locator.PosOf(%s) = %v, want %v", p, got, want)
		}
	}
	if got := l.PosOf(doc, "/properties/missing"); got != doc.PosOf("/properties/missing") {
		t.Errorf("a missing member: %v", got)
	}
	if len(l.index) != 1 {
		t.Errorf("indexed %d objects, want the one big object once", len(l.index))
	}
}
