// Package textesc shows what a reader would not see in a text: each
// character a caller's rule picks written as an escape of the caller's
// choosing, and each byte that is not UTF-8 as \xXX. The generated code's
// comments (package typegen) and the findings a terminal shows (package
// diagfmt) pick different characters and escapes; the walk is this one.
// No I/O.
package textesc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with each rune r at byte i for which hide(s, i, r)
// holds written by esc, and each byte that is not UTF-8 as \xXX; s itself
// when it holds neither.
func Escape(s string, hide func(s string, i int, r rune) bool, esc func(b *strings.Builder, r rune)) string {
	if clean(s, hide) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case hide(s, i, r):
			esc(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// clean reports whether s is UTF-8 and hide picks none of its runes.
func clean(s string, hide func(s string, i int, r rune) bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i, r := range s {
		if hide(s, i, r) {
			return false
		}
	}
	return true
}
