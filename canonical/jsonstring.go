package canonical

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// plainJSON are the bytes a JSON string holds as they are: ASCII from
// the space, but the quote and the backslash.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// inStringWord reports whether none of the eight bytes of x ends a JSON
// string's plain run: a quote, a backslash or a control (bytes of 0x80 and
// above pass; UTF-8 is checked whole after).
func inStringWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	control := (x - 0x20*ones) &^ x & highs
	quote := (x ^ '"'*ones - ones) &^ (x ^ '"'*ones) & highs
	backslash := (x ^ '\\'*ones - ones) &^ (x ^ '\\'*ones) & highs
	return control|quote|backslash == 0
}

// plainWord reports whether the first eight bytes of s are all plainJSON:
// none below 0x20, none '"' or '\\', none of 0x80 or above, told of the
// eight at once (the bit tricks of "Bit Twiddling Hacks", "Determine if
// a word has a byte less than n").
func plainWord(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	return x&highs == 0 && inStringWord(x)
}

// AppendString appends s as a JSON string: '"' and '\\' escaped, control
// characters as \b \t \n \f \r or \u00xx, invalid UTF-8 as U+FFFD, everything
// else as is. This is also the string form of RFC 8785.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && plainWord(s[i:]) { // most of a string: eight bytes a look
			i += 8
		}
		for i < len(s) && plainJSON[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\ufffd"...)
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
