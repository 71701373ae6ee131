package typegen

import (
	"testing"
	"unicode"
)

// TestHiddenRuneEveryRune: the ASCII fast path of hiddenRune says what
// its definition says, for every code point: a control or format
// character (tab aside), U+2028 or U+2029.
func TestHiddenRuneEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := r != '\t' && (unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029')
		if got := hiddenRune(r); got != want {
			t.Errorf("hiddenRune(%U) = %v, want %v", r, got, want)
		}
	}
}
