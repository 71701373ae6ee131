package canonical

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gowebpki/jcs"
	"github.com/toolc-dev/toolc/internal/corpus"
)

func mustSchema(t *testing.T, s string) *Schema {
	t.Helper()
	sc, err := ParseSchema([]byte(s))
	if err != nil {
		t.Fatalf("ParseSchema(%s): %v", s, err)
	}
	return sc
}

func TestWalkVisitsEveryApplicator(t *testing.T) {
	s := mustSchema(t, `{
		"properties": {"a": {"type": "string"}, "b": true},
		"patternProperties": {"^x-": {}},
		"additionalProperties": {"type": "integer"},
		"items": [{"const": 1}, false],
		"additionalItems": {},
		"prefixItems": [{}],
		"contains": {},
		"propertyNames": {"maxLength": 3},
		"$defs": {"d": {"$ref": "#"}},
		"definitions": {"e": {}},
		"allOf": [{}], "anyOf": [{}, {}], "oneOf": [{}], "not": {},
		"if": {}, "then": {}, "else": {},
		"dependentSchemas": {"a": {}},
		"dependencies": {"a": ["b"], "b": {"required": ["a"]}},
		"unevaluatedProperties": false, "unevaluatedItems": false,
		"contentSchema": {},
		"x-vendor": {"properties": {"not-a-schema": {}}},
		"enum": [{"properties": {}}],
		"const": {"items": {}}
	}`)
	var got []Pointer
	Walk(s, func(p Pointer, _ *Schema) bool { got = append(got, p); return true })
	want := []Pointer{"",
		"/properties/a", "/properties/b", "/patternProperties/^x-", "/additionalProperties",
		"/items/0", "/items/1", "/additionalItems", "/prefixItems/0", "/contains", "/propertyNames",
		"/$defs/d", "/definitions/e", "/allOf/0", "/anyOf/0", "/anyOf/1", "/oneOf/0", "/not",
		"/if", "/then", "/else", "/dependentSchemas/a", "/dependencies/b",
		"/unevaluatedProperties", "/unevaluatedItems", "/contentSchema",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Walk visited\n%q\nwant\n%q", got, want)
	}
	for _, p := range got {
		if s.JSON().Resolve(p) == nil {
			t.Errorf("Resolve(%q) = nil for a visited pointer", p)
		}
	}
}

func TestWalkSkipAndMalformed(t *testing.T) {
	s := mustSchema(t, `{"properties": {"a": {"properties": {"b": {}}}}, "items": 3, "anyOf": {"x": 1}, "not": "no"}`)
	var got []Pointer
	Walk(s, func(p Pointer, _ *Schema) bool { got = append(got, p); return p != "/properties/a" })
	if want := []Pointer{"", "/properties/a"}; !slices.Equal(got, want) {
		t.Errorf("Walk = %q, want %q", got, want)
	}
	var n int
	for range s.All() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("All did not stop after break")
	}
}

func TestWalkCorpusResolves(t *testing.T) {
	for _, f := range corpus.Glob(t, filepath.Join("jsonschema-test-suite", "*", "*.json")) {
		data, _ := os.ReadFile(f)
		s, err := ParseSchema(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for p, sub := range s.All() {
			if got := s.JSON().Resolve(p); got != sub.JSON() {
				t.Errorf("%s: Resolve(%q) does not return the walked node", f, p)
			}
		}
	}
}

func TestAccessors(t *testing.T) {
	s := mustSchema(t, `{"type": ["string", "null"], "description": "d", "required": ["a"], "properties": {"a": {}, "b": false, "c": 1}}`)
	if got := s.Types(); !slices.Equal(got, []string{"string", "null"}) {
		t.Errorf("Types = %q", got)
	}
	if !s.HasType("null") || s.HasType("object") {
		t.Errorf("HasType wrong")
	}
	if s.Description() != "d" || !slices.Equal(s.Required(), []string{"a"}) {
		t.Errorf("Description/Required wrong")
	}
	var names []string
	for n := range s.Properties() {
		names = append(names, n)
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("Properties = %q, want [a b] (a non-schema value is skipped)", names)
	}
}

func TestDeepCopyNeverAliases(t *testing.T) {
	s := mustSchema(t, `{"properties": {"a": {"enum": [1, {"x": [2]}]}}, "required": ["a"]}`)
	c := s.DeepCopy()
	if !c.Equal(s) {
		t.Fatal("copy differs")
	}
	// Mutate every node of the copy; the original must not change.
	before := string(s.JSON().AppendJSON(nil, ""))
	var mutate func(v *Value)
	mutate = func(v *Value) {
		v.SetText(v.Text() + "!")
		for _, it := range v.Items() {
			mutate(it)
		}
		for i := range v.Members() {
			v.Members()[i].Key += "!"
			mutate(v.Members()[i].Value)
		}
		v.SetItems(append(v.Items(), NewNull()))
		v.SetMembers(append(v.Members(), Member{Key: "new", Value: NewNull()}))
	}
	mutate(c.JSON())
	if after := string(s.JSON().AppendJSON(nil, "")); after != before {
		t.Errorf("mutating the copy changed the original:\n%s\n%s", before, after)
	}
}

func TestPointerTokens(t *testing.T) {
	p := Pointer("").Append("a/b", "c~d", "").Index(3)
	if p != "/a~1b/c~0d//3" {
		t.Errorf("Append = %q", p)
	}
	toks, err := p.Tokens()
	if err != nil || !slices.Equal(toks, []string{"a/b", "c~d", "", "3"}) {
		t.Errorf("Tokens = %q, %v", toks, err)
	}
	if _, err := Pointer("a").Tokens(); err == nil {
		t.Error("Tokens of a pointer without '/' succeeded")
	}
	v, _ := ParseJSON([]byte(`{"a/b":{"c~d":{"":[0,1,2,"x"]}}}`))
	if got := v.Resolve(p); got == nil || got.Text() != "x" {
		t.Errorf("Resolve(%q) = %v", p, got)
	}
	if v.Resolve("/a~1b/c~0d//03") != nil {
		t.Error("leading zero index resolved")
	}
	for p, want := range map[Pointer]*Value{"": v, "/": nil, "a~1b": nil, "/a~1b": v.Members()[0].Value, "/a~1b/": nil, "/a/b": nil,
		"/a~1b/c~0d/": v.Members()[0].Value.Members()[0].Value.Members()[0].Value, "/a~1b/c~0d//4": nil, "/a~1b/c~0d//x": nil} {
		if got := v.Resolve(p); got != want {
			t.Errorf("Resolve(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestStepLeads: a step leads into a pointer when the pointer starts with
// its whole tokens, escaped; AppendTo writes the same tokens.
func TestStepLeads(t *testing.T) {
	for _, c := range []struct {
		st   Step
		p    Pointer
		want int // -1: does not lead
	}{
		{Step{Keyword: "items", Index: -1}, "/items", 6},
		{Step{Keyword: "items", Index: -1}, "/items/properties/a", 6},
		{Step{Keyword: "items", Index: -1}, "/itemsx", -1},
		{Step{Keyword: "items", Index: -1}, "items", -1},
		{Step{Keyword: "anyOf", Index: 1}, "/anyOf/1/type", 8},
		{Step{Keyword: "anyOf", Index: 1}, "/anyOf/10", -1},
		{Step{Keyword: "anyOf", Index: 1}, "/anyOf", -1},
		{Step{Keyword: "$defs", Name: "a/b~c", Named: true, Index: -1}, "/$defs/a~1b~0c/items", 14},
		{Step{Keyword: "$defs", Name: "a/b~c", Named: true, Index: -1}, "/$defs/a/b~c", -1},
		{Step{Keyword: "properties", Name: "", Named: true, Index: -1}, "/properties/", 12},
		{Step{Keyword: "properties", Name: "", Named: true, Index: -1}, "/properties/x", -1},
	} {
		n, ok := c.st.Leads(c.p)
		if got := map[bool]int{true: n, false: -1}[ok]; got != c.want {
			t.Errorf("%+v.Leads(%q) = %d, %v; want %d", c.st, c.p, n, ok, c.want)
		}
		if ok && c.st.AppendTo("") != c.p[:n] {
			t.Errorf("%+v.AppendTo = %q, want %q", c.st, c.st.AppendTo(""), c.p[:n])
		}
	}
}

func TestJCSMatchesReference(t *testing.T) {
	cases := []string{
		`{"b":1,"a":[1.0,1e2,-0,0.000001,1e-7,123456789012345678901234567890,5e-324,1.7976931348623157e308]}`,
		`{"\u20ac":"€","\ud83d\ude00":1,"\ufb33":2,"a":"\u0007\"\\/"}`,
		`[null,true,false,"\u2028"]`,
	}
	for _, f := range corpus.Glob(t, filepath.Join("jsonschema-test-suite", "*", "*.json")) {
		data, _ := os.ReadFile(f)
		cases = append(cases, string(data))
	}
	for _, in := range cases {
		v, err := ParseJSON([]byte(in))
		if err != nil {
			t.Fatalf("ParseJSON: %v", err)
		}
		want, err := jcs.Transform([]byte(in))
		if err != nil {
			continue // outside what the reference accepts
		}
		if got := v.AppendJCS(nil); string(got) != string(want) {
			t.Errorf("AppendJCS(%.80s) =\n%s\nwant\n%s", in, got, want)
		}
	}
}

func TestJCSRFC8785Numbers(t *testing.T) {
	for in, want := range map[string]string{
		"1.0": "1", "1e21": "1e+21", "1e20": "100000000000000000000", "0.000001": "0.000001",
		"1e-7": "1e-7", "-0": "0", "4.50": "4.5", "2e-3": "0.002", "333333333.33333329": "333333333.3333333",
	} {
		if got := jcsNumber(in); got != want {
			t.Errorf("jcsNumber(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestValueJSONMarshaler(t *testing.T) {
	v, _ := ParseJSON([]byte(`{"b":1.50,"a":[true]}`))
	out, err := json.Marshal(struct{ V *Value }{v})
	if err != nil || string(out) != `{"V":{"b":1.50,"a":[true]}}` {
		t.Errorf("json.Marshal = %s, %v", out, err)
	}
	var w Value
	if err := json.Unmarshal([]byte(`{"k": [1, 2]}`), &w); err != nil || w.Get("k") == nil {
		t.Errorf("json.Unmarshal = %v", err)
	}
}
