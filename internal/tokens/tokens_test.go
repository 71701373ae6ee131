package tokens

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/schematest"
)

func parse(t *testing.T, s string) *canonical.Value { return schematest.JSON(t, s) }

// TestRenderPublished checks the rendering against the examples that
// OpenAI publishes with the harmony format (its test data: a developer
// message with one function; a namespace of functions with defaults and
// a union type).
func TestRenderPublished(t *testing.T) {
	got := Render([]Function{{
		Name:        "lookup_weather",
		Description: "Use this tool to lookup the weather in a given location. Call it with the parameter 'location', can be any textual description of a location.",
		Parameters:  parse(t, `{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
	}})
	want := "# Tools\n\n## functions\n\nnamespace functions {\n\n" +
		"// Use this tool to lookup the weather in a given location. Call it with the parameter 'location', can be any textual description of a location.\n" +
		"type lookup_weather = (_: {\nlocation: string,\n}) => any;\n\n} // namespace functions"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = renderFunction("search", "Searches for information related to `query` and displays `topn` results.",
		parse(t, `{"type":"object","properties":{"query":{"type":"string"},"topn":{"type":"number","default":10},"source":{"type":"string"}},"required":["query"]}`))
	want = "// Searches for information related to `query` and displays `topn` results.\n" +
		"type search = (_: {\nquery: string,\ntopn?: number, // default: 10\nsource?: string,\n}) => any;\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = renderFunction("open", "Opens the link `id`.\nUse this function without `id` to scroll.",
		parse(t, `{"type":"object","properties":{"id":{"type":["number","string"],"default":-1},"view_source":{"type":"boolean","default":false}}}`))
	want = "// Opens the link `id`.\n// Use this function without `id` to scroll.\n" +
		"type open = (_: {\nid?: number | string, // default: -1\nview_source?: boolean, // default: false\n}) => any;\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRenderKeywords checks the branches of the port: enums, arrays,
// nested objects, nullable, oneOf, titles, examples, and what harmony
// renders as any.
func TestRenderKeywords(t *testing.T) {
	s := parse(t, `{"type":"object","description":"The order.","properties":{
		"unit":{"type":"string","enum":["c","f"],"default":"c","title":"Unit"},
		"ids":{"type":"array","items":{"type":"integer"}},
		"any":{"type":"array"},
		"addr":{"type":"object","properties":{"zip":{"type":"string","examples":["10115"]}},"required":["zip"]},
		"n":{"type":"string","nullable":true},
		"u":{"anyOf":[{"type":"string"}]},
		"pick":{"description":"Which.","oneOf":[{"type":"string","description":"By name."},{"type":"integer","description":"By ID.","default":1}]}
	},"required":["unit"]}`)
	got := string(appendTypescript(nil, s, ""))
	want := "// The order.\n{\n" +
		"// Unit\n//\nunit: \"c\" | \"f\", // default: c\n" +
		"ids?: number[],\n" +
		"any?: Array<any>,\n" +
		"addr?: {\n    // Examples:\n    // - \"10115\"\n    zip: string,\n    },\n" +
		"n?: string | null,\n" +
		"u?: any,\n" +
		"// Which.\npick?:\n | string\n | number // By ID. default: 1\n,\n" +
		"}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestBundle counts an OpenAI bundle exactly and an Anthropic one as an
// estimate with Anthropic's documented overhead.
func TestBundle(t *testing.T) {
	openai := parse(t, `[{"type":"function","function":{"name":"lookup_weather","description":"Look up the weather.","parameters":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}}}]`)
	c, err := Bundle("openai", openai, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := Tokens(Render([]Function{{Name: "lookup_weather", Description: "Look up the weather.", Parameters: openai.Items()[0].Get("function").Get("parameters")}}))
	if len(c.Tools) != 1 || c.Tools[0].Name != "lookup_weather" || c.Tools[0].Tokens < 10 {
		t.Errorf("count %+v", c.Tools)
	}
	// The description's own tokens, which a budget's message gives.
	if n, err := Tokens("Look up the weather."); err != nil || n != 5 {
		t.Errorf("the description has %d tokens (%v), want 5", n, err)
	}
	if d := c.Total() - whole; d < -2 || d > 2 {
		t.Errorf("the sum of the parts, %d, is not the whole rendering's %d", c.Total(), whole)
	}
	anthropic := parse(t, `[{"name":"lookup_weather","description":"Look up the weather.","input_schema":{"type":"object"}}]`)
	c, err = Bundle("anthropic", anthropic, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Method.Exact || c.Overhead != 346 || c.Total() != 346+c.Tools[0].Tokens {
		t.Errorf("anthropic count %+v", c)
	}
	if _, err := Bundle("canonical", anthropic, 1); err == nil {
		t.Error("a canonical bundle has a token count")
	}
}

// FuzzRender renders any JSON as a parameters schema and explains it: no
// input may panic either.
func FuzzRender(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"oneOf":[{"type":"string","default":"x"},{"type":"array","items":{"type":["integer","null"]}}],"description":"d"},"b":{"type":"string","enum":["x",1]}},"required":["a"]}`)
	f.Add(`{"type":"object","description":"o","properties":{"n":{"type":"object","properties":{"m":{"type":"object","title":"t","examples":["e",2]}}}}}`)
	f.Add(`{"oneOf":[{"nullable":true},{"description":"x"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := canonical.ParseJSON([]byte(s))
		if err != nil {
			return
		}
		out := renderFunction("f", "d\nline", v)
		if !strings.HasPrefix(out, "// d\n// line\ntype f = ") {
			t.Fatalf("rendering %q", out)
		}
		if _, err := Explain(v); err != nil {
			t.Fatal(err)
		}
	})
}

// cutTexts sit on the cuts chunks makes: contractions, numbers, marks,
// white space of every kind, comments.
var cutTexts = []string{
	"The user's files weren't there; it'll be done.",
	`{"type":"object","properties":{"q":{"type":"string","description":"Query's text."},"n":{"type":"integer","maximum":1000000}}}`,
	"namespace functions {\n// Get the weather in a city, e.g. Paris.\ntype get_weather = (_: {\n// City name\ncity: string,\n}) => any;\n} // namespace functions",
	"Zürich, naïve café—déjà vu… 日本語のテキスト 123456789 x2y3 ПРИВЕТмир it’s",
	"e\u0301tude a\u0308bc   spaces\t\ttabs\n\n\nnewlines\v\f\u0085\u00a0nbsp",
	"get_me_17 list_issues_1234567 a  12 b\t7 c\n42\n v2.0.1 x²+y½ ١٢٣٤ arabic 12abc abc12 '12 it's 1's 1\u0301 1 ",
	`{"name":"get_me_17","description":"Get my user.","maximum":1000000,"minimum":-5,"x":1e10}`,
}

// TestChunksCountAsTheWhole: counting a text by its chunks gives the
// tokenizer's count of the whole text, on every rendering of every tool of
// the corpus's MCP servers and BFCL in every counted format, and on texts
// made to sit on the cuts (contractions, numbers, marks, comments).
func TestChunksCountAsTheWhole(t *testing.T) {
	corpus.Heavy(t)
	if _, err := Tokens(""); err != nil {
		t.Fatal(err)
	}
	texts := slices.Clone(cutTexts)
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(t), "mcp/github-mcp-server/current/*.json"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := canonical.ParseJSON(data)
		if err != nil {
			continue
		}
		texts = append(texts, v.String())
		if p := v.Get("inputSchema"); p != nil {
			name, _ := v.Get("name").StringValue()
			desc, _ := v.Get("description").StringValue()
			texts = append(texts, renderFunction(name, desc, p)+"\n")
		}
		n++
	}
	for _, l := range corpus.Lines(t, "openai/bfcl/all_functions.distinct.jsonl") {
		v, err := canonical.ParseJSON(l)
		if err != nil {
			continue
		}
		fn := v.Get("function")
		texts = append(texts, fn.String())
		name, _ := fn.Get("name").StringValue()
		desc, _ := fn.Get("description").StringValue()
		if p := fn.Get("parameters"); p != nil {
			texts = append(texts, renderFunction(name, desc, p)+"\n")
		}
		n++
	}
	// Counted on every core: the texts are independent, and there are
	// thousands.
	failures := make([]string, len(texts))
	par.For(len(texts), 16, func(i int) {
		byChunks, err1 := countByChunks(texts[i])
		ids, _, err2 := enc.Encode(texts[i])
		if err := errors.Join(err1, err2); err != nil {
			failures[i] = err.Error()
		} else if byChunks != len(ids) {
			failures[i] = fmt.Sprintf("by chunks %d, whole %d tokens: %q", byChunks, len(ids), texts[i])
		}
	})
	for _, f := range failures {
		if f != "" {
			t.Error(f)
		}
	}
	t.Logf("%d tools checked, %d texts", n, len(texts))
	if c := slices.Collect(chunks(`{"type":"object","properties":{"query":{"type":"string","description":"The query."}}}`)); len(c) < 3 {
		t.Errorf("chunks cut a schema into %q: the cache would hold whole schemas", c)
	}
}

func countByChunks(s string) (int, error) {
	n := 0
	for c := range chunks(s) {
		ids, _, err := enc.Encode(c)
		if err != nil {
			return 0, err
		}
		n += len(ids)
	}
	return n, nil
}

// chunksByRune is chunks with every rune's class asked of unicode: the
// ASCII table must cut where it does.
func chunksByRune(s string) []string {
	var out []string
	start := 0
	prev := otherChar
	for i, r := range s {
		class := otherChar
		switch {
		case unicode.IsNumber(r):
			class = digitChar
		case unicode.IsLetter(r) || unicode.IsMark(r):
			class = wordChar
		case unicode.IsSpace(r):
			class = spaceChar
		}
		word, prevWord := class == wordChar || class == digitChar, prev == wordChar || prev == digitChar
		cut := prevWord && !word && i-start >= chunkMin && class != spaceChar && r != '\'' && r != '\u2019'
		if (class == digitChar) != (prev == digitChar) && i > start && prev != spaceChar {
			cut = true
		}
		if cut {
			out = append(out, s[start:i])
			start = i
		}
		prev = class
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func TestChunksCutWhereRunesDo(t *testing.T) {
	texts := append(slices.Clone(cutTexts), "invalid \xff\xfe utf-8 abcdefghijklmnop\xc3(abcdefghijklmnopqrst")
	var b strings.Builder
	for c := range 256 { // every byte after a long word, and before one, and before a number
		b.WriteString("abcdefghijklmnopqrstuvwxyz")
		b.WriteByte(byte(c))
		b.WriteString("12 ")
		b.WriteString("abcdefghijklmnopqrstuvwxyz")
		b.WriteByte(byte(c))
		b.WriteString("abc ")
	}
	texts = append(texts, b.String())
	for _, s := range texts {
		if got, want := slices.Collect(chunks(s)), chunksByRune(s); !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Errorf("chunks(%.40q…): chunk %d is %q, want %q", s, i, got[i], want[i])
					break
				}
			}
			if len(got) != len(want) {
				t.Errorf("chunks(%.40q…): %d chunks, want %d", s, len(got), len(want))
			}
		}
	}
}
