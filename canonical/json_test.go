package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// sameTokens reports whether two JSON texts have the same token stream: same
// member order, same number text, same string values. It is stricter than
// JSON equality, which ignores member order.
func sameTokens(a, b []byte) error {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	for i := 0; ; i++ {
		ta, ea := da.Token()
		tb, eb := db.Token()
		if ea == io.EOF && eb == io.EOF {
			return nil
		}
		if ea != nil || eb != nil {
			return fmt.Errorf("token %d: errors %v / %v", i, ea, eb)
		}
		if fmt.Sprintf("%T %v", ta, ta) != fmt.Sprintf("%T %v", tb, tb) {
			return fmt.Errorf("token %d: %T %v != %T %v", i, ta, ta, tb, tb)
		}
	}
}

func TestParseEncodeRoundTripCorpus(t *testing.T) {
	for _, dialect := range []string{"draft2020-12", "draft7"} {
		files := corpus.Glob(t, filepath.Join("jsonschema-test-suite", dialect, "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := ParseJSON(data)
			if err != nil {
				t.Errorf("ParseJSON(%s) = %v", f, err)
				continue
			}
			for _, indent := range []string{"", "  "} {
				out := v.AppendJSON(nil, indent)
				if err := sameTokens(data, out); err != nil {
					t.Errorf("%s: round trip with indent %q differs: %v\n%s", f, indent, err, out)
				}
			}
		}
	}
}

func TestParseKeepsNumberTextAndOrder(t *testing.T) {
	in := `{"z":1.0,"a":[1e2,-0,12345678901234567890123],"m":{"b":true,"a":null}}`
	v, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.AppendJSON(nil, "")); got != in {
		t.Errorf("AppendJSON = %s, want %s", got, in)
	}
}

func TestIndentFormat(t *testing.T) {
	v, _ := ParseJSON([]byte(`{"a":[],"b":{},"c":[1,{"d":"é\u0001"}]}`))
	want := "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": \"é\\u0001\"\n    }\n  ]\n}\n"
	if got := string(v.Indent()); got != want {
		t.Errorf("Indent = %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		pos  Pos
		want string
	}{
		{``, Pos{1, 1}, "unexpected end of input"},
		{`{"a":1,}`, Pos{1, 8}, "want a string key"},
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", Pos{3, 3}, `duplicate key "a"`},
		{`[1 2]`, Pos{1, 4}, "want ',' or ']'"},
		{`01`, Pos{1, 2}, "after the JSON value"},
		{`1.`, Pos{1, 3}, "digit after '.'"},
		{`"a` + "\x01" + `"`, Pos{1, 3}, "control character"},
		{`"\x"`, Pos{1, 2}, "invalid escape"},
		{"\"\xff\"", Pos{1, 2}, "invalid UTF-8"},
		{`tru`, Pos{1, 1}, "want a JSON value"},
		{`{"a" 1}`, Pos{1, 6}, "want ':'"},
		{strings.Repeat("[", MaxDepth+1), Pos{1, MaxDepth + 1}, "nesting deeper"},
	} {
		_, err := ParseJSON([]byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseJSON(%q) = %v, want a SyntaxError", tc.in, err)
			continue
		}
		if se.Pos != tc.pos || !strings.Contains(se.Msg, tc.want) {
			t.Errorf("ParseJSON(%q) = %v at %v, want %q at %v", tc.in, se.Msg, se.Pos, tc.want, tc.pos)
		}
	}
}

func TestParseStrings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"a\"b\\c\/d"`, `a"b\c/d`},
		{`"\u00e9\ud83d\ude00"`, "é😀"},
		{`"\ud800x"`, "\ufffdx"},
		{`"\ud800\u0041"`, "\ufffdA"},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t"},
	} {
		v, err := ParseJSON([]byte(tc.in))
		if err != nil || v.Text() != tc.want {
			t.Errorf("ParseJSON(%s) = %q, %v; want %q", tc.in, v.Text(), err, tc.want)
		}
	}
}

func TestPositions(t *testing.T) {
	in := "{\n  \"a\": {\n    \"b\": [10, 20]\n  },\n  \"c~/\": 1\n}"
	v, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    Pointer
		want Pos
	}{
		{"", Pos{1, 1}},
		{"/a", Pos{2, 3}},
		{"/a/b", Pos{3, 5}},
		{"/a/b/1", Pos{3, 15}},
		{"/c~0~1", Pos{5, 3}},
		{"/a/missing", Pos{2, 3}},
		{"/a/b/7", Pos{3, 5}},
		{"/a/b/1/deeper", Pos{3, 15}},
		{"/", Pos{1, 1}},
		{"a", Pos{}},
	} {
		if got := v.PosOf(tc.p); got != tc.want {
			t.Errorf("PosOf(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2]`, `{"a":{"b":[true,null,"x",-1.5e3]}}`, `"\ud83d\ude00"`, "\xef\xbb\xbf{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			if json.Valid(data) && !strings.Contains(err.Error(), "duplicate key") && !strings.Contains(err.Error(), "UTF-8") && !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) && !strings.Contains(err.Error(), "nesting") {
				t.Fatalf("ParseJSON rejected valid JSON %q: %v", data, err)
			}
			return
		}
		out := v.AppendJSON(nil, "  ")
		w, err := ParseJSON(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if !v.Equal(w) {
			t.Fatalf("round trip changed %q into %q", data, out)
		}
		_ = v.AppendJCS(nil)
	})
}

func TestValueSize(t *testing.T) {
	for in, want := range map[string]int{`1`: 1, `[]`: 1, `{"a": [1, {"b": null}], "c": "x"}`: 6} {
		v, err := ParseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Size(); got != want {
			t.Errorf("ParseJSON(%s).Size() = %d, want %d", in, got, want)
		}
	}
}

func TestString(t *testing.T) {
	v, err := ParseJSON([]byte("{\n  \"a\": [1, 2.50],\n  \"b\": \"é\"\n}"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), `{"a":[1,2.50],"b":"é"}`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}

// TestIndentParallel: Indent and WriteIndent write large arrays near the
// top in parallel chunks; the bytes are AppendJSON's, at every size around
// the thresholds.
func TestIndentParallel(t *testing.T) {
	for _, n := range []int{0, 1, parallelItems - 1, parallelItems, parallelItems + 1, 3*parallelChunk + 7} {
		items := NewArray()
		for i := range n {
			o := NewObject()
			o.Set("name", NewString(fmt.Sprintf("t%d", i)))
			// Large nested arrays (0, 1 and 2 times parallelItems) in the
			// first items only: each size once inside the array, enough to
			// be written in chunks of their own, or inside a chunk.
			size := 0
			if i < 6 {
				size = (i % 3) * parallelItems
			}
			nested := NewArray()
			for j := range size {
				nested.SetItems(append(nested.Items(), NewString(fmt.Sprint(j))))
			}
			o.Set("deep", nested)
			items.SetItems(append(items.Items(), o))
		}
		for _, doc := range []*Value{items, func() *Value { o := NewObject(); o.Set("tools", items); o.Set("x", NewObject()); return o }()} {
			want := append(doc.AppendJSON(nil, "  "), '\n')
			if got := doc.Indent(); !bytes.Equal(got, want) {
				t.Fatalf("%d items: Indent differs from AppendJSON", n)
			}
			var b bytes.Buffer
			if m, err := doc.WriteIndent(&b); err != nil || m != int64(len(want)) || !bytes.Equal(b.Bytes(), want) {
				t.Fatalf("%d items: WriteIndent wrote %d bytes (%v), differing from AppendJSON", n, m, err)
			}
		}
	}
}

// failWriter fails once it has taken limit bytes.
type failWriter struct{ limit, n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		k := w.limit - w.n
		w.n = w.limit
		return k, errors.New("disk full")
	}
	w.n += len(p)
	return len(p), nil
}

// TestWriteIndentError: WriteIndent stops writing at the writer's first
// error and returns it with the bytes the writer took.
func TestWriteIndentError(t *testing.T) {
	items := NewArray()
	for i := range 10 * parallelChunk {
		items.SetItems(append(items.Items(), NewString(fmt.Sprintf("item %d", i))))
	}
	size := len(items.Indent())
	for _, limit := range []int{0, 1, size / 2, size - 1} {
		w := &failWriter{limit: limit}
		n, err := items.WriteIndent(w)
		if err == nil || n != int64(limit) || w.n != limit {
			t.Errorf("limit %d: WriteIndent = %d, %v; the writer took %d", limit, n, err, w.n)
		}
	}
	if n, err := items.WriteIndent(&failWriter{limit: size}); err != nil || n != int64(size) {
		t.Errorf("exact fit: WriteIndent = %d, %v", n, err)
	}
}

// TestAppendStringWordAtATime: the escaping that looks at eight bytes at
// once writes what looking at each byte writes, for strings dense in
// every byte that needs a look (controls, quotes, backslashes, UTF-8, bad
// UTF-8) at every offset.
func TestAppendStringWordAtATime(t *testing.T) {
	oneByOne := func(s string) []byte {
		b := []byte{'"'}
		for i := 0; i < len(s); {
			c := s[i]
			switch {
			case c >= 0x80:
				r, size := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					b = append(b, "\ufffd"...)
				} else {
					b = append(b, s[i:i+size]...)
				}
				i += size
				continue
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, fmt.Sprintf("\\u%04x", c)...)
				switch c {
				case '\b', '\t', '\n', '\f', '\r':
					b = b[:len(b)-6]
					b = append(b, '\\', map[byte]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}[c])
				}
			default:
				b = append(b, c)
			}
			i++
		}
		return append(b, '"')
	}
	r := rand.New(rand.NewPCG(7, 8))
	pool := []byte("abcdefgh ~\x7f\x1f\x00\"\\\n\t\x80\xc3\xa9\xe2\x80\x8b\xff!#0189AZ[]{}")
	for range 20000 {
		s := mixed(r, pool, 4, r.IntN(40))
		if got, want := AppendString(nil, string(s)), oneByOne(string(s)); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestParseStringWordAtATime: strings read eight bytes a look come back as
// they were written, escapes and UTF-8 at every offset, and a raw control
// anywhere in one is refused.
func TestParseStringWordAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pool := []rune("abcdefgh ~\"\\\n\t\x01é€😀/")
	for range 20000 {
		rs := mixed(r, pool, 3, r.IntN(40))
		n, s := len(rs), string(rs)
		text := AppendString(nil, s)
		v, err := ParseJSON(text)
		if err != nil || v.Kind != String || v.Text() != s {
			t.Fatalf("ParseJSON(%s) = %v, %v; want the string %q", text, v, err, s)
		}
		if n > 0 {
			raw := slices.Clone(text)
			raw[1+r.IntN(len(raw)-2)] = 0x1f
			if _, err := ParseJSON(raw); err == nil && bytes.IndexByte(raw, 0x1f) > 0 {
				t.Fatalf("ParseJSON(%q) took a raw control character", raw)
			}
		}
	}
}

// mixed is n lower-case letters, each drawn from pool instead one time in
// oneIn: text dense in what the word-at-a-time paths must look at.
func mixed[T byte | rune](r *rand.Rand, pool []T, oneIn, n int) []T {
	s := make([]T, n)
	for i := range s {
		if r.IntN(oneIn) == 0 {
			s[i] = pool[r.IntN(len(pool))]
		} else {
			s[i] = T('a' + r.IntN(26))
		}
	}
	return s
}
