package lower

import (
	"regexp"
	"strings"
	"testing"
)

// TestGrammarRewrite: a pattern is written without class escapes where it
// can be, and the rewrite matches what the pattern matched; where it
// cannot, it says why. Go's \s lacks ECMA-262's \v and Unicode spaces, so
// the samples keep to what both engines read alike.
func TestGrammarRewrite(t *testing.T) {
	samples := []string{"", "a", "abc", "123", "12a", "a b", "a\tb", "a_1", "---", "x9 ", "A-1", "a\nb", "a/b:c", "./", "(a)?", "(a)"}
	tests := []struct {
		in, out, why string
	}{
		{in: `^[a-z]+$`, out: `^[a-z]+$`},
		{in: `^\d+$`, out: `^[0-9]+$`},
		{in: `^\w+\s?\w*$`, out: `^[a-zA-Z0-9_]+[` + classEscapes['s'] + `]?[a-zA-Z0-9_]*$`},
		{in: `^[\d_-]+$`, out: `^[0-9_-]+$`},
		{in: `^\D\W?$`, out: `^[^0-9][^a-zA-Z0-9_]?$`},
		{in: `^\\d$`, out: `^\\d$`}, // an escaped backslash, then d
		{in: `^a\.b$`, out: `^a\.b$`},
		{in: `\d+`, why: "anchored"},
		{in: `^\d+`, why: "anchored"},
		{in: `^\d+\$`, why: "anchored"}, // the $ is a literal one
		{in: `^[\S]$`, why: `no \S`},
		// What llama.cpp's converter copies into the grammar as it is, and
		// the grammar's parser refuses (codefuturist/email-mcp issues 72, 74).
		{in: `^(?!admin)[a-z]+$`, why: "(?"},
		{in: `^(?:ab)+$`, why: "(?"},
		{in: `^(?<y>[0-9]{4})$`, why: "(?"},
		{in: `^(a)\1$`, why: "backreferences"},
		{in: `^\bword$`, why: `no \b`},
		{in: `^a\$b$`, why: "escaped $"},
		{in: `^[a\-z]$`, why: "escaped -"},
		// An escaped character that needs none is written as itself.
		{in: `^a\/b\:c$`, out: `^a/b:c$`},
		{in: `^[\.\/]+$`, out: `^[./]+$`},
		{in: `^\(a\)\?$`, out: `^\(a\)\?$`},
	}
	for _, tc := range tests {
		out, why := grammarRewrite(tc.in)
		if tc.why != "" {
			if !strings.Contains(why, tc.why) {
				t.Errorf("grammarRewrite(%q) = %q, %q; want it refused for %q", tc.in, out, why, tc.why)
			}
			continue
		}
		if why != "" || out != tc.out {
			t.Errorf("grammarRewrite(%q) = %q, %q; want %q", tc.in, out, why, tc.out)
			continue
		}
		if ungrammatical(out) != "" {
			t.Errorf("grammarRewrite(%q) = %q, which the grammar still refuses: %s", tc.in, out, ungrammatical(out))
		}
		before, after := regexp.MustCompile(tc.in), regexp.MustCompile(out)
		for _, s := range samples {
			if before.MatchString(s) != after.MatchString(s) {
				t.Errorf("%q and its rewrite %q disagree on %q", tc.in, out, s)
			}
		}
	}
}
