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
	"cmp"
	"fmt"
	"hash/maphash"
	"iter"
	"math/bits"
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
	"golang.org/x/text/width"
)

// Check returns the findings of every rule on the tools of one catalog.
func Check(tools []*canonical.Tool) []diag.Diagnostic {
	// The confusable names are a serial part: begun first, beside the
	// rules of each tool, so that it does not end the check alone.
	confused := make(chan []diag.Diagnostic, 1)
	go func() { confused <- confusable(tools) }()
	per := make([][]diag.Diagnostic, len(tools)) // each tool's, in its slot: the order is the catalog's
	var seen sync.Map                            // text → its phrase matches: catalogs repeat descriptions
	par.For(len(tools), 256, func(i int) {
		t := tools[i]
		fields(t, func(f field) {
			if mayHide(f.text) {
				per[i] = append(per[i], hidden(t, f)...)
			}
			if f.prose {
				per[i] = append(per[i], phrases(t, f, &seen)...)
			}
		})
		per[i] = append(per[i], annotations(t)...)
	})
	// Made at their size: a large catalog has a finding a tool.
	lists := append(per, <-confused, crossReferences(tools))
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
	add("/name", t.Name, false)
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
		missing := slices.ContainsFunc(r.Needles, func(group []string) bool {
			return !slices.ContainsFunc(group, func(n string) bool { return strings.Contains(lower, n) })
		})
		if missing {
			continue
		}
		m := r.Pattern.FindString(text)
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
	for _, w := range words(t.Name) {
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

// words splits a name at _, -, ., spaces and case changes, lower-cased.
func words(name string) []string {
	var out []string
	for w := range wordsOf(name) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// wordCount is len(words(name)), counted without making the words.
func wordCount(name string) int {
	n := 0
	for range wordsOf(name) {
		n++
	}
	return n
}

// wordsOf yields the words of name, as they are in it: the runs of
// letters and digits, each also cut where a lower-case letter is
// followed by an upper-case one.
func wordsOf(name string) iter.Seq[string] {
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

// confusable finds tools a model cannot tell apart: names the same but for
// case and separators, or one letter apart, with the same description or
// the same required parameters.
func confusable(tools []*canonical.Tool) []diag.Diagnostic {
	c := &confusion{tools: tools, norm: make([]string, len(tools)), req: make([][]string, len(tools)), done: make([]bool, len(tools))}
	for i, t := range tools {
		c.norm[i] = fold(t.Name)
		c.req[i], _ = t.Input.JSON().Get("required").Strings()
		slices.Sort(c.req[i])
	}
	c.sameName()
	c.oneLetter()
	out := make([]diag.Diagnostic, 0, len(c.pairs))
	for _, p := range c.pairs {
		a, b := tools[p.a], tools[p.b]
		out = append(out, report(b, "security.tool-confusable", "/name", "%q and %s (%q) differ only in %s and have %s: a model cannot tell them apart, and one may shadow the other",
			b.Name, a.ID(), a.Name, how(a.Name, b.Name, c.norm[p.a] == c.norm[p.b]), p.same))
	}
	for _, t := range tools {
		if mixed := lookalikes(t.Name); mixed != "" {
			out = append(out, report(t, "security.tool-confusable", "/name", "%q holds letters of another script that look like Latin ones (%s): it passes for %q, a model and a reader cannot tell them apart",
				t.Name, mixed, skeleton(t.Name)))
		}
	}
	return out
}

// confusion is the state of the confusable check: each tool is said
// once, against the first tool it cannot be told apart from.
type confusion struct {
	tools []*canonical.Tool
	norm  []string   // each tool's folded name
	req   [][]string // each tool's required parameters, sorted: read for every pair
	done  []bool     // the tools said
	// The pairs found, reported at the end at their number: a catalog
	// made of many servers' copies has one for most of its tools.
	pairs []confusedPair
}

type confusedPair struct {
	a, b int
	same string
}

// pair finds tool j against tool i when a model cannot tell them apart.
func (c *confusion) pair(i, j int) bool {
	a, b := c.tools[i], c.tools[j]
	if a.ID() == b.ID() { // one ID twice is catalog.duplicate-id
		return false
	}
	same := ""
	switch {
	case a.Description != "" && a.Description == b.Description:
		same = "the same description"
	case c.sameRequired(i, j):
		same = "the same required parameters"
	default:
		return false
	}
	c.pairs = append(c.pairs, confusedPair{i, j, same})
	return true
}

// key is tool i's sameKey of what.
func (c *confusion) key(i int, what byte) sameKey {
	if what == 'd' {
		return sameKey{c.norm[i], c.tools[i].Description, 'd'}
	}
	return sameKey{c.norm[i], strings.Join(c.req[i], ","), 'p'}
}

// sameName finds the tools whose folded names are the same, by name and
// description, or by name and required parameters (pair compares the
// properties of the two). The keys are kept as their hashes, each
// checked against the key of the tool it names when found: a map of the
// strings was a quarter of the check's memory. A key whose hash another one
// has (as good as never) is kept whole in clashed.
func (c *confusion) sameName() {
	seed := maphash.MakeSeed()
	first := make(map[uint64]int, len(c.tools))
	var clashed map[sameKey]int
	// firstOf returns the first tool with key k, or makes i that tool.
	firstOf := func(k sameKey, i int) (int, bool) {
		h := hashKey(seed, k)
		j, ok := first[h]
		if !ok {
			first[h] = i
			return 0, false
		}
		if c.key(j, k.what) == k {
			return j, true
		}
		if j, ok := clashed[k]; ok {
			return j, true
		}
		if clashed == nil {
			clashed = map[sameKey]int{}
		}
		clashed[k] = i
		return 0, false
	}
	for i := range c.tools {
		if j, ok := firstOf(c.key(i, 'd'), i); ok {
			c.done[i] = c.pair(j, i)
		}
		if len(c.req[i]) > 0 {
			if j, ok := firstOf(c.key(i, 'p'), i); ok && !c.done[i] {
				c.done[i] = c.pair(j, i)
			}
		}
	}
}

// oneLetter finds the names one letter apart: only names of 6 letters or
// more. Two such names share a bucket, the name with one letter left out
// (or whole), so every pair is found whatever lies between them in sorted
// order, in work linear in the letters. A bucket is the hash of its key
// (no key string is built); oneEdit confirms every candidate, so a
// collision costs a comparison, never a finding.
func (c *confusion) oneLetter() {
	buckets, shared := oneEditBuckets(c.norm)
	// Each name, in catalog order, against the earlier names one letter
	// from it, the earliest first. Its keys are made again rather than
	// kept: they were as much memory as the buckets.
	var earlier []int
	var keys []uint64
	for j, n := range c.norm {
		if c.done[j] || len(n) < 6 {
			continue
		}
		earlier = earlier[:0]
		keys = nameKeys(n, buckets.seed, buckets.shift, keys[:0])
		for _, k := range keys {
			at, ok := shared[k]
			if !ok {
				continue
			}
			for ; at < len(buckets.pairs) && buckets.key(at) == k; at++ {
				i := buckets.name(at)
				if i >= j {
					break
				}
				if c.norm[i] != n && oneEdit(c.norm[i], n) {
					earlier = append(earlier, i)
				}
			}
		}
		slices.Sort(earlier)
		for _, i := range slices.Compact(earlier) {
			if c.done[j] = c.pair(i, j); c.done[j] {
				break
			}
		}
	}
}

// sameKey is what two tools that a model cannot tell apart share: a
// folded name and the description ('d') or the required parameters ('p').
type sameKey struct {
	name, it string
	what     byte
}

// hashKey hashes a sameKey; a test makes every key clash.
var hashKey = maphash.Comparable[sameKey]

// fold is a name in lower case without separators (what words joins),
// each look-alike letter of another script, and each full-width one, as
// the Latin letter it passes for.
func fold(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range skeleton(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// likeLatin are letters of other scripts that pass for Latin ones: the
// Cyrillic and Greek letters of Unicode's confusables (UTS #39) whose
// skeleton is a Latin letter. Full-width letters fold by width.
var likeLatin = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
	'і': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ɡ': 'g', 'ı': 'i',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y',
	'І': 'I', 'Ј': 'J', 'Ѕ': 'S',
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// skeleton is name with each full-width character as its ASCII one and
// each look-alike letter as the Latin letter it passes for.
func skeleton(name string) string {
	if ascii(name) { // nothing to fold: most names
		return name
	}
	name = width.Fold.String(name)
	var b strings.Builder
	for _, r := range name {
		if l, ok := likeLatin[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ascii reports whether s is ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookalikes names the look-alike letters of a name that mixes them with
// Latin ones (or is written in full-width letters), "" for one that does
// not: such a name passes for another.
func lookalikes(name string) string {
	latin := false
	var found []string
	for _, r := range name {
		switch {
		case r < 0x80 && unicode.IsLetter(r):
			latin = true
		case likeLatin[r] != 0:
			found = append(found, fmt.Sprintf("U+%04X for %c", r, likeLatin[r]))
		case r >= 0xFF01 && r <= 0xFF5E:
			latin = true
			found = append(found, fmt.Sprintf("U+%04X for %c", r, r-0xFEE0))
		}
	}
	if !latin || len(found) == 0 {
		return ""
	}
	return strings.Join(slices.Compact(found), ", ")
}

// how says how the names a and b differ; folded is whether they fold to
// one name.
func how(a, b string, folded bool) string {
	if folded {
		switch {
		case a == b:
			return "their namespace"
		case skeleton(a) != a || skeleton(b) != b:
			return "look-alike letters"
		}
		return "case or separators"
	}
	return "one letter"
}

// sameRequired reports whether tools i and j require the same
// parameters, some, and have the same properties.
func (c *confusion) sameRequired(i, j int) bool {
	a, b := c.tools[i], c.tools[j]
	return len(c.req[i]) > 0 && slices.Equal(c.req[i], c.req[j]) &&
		a.Input.JSON().Get("properties").Equal(b.Input.JSON().Get("properties"))
}

// oneEdit reports whether a and b are one insertion, deletion or
// substitution apart.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
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
		if wordCount(t.Name) < 2 || utf8.RuneCountInString(t.Name) < 6 {
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

// buckets are the (key, name) pairs of the confusable check, each one
// integer: the key in the high bits and the name's index in the low
// shift bits, so that sorting them as integers orders them by key and
// then name (a sort with a comparison function was a third of the check).
type buckets struct {
	pairs []uint64
	shift uint
	seed  maphash.Seed // of the keys' hashes
}

func (b buckets) key(at int) uint64 { return b.pairs[at] >> b.shift }
func (b buckets) name(at int) int   { return int(b.pairs[at] & (1<<b.shift - 1)) }

// oneEditBuckets are the (key, name) pairs of the names of norm sorted,
// a name's keys being those of nameKeys, and where each key that two
// names share starts among them.
func oneEditBuckets(norm []string) (buckets, map[uint64]int) {
	b := buckets{shift: uint(bits.Len(uint(len(norm)))), seed: maphash.MakeSeed()}
	// The buckets, as one sorted slice of pairs rather than a map of
	// slices: a 20,000-tool catalog has 400,000 keys, and a map's growth
	// and appends were most of this check's time. Each name's keys have a
	// place at most their number long, found first, so the names are
	// hashed in parallel; a place a name leaves unused holds a pair no
	// name makes (all ones: an index is below 1<<shift - 1), sorted last.
	start := make([]int, len(norm)+1)
	for i, n := range norm {
		start[i+1] = start[i]
		if len(n) >= 6 {
			start[i+1] += len(n) + 1
		}
	}
	b.pairs = make([]uint64, start[len(norm)])
	par.For(len(norm), 256, func(i int) {
		if len(norm[i]) < 6 {
			return
		}
		// The keys are made in the name's place and made pairs there.
		pairs := b.pairs[start[i]:start[i+1]]
		ks := nameKeys(norm[i], b.seed, b.shift, pairs[:0])
		for j := range pairs {
			if j < len(ks) {
				pairs[j] = ks[j]<<b.shift | uint64(i)
			} else {
				pairs[j] = ^uint64(0)
			}
		}
	})
	par.SortFunc(b.pairs, cmp.Compare[uint64])
	for len(b.pairs) > 0 && b.pairs[len(b.pairs)-1] == ^uint64(0) {
		b.pairs = b.pairs[:len(b.pairs)-1]
	}
	// Where each key that two names share starts: most keys are one
	// name's only, and need no look.
	starts := func(at int) bool {
		k := b.key(at)
		return k == b.key(at+1) && (at == 0 || b.key(at-1) != k)
	}
	n := 0 // counted first: a catalog of numbered copies shares most keys
	for at := 0; at+1 < len(b.pairs); at++ {
		if starts(at) {
			n++
		}
	}
	shared := make(map[uint64]int, n)
	for at := 0; at+1 < len(b.pairs); at++ {
		if starts(at) {
			shared[b.key(at)] = at
		}
	}
	return b, shared
}

// nameKeys appends to ks the keys of the name n: the hash, less its low
// shift bits, of n and of each string n less one letter. Two names one
// edit apart share one: the longer less a letter is the shorter (an
// insertion), or the two less the letter where they differ are one
// string (a substitution). Names that share a key without being one
// edit apart (a letter moved) are candidates that oneEdit turns down.
func nameKeys(n string, seed maphash.Seed, shift uint, ks []uint64) []uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	key := func(a, c string) uint64 {
		h.Reset()
		h.WriteString(a)
		h.WriteString(c)
		return h.Sum64() >> shift
	}
	ks = append(ks, key(n, ""))
	for k := range len(n) {
		if k == 0 || n[k] != n[k-1] { // a letter of a run left out is one string
			ks = append(ks, key(n[:k], n[k+1:]))
		}
	}
	return ks
}
