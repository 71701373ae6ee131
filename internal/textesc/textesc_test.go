package textesc

import (
	"fmt"
	"strings"
	"testing"
)

// TestEscape: the rule picks, the escape writes, invalid bytes are \xXX
// whatever the rule, and text without either comes back as it is.
func TestEscape(t *testing.T) {
	digits := func(_ string, _ int, r rune) bool { return r >= '0' && r <= '9' }
	braces := func(b *strings.Builder, r rune) { fmt.Fprintf(b, "{%c}", r) }
	for in, want := range map[string]string{
		"abc":          "abc",
		"a1b22":        "a{1}b{2}{2}",
		"bad \xff é 3": `bad \xff é {3}`,
		"":             "",
	} {
		if got := Escape(in, digits, braces); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	// The rule sees where it is: a digit before a letter only.
	beforeLetter := func(s string, i int, r rune) bool { return digits(s, i, r) && i+1 < len(s) && s[i+1] >= 'a' }
	if got := Escape("1a2", beforeLetter, braces); got != "{1}a2" {
		t.Errorf("Escape with the place = %q", got)
	}
}
