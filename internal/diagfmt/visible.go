package diagfmt

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/internal/textesc"
)

// Visible is s as a terminal may show it: each control character but the
// line feed, the tab and a carriage return before a line feed (an escape
// that starts a terminal's control sequence, a carriage return that goes
// back over the line), each C1 control, each character that reorders the
// text around it (the bidirectional controls of "Trojan Source") and each
// byte that is not UTF-8 written as a Go escape (\x1b, \u202e). A finding
// quotes what sources and servers wrote (a key, a file's name, a server's
// stderr), and the text formats go to a terminal or a CI log that renders
// escapes.
func Visible(s string) string {
	return textesc.Escape(s, func(s string, i int, r rune) bool { return hidden(r) && !crlf(s, i) }, func(b *strings.Builder, r rune) {
		if r < utf8.RuneSelf {
			fmt.Fprintf(b, `\x%02x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	})
}

// hidden reports whether r is written escaped by Visible.
func hidden(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == utf8.RuneError:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// crlf reports whether s has a carriage return at i that ends a line,
// which shows nothing.
func crlf(s string, i int) bool { return s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' }
