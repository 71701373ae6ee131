package security

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/par"
	"golang.org/x/text/width"
)

// confusable finds tools a model cannot tell apart: names the same but for
// case and separators, or one letter apart, with the same description or
// the same required parameters.
func confusable(ctx context.Context, tools []*canonical.Tool) []diag.Diagnostic {
	c := &confusion{tools: tools, norm: make([]string, len(tools)), req: make([][]string, len(tools)), done: make([]bool, len(tools))}
	for i, t := range tools {
		c.norm[i] = fold(t.Name)
		c.req[i], _ = t.Input.JSON().Get("required").Strings()
		slices.Sort(c.req[i])
	}
	c.sameName()
	if ctx.Err() != nil {
		return nil
	}
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
//
// The buckets hold each name once, whatever number of tools have it (a
// catalog of many servers repeats names, and each tool's scan passed
// every earlier tool of its own name), and each name's neighbours are
// found once, on every core: on numbered names (tool_1 … tool_4345) the
// scans grow faster than the tools, 8.7 times for 5 times on
// ../shared/bench, and ran alone beside the targets.
func (c *confusion) oneLetter() {
	ns := c.distinct()
	near := ns.near()
	// Each tool, in catalog order, against the earlier tools of the names
	// one letter from its own, the earliest first: the lists of tools are
	// in catalog order, and merged as they are tried.
	var at []int
	for j := range c.tools {
		if c.done[j] || ns.of[j] < 0 {
			continue
		}
		es := near[ns.of[j]]
		at = slices.Grow(at[:0], len(es))[:len(es)]
		clear(at)
		for {
			i, k := j, -1 // the earliest not yet tried
			for x, e := range es {
				if ts := ns.toolsOf(e); at[x] < len(ts) && int(ts[at[x]]) < i {
					i, k = int(ts[at[x]]), x
				}
			}
			if k < 0 {
				break
			}
			at[k]++
			if c.done[j] = c.pair(i, j); c.done[j] {
				break
			}
		}
	}
}

// nameSet is the folded names of 6 letters or more, each once, in the
// order of their first tools. Its lists are each one slice, not one a
// name: a catalog's names are nearly as many as its tools.
type nameSet struct {
	names []string
	of    []int32 // each tool's name's index in names; -1 for a shorter name
	tools []int32 // the names' tools, name after name, each's in catalog order
	first []int32 // where each name's tools start in tools, and their end
	seen  []int32 // for each name, how many names have a tool before its last
}

// toolsOf returns the tools of name d, in catalog order.
func (s nameSet) toolsOf(d int32) []int32 { return s.tools[s.first[d]:s.first[d+1]] }

func (c *confusion) distinct() nameSet {
	index := make(map[string]int32, len(c.norm))
	s := nameSet{of: make([]int32, len(c.norm))}
	var count []int32
	for j, n := range c.norm {
		if len(n) < 6 {
			s.of[j] = -1
			continue
		}
		d, ok := index[n]
		if !ok {
			d = int32(len(s.names))
			index[n] = d
			s.names = append(s.names, n)
			count = append(count, 0)
			s.seen = append(s.seen, 0)
		}
		s.of[j] = d
		count[d]++
		s.seen[d] = int32(len(s.names))
	}
	s.first = make([]int32, len(s.names)+1)
	for d, n := range count {
		s.first[d+1] = s.first[d] + n
	}
	s.tools = make([]int32, s.first[len(s.names)])
	next := slices.Clone(s.first) // each name's next place
	for j, d := range s.of {
		if d >= 0 {
			s.tools[next[d]] = int32(j)
			next[d]++
		}
	}
	return s
}

// near returns, for each name, the others one letter from it that have a
// tool before its last tool (the only ones its tools are said against),
// found by the names' shared keys. The names are taken a range at a time
// on every core, each range's neighbours in one slice.
func (s nameSet) near() [][]int32 {
	buckets, shared := oneEditBuckets(s.names)
	near := make([][]int32, len(s.names))
	par.Ranges(len(s.names), 256, func(lo, hi int) {
		var keys []uint64
		var es []int32
		ends := make([]int, hi-lo)
		for d := lo; d < hi; d++ {
			// A name's keys are made again rather than kept: they were
			// as much memory as the buckets.
			keys = nameKeys(s.names[d], buckets.hash, buckets.shift, keys[:0])
			start := len(es)
			es = s.appendNear(es, d, keys, buckets, shared)
			slices.Sort(es[start:])
			es = append(es[:start], slices.Compact(es[start:])...)
			ends[d-lo] = len(es)
		}
		start := 0
		for d := lo; d < hi; d++ {
			if end := ends[d-lo]; end > start {
				near[d] = es[start:end:end]
				start = end
			}
		}
	})
	return near
}

// appendNear appends to es the names one letter from name d among those
// that share one of its keys and have a tool before its last: a bucket's
// names are in order, and those from seen[d] on have every tool after it.
func (s nameSet) appendNear(es []int32, d int, keys []uint64, b buckets, shared map[uint64]int) []int32 {
	for _, k := range keys {
		at, ok := shared[k]
		if !ok {
			continue
		}
		for ; at < len(b.pairs) && b.key(at) == k && b.name(at) < int(s.seen[d]); at++ {
			if e := b.name(at); e != d && oneEdit(s.names[e], s.names[d]) {
				es = append(es, int32(e))
			}
		}
	}
	return es
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

// buckets are the (key, name) pairs of the confusable check, each one
// integer: the key in the high bits and the name's index in the low
// shift bits, so that sorting them as integers orders them by key and
// then name (a sort with a comparison function was a third of the check).
type buckets struct {
	pairs []uint64
	shift uint
	hash  polyHash // of the keys
}

func (b buckets) key(at int) uint64 { return b.pairs[at] >> b.shift }
func (b buckets) name(at int) int   { return int(b.pairs[at] & (1<<b.shift - 1)) }

// oneEditBuckets are the (key, name) pairs of the names of norm sorted,
// a name's keys being those of nameKeys, and where each key that two
// names share starts among them. The names are nameSet's: 6 letters or
// more, each once.
func oneEditBuckets(norm []string) (buckets, map[uint64]int) {
	b := buckets{shift: uint(bits.Len(uint(len(norm)))), hash: newPolyHash()}
	// The buckets, as one sorted slice of pairs rather than a map of
	// slices: a 20,000-tool catalog has 400,000 keys, and a map's growth
	// and appends were most of this check's time. Each name's keys have a
	// place at most their number long, found first, so the names are
	// hashed in parallel; a place a name leaves unused holds a pair no
	// name makes (all ones: an index is below 1<<shift - 1), sorted last.
	start := make([]int, len(norm)+1)
	for i, n := range norm {
		start[i+1] = start[i] + len(n) + 1
	}
	b.pairs = make([]uint64, start[len(norm)])
	par.For(len(norm), 256, func(i int) {
		// The keys are made in the name's place and made pairs there.
		pairs := b.pairs[start[i]:start[i+1]]
		ks := nameKeys(norm[i], b.hash, b.shift, pairs[:0])
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
//
// The keys are polynomial hashes, each string less a letter's made from
// the whole name's in constant time (its prefix's, by the base's inverse,
// and its suffix's, built from the end): the work is linear in the
// name's length, where hashing each string anew was quadratic (a name of
// a million letters took minutes).
func nameKeys(n string, h polyHash, shift uint, ks []uint64) []uint64 {
	whole := uint64(0)
	for i := 0; i < len(n); i++ {
		whole = addmod(mulmod(whole, h.base), uint64(n[i])+1)
	}
	ks = append(ks, h.key(whole, len(n))>>shift)
	prefix, suffix, pow := whole, uint64(0), uint64(1) // of n[:k+1], of n[k+1:], base^len(n[k+1:])
	for k := len(n) - 1; k >= 0; k-- {
		c := uint64(n[k]) + 1
		prefix = mulmod(submod(prefix, c), h.inverse) // now of n[:k]
		if k == 0 || n[k] != n[k-1] {                 // a letter of a run left out is one string
			ks = append(ks, h.key(addmod(mulmod(prefix, pow), suffix), len(n)-1)>>shift)
		}
		suffix = addmod(mulmod(c, pow), suffix)
		pow = mulmod(pow, h.base)
	}
	return ks
}

// polyHash hashes strings as polynomials modulo the prime 2^61-1, at a
// base chosen at random for each process (so no catalog can choose names
// that collide), each byte b as b+1.
type polyHash struct {
	base, inverse uint64
	mix           maphash.Seed
}

const mersenne61 = 1<<61 - 1

func newPolyHash() polyHash {
	mix := maphash.MakeSeed()
	base := maphash.Comparable(mix, uint64(0x70c1))%(mersenne61-512) + 257
	return polyHash{base: base, inverse: powmod(base, mersenne61-2), mix: mix}
}

// key is the hash of a string whose polynomial is v and length n.
func (h polyHash) key(v uint64, n int) uint64 {
	return maphash.Comparable(h.mix, [2]uint64{v, uint64(n)})
}

func mulmod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	r := (hi<<3 | lo>>61) + lo&mersenne61
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

func addmod(a, b uint64) uint64 {
	r := a + b
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

func submod(a, b uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a + mersenne61 - b
}

func powmod(a, e uint64) uint64 {
	r := uint64(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulmod(r, a)
		}
		a = mulmod(a, a)
	}
	return r
}
