// Package namematch matches names against the patterns that providers give
// for tool names and property keys, ^[C]{1,n}$ and ^[F][C]{0,n}$, from
// tables of their characters instead of by regular expression: they are
// asked of every property key of every schema for every target and of every
// emitted name, where regexp was a twentieth of a build. A pattern of any
// other form is matched by regexp, as before.
package namematch

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode/utf8"
)

// Matcher reports whether names match one pattern.
type Matcher struct {
	first, chars *charSet // first is nil where the pattern has no first class
	min, max     int      // how many characters chars takes, after first
	re           *regexp.Regexp
}

var matchers sync.Map // expression → *Matcher

// Compile returns the matcher of expr, made once for the process. Like
// regexp.MustCompile, it panics on an expression regexp refuses.
func Compile(expr string) *Matcher {
	if m, ok := matchers.Load(expr); ok {
		return m.(*Matcher)
	}
	m := read(expr)
	if m == nil {
		m = &Matcher{re: regexp.MustCompile(expr)}
	}
	matchers.Store(expr, m)
	return m
}

// tables reports whether m matches from tables (false: by regexp).
func (m *Matcher) tables() bool { return m.re == nil }

// MatchString reports whether s matches the pattern.
func (m *Matcher) MatchString(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	if s == "" {
		return m.first == nil && m.min == 0
	}
	n := 0
	for i, r := range s { // invalid UTF-8 is U+FFFD, byte by byte, as for regexp
		if i == 0 && m.first != nil {
			if !m.first.has(r) {
				return false
			}
			continue
		}
		if n++; n > m.max || !m.chars.has(r) {
			return false
		}
	}
	return n >= m.min
}

// read reads ^[F][C]{min,max}$ or ^[C]{min,max}$, as regexp parses it,
// into tables; nil when expr parses as anything else.
func read(expr string) *Matcher {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return nil
	}
	subs := re.Sub[1 : len(re.Sub)-1]
	m := &Matcher{}
	if len(subs) == 2 {
		if m.first = classOf(subs[0]); m.first == nil {
			return nil
		}
		subs = subs[1:]
	}
	if len(subs) != 1 || subs[0].Op != syntax.OpRepeat || subs[0].Max < 0 {
		return nil
	}
	m.min, m.max = subs[0].Min, subs[0].Max
	if m.chars = classOf(subs[0].Sub[0]); m.chars == nil {
		return nil
	}
	return m
}

// charSet is a regular expression's character class.
type charSet struct {
	ascii [utf8.RuneSelf]bool
	wide  []rune // the ranges above ASCII, lo-hi pairs
}

func (c *charSet) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r]
	}
	for i := 0; i+1 < len(c.wide); i += 2 {
		if c.wide[i] <= r && r <= c.wide[i+1] {
			return true
		}
	}
	return false
}

// classOf is the character set of a parsed class or single character; nil
// for anything else.
func classOf(re *syntax.Regexp) *charSet {
	var ranges []rune
	switch {
	case re.Op == syntax.OpCharClass:
		ranges = re.Rune
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0:
		ranges = []rune{re.Rune[0], re.Rune[0]}
	default:
		return nil
	}
	c := &charSet{}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			c.ascii[r] = true
		}
		if hi >= utf8.RuneSelf {
			c.wide = append(c.wide, max(lo, utf8.RuneSelf), hi)
		}
	}
	return c
}
