package canonical

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects that ParseJSON
// accepts. Real schemas stay far below it; the limit keeps hostile input from
// exhausting the stack.
const MaxDepth = 10000

// SyntaxError is a JSON syntax error at a position in the input.
type SyntaxError struct {
	Pos Pos
	Msg string
}

// Error returns "line:column: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
}

// ParseJSON parses one JSON text (RFC 8259) into a Value that records the
// position of every value and key. It rejects invalid UTF-8, duplicate keys in
// an object (their meaning differs between JSON parsers) and trailing data. A
// leading UTF-8 byte order mark is skipped.
func ParseJSON(data []byte) (*Value, error) {
	p := &parser{data: data, line: 1}
	if sc, ok := scratchPool.Get().(*scratch); ok {
		p.scratch = *sc
	}
	defer func() {
		sc := p.scratch
		sc.members, sc.items = sc.members[:0], sc.items[:0]
		scratchPool.Put(&sc)
	}()
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		p.i, p.lineStart = 3, 3
	}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.data) {
		return nil, p.errorf("unexpected %s after the JSON value", p.describe())
	}
	return v, nil
}

type parser struct {
	data      []byte
	i         int
	line      int
	lineStart int
	depth     int

	scratch
	// The values, members and items of the parsed document are taken
	// from chunks, each sized by what is left to read: one allocation for
	// many small ones. A chunk lives as long as one of its values does,
	// which for a parsed document is as long as the document.
	valueSlab  []Value
	memberSlab []Member
	itemSlab   []*Value
	// text holds the bytes of the document's strings and numbers, which
	// are views of it: a string each was most of a parse's allocations.
	// Bytes are only appended to it, never changed, and a full chunk is
	// left for a new one.
	text []byte
}

// textSlab is the size of a chunk of text, at most.
const textSlab = 16 << 10

// string returns b as a string kept in the parser's text.
func (p *parser) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > textSlab/4 {
		return string(b) // a long one alone
	}
	if cap(p.text)-len(p.text) < len(b) {
		p.text = make([]byte, 0, max(len(b), p.ahead(4, 64, textSlab)))
	}
	start := len(p.text)
	p.text = append(p.text, b...)
	return unsafe.String(&p.text[start], len(b))
}

// ahead estimates how many of something the rest of the document holds,
// one in every per bytes, between lo and hi: the size of the next chunk,
// so that a small document, or the end of a large one, wastes little of
// its last.
func (p *parser) ahead(per, lo, hi int) int {
	return min(hi, max(lo, (len(p.data)-p.i)/per))
}

// newValue returns a new value from the parser's chunk.
func (p *parser) newValue(v Value) *Value {
	if len(p.valueSlab) == cap(p.valueSlab) {
		p.valueSlab = make([]Value, 0, p.ahead(128, 4, 1024))
	}
	p.valueSlab = append(p.valueSlab, v)
	return &p.valueSlab[len(p.valueSlab)-1]
}

// slab returns a copy of from, in a chunk of at least ahead more (which
// it allocates when the current one has no room), whose capacity ends
// with it, so that appending to the copy moves it out rather than over
// its neighbour.
func slab[T any](chunk *[]T, from []T, ahead int) []T {
	n := len(from)
	if cap(*chunk)-len(*chunk) < n {
		*chunk = make([]T, 0, max(n, ahead))
	}
	start := len(*chunk)
	*chunk = append(*chunk, from...)
	return (*chunk)[start : start+n : start+n]
}

// scratch is what a parser reuses from one document to the next.
type scratch struct {
	// The members and items of the objects and arrays being read, as
	// stacks: each container gets its own slice of exactly its length
	// when it closes, where appending would leave up to half unused (a
	// parsed catalog is most of a build's memory).
	members []Member
	items   []*Value
	// short holds short strings read before (keys, "string", "object" …),
	// so that each is kept once.
	short map[string]string
}

var scratchPool sync.Pool

// maxShort is the length up to which strings are kept once, and maxShorts
// how many such strings a parser's scratch keeps.
const maxShort, maxShorts = 24, 4096

func (p *parser) pos() Pos { return Pos{Line: int32(p.line), Column: int32(p.i - p.lineStart + 1)} }

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.pos(), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.i >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.i:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte %#x", p.data[p.i])
	}
	return fmt.Sprintf("%q", r)
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\r':
			p.i++
		case '\n':
			p.i++
			p.line++
			p.lineStart = p.i
		default:
			return
		}
	}
}

func (p *parser) value() (*Value, error) {
	if p.i >= len(p.data) {
		return nil, p.errorf("unexpected end of input, want a JSON value")
	}
	pos := p.pos()
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(pos)
	case c == '[':
		return p.array(pos)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v := p.newValue(Value{Kind: String, Pos: pos})
		v.SetText(s)
		return v, nil
	case c == '-' || c >= '0' && c <= '9':
		lit, err := p.number()
		if err != nil {
			return nil, err
		}
		v := p.newValue(Value{Kind: Number, Pos: pos})
		v.SetText(lit)
		return v, nil
	default:
		for _, lit := range []struct {
			text string
			v    Value
		}{{"true", Value{Kind: Bool, Bool: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
			if strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+len(lit.text))]), lit.text) {
				p.i += len(lit.text)
				v := lit.v
				v.Pos = pos
				return p.newValue(v), nil
			}
		}
		return nil, p.errorf("unexpected %s, want a JSON value", p.describe())
	}
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errorf("nesting deeper than %d levels", MaxDepth)
	}
	return nil
}

func (p *parser) object(pos Pos) (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.i++ // {
	v := p.newValue(Value{Kind: Object, Pos: pos})
	start := len(p.members)
	defer func() { p.members = p.members[:start] }()
	var seen map[string]struct{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		p.depth--
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.errorf("unexpected %s, want a string key", p.describe())
		}
		keyPos := p.pos()
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		read := p.members[start:]
		if len(read) >= 8 && seen == nil {
			seen = make(map[string]struct{}, 16)
			for _, m := range read {
				seen[m.Key] = struct{}{}
			}
		}
		dup := false
		if seen != nil {
			_, dup = seen[key]
			seen[key] = struct{}{}
		} else {
			dup = slices.ContainsFunc(read, func(m Member) bool { return m.Key == key })
		}
		if dup {
			return nil, &SyntaxError{Pos: keyPos, Msg: fmt.Sprintf("duplicate key %q", key)}
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.errorf("unexpected %s, want ':' after object key", p.describe())
		}
		p.i++
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, Member{Key: key, Value: val, KeyPos: keyPos})
		p.space()
		if p.i >= len(p.data) {
			return nil, p.errorf("unexpected end of input, want ',' or '}'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			p.depth--
			v.SetMembers(slab(&p.memberSlab, p.members[start:], p.ahead(128, 4, 1024)))
			return v, nil
		default:
			return nil, p.errorf("unexpected %s, want ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array(pos Pos) (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.i++ // [
	v := p.newValue(Value{Kind: Array, Pos: pos})
	start := len(p.items)
	defer func() { p.items = p.items[:start] }()
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		p.depth--
		return v, nil
	}
	for {
		p.space()
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, item)
		p.space()
		if p.i >= len(p.data) {
			return nil, p.errorf("unexpected end of input, want ',' or ']'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			p.depth--
			v.SetItems(slab(&p.itemSlab, p.items[start:], p.ahead(512, 4, 1024)))
			return v, nil
		default:
			return nil, p.errorf("unexpected %s, want ',' or ']'", p.describe())
		}
	}
}

func (p *parser) number() (string, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.data[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.data) && p.data[p.i] == '0':
		p.i++
	case digits() == 0:
		return "", p.errorf("invalid number: want a digit, got %s", p.describe())
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return "", p.errorf("invalid number: want a digit after '.', got %s", p.describe())
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return "", p.errorf("invalid number: want a digit in the exponent, got %s", p.describe())
		}
	}
	return p.string(p.data[start:p.i]), nil
}

// keep returns s as a string: the same string for the same short text,
// and a view of the parser's text for a longer one. A short one is copied
// alone, as the parsers share them: a view would keep one document's text
// alive for the next.
func (p *parser) keep(s []byte) string {
	if len(s) > maxShort {
		return p.string(s)
	}
	if k, ok := p.short[string(s)]; ok {
		return k
	}
	k := string(s)
	if len(p.short) < maxShorts {
		if p.short == nil {
			p.short = map[string]string{}
		}
		p.short[k] = k
	}
	return k
}

// str parses a JSON string starting at the opening quote.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, all ASCII or valid UTF-8; eight bytes a look
	// where none is a quote, a backslash or a control.
	for p.i+8 <= len(p.data) && inStringWord(binary.LittleEndian.Uint64(p.data[p.i:])) {
		p.i += 8
	}
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := p.data[start:p.i]
			if !utf8.Valid(s) {
				return "", p.invalidUTF8(start)
			}
			p.i++
			return p.keep(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	var b strings.Builder
	b.Write(p.data[start:p.i])
	for {
		if p.i >= len(p.data) {
			return "", p.errorf("unexpected end of input in string")
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			s := b.String()
			if !utf8.ValidString(s) {
				return "", p.invalidUTF8(start)
			}
			return s, nil
		case c < 0x20:
			return "", p.errorf("control character %#x in string; escape it", c)
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++ // backslash
		if p.i >= len(p.data) {
			return "", p.errorf("unexpected end of input in string escape")
		}
		e := p.data[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if r2, err = p.hex4(); err != nil {
						return "", err
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						p.i = save // lone surrogate followed by another escape
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			p.i -= 2 // point at the backslash
			return "", p.errorf("invalid escape '\\%c' in string", e)
		}
	}
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.data) {
		return 0, p.errorf("unexpected end of input in \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.data[p.i:p.i+4])
	}
	p.i += 4
	return rune(n), nil
}

func (p *parser) invalidUTF8(start int) error {
	for i := start; i < len(p.data); {
		r, size := utf8.DecodeRune(p.data[i:])
		if r == utf8.RuneError && size == 1 {
			p.i = i
			return p.errorf("invalid UTF-8 in string")
		}
		i += size
	}
	return p.errorf("invalid UTF-8 in string")
}

// MarshalJSON encodes v compactly, keys in order. It implements json.Marshaler
// so a Value can sit inside types encoded with encoding/json.
func (v *Value) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(nil, ""), nil
}

// UnmarshalJSON parses data into v (positions are relative to data).
func (v *Value) UnmarshalJSON(data []byte) error {
	w, err := ParseJSON(data)
	if err != nil {
		return err
	}
	*v = *w
	return nil
}

// Indent returns v encoded with two-space indentation and a final newline:
// the form of every file toolc writes.
//
// A large array near the top (a bundle's list of tools) is written in
// parallel, by chunks of items: each chunk is measured in a reused buffer,
// then the output is allocated once at its exact size and each chunk
// written into its place. The bytes are AppendJSON's; the memory is the
// output's alone, without growing one buffer of tens of megabytes by
// copying or holding the chunks beside their join. WriteIndent writes the
// same bytes without holding them at all.
func (v *Value) Indent() []byte {
	w := v.indentParts(true)
	n := 0
	for _, p := range w.parts {
		n += p.size()
	}
	out := make([]byte, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	off := 0
	for _, p := range w.parts {
		dst := out[off : off : off+p.size()]
		off += p.size()
		if p.chunk == nil {
			copy(dst[:len(p.data)], p.data)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			// dst holds exactly n bytes: the same writing fills it without
			// growing it.
			if got := p.chunk.write(dst, w.indent); len(got) != p.chunk.n {
				panic("canonical: a chunk's second writing differs from its first")
			}
		}()
	}
	wg.Wait()
	return out
}

// WriteIndent writes Indent's bytes to out and returns how many it wrote.
// The chunks of a large array are encoded in parallel, each once, into
// reused buffers, a few ahead of the one being written, and written in
// order: the output is never whole in memory, so a build can hash a bundle,
// compare it with the disk or write it while holding only its value. After
// out's first error it writes nothing more and returns that error.
func (v *Value) WriteIndent(out io.Writer) (int64, error) {
	w := v.indentParts(false)
	// A chunk holds its buffer from its encoding until it is written;
	// ahead bounds how many do, so encoders wait for a slow writer.
	ahead := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	ready := make([]chan *[]byte, len(w.parts))
	for i, p := range w.parts {
		if p.chunk != nil {
			ready[i] = make(chan *[]byte, 1)
		}
	}
	go func() {
		for i, p := range w.parts {
			if p.chunk == nil {
				continue
			}
			ahead <- struct{}{}
			go func() {
				buf := chunkBuffer()
				*buf = p.chunk.write((*buf)[:0], w.indent)
				ready[i] <- buf
			}()
		}
	}()
	var n int64
	var err error
	for i, p := range w.parts {
		data, buf := p.data, (*[]byte)(nil)
		if p.chunk != nil {
			buf = <-ready[i]
			data = *buf
		}
		if err == nil {
			var m int
			m, err = out.Write(data)
			n += int64(m)
		}
		if buf != nil {
			putChunkBuffer(buf)
			<-ahead
		}
	}
	return n, err
}

// indentParts splits v's indented encoding, final newline included, into
// its parts: bytes, and the chunks of large arrays, measured or not.
func (v *Value) indentParts(measure bool) *indentWriter {
	w := &indentWriter{indent: "  ", measure: measure}
	w.cur = w.value(w.cur, v, 0)
	w.parts = append(w.parts, part{data: w.cur}, part{data: []byte{'\n'}})
	return w
}

// Parallel indenting: arrays of at least parallelItems items, at most
// parallelDepth deep, are written in chunks of parallelChunk items.
const (
	parallelItems = 512
	parallelChunk = 256
	parallelDepth = 2
)

type indentWriter struct {
	indent  string
	measure bool   // measure each chunk (Indent), or leave it to be written (WriteIndent)
	parts   []part // written so far, in order
	cur     []byte // being written
}

// part is a piece of Indent's output: bytes, or a chunk of a large array
// (which Indent writes twice, once to measure it and once into its place).
type part struct {
	data  []byte
	chunk *chunk
}

func (p part) size() int {
	if p.chunk != nil {
		return p.chunk.n
	}
	return len(p.data)
}

// chunk is items [from, to) of a large array at depth, n bytes written.
type chunk struct {
	v        *Value
	from, to int
	depth    int
	n        int
}

func (c *chunk) write(b []byte, indent string) []byte {
	for i := c.from; i < c.to; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = newline(b, indent, c.depth+1)
		b = appendValue(b, c.v.Items()[i], indent, c.depth+1)
	}
	return b
}

// chunkBuffers are reused to measure chunks (Indent) and to write them
// (WriteIndent).
var chunkBuffers = sync.Pool{New: func() any { return new([]byte) }}

// chunkSize is the largest chunk written so far: a new buffer is made
// that big, where growing it from nothing by doubling made each about
// twice over (85 MB of a 100,000-tool build's last second).
var chunkSize atomic.Int64

// chunkBuffer returns a buffer from chunkBuffers with room for the
// largest chunk written so far.
func chunkBuffer() *[]byte {
	buf := chunkBuffers.Get().(*[]byte)
	if n := int(chunkSize.Load()); cap(*buf) < n {
		*buf = make([]byte, 0, n)
	}
	return buf
}

// putChunkBuffer gives buf back to chunkBuffers, its length counted as
// a chunk written.
func putChunkBuffer(buf *[]byte) {
	n := int64(len(*buf))
	for old := chunkSize.Load(); n > old; old = chunkSize.Load() {
		if chunkSize.CompareAndSwap(old, n) {
			break
		}
	}
	chunkBuffers.Put(buf)
}

func (w *indentWriter) value(b []byte, v *Value, depth int) []byte {
	if v == nil || depth > parallelDepth {
		return appendValue(b, v, w.indent, depth)
	}
	switch {
	case v.Kind == Array && len(v.Items()) >= parallelItems:
		b = append(b, '[')
		w.parts = append(w.parts, part{data: b})
		// A loop of its own, not internal/par: canonical imports nothing
		// of toolc's (STYLE.md).
		chunks := make([]chunk, (len(v.Items())+parallelChunk-1)/parallelChunk)
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for c := range chunks {
			chunks[c] = chunk{v: v, from: c * parallelChunk, to: min(len(v.Items()), (c+1)*parallelChunk), depth: depth}
			if !w.measure {
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				buf := chunkBuffer()
				*buf = chunks[c].write((*buf)[:0], w.indent)
				chunks[c].n = len(*buf)
				putChunkBuffer(buf)
			}()
		}
		wg.Wait()
		for c := range chunks {
			w.parts = append(w.parts, part{chunk: &chunks[c]})
		}
		b = newline(nil, w.indent, depth)
		return append(b, ']')
	case (v.Kind == Object && len(v.Members()) > 0) || (v.Kind == Array && len(v.Items()) > 0):
		// Down to the large array: appendValue's loop, recursing here.
		open, close, n := byte('{'), byte('}'), len(v.Members())
		if v.Kind == Array {
			open, close, n = '[', ']', len(v.Items())
		}
		b = append(b, open)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, w.indent, depth+1)
			var child *Value
			if v.Kind == Object {
				m := v.Members()[i]
				b = append(AppendString(b, m.Key), ':', ' ')
				child = m.Value
			} else {
				child = v.Items()[i]
			}
			b = w.value(b, child, depth+1)
		}
		b = newline(b, w.indent, depth)
		return append(b, close)
	}
	return appendValue(b, v, w.indent, depth)
}

// String returns v as compact JSON on one line, for messages.
func (v *Value) String() string { return string(v.AppendJSON(nil, "")) }

// AppendJSON appends the JSON encoding of v to b. With a non-empty indent,
// each array element and object member goes on its own line, indented; empty
// arrays and objects stay "[]" and "{}". Strings are escaped minimally (quote,
// backslash, control characters) so non-ASCII text stays readable.
func (v *Value) AppendJSON(b []byte, indent string) []byte {
	return appendValue(b, v, indent, 0)
}

func appendValue(b []byte, v *Value, indent string, depth int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Number:
		return append(b, v.Text()...)
	case String:
		return AppendString(b, v.Text())
	case Array:
		if len(v.Items()) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, it := range v.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, indent, depth+1)
			b = appendValue(b, it, indent, depth+1)
		}
		b = newline(b, indent, depth)
		return append(b, ']')
	case Object:
		if len(v.Members()) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, indent, depth+1)
			b = AppendString(b, m.Key)
			b = append(b, ':')
			if indent != "" {
				b = append(b, ' ')
			}
			b = appendValue(b, m.Value, indent, depth+1)
		}
		b = newline(b, indent, depth)
		return append(b, '}')
	}
	return append(b, "null"...)
}

func newline(b []byte, indent string, depth int) []byte {
	if indent == "" {
		return b
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, indent...)
	}
	return b
}
