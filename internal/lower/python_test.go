package lower

import (
	"strings"
	"testing"
)

// TestPythonRewrite: named groups and backreferences are written as
// Python's re spells them; \p{…} and possessive quantifiers, which it
// lacks, refuse the pattern; everything else is left as it was.
func TestPythonRewrite(t *testing.T) {
	tests := []struct{ in, out, why string }{
		{in: `^[a-z]+(?:-[a-z]+)?$`, out: `^[a-z]+(?:-[a-z]+)?$`},
		{in: `^(?<y>\d{4})-\k<y>$`, out: `^(?P<y>\d{4})-(?P=y)$`},
		{in: `(?<=a)b(?<!c)`, out: `(?<=a)b(?<!c)`}, // lookbehind, not a name
		{in: `^a+?b*?$`, out: `^a+?b*?$`},           // lazy, not possessive
		{in: `^[+*]+$`, out: `^[+*]+$`},             // quantifier characters in a class
		{in: `^\++$`, out: `^\++$`},                 // an escaped plus, quantified
		{in: `^\\p$`, out: `^\\p$`},                 // an escaped backslash, then p
		{in: `^\p{Lu}+$`, why: `\p{…}`},
		{in: `^\P{L}$`, why: `\p{…}`},
		{in: `^a*+$`, why: "possessive"},
		{in: `^a++$`, why: "possessive"},
		{in: `^a{2}+$`, why: "possessive"},
		{in: `^a?+$`, why: "possessive"},
	}
	for _, tc := range tests {
		out, why := pythonRewrite(tc.in)
		switch {
		case tc.why != "" && !strings.Contains(why, tc.why):
			t.Errorf("pythonRewrite(%q) = %q, %q; want it refused for %s", tc.in, out, why, tc.why)
		case tc.why == "" && (why != "" || out != tc.out):
			t.Errorf("pythonRewrite(%q) = %q, %q; want %q", tc.in, out, why, tc.out)
		}
	}
}
