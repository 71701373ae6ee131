// Package eval makes an evaluation set from a catalog and scores a model's
// recorded calls against it, with no model and no network: toolc eval
// export and toolc eval score.
//
// A case is a request a tool should answer, the call that answers it, and
// the tools that must not fire: a positive case per example of the tool (or
// one made from its schema), and a negative case per tool with siblings a
// model may take for it (tools of its server whose names share a noun,
// quality.Siblings). A recorded call is decoded through toolcall, which
// undoes what each target changed (names, strict mode's nulls, renamed
// keys), and scored: the right tool, its arguments valid, no forbidden tool.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/quality"
	"github.com/toolc-dev/toolc/toolcall"
)

// Case is one line of an eval set (JSON Lines), in the shape eval runners
// read: an id, the chat messages to send, and what should happen.
type Case struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind"` // "positive" or "negative"
	Tool     string    `json:"tool"` // the tool that should fire, by ID
	Messages []Message `json:"messages"`
	Expected Expected  `json:"expected"`
	// Forbidden are the tools that must not fire, by ID.
	Forbidden []string `json:"forbidden,omitempty"`
}

// Message is a chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Expected is the call that answers a case, in the catalog's terms.
type Expected struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// Export makes the eval set of tools, sorted by tool ID, each case's ID
// stable across runs: TOOL/positive/N and TOOL/negative.
func Export(tools []*canonical.Tool) []Case {
	tools = slices.Clone(tools)
	slices.SortFunc(tools, func(a, b *canonical.Tool) int { return strings.Compare(a.ID(), b.ID()) })
	siblings := quality.Siblings(tools)
	var out []Case
	for _, t := range tools {
		examples := t.Examples
		if len(examples) == 0 {
			examples = []*canonical.Value{sample(t.Input.JSON())}
		}
		for i, ex := range examples {
			out = append(out, Case{ID: fmt.Sprintf("%s/positive/%d", t.ID(), i+1), Kind: "positive", Tool: t.ID(),
				Messages: []Message{{Role: "user", Content: request(t, ex)}},
				Expected: Expected{Tool: t.ID(), Arguments: ex.AppendJSON(nil, "")}})
		}
		if sib := siblings[t.ID()]; len(sib) > 0 {
			ex := examples[0]
			out = append(out, Case{ID: t.ID() + "/negative", Kind: "negative", Tool: t.ID(),
				Messages: []Message{{Role: "user", Content: request(t, ex)}},
				Expected: Expected{Tool: t.ID(), Arguments: ex.AppendJSON(nil, "")}, Forbidden: sib})
		}
	}
	return out
}

// WriteJSONL writes the cases one per line.
func WriteJSONL(w io.Writer, cases []Case) error {
	for _, c := range cases {
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(data, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// request is the words of a request that t answers with the arguments
// args: its description's first sentence, asked, and the arguments.
func request(t *canonical.Tool, args *canonical.Value) string {
	first := quality.FirstSentence(t.Description)
	if first == "" {
		first = strings.ReplaceAll(t.Name, "_", " ")
	}
	verb, rest, _ := strings.Cut(first, " ")
	first = strings.TrimSpace(imperative(verb) + " " + rest)
	r := []rune(first)
	r[0] = unicode.ToLower(r[0])
	var parts []string
	for _, m := range args.Members() {
		parts = append(parts, fmt.Sprintf("%s %s", strings.ReplaceAll(m.Key, "_", " "), m.Value.AppendJSON(nil, "")))
	}
	s := "Please " + string(r)
	if len(parts) > 0 {
		s += ", with " + strings.Join(parts, ", ")
	}
	return s + "."
}

// sample is arguments the schema s takes: each required property, from its
// const, default, first example or enum value, or a value of its type.
func sample(s *canonical.Value) *canonical.Value {
	o := canonical.NewObject()
	required, _ := s.Get("required").Strings()
	props := s.Get("properties")
	for _, r := range required {
		o.Set(r, value(props.Get(r)))
	}
	return o
}

func value(s *canonical.Value) *canonical.Value {
	if s == nil || s.Kind != canonical.Object {
		return canonical.NewString("example")
	}
	if c := s.Get("const"); c != nil {
		return c
	}
	if d := s.Get("default"); d != nil {
		return d
	}
	for _, k := range []string{"examples", "enum"} {
		if e := s.Get(k); e != nil && len(e.Items()) > 0 {
			return e.Items()[0]
		}
	}
	typ, _ := s.Get("type").StringValue()
	if ts, ok := s.Get("type").Strings(); ok && len(ts) > 0 {
		typ = ts[0]
	}
	switch typ {
	case "integer", "number":
		n := "1"
		if m := s.Get("minimum"); m != nil && m.Kind == canonical.Number {
			n = m.Text()
		}
		return canonical.NewNumber(n)
	case "boolean":
		return canonical.NewBool(true)
	case "array":
		return canonical.NewArray()
	case "object":
		return sample(s)
	case "null":
		return canonical.NewNull()
	}
	return canonical.NewString("example")
}

// ReadCases reads an eval set.
func ReadCases(r io.Reader) ([]Case, error) {
	var out []Case
	err := lines(r, func(n int, line []byte) error {
		var c Case
		if err := json.Unmarshal(line, &c); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// Recorded is one call a model made for a case, as its provider returned
// it: the target it was made for, the emitted tool name, and the
// arguments (a JSON string, as OpenAI returns them, or an object). A
// null call is no call.
type Recorded struct {
	ID     string `json:"id"`
	Target string `json:"target"`
	Call   *struct {
		Name      string          `json:"name"`
		Namespace string          `json:"namespace,omitempty"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"call"`
}

// ReadCalls reads recorded calls.
func ReadCalls(r io.Reader) ([]Recorded, error) {
	var out []Recorded
	err := lines(r, func(n int, line []byte) error {
		var c Recorded
		if err := json.Unmarshal(line, &c); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		if c.ID == "" {
			return fmt.Errorf("line %d: no case id", n)
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// lines calls fn with each non-empty line of r, numbered from 1.
func lines(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			if err := fn(n, line); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// Outcome is what one recorded call did for its case.
type Outcome struct {
	Case      string
	Tool      string // the case's tool
	Called    string // the tool called, by ID; "" for none or unknown
	RightTool bool
	ValidArgs bool // the decoded arguments are valid against the tool's schema
	Forbidden bool // a tool the case forbids fired
	Passed    bool
	Why       string // what went wrong, for a failed case
}

// Score decodes each recorded call with cat and scores it against its
// case. A call for an unknown case is an error.
func Score(cat *toolcall.Catalog, cases []Case, calls []Recorded) ([]Outcome, error) {
	byID := map[string]Case{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	var out []Outcome
	for _, rc := range calls {
		c, ok := byID[rc.ID]
		if !ok {
			return nil, fmt.Errorf("a call for the case %q, which the eval set does not have", rc.ID)
		}
		o := Outcome{Case: c.ID, Tool: c.Tool}
		switch {
		case rc.Call == nil:
			o.Why = "no call"
		default:
			args := []byte(rc.Call.Arguments)
			var s string
			if json.Unmarshal(args, &s) == nil { // arguments as a JSON string
				args = []byte(s)
			}
			call, err := cat.DecodeIn(rc.Target, rc.Call.Namespace, rc.Call.Name, args)
			var ae *toolcall.ArgumentsError
			switch {
			case call != nil:
				o.Called = call.ID
			case errors.As(err, &ae):
				o.Called = ae.ID
			}
			o.RightTool = o.Called == c.Tool
			o.ValidArgs = err == nil
			o.Forbidden = slices.Contains(c.Forbidden, o.Called)
			switch {
			case o.Called == "":
				o.Why = fmt.Sprintf("%s: %v", rc.Call.Name, err)
			case o.Forbidden:
				o.Why = "called " + o.Called + ", which the case forbids"
			case !o.RightTool:
				o.Why = "called " + o.Called
			case err != nil:
				o.Why = "arguments: " + err.Error()
			}
		}
		o.Passed = o.RightTool && o.ValidArgs && !o.Forbidden
		out = append(out, o)
	}
	return out, nil
}

// Row is one tool's scores.
type Row struct {
	Tool                                       string
	Cases, Passed, RightTool, Valid, Forbidden int
}

// Table sums the outcomes per tool, sorted by tool, and in all.
func Table(outs []Outcome) ([]Row, Row) {
	by := map[string]*Row{}
	total := Row{Tool: "total"}
	for _, o := range outs {
		r := by[o.Tool]
		if r == nil {
			r = &Row{Tool: o.Tool}
			by[o.Tool] = r
		}
		for _, x := range []*Row{r, &total} {
			x.Cases++
			x.Passed += b2i(o.Passed)
			x.RightTool += b2i(o.RightTool)
			x.Valid += b2i(o.ValidArgs)
			x.Forbidden += b2i(o.Forbidden)
		}
	}
	var rows []Row
	for _, r := range by {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.Tool, b.Tool) })
	return rows, total
}

// ScoreFiles reads the eval set and the recorded calls from their files and
// scores the calls (Score); an error names its file.
func ScoreFiles(cat *toolcall.Catalog, casesFile, callsFile string) ([]Outcome, error) {
	read := func(name string, fn func(io.Reader) error) error {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := fn(f); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	var cases []Case
	var calls []Recorded
	err := errors.Join(read(casesFile, func(r io.Reader) (err error) { cases, err = ReadCases(r); return }),
		read(callsFile, func(r io.Reader) (err error) { calls, err = ReadCalls(r); return }))
	if err != nil {
		return nil, err
	}
	outs, err := Score(cat, cases, calls)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", callsFile, err)
	}
	return outs, nil
}

// WriteScore writes the outcomes as a Markdown table per tool and in all,
// then the cases that failed and why; it returns the total row.
func WriteScore(w io.Writer, outs []Outcome) Row {
	rows, total := Table(outs)
	fmt.Fprintln(w, "| tool | cases | passed | right tool | valid arguments | forbidden tool |\n|---|--:|--:|--:|--:|--:|")
	for _, r := range append(rows, total) {
		name := "`" + r.Tool + "`"
		if r.Tool == "total" {
			name = "**total**"
		}
		fmt.Fprintf(w, "| %s | %d | %d (%s) | %d | %d | %d |\n", name, r.Cases, r.Passed, Percent(r.Passed, r.Cases), r.RightTool, r.Valid, r.Forbidden)
	}
	var failed []string
	for _, o := range outs {
		if !o.Passed {
			failed = append(failed, fmt.Sprintf("%s: %s", o.Case, o.Why))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "\nFailed:\n- %s\n", strings.Join(failed, "\n- "))
	}
	return total
}

// Percent is n of of, as a whole percentage; "–" of none.
func Percent(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// imperative is a description's first word as a request says it: "Gets"
// → "Get", "Searches" → "Search", "Applies" → "Apply".
func imperative(w string) string {
	lw := strings.ToLower(w)
	switch {
	case len(lw) > 4 && strings.HasSuffix(lw, "ies"):
		return w[:len(w)-3] + "y"
	case len(lw) > 4 && (strings.HasSuffix(lw, "ches") || strings.HasSuffix(lw, "shes") || strings.HasSuffix(lw, "sses") || strings.HasSuffix(lw, "xes")):
		return w[:len(w)-2]
	case len(lw) > 3 && strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") && !strings.HasSuffix(lw, "us"):
		return w[:len(w)-1]
	}
	return w
}

// Describe says what an eval set of the catalog's tools holds: "26 cases
// for 13 tools: 13 positive, 13 negative".
func Describe(cases []Case, tools int) string {
	neg := 0
	for _, c := range cases {
		if c.Kind == "negative" {
			neg++
		}
	}
	return fmt.Sprintf("%s for %s: %d positive, %d negative", diagfmt.Plural(len(cases), "case"), diagfmt.Plural(tools, "tool"), len(cases)-neg, neg)
}
