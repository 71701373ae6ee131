package lower

import (
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// OpenAI compiles every pattern with Python's re, in every mode, and
// refuses one that re cannot compile ("… is not a 'regex'"; BerriAI/litellm
// issues 40358 and 40485; PROVIDERS.md, November 2026). re names groups
// (?P<name>…) and refers back with (?P=name), which ECMA-262's (?<name>…)
// and \k<name> are written as; it has no \p{…} classes nor possessive
// quantifiers, so a pattern with them is dropped.

// pythonRewrite writes pattern p as Python's re reads it, or says why it
// cannot be.
func pythonRewrite(p string) (string, string) {
	var b strings.Builder
	inClass, quantified := false, false
	for i := 0; i < len(p); i++ {
		c := p[i]
		wasQuantified := quantified
		quantified = false
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			switch {
			case next == 'p' || next == 'P':
				return "", `Python's re has no \p{…} classes`
			case next == 'k' && !inClass && strings.HasPrefix(p[i+2:], "<") && strings.Contains(p[i+2:], ">"):
				end := i + 2 + strings.IndexByte(p[i+2:], '>')
				b.WriteString("(?P=" + p[i+3:end] + ")")
				i = end
				continue
			}
			b.WriteByte(c)
			b.WriteByte(next)
			i++
			continue
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '+' && wasQuantified:
			return "", "Python's re has no possessive quantifiers"
		case c == '*' || c == '+' || c == '}' || c == '?' && (i == 0 || p[i-1] != '('):
			quantified = true
		case c == '(' && strings.HasPrefix(p[i:], "(?<") && len(p) > i+3 && p[i+3] != '=' && p[i+3] != '!':
			b.WriteString("(?P<")
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), ""
}

// pythonPattern writes n's pattern as Python's re reads it, or drops it
// with loss.pattern where it cannot be.
func pythonPattern(u *Unit, n *canonical.Value, at canonical.Pointer) {
	p, ok := n.Get("pattern").StringValue()
	if !ok {
		return
	}
	out, why := pythonRewrite(p)
	switch {
	case why != "":
		n.Delete("pattern")
		u.Report("loss.pattern", at, n, "pattern", "pattern %q dropped: the target compiles patterns with Python's re, and %s", p, strings.TrimPrefix(why, "Python's re "))
	case out != p:
		n.Set("pattern", canonical.NewString(out))
		u.Report("lower.pattern-portable", at, n, "pattern", "pattern %q written as %q: the target compiles patterns with Python's re, which names groups (?P<name>…)", p, out)
	}
}

// unPythonic reports whether n has a pattern Python's re cannot take as
// written.
func unPythonic(n *canonical.Value) bool {
	p, ok := n.Get("pattern").StringValue()
	if !ok {
		return false
	}
	out, why := pythonRewrite(p)
	return why != "" || out != p
}
