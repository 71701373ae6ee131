package manifest

import (
	"regexp"
	"strconv"
	"strings"
)

// keyIndex maps key paths of a TOML document, with array-of-tables indexes
// ("targets[1].policy.deny"), to the line and column where the key is
// written. BurntSushi/toml keeps key positions private, and keys them by
// dotted path without indexes (the second [[targets]]'s strict overwrites
// the first's), so diagnostics about a key (unknown, wrong type, bad value)
// look them up here. It is a light scan of the text, not a parser: the
// document has already been parsed successfully when it is used.
type keyIndex map[string][2]int

func indexKeys(text string) keyIndex {
	idx := keyIndex{}
	counts := map[string]int{} // array-of-tables name → elements so far
	var table string
	lines := strings.Split(text, "\n")
	for n := 0; n < len(lines); n++ {
		line := lines[n]
		trimmed := strings.TrimSpace(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		switch {
		case trimmed == "" || trimmed[0] == '#':
			continue
		case strings.HasPrefix(trimmed, "[["):
			name := tablePath(splitKey(strings.TrimSuffix(strings.TrimSpace(stripComment(trimmed)[2:]), "]]")), counts)
			i := counts[name]
			counts[name] = i + 1
			table = name + "[" + strconv.Itoa(i) + "]"
			idx.add(table, n+1, col)
			continue
		case trimmed[0] == '[':
			table = tablePath(splitKey(strings.TrimSuffix(strings.TrimSpace(stripComment(trimmed)[1:]), "]")), counts)
			idx.add(table, n+1, col)
			continue
		}
		eq := indexOutsideQuotes(trimmed, '=')
		if eq < 0 {
			continue
		}
		key := joinKey(splitKey(trimmed[:eq]))
		full := join(table, key)
		idx.add(full, n+1, col)
		value := strings.TrimSpace(trimmed[eq+1:])
		if strings.HasPrefix(value, "{") {
			idx.inline(full, value, n+1, col+len(trimmed)-len(value))
		}
		// Skip the continuation lines of a multi-line array or string.
		for depth := bracketDepth(value); depth > 0 && n+1 < len(lines); {
			n++
			depth += bracketDepth(lines[n])
		}
		for _, delim := range []string{`"""`, `'''`} {
			if strings.HasPrefix(value, delim) && !strings.Contains(value[3:], delim) {
				for n+1 < len(lines) {
					n++
					if strings.Contains(lines[n], delim) {
						break
					}
				}
			}
		}
	}
	return idx
}

func (idx keyIndex) add(key string, line, col int) {
	if _, ok := idx[key]; !ok {
		idx[key] = [2]int{line, col}
	}
}

// scan calls fn for each byte of s that is outside a quoted string, with its
// index, until fn returns false. Basic strings ("…") may hold \-escapes,
// literal strings ('…') may not.
func scan(s string, fn func(i int, c byte) bool) {
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr == '"' && c == '\\':
			i++
		case inStr != 0:
			if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		default:
			if !fn(i, c) {
				return
			}
		}
	}
}

// inline records the keys of an inline table value {a = 1, b = [..]} that
// starts at column col.
func (idx keyIndex) inline(prefix, value string, line, col int) {
	depth, start := 0, 1
	scan(value, func(i int, c byte) bool {
		switch {
		case c == '{' || c == '[':
			depth++
			if depth == 1 {
				start = i + 1
			}
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			start = i + 1
		case c == '=' && depth == 1:
			k := strings.TrimSpace(value[start:i])
			off := start + len(value[start:i]) - len(strings.TrimLeft(value[start:i], " \t"))
			idx.add(join(prefix, joinKey(splitKey(k))), line, col+off)
		}
		return true
	})
}

// bracketDepth is how many brackets and braces s opens but does not close,
// up to a comment.
func bracketDepth(s string) int {
	d := 0
	scan(s, func(_ int, c byte) bool {
		switch c {
		case '#':
			return false
		case '[', '{':
			d++
		case ']', '}':
			d--
		}
		return true
	})
	return d
}

func stripComment(s string) string {
	if i := indexOutsideQuotes(s, '#'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func indexOutsideQuotes(s string, b byte) int {
	at := -1
	scan(s, func(i int, c byte) bool {
		if c == b {
			at = i
			return false
		}
		return true
	})
	return at
}

// splitKey splits a dotted TOML key into its parts, unquoting quoted parts.
func splitKey(s string) []string {
	var parts []string
	var cur strings.Builder
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr == '"' && c == '\\' && i+1 < len(s):
			// A basic string's escape, as TOML decodes it, so the key
			// found here is the key the decoder names.
			i++
			switch e := s[i]; e {
			case 'b':
				cur.WriteByte('\b')
			case 't':
				cur.WriteByte('\t')
			case 'n':
				cur.WriteByte('\n')
			case 'f':
				cur.WriteByte('\f')
			case 'r':
				cur.WriteByte('\r')
			case 'e':
				cur.WriteByte(0x1b)
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if i+n < len(s) {
					if r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil {
						cur.WriteRune(rune(r))
						i += n
						continue
					}
				}
				cur.WriteByte(e)
			default: // \" and \\ and what TOML refuses anyway
				cur.WriteByte(e)
			}
		case inStr != 0:
			if c == inStr {
				inStr = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

// tablePath makes the key path of a table header's parts: a part that names
// an array of tables seen so far is its last element ("[sources.openapi]"
// after two [[sources]] is "sources[1].openapi").
func tablePath(parts []string, counts map[string]int) string {
	path := ""
	for i, p := range parts {
		path = join(path, quotePart(p))
		if n := counts[path]; n > 0 && i < len(parts)-1 {
			path += "[" + strconv.Itoa(n-1) + "]"
		}
	}
	return path
}

func joinKey(parts []string) string { return KeyPath(parts...) }

// KeyPath joins the parts of a key path as diagnostics write them: a dot
// between parts, a part that is not a bare key quoted (operations."GET
// /pets"), an array index kept as it is (include[1]).
func KeyPath(parts ...string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = quotePart(p)
	}
	return strings.Join(q, ".")
}

var indexedKey = regexp.MustCompile(`^[A-Za-z0-9_-]+(\[[0-9]+\])+$`)

func quotePart(p string) string {
	if indexedKey.MatchString(p) {
		return p
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(p)
		}
	}
	return p
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// pos returns the position of key, or of its nearest written ancestor.
func (idx keyIndex) pos(key string) (line, col int) {
	for k := key; k != ""; {
		if p, ok := idx[k]; ok {
			return p[0], p[1]
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0, 0
}
