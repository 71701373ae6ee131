// Package tokens says what a bundle of tools costs in a model's context:
// the tokens of each tool's definition and of the request around them, per
// target format, with the method that counted them.
//
// OpenAI's formats are counted exactly in the sense that can be checked:
// the o200k_base vocabulary (embedded, from github.com/tiktoken-go/tokenizer)
// over the rendering of function tools that OpenAI publishes (the harmony
// format; see Render). Hosted models may render tools otherwise, which is
// not published. Anthropic, Gemini, Bedrock and MCP publish no offline
// tokenizer and no rendering: their counts are estimates, the o200k tokens
// of each tool's JSON as the bundle sends it, and are marked as such.
//
// The package reads bundles (canonical.Value) and does no I/O.
package tokens

import (
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/tiktoken-go/tokenizer"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/par"
)

// Method says how a format's tokens are counted.
type Method struct {
	// Exact is true when the count is the provider's published rendering
	// in its published vocabulary; false for an estimate.
	Exact bool
	// How says what is counted, in a phrase.
	How string
	// Overhead is what every request with tools adds besides the tools
	// themselves, where the provider documents it (0 where not), and
	// OverheadSource says where.
	Overhead       int
	OverheadSource string
}

// anthropicToolPrompt is the system prompt that Anthropic adds to a request
// with tools, for Claude 4 models with tool_choice auto or none (Anthropic,
// "Tool use with Claude", pricing: 346 tokens; 313 with any or tool).
const anthropicToolPrompt = 346

// methodTable holds the methods of the formats that cost tokens, by format name.
var methodTable = map[string]Method{
	"openai":           {Exact: true, How: "o200k_base tokens of the harmony rendering (TypeScript types in a functions namespace)"},
	"openai-responses": {Exact: true, How: "o200k_base tokens of the harmony rendering (TypeScript types in a functions namespace)"},
	"anthropic": {How: "estimate: o200k_base tokens of each tool's JSON (Claude's tokenizer is not published)",
		Overhead: anthropicToolPrompt, OverheadSource: "Anthropic's tool-use system prompt, Claude 4 models, tool_choice auto"},
	"gemini":  {How: "estimate: o200k_base tokens of each declaration's JSON (Gemini's rendering is not published)"},
	"bedrock": {How: "estimate: o200k_base tokens of each toolSpec's JSON (the model's tokenizer is not published)"},
	"mcp":     {How: "estimate: o200k_base tokens of each tool's JSON as tools/list lists it (the host decides how it reaches a model)"},
}

// Count is what one bundle costs.
type Count struct {
	Format string
	Method Method
	// Tools are the tokens of each tool, in the bundle's order, by its
	// emitted name.
	Tools []ToolCount
	// Section is the tokens of what wraps the tools in a request (OpenAI's
	// namespace), Overhead the provider's documented per-request tokens.
	Section, Overhead int
}

// Total is every token a request with the whole bundle costs.
func (c *Count) Total() int {
	n := c.Section + c.Overhead
	for _, t := range c.Tools {
		n += t.Tokens
	}
	return n
}

// ToolCount is one tool's tokens.
type ToolCount struct {
	Name     string
	Tokens   int
	Deferred bool // the bundle defers it: not in the first request
}

// Loaded is the tokens of a request with the tools the bundle loads, its
// deferred ones left to the tool search (whose own definition the
// provider adds and counts).
func (c *Count) Loaded() int {
	n := c.Section + c.Overhead
	for _, t := range c.Tools {
		if !t.Deferred {
			n += t.Tokens
		}
	}
	return n
}

// LoadedTools is the tokens of the tools the bundle loads, without what
// wraps them: what a defer_budget is compared with.
func (c *Count) LoadedTools() int { return c.Loaded() - c.Section - c.Overhead }

// Deferred counts the deferred tools.
func (c *Count) Deferred() int {
	n := 0
	for _, t := range c.Tools {
		if t.Deferred {
			n++
		}
	}
	return n
}

var (
	encOnce sync.Once
	enc     tokenizer.Codec
	encErr  error
)

// Tokens counts the o200k_base tokens of s. The count is the sum of its
// pieces' counts where s is cut at boundaries o200k_base's pre-tokenizer
// never crosses (see chunks), and each piece's count is computed once per
// process: catalogs repeat their words and punctuation ("type":"string")
// from tool to tool and target to target, and the tokenizer's regular
// expression and merges were most of a report's time.
func Tokens(s string) (int, error) {
	return tokensCached(s, nil)
}

// tokensCached is Tokens with a cache of the caller's own in front of the
// shared one: a plain map, where the shared one's look-ups were a sixth
// of counting a bundle.
func tokensCached(s string, local map[string]int) (int, error) {
	encOnce.Do(func() { enc, encErr = tokenizer.Get(tokenizer.O200kBase) })
	if encErr != nil {
		return 0, encErr
	}
	n := 0
	for c := range chunks(s) {
		if v, ok := local[c]; ok {
			n += v
			continue
		}
		v, ok := counted.Load(c)
		if !ok {
			ids, _, err := enc.Encode(c)
			if err != nil {
				return 0, err
			}
			if cached.Add(1) <= maxCounted {
				counted.Store(strings.Clone(c), len(ids))
			}
			v = len(ids)
		}
		if local != nil && len(local) < maxLocal {
			local[strings.Clone(c)] = v.(int)
		}
		n += v.(int)
	}
	return n, nil
}

// localCounts are the caches of Bundle's workers, each up to maxLocal
// chunks.
var localCounts = sync.Pool{New: func() any { return map[string]int{} }}

const maxLocal = 1 << 13

// textBuffers hold the text of a tool being counted.
var textBuffers = sync.Pool{New: func() any { return new([]byte) }}

// counted caches the token count of each chunk, up to maxCounted chunks:
// a program that counts many catalogs (an agent server) keeps a bounded
// cache, and what is past it is counted each time.
var (
	counted sync.Map
	cached  atomic.Int64
)

const maxCounted = 1 << 20

// chunkMin is the length under which a chunk is not cut: a word with its
// punctuation is cached as one.
const chunkMin = 16

// chunks cuts s where o200k_base's pre-tokenizer pattern cannot join what
// is on either side into one piece:
//
//   - after a letter or digit, before a character that is neither a
//     letter, a digit, white space nor an apostrophe: a letter or digit
//     piece ends there (only a contraction, 's, would go on), and what
//     follows starts a piece of its own (punctuation, alone or before
//     letters). These cuts are made only past chunkMin bytes;
//   - around a run of digits (\p{N}), always: digits are pieces of their
//     own (up to three, counted from the run's start), so a number is cut
//     out of what is around it, but after white space, whose piece looks
//     at what follows it. A number that differs (a tool's copy, a
//     version) no longer makes its whole chunk one the cache has not seen.
func chunks(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		prev := otherChar // the class of the character before i
		for i := 0; i < len(s); {
			// A byte of ASCII by its class, the rest by its rune: bundles
			// are mostly ASCII, and asking unicode of each rune was a
			// quarter of counting.
			var class charClass
			var apostrophe bool
			size := 1
			if c := s[i]; c < utf8.RuneSelf {
				class, apostrophe = asciiClass[c], c == '\''
			} else {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				class, apostrophe = runeClass(r), r == '\u2019'
			}
			word, prevWord := class == wordChar || class == digitChar, prev == wordChar || prev == digitChar
			cut := prevWord && !word && i-start >= chunkMin && class != spaceChar && !apostrophe
			if (class == digitChar) != (prev == digitChar) && i > start && prev != spaceChar {
				cut = true
			}
			if cut {
				if !yield(s[start:i]) {
					return
				}
				start = i
			}
			prev = class
			i += size
		}
		if start < len(s) {
			yield(s[start:])
		}
	}
}

// The classes of characters that chunks tells apart: a digit (\p{N}), a
// letter or mark, white space (as unicode.IsSpace says), and anything else.
type charClass uint8

const (
	otherChar charClass = iota
	wordChar
	digitChar
	spaceChar
)

// runeClass is r's class, as o200k_base's pattern tells them.
func runeClass(r rune) charClass {
	switch {
	case unicode.IsNumber(r):
		return digitChar
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return wordChar
	case unicode.IsSpace(r):
		return spaceChar
	}
	return otherChar
}

// asciiClass is each ASCII byte's class, made by runeClass.
var asciiClass = func() (t [utf8.RuneSelf]charClass) {
	for c := range t {
		t[c] = runeClass(rune(c))
	}
	return t
}()

// Counts reports whether format's bundles cost tokens (canonical and
// jsonschema bundles are never sent to a model).
func Counts(format string) bool {
	_, ok := methodTable[format]
	return ok
}

// Bundle counts the tokens of doc, a target's output in format, its
// tools in parallel (par.For, on as many goroutines as GOMAXPROCS allows,
// which --jobs sets), jobs tools at a take.
func Bundle(format string, doc *canonical.Value, jobs int) (*Count, error) {
	m, ok := methodTable[format]
	if !ok {
		return nil, fmt.Errorf("tokens: format %q is not sent to a model", format)
	}
	tools := Functions(format, doc)
	c := &Count{Format: format, Method: m, Tools: make([]ToolCount, len(tools)), Overhead: m.Overhead}
	errs := make([]error, len(tools))
	par.For(len(tools), jobs, func(i int) {
		t := tools[i]
		var n int
		var err error
		local := localCounts.Get().(map[string]int)
		defer localCounts.Put(local)
		// The tool's text into a reused buffer, counted in place:
		// Stripe's tools inline to megabytes, and a string of each,
		// grown by doubling, was most of what a report held beyond its
		// build.
		buf := textBuffers.Get().(*[]byte)
		if m.Exact {
			*buf = append(appendFunction((*buf)[:0], t.Name, t.Description, t.Parameters), '\n')
		} else {
			*buf = t.JSON.AppendJSON((*buf)[:0], "")
		}
		n, err = tokensCached(unsafe.String(unsafe.SliceData(*buf), len(*buf)), local) // the caches keep clones only
		textBuffers.Put(buf)
		c.Tools[i] = ToolCount{Name: t.Name, Tokens: n, Deferred: t.Deferred}
		errs[i] = err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if m.Exact {
		n, err := Tokens(sectionHead + "\n" + sectionTail)
		if err != nil {
			return nil, err
		}
		c.Section = n
	}
	return c, nil
}

// Function is a tool as a bundle sends it: its emitted name, description
// and input schema, and its JSON in the bundle.
type Function struct {
	Name, Description string
	Parameters        *canonical.Value // the input schema; nil: none
	JSON              *canonical.Value
	// Deferred says the bundle defers the tool (defer_loading: true): a
	// tool search loads it, the first request does not carry it.
	Deferred bool
}

// inputKey is where each format keeps a tool's input schema, in the object
// that has its name ("function" in OpenAI's Chat format, "toolSpec" in
// Bedrock's, the tool itself elsewhere).
var inputKey = map[string]string{
	"openai": "parameters", "openai-responses": "parameters", "anthropic": "input_schema",
	"mcp": "inputSchema", "canonical": "input",
}

// Functions lists the tools of doc, a bundle in format, in its order (a
// namespace's in its place; not the provider's own tools). A
// canonical bundle's names are IDs (namespace:name).
func Functions(format string, doc *canonical.Value) []Function {
	var list []*canonical.Value
	switch format {
	case "mcp", "bedrock", "canonical":
		list = items(doc.Get("tools"))
	case "gemini":
		list = items(doc.Get("functionDeclarations"))
	default:
		list = items(doc)
	}
	var out []Function
	for _, v := range bundle.EntriesOf(list).Functions {
		def, params := v, (*canonical.Value)(nil)
		switch format {
		case "openai":
			def = v.Get("function")
		case "bedrock":
			def = v.Get("toolSpec")
			params = def.Get("inputSchema").Get("json")
		case "gemini":
			params = v.Get("parametersJsonSchema")
			if params == nil {
				params = v.Get("parameters")
			}
		}
		if def == nil {
			continue
		}
		f := Function{JSON: v, Parameters: params}
		if k := inputKey[format]; k != "" {
			f.Parameters = def.Get(k)
		}
		f.Deferred, _ = v.Get("defer_loading").BoolValue()
		f.Name, _ = def.Get("name").StringValue()
		f.Description, _ = def.Get("description").StringValue()
		if ns, _ := def.Get("namespace").StringValue(); format == "canonical" && ns != "" {
			f.Name = ns + ":" + f.Name
		}
		out = append(out, f)
	}
	return out
}

func items(v *canonical.Value) []*canonical.Value {
	if v == nil || v.Kind != canonical.Array {
		return nil
	}
	return v.Items()
}
