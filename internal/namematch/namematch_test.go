package namematch

import (
	"regexp"
	"strings"
	"testing"
)

// TestMatchesAsRegexp: a matcher says what regexp says of its pattern, for
// the providers' patterns, classes with escapes, negated and non-ASCII
// classes and one character, on names of every length around the limits,
// non-ASCII names and invalid UTF-8; patterns of other forms go to regexp.
func TestMatchesAsRegexp(t *testing.T) {
	tables := []string{
		`^[a-zA-Z0-9_.-]{1,64}$`,
		`^[A-Za-z_][A-Za-z0-9_]{0,63}$`,
		`^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$`,
		`^[a-zA-Z0-9_-]{1,128}$`,
		`^[a-z\-\.]{1,3}$`,
		`^[\d][\w]{0,3}$`,
		`^[é][À-ÿa-z]{0,4}$`,
		`^[x]{1,2}$`,
		`^[^a-z]{1,3}$`,
		`^[a-z]{0,2}$`,
		`^[a-z]{2,3}$`,
		`^[A-Z][a-z]{0,0}$`,
	}
	regexps := []string{`^[a-z]|[0-9]{1,3}$`, `^[a-z]+$`, `[a-z]{1,3}`, `^(?i:a){1,2}$`, `^[a-z]{1,3}[0-9]{1,2}$`}
	names := []string{"", "a", "ab", "abc", "abcd", "abcde", "a-b", "a.b", "a:b", "_a", "1a", "a1", "é", "éa", "aé", "ÿÿ", "日本",
		"\xff", "a\xff", "\xffa", "x", "xx", "xxx", "A", "Aa", "Ab", "AB", "-", ".", "a b", "a\nb", "\U0001F600", "12", "1ab",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("a", 127),
		strings.Repeat("a", 128), strings.Repeat("a", 129), "a" + strings.Repeat("é", 63)}
	for _, expr := range append(tables, regexps...) {
		m := Compile(expr)
		if want := !strings.Contains(strings.Join(regexps, "\n"), expr); m.tables() != want {
			t.Errorf("%s: read into tables %v, want %v", expr, m.tables(), want)
		}
		re := regexp.MustCompile(expr)
		for _, s := range names {
			if got, want := m.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("%s, %q: MatchString = %v, regexp says %v", expr, s, got, want)
			}
		}
	}
}

// FuzzMatchesAsRegexp holds the tables to regexp on any name.
func FuzzMatchesAsRegexp(f *testing.F) {
	for _, s := range []string{"", "a", "get_weather", "é", "\xff", strings.Repeat("b", 70)} {
		f.Add(s)
	}
	exprs := []string{`^[a-zA-Z0-9_.-]{1,64}$`, `^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$`, `^[é][À-ÿa-z]{0,4}$`, `^[^a-z]{1,3}$`}
	f.Fuzz(func(t *testing.T, s string) {
		for _, expr := range exprs {
			if got, want := Compile(expr).MatchString(s), regexp.MustCompile(expr).MatchString(s); got != want {
				t.Errorf("%s, %q: MatchString = %v, regexp says %v", expr, s, got, want)
			}
		}
	})
}
