package lower

import (
	"testing"

	"github.com/toolc-dev/toolc/canonical"
)

// TestMemo: under a shared fingerprint a schema is lowered once and the
// result shared; under another, or with no memo, each call lowers anew,
// and every result is what Schema gives.
func TestMemo(t *testing.T) {
	s, err := canonical.ParseSchema([]byte(`{"type":"object","properties":{"q":{"type":"string","minLength":3}},"$defs":{"unused":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := parseRules(t, "minLength drop\nunused-defs prune")
	b, _ := parseRules(t, "minLength drop\nunused-defs prune")
	c, _ := parseRules(t, "minLength drop")
	if a.Fingerprint() != b.Fingerprint() || a.Fingerprint() == c.Fingerprint() {
		t.Fatalf("fingerprints: equal rules %v, different rules %v", a.Fingerprint() == b.Fingerprint(), a.Fingerprint() != c.Fingerprint())
	}
	want := Schema(s, a, Options{})
	m := NewMemo([]string{a.Fingerprint()})
	first, second := m.Schema(s, a, a.Fingerprint(), Options{}), m.Schema(s, b, b.Fingerprint(), Options{})
	if first != second || !first.Schema.JSON().Equal(want.Schema.JSON()) || len(first.Changes) != len(want.Changes) {
		t.Errorf("shared rules: lowered %p and %p, %s; want one result, %s", first, second, first.Schema.JSON(), want.Schema.JSON())
	}
	if m.Schema(s, a, a.Fingerprint(), Options{Describe: true}) == first {
		t.Error("other options share the result")
	}
	if once, again := m.Schema(s, c, c.Fingerprint(), Options{}), m.Schema(s, c, c.Fingerprint(), Options{}); once == again {
		t.Error("rules no other target has are remembered")
	}
	var none *Memo
	if got := none.Schema(s, a, "", Options{}); !got.Schema.JSON().Equal(want.Schema.JSON()) {
		t.Errorf("nil memo: %s", got.Schema.JSON())
	}
	if NewMemo(nil) != nil {
		t.Error("a memo of no fingerprints is not nil")
	}
}
