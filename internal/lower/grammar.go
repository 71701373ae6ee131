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
	out, why := grammarRewrite(p)
	switch {
	case why != "":
		return why
	case out != p:
		return "uses an escape the grammar reads otherwise"
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
	u.Report("lower.pattern-portable", at, n, "pattern", "pattern %q written as %q: the target compiles patterns into a grammar without \\d, \\w and \\s, or escapes of characters that need none, so they are spelled as what they stand for", p, out)
}

// grammarOperators are the characters llama.cpp's converter reads as
// operators outside a class (NON_LITERAL_SET in
// common/json-schema-to-grammar.cpp): an escaped one is the character.
const grammarOperators = "|.()[]{}*+?"

// grammarRewrite writes pattern p as llama.cpp's converter turns it into a
// grammar rule, or says why p has no such form. The converter copies every
// other escape into the grammar, whose parser reads only \t, \n, \r, \\,
// \", \x…, \u… (and \[, \] in a class), and it does not read a group that
// starts (? at all ("Unsupported pattern syntax"): a lookaround, a
// non-capturing or named group makes a grammar that fails to parse
// (codefuturist/email-mcp issues 72 and 74, through LM Studio and Ollama
// too). So the class escapes are written as the classes they stand for, an
// escaped punctuation character as itself, which says the same; a pattern
// not anchored, with a (?…) group, a backreference, a \b or another escape
// the grammar has no form of is refused.
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
			out, why := grammarEscape(next, inClass)
			if why != "" {
				return "", why
			}
			b.WriteString(out)
		case c == '(' && !inClass && i+1 < len(p) && p[i+1] == '?':
			return "", "which does not read a group that starts (? (a lookaround, a non-capturing or a named group)"
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

// grammarEscape writes the escape \c as the grammar takes it, in a class
// or not, or says why it has no such form.
func grammarEscape(c byte, inClass bool) (string, string) {
	members := classEscapes[c|0x20]
	switch {
	case members != "" && c >= 'a' && inClass:
		return members, ""
	case members != "" && c >= 'a':
		return "[" + members + "]", ""
	case members != "" && inClass:
		return "", fmt.Sprintf("which has no \\%c, and inside a class it has no other form", c)
	case members != "":
		return "[^" + members + "]", ""
	case c >= '1' && c <= '9' || c == 'k':
		return "", "which has no backreferences"
	case strings.IndexByte(`tnrxu\"`, c) >= 0 || inClass && (c == '[' || c == ']') || !inClass && strings.IndexByte(grammarOperators, c) >= 0:
		return "\\" + string(c), "" // read as it is
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		return "", fmt.Sprintf("which has no \\%c", c)
	case c == '^' || c == '$' || inClass && c == '-':
		return "", fmt.Sprintf("which reads no escaped %c, and here it has no other form", c)
	}
	return string(c), "" // punctuation, escaped or not: the same
}
