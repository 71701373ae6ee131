// Package words splits names and texts into words, for the rules that
// compare a tool's name with its description and with other tools' names
// (the security lint's confusable and contradicting names, the quality
// score, a deferred tool a search cannot find). No I/O.
package words

import (
	"iter"
	"slices"
	"strings"
	"unicode"
)

// Name splits a name at '_', '-', '.', spaces, every other character that
// is no letter or digit, and where a lower-case letter is followed by an
// upper-case one, lower-cased: "getHTTPResponse2" is get httpresponse2.
func Name(name string) []string {
	var out []string
	for w := range NameSeq(name) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// Count is len(Name(name)), counted without making the words.
func Count(name string) int {
	n := 0
	for range NameSeq(name) {
		n++
	}
	return n
}

// NameSeq yields the words of name as Name cuts them, as they are in it
// (not lower-cased).
func NameSeq(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1 // where the word being read starts; -1 between words
		prev := rune(0)
		for i, r := range name {
			switch {
			case !unicode.IsLetter(r) && !unicode.IsDigit(r):
				if start >= 0 && !yield(name[start:i]) {
					return
				}
				start = -1
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				if start >= 0 && !yield(name[start:i]) {
					return
				}
				start = i
			case start < 0:
				start = i
			}
			prev = r
		}
		if start >= 0 {
			yield(name[start:])
		}
	}
}

// Text splits a text into its words, lower-cased: the runs of letters and
// digits (a camel-cased word in prose stays one).
func Text(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Restates reports whether text says no more than name: it has words, and
// they are the name's ("Get me." of get_me).
func Restates(text, name string) bool {
	t := Text(text)
	return len(t) > 0 && slices.Equal(t, Name(name))
}
