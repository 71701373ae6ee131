package lower

import (
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// llama.cpp's server turns a schema into a grammar, and its regular
// expressions into grammar rules: a pattern must be anchored ^…$ ("Pattern
// must start with '^' and end with '$'"; containers/kubernetes-mcp-server
// issue 277) and may not use the class escapes \d, \w and \s ("unknown
// escape at \d"; rowboatlabs/rowboat issue 741). The escapes are written as
// the classes ECMA-262 defines them to be, which match the same; a pattern
// that is not anchored, or whose negated escape sits inside a class, has no
// such form and is dropped.

// classEscapes are ECMA-262's class escapes as the members of a class: \s
// as its characters themselves (WhiteSpace and LineTerminator), since the
// grammar may not read escapes inside a class either.
var classEscapes = map[byte]string{
	'd': "0-9",
	'w': "a-zA-Z0-9_",
	's': "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
}

// ungrammatical reports why the grammar cannot take pattern p as written,
// or "" when it can.
func ungrammatical(p string) string {
	if !anchored(p) {
		return "not anchored ^…$"
	}
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			if classEscapes[p[i+1]|0x20] != "" {
				return `uses \` + string(p[i+1])
			}
			i++
		}
	}
	return ""
}

// unGrammatical reports whether n has a pattern the grammar cannot take.
func unGrammatical(n *canonical.Value) bool {
	p, ok := n.Get("pattern").StringValue()
	return ok && (ungrammatical(p) != "" || unportable(n.Get("pattern")))
}

// anchored reports whether p starts with ^ and ends with an unescaped $.
func anchored(p string) bool {
	if !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") {
		return false
	}
	slashes := 0
	for i := len(p) - 2; i >= 0 && p[i] == '\\'; i-- {
		slashes++
	}
	return slashes%2 == 0
}

// grammarPattern writes n's pattern as llama.cpp's grammar takes it, or
// drops it with loss.pattern where it has no such form. Its ECMA-262-only
// escapes are first written portably, as every engine reads them.
func grammarPattern(u *Unit, n *canonical.Value, at canonical.Pointer) {
	if unportable(n.Get("pattern")) {
		portablePattern(u, n, at)
	}
	p, ok := n.Get("pattern").StringValue()
	if !ok || ungrammatical(p) == "" {
		return
	}
	out, why := grammarRewrite(p)
	if why != "" {
		n.Delete("pattern")
		u.Report("loss.pattern", at, n, "pattern", "pattern %q dropped: the target compiles patterns into a grammar, %s", p, why)
		return
	}
	n.Set("pattern", canonical.NewString(out))
	u.Report("lower.pattern-portable", at, n, "pattern", "pattern %q written as %q: the target compiles patterns into a grammar without \\d, \\w and \\s, so they are spelled as the classes they stand for", p, out)
}

// grammarRewrite writes the class escapes of pattern p as the classes they
// stand for, or says why p has no form the grammar takes.
func grammarRewrite(p string) (string, string) {
	if !anchored(p) {
		return "", "which takes only patterns anchored ^…$"
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			i++
			members := classEscapes[next|0x20]
			switch {
			case members == "":
				b.WriteByte(c)
				b.WriteByte(next)
			case next >= 'a' && inClass:
				b.WriteString(members)
			case next >= 'a':
				b.WriteString("[" + members + "]")
			case inClass:
				return "", fmt.Sprintf("which has no \\%c, and inside a class it has no other form", next)
			default:
				b.WriteString("[^" + members + "]")
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}
