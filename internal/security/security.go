// Package security finds what tool poisoning uses in a catalog, by
// deterministic rules (no model is asked): characters a reader does not see,
// instructions aimed at the model, requests for secrets, annotations that
// contradict the tool's name, tools a model cannot tell apart, and
// descriptions that name another server's tools. Each finding names the
// tool, the field and the matched text. The rules are data (rules.go), each
// with the source of its pattern.
//
// The package does no I/O.
package security

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/words"
)

// Check returns the findings of every rule on the tools of one catalog.
// Once ctx is done it stops, and returns nil.
func Check(ctx context.Context, tools []*canonical.Tool) []diag.Diagnostic {
	// The confusable names are a serial part: begun first, beside the
	// rules of each tool, so that it does not end the check alone.
	confused := make(chan []diag.Diagnostic, 1)
	go func() { confused <- confusable(ctx, tools) }()
	per := make([][]diag.Diagnostic, len(tools)) // each tool's, in its slot: the order is the catalog's
	var seen sync.Map                            // text → its phrase matches: catalogs repeat descriptions
	err := par.ForContext(ctx, len(tools), 256, func(i int) {
		t := tools[i]
		fields(t, func(f field) {
			if mayHide(f.text) {
				per[i] = append(per[i], hidden(t, f)...)
			}
			if f.prose {
				per[i] = append(per[i], phrases(t, f, &seen)...)
				per[i] = append(per[i], encodedPayload(t, f)...)
			}
			if identifier(f) {
				per[i] = append(per[i], spelledInstruction(t, f)...)
			}
		})
		named := annotations(t)
		per[i] = append(per[i], named...)
		per[i] = append(per[i], hintContradiction(t, named)...)
	})
	confusedDs := <-confused
	if err != nil || ctx.Err() != nil {
		return nil
	}
	// Made at their size: a large catalog has a finding a tool.
	lists := append(per, confusedDs, crossReferences(tools))
	return slices.Concat(lists...)
}

// field is one piece of a tool's text.
type field struct {
	base  canonical.Pointer // in the canonical form, with path below it
	path  []string          // the walk's: valid only while the field is visited
	text  string
	key   bool // a property name, not a value
	prose bool // text for the model to read (a description, a title), which the phrase rules read
}

// at is where the field is: made only for a finding, as most fields have
// none.
func (f field) at() canonical.Pointer { return f.base.Append(f.path...) }

// fields visits the text of a tool that a model reads, for the phrase
// rules: its title and description, and the descriptions and titles in its
// schemas; and any other string of it that holds an invisible character.
func fields(t *canonical.Tool, visit func(field)) {
	add := func(at canonical.Pointer, text string, prose bool) {
		if prose && text != "" || mayHide(text) {
			visit(field{base: at, text: text, prose: prose})
		}
	}
	visit(field{base: "/name", text: t.Name}) // for the identifier rule, and any hidden character
	add("/title", t.Title, true)
	add("/description", t.Description, true)
	if t.Annotations != nil {
		add("/annotations/title", t.Annotations.Title, true)
	}
	buf := paths.Get().(*[]string)
	defer paths.Put(buf)
	path := (*buf)[:0]
	if t.Meta != nil { // _meta: what a client may show or pass on
		walkText(t.Meta, "/meta", path, visit)
	}
	for i, ex := range t.Examples {
		walkText(ex, canonical.Pointer("/examples").Index(i), path, visit)
	}
	if t.Input != nil {
		walkStrings(t.Input.JSON(), "/input", path, visit)
	}
	if t.Output != nil {
		walkStrings(t.Output.JSON(), "/output", path, visit)
	}
}

// paths are the walks' paths, one a tool being walked: made for each
// tool, they were 31 MB of what the check allocated at 100,000 tools.
var paths = sync.Pool{New: func() any { p := make([]string, 0, 16); return &p }}

// walkStrings visits the strings of a schema that fields wants: values
// and property names; path is where v is, its last element the key it is
// under.
func walkStrings(v *canonical.Value, base canonical.Pointer, path []string, visit func(field)) {
	switch v.Kind {
	case canonical.String:
		key := ""
		if len(path) > 0 {
			key = path[len(path)-1]
		}
		prose := key == "description" || key == "title" || key == "default" || key == "const" || valueOf(path)
		if prose && v.Text() != "" || mayHide(v.Text()) {
			visit(field{base: base, path: path, text: v.Text(), prose: prose})
		}
	case canonical.Array:
		for i, it := range v.Items() {
			if it.Kind == canonical.Object || it.Kind == canonical.Array || it.Kind == canonical.String {
				walkStrings(it, base, append(path, strconv.Itoa(i)), visit)
			}
		}
	case canonical.Object:
		params := len(path) > 0 && path[len(path)-1] == "properties"
		for _, m := range v.Members() {
			if params || mayHide(m.Key) { // a parameter's name is read by the model too
				visit(field{base: base, path: append(path, m.Key), text: m.Key, key: true, prose: params})
			}
			walkStrings(m.Value, base, append(path, m.Key), visit)
		}
	}
}

// valueOf reports whether path is an item of an enum or an examples
// list: a value a model may be told to send.
func valueOf(path []string) bool {
	n := len(path)
	return n >= 2 && (path[n-2] == "enum" || path[n-2] == "examples")
}

// walkText visits every string and key of v (a tool's _meta, an input
// example) as text the phrase rules read.
func walkText(v *canonical.Value, base canonical.Pointer, path []string, visit func(field)) {
	switch v.Kind {
	case canonical.String:
		if v.Text() != "" {
			visit(field{base: base, path: path, text: v.Text(), prose: true})
		}
	case canonical.Array:
		for i, it := range v.Items() {
			walkText(it, base, append(path, strconv.Itoa(i)), visit)
		}
	case canonical.Object:
		for _, m := range v.Members() {
			visit(field{base: base, path: append(path, m.Key), text: m.Key, key: true, prose: true})
			walkText(m.Value, base, append(path, m.Key), visit)
		}
	}
}

// mayHide reports whether s may hold an invisible character: every one
// is encoded in UTF-8 with one of these first bytes.
func mayHide(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0x1B, 0xE1, 0xE2, 0xEF, 0xF3:
			return true
		}
	}
	return false
}

// label says where a field is, as a person reads it: a parameter's
// description rather than a pointer.
func (f field) label() string {
	p := string(f.at())
	schema := ""
	switch {
	case strings.HasPrefix(p, "/input"):
		schema, p = "inputSchema", strings.TrimPrefix(p, "/input")
	case strings.HasPrefix(p, "/output"):
		schema, p = "outputSchema", strings.TrimPrefix(p, "/output")
	default:
		return strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", ".")
	}
	if f.key {
		return schema + " key " + p
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if n := len(parts); n >= 3 && parts[n-3] == "properties" {
		return fmt.Sprintf("%s parameter %q %s", schema, parts[n-2], parts[n-1])
	}
	if p == "" {
		return schema
	}
	return schema + " " + p
}

func report(t *canonical.Tool, code string, at canonical.Pointer, format string, args ...any) diag.Diagnostic {
	return diag.New(code, format, args...).At(t.Source.Place(at)).About(t.ID())
}

// hidden finds characters a reader does not see.
func hidden(t *canonical.Tool, f field) []diag.Diagnostic {
	var counts []int
	var runes []rune
	var tags strings.Builder
	rs := []rune(f.text)
	for i, r := range rs {
		if !invisible(r) {
			continue
		}
		if r == 0x200D && i > 0 && i+1 < len(rs) && pictograph(rs[i-1]) && pictograph(rs[i+1]) {
			continue // a joiner inside an emoji sequence (👨‍👩‍👧) is seen
		}
		if r == 0xFE0F && i > 0 && (pictograph(rs[i-1]) || unicode.IsSymbol(rs[i-1]) || rs[i-1] == 0x20E3) || r == 0xFE0E && i > 0 {
			continue // emoji or text presentation of the character before: seen
		}
		if i := slices.Index(runes, r); i >= 0 {
			counts[i]++
		} else {
			runes, counts = append(runes, r), append(counts, 1)
		}
		if r >= 0xE0020 && r <= 0xE007E {
			tags.WriteRune(r - 0xE0000)
		}
	}
	if len(runes) == 0 {
		return nil
	}
	var parts []string
	for i, r := range runes {
		p := fmt.Sprintf("U+%04X %s", r, runeName(r))
		if counts[i] > 1 {
			p += fmt.Sprintf(" ×%d", counts[i])
		}
		parts = append(parts, p)
	}
	msg := fmt.Sprintf("%s holds characters a reader does not see and a model reads: %s", f.label(), strings.Join(parts, ", "))
	if tags.Len() > 0 {
		msg += fmt.Sprintf("; the tag characters spell %q", diagfmt.Elide(tags.String(), 80))
	}
	return []diag.Diagnostic{report(t, "security.hidden-characters", f.at(), "%s", msg)}
}

// invisibles are the characters a reader does not see: zero-width, bidi
// controls and tags, each range with its name.
var invisibles = []struct {
	lo, hi rune
	name   string
}{
	{0x1B, 0x1B, "ESCAPE, which starts a terminal control sequence"},
	{0x180E, 0x180E, "MONGOLIAN VOWEL SEPARATOR"},
	{0x200B, 0x200B, "ZERO WIDTH SPACE"},
	{0x200C, 0x200C, "ZERO WIDTH NON-JOINER"},
	{0x200D, 0x200D, "ZERO WIDTH JOINER"},
	{0x202A, 0x202E, "bidi control"},
	{0x2060, 0x2060, "WORD JOINER"},
	{0x2066, 0x2069, "bidi control"},
	{0xFE00, 0xFE0F, "VARIATION SELECTOR"},
	{0xFEFF, 0xFEFF, "ZERO WIDTH NO-BREAK SPACE"},
	{0xE0000, 0xE007F, "TAG character"},
	{0xE0100, 0xE01EF, "VARIATION SELECTOR"},
}

// invisible reports whether r is one of invisibles.
func invisible(r rune) bool { return runeName(r) != "" }

// runeName is the name of an invisible character, or "".
func runeName(r rune) string {
	for _, c := range invisibles {
		if c.lo <= r && r <= c.hi {
			return c.name
		}
	}
	return ""
}

// pictograph reports whether r is an emoji a zero-width joiner may join.
func pictograph(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r == 0xFE0F
}

// phrases runs the text rules on one field.
func phrases(t *canonical.Tool, f field, cache *sync.Map) []diag.Diagnostic {
	var found []phraseMatch
	if v, ok := cache.Load(f.text); ok {
		found = v.([]phraseMatch)
	} else {
		found = matchPhrases(f.text)
		cache.Store(f.text, found)
	}
	var out []diag.Diagnostic
	for _, m := range found {
		out = append(out, report(t, m.rule.Code, f.at(), "%s holds %s: %q", f.label(), m.rule.Name, diagfmt.Elide(m.text, 80)))
	}
	return out
}

// phraseMatch is one rule's match in a text.
type phraseMatch struct {
	rule *textRule
	text string
}

// matchPhrases finds the phrase rules' matches in text, each match of a
// rule once.
func matchPhrases(text string) []phraseMatch {
	var out []phraseMatch
	buf := lowerPool.Get().(*[]byte)
	defer lowerPool.Put(buf)
	*buf = lowerASCII((*buf)[:0], text)
	lower := unsafeString(*buf)
	for i := range textRules {
		r := &textRules[i]
		if !r.mayMatch(lower) {
			continue
		}
		m := r.Pattern().FindString(text)
		if m == "" || slices.ContainsFunc(out, func(p phraseMatch) bool { return p.rule.Code == r.Code && p.text == m }) {
			continue
		}
		out = append(out, phraseMatch{r, m})
	}
	return out
}

// annotations finds hints that contradict the tool's name: read-only or
// not destructive, for a tool named to delete.
func annotations(t *canonical.Tool) []diag.Diagnostic {
	a := t.Annotations
	if a == nil {
		return nil
	}
	verb := ""
	for _, w := range words.Name(t.Name) {
		if slices.Contains(destructiveVerbs, w) {
			verb = w
			break
		}
	}
	said := "named to %s (%q)"
	if verb == "" {
		// Its description's first word: "Deletes the repository."
		first, _, _ := strings.Cut(strings.TrimSpace(t.Description), " ")
		w := strings.ToLower(strings.TrimRight(first, ".,:;"))
		for _, v := range destructiveVerbs {
			if w == v+"s" || w == v+"es" {
				verb, said = v, "whose description begins %q (%q)"
				verb = first
				break
			}
		}
	}
	if verb == "" {
		return nil
	}
	var out []diag.Diagnostic
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		out = append(out, report(t, "security.annotation-mismatch", "/annotations/readOnlyHint", "readOnlyHint is true for a tool "+said+": a client that trusts it runs the tool without asking", verb, t.Name))
	} else if a.DestructiveHint != nil && !*a.DestructiveHint {
		out = append(out, report(t, "security.annotation-mismatch", "/annotations/destructiveHint", "destructiveHint is false for a tool "+said+": a client that trusts it does not warn before running it", verb, t.Name))
	}
	return out
}

// crossReferences finds descriptions that name a tool of another
// namespace (another server): a description that steers the model toward,
// or away from, another server's tools. Only distinctive names count (with
// a separator or a case change), so that "search" in a sentence is a word.
func crossReferences(tools []*canonical.Tool) []diag.Diagnostic {
	// Each distinctive name's first tool; the tools of a name that more
	// than one tool has (in other namespaces) in more: a slice a name was
	// most of the check's memory.
	names := make(map[string]*canonical.Tool, len(tools))
	more := map[string][]*canonical.Tool{}
	for _, t := range tools {
		if words.Count(t.Name) < 2 || utf8.RuneCountInString(t.Name) < 6 {
			continue
		}
		first, ok := names[t.Name]
		switch {
		case !ok:
			names[t.Name] = t
		case more[t.Name] == nil:
			more[t.Name] = []*canonical.Tool{first, t}
		default:
			more[t.Name] = append(more[t.Name], t)
		}
	}
	if len(names) == 0 {
		return nil
	}
	var out []diag.Diagnostic
	for _, t := range tools {
		for w := range strings.FieldsFuncSeq(t.Description, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.'
		}) {
			w = strings.Trim(w, ".-")
			first, ok := names[w]
			if !ok || first.Namespace == t.Namespace || slices.ContainsFunc(more[w], func(o *canonical.Tool) bool { return o.Namespace == t.Namespace }) {
				continue
			}
			out = append(out, report(t, "security.cross-reference", "/description", "description names %s, a tool of another server (namespace %q): a description that steers the model to or from another server's tools", first.ID(), first.Namespace))
			break
		}
	}
	return out
}

var lowerPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// lowerASCII appends s to dst with ASCII letters in lower case: the
// needles are ASCII.
func lowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// unsafeString is b as a string without a copy, for a search that ends
// before b is reused.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
