package lower

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// parseRules reads "feature action [value...]" and "limit name max" lines.
func parseRules(t *testing.T, text string) (*Rules, Options) {
	t.Helper()
	r := &Rules{}
	var opts Options
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case f[0] == "describe":
			opts.Describe = true
		case f[0] == "limit" && len(f) == 3:
			var n int
			fmt.Sscan(f[2], &n)
			if err := r.SetLimit(f[1], n, "test"); err != nil {
				t.Fatal(err)
			}
		case len(f) >= 2:
			if err := r.Set(f[0], Action(f[1]), f[2:], "test"); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("bad rules line %q", line)
		}
	}
	return r, opts
}

func render(res *Result) string {
	var b strings.Builder
	b.Write(res.Schema.JSON().Indent())
	for _, c := range res.Changes {
		from := ""
		if c.Origin != c.Pointer {
			from = fmt.Sprintf(" (from %q)", c.Origin)
		}
		fmt.Fprintf(&b, "%s %q%s: %s\n", c.Code, c.Pointer, from, c.Message)
	}
	for _, p := range res.Optional {
		fmt.Fprintf(&b, "optional %q\n", p)
	}
	return b.String()
}

// TestPasses runs the golden cases of testdata/passes: in each archive, the
// "rules" file applies to every NAME.json, whose lowered schema, changes and
// optional record are in NAME.golden.
func TestPasses(t *testing.T) {
	files, _ := filepath.Glob("testdata/passes/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var rulesText string
		golden := map[string]int{}
		for i, f := range ar.Files {
			if f.Name == "rules" {
				rulesText = string(f.Data)
			}
			if name, ok := strings.CutSuffix(f.Name, ".golden"); ok {
				golden[name] = i
			}
		}
		rules, opts := parseRules(t, rulesText)
		var out []txtar.File
		for _, f := range ar.Files {
			name, ok := strings.CutSuffix(f.Name, ".json")
			if strings.HasSuffix(f.Name, ".golden") {
				continue
			}
			out = append(out, f)
			if !ok {
				continue
			}
			t.Run(filepath.Base(file)+"/"+name, func(t *testing.T) {
				s, err := canonical.ParseSchema(f.Data)
				if err != nil {
					t.Fatal(err)
				}
				before := s.DeepCopy()
				res := Schema(s, rules, opts)
				got := render(res)
				if !s.Equal(before) {
					t.Errorf("Schema modified its input")
				}
				again := Schema(res.Schema, rules, opts)
				if !again.Schema.Equal(res.Schema) {
					t.Errorf("lowering is not idempotent: lowering the output again gives\n%s", again.Schema.JSON().Indent())
				}
				for _, c := range again.Changes {
					if !strings.HasPrefix(c.Code, "limit.") {
						t.Errorf("lowering the output again reports %s %s: %s", c.Code, c.Pointer, c.Message)
					}
				}
				if i, ok := golden[name]; ok && !*update {
					if want := string(ar.Files[i].Data); got != want {
						t.Errorf("Schema(%s) =\n%s\nwant\n%s", name, got, want)
					}
				} else if !*update {
					t.Errorf("no golden %s.golden; run go test ./lower -update", name)
				}
				out = append(out, txtar.File{Name: name + ".golden", Data: []byte(got)})
			})
		}
		if *update {
			ar.Files = out
			if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPassOrder checks that every pass runs after the passes it requires.
func TestPassOrder(t *testing.T) {
	index := map[*Pass]int{}
	for i, p := range passTable {
		index[p] = i
	}
	for _, p := range passTable {
		for _, q := range p.Requires {
			if index[q] >= index[p] {
				t.Errorf("pass %s runs before %s, which it requires", p, q)
			}
		}
	}
}

// TestFeatureTable checks that the table of features is consistent.
func TestFeatureTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range featureTable {
		if seen[f.Name] {
			t.Errorf("feature %q listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Actions[0] != Keep {
			t.Errorf("feature %q: first action %q, want keep", f.Name, f.Actions[0])
		}
		if len(f.Keywords) > 0 && !strings.HasPrefix(f.Loss, "loss.") {
			t.Errorf("feature %q: loss code %q", f.Name, f.Loss)
		}
	}
	for k := range structural {
		if featureOf[k] != nil {
			t.Errorf("keyword %q is both structural and in a feature", k)
		}
	}
}

// TestCodesKnown checks that every code the package reports is in the
// diagnostics table.
func TestCodesKnown(t *testing.T) {
	codes := []string{"lower.ref-inlined", "lower.all-of-merged", "lower.one-of-as-any-of", "lower.const-as-enum",
		"lower.type-as-nullable", "lower.strict-closed", "lower.strict-optional", "loss.type-union"}
	for _, f := range featureTable {
		if f.Loss != "" {
			codes = append(codes, f.Loss)
		}
	}
	for _, l := range limitChecks {
		codes = append(codes, l.Code)
	}
	for _, c := range codes {
		if _, ok := diag.Lookup(c); !ok {
			t.Errorf("code %s is not in diag's table", c)
		}
	}
}

// TestKeyRuleMatchesItsPattern: Match says what the rule's regular
// expression says (internal/namematch tests the tables themselves).
func TestKeyRuleMatchesItsPattern(t *testing.T) {
	rules := []KeyRule{
		{Chars: "a-zA-Z0-9_.-", Max: 64},
		{Chars: "A-Za-z0-9_", First: "A-Za-z_", Max: 64},
		{Chars: "A-Za-z0-9_.:-", First: "A-Za-z_", Max: 128},
		{Chars: "a-z]|[0-9", Max: 3}, // not one class: matched by regexp
	}
	keys := []string{"", "a", "1", "a1", "_a", "1a", "a-b", "a.b", "a:b", "é", "\xff", "a]|[0", strings.Repeat("a", 64), strings.Repeat("a", 65),
		strings.Repeat("a", 128), strings.Repeat("a", 129)}
	for _, r := range rules {
		re := regexp.MustCompile(r.Pattern())
		for _, k := range keys {
			if got, want := r.Match(k), re.MatchString(k); got != want {
				t.Errorf("rule %s, key %q: Match = %v, the pattern says %v", r.Pattern(), k, got, want)
			}
		}
	}
	if !(&KeyRule{}).Match("any key") || (&KeyRule{}).Match("") {
		t.Error("the zero rule takes any non-empty key")
	}
}

// TestAppliesSeesTyping: under rules that type untyped schemas, a schema
// whose only change is a type given (or the union of the scalar types) is
// lowered, and a schema typed throughout is left as it is, uncopied.
func TestAppliesSeesTyping(t *testing.T) {
	rules, _ := parseRules(t, "untyped type")
	for _, src := range []string{
		`{"type":"object","properties":{"a":{"description":"any value"}}}`,
		`{"type":"object","properties":{"a":{"enum":["x","y"]}}}`,
		`{"type":"object","properties":{"a":{"const":3}}}`,
		`{"type":"object","properties":{"a":true}}`,
		`{"type":"object","properties":{"a":{"minLength":2}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"]}]}`,
	} {
		s, err := canonical.ParseSchema([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res := Schema(s, rules, Options{})
		if len(res.Changes) == 0 {
			t.Fatalf("%s: lowering changed nothing; the case tests nothing", src)
		}
		if !Applies(s, rules) {
			t.Errorf("%s: Applies says nothing to do, but lowering gives %v", src, res.Changes)
		}
	}
	typed, _ := canonical.ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":"string","enum":["x"]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]},"c":{"$ref":"#/properties/a"}}}`))
	if Applies(typed, rules) {
		t.Errorf("Applies says a schema typed throughout needs typing: %v", Schema(typed, rules, Options{}).Changes)
	}
}

// TestNoParameters: a tool without parameters gets properties: {} at the
// root of its input schema, and only there: not an output schema, not a
// root that describes parameters some other way.
func TestNoParameters(t *testing.T) {
	rules := &Rules{Rows: []Row{{Feature: "root-properties", Action: Add}}}
	for _, c := range []struct {
		schema string
		input  bool
		want   string
	}{
		{`{"type": "object"}`, true, `{"type":"object","properties":{}}`},
		{`{"type": "object", "additionalProperties": false, "description": "None."}`, true, `{"type":"object","additionalProperties":false,"description":"None.","properties":{}}`},
		{`{"type": "object"}`, false, `{"type":"object"}`},
		{`{"type": "object", "additionalProperties": {"type": "string"}}`, true, `{"type":"object","additionalProperties":{"type":"string"}}`},
		{`{"type": "object", "oneOf": [{"properties": {"a": {}}}]}`, true, `{"type":"object","oneOf":[{"properties":{"a":{}}}]}`},
		{`{"type": "object", "patternProperties": {"^x": {}}}`, true, `{"type":"object","patternProperties":{"^x":{}}}`},
		{`{"type": "object", "properties": {}}`, true, `{"type":"object","properties":{}}`},
	} {
		s, err := canonical.ParseSchema([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		res := Schema(s, rules, Options{Input: c.input})
		if got := string(res.Schema.JSON().AppendJSON(nil, "")); got != c.want {
			t.Errorf("%s (input %v) = %s, want %s", c.schema, c.input, got, c.want)
		}
		if added := len(res.Changes) > 0; added != (c.want != string(s.JSON().AppendJSON(nil, ""))) {
			t.Errorf("%s: changes %v", c.schema, res.Changes)
		}
	}
}
