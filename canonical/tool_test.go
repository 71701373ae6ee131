package canonical

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNormalizeTags(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{" VCS ", "vcs", "", "  ", "Git"}, []string{"vcs", "git"}},
		{[]string{"Ünïcode", "ünïcode", "E\u0301cole", "\u00e9cole"}, []string{"ünïcode", "école"}},
		{[]string{"ΣΊΣΥΦΟΣ", "日本"}, []string{"σίσυφοσ", "日本"}},
	} {
		if got := NormalizeTags(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("NormalizeTags(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestID(t *testing.T) {
	if id := (&Tool{Name: "n"}).ID(); id != "n" {
		t.Errorf("ID = %q", id)
	}
	if id := (&Tool{Namespace: "ns", Name: "n"}).ID(); id != "ns:n" {
		t.Errorf("ID = %q", id)
	}
}

func TestValidate(t *testing.T) {
	obj := mustSchema(t, `{"type":"object"}`)
	for _, tc := range []struct {
		tool Tool
		want []Pointer
	}{
		{Tool{Name: "ok", Input: obj}, nil},
		{Tool{Input: obj}, []Pointer{"/name"}},
		{Tool{Name: "a b", Input: obj}, []Pointer{"/name"}},
		{Tool{Name: "x", Namespace: "a:b", Input: obj}, []Pointer{"/namespace"}},
		{Tool{Name: "x"}, []Pointer{"/input"}},
		{Tool{Name: "x", Input: mustSchema(t, `true`)}, []Pointer{"/input"}},
		{Tool{Name: "x", Input: mustSchema(t, `{"properties":{}}`)}, []Pointer{"/input"}},
		{Tool{Name: "x", Input: mustSchema(t, `{"type":["object","null"]}`)}, []Pointer{"/input/type"}},
		// MCP 2026-07-28 takes any schema as outputSchema (its own example
		// is an array); the targets that take objects only lower it.
		{Tool{Name: "x", Input: obj, Output: mustSchema(t, `{"type":"array"}`)}, nil},
		{Tool{Name: "x", Input: obj, Output: mustSchema(t, `true`)}, []Pointer{"/output"}},
	} {
		var got []Pointer
		for _, e := range tc.tool.Validate() {
			got = append(got, e.Pointer)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Validate(%+v) at %q, want %q", tc.tool, got, tc.want)
		}
	}
}

func sampleTool(t *testing.T, input string) *Tool {
	yes, no := true, false
	return &Tool{
		Namespace: "gh", Name: "list", Title: "List", Description: "Lists.", Tags: []string{"vcs"},
		Input:       mustSchema(t, input),
		Annotations: &Annotations{ReadOnlyHint: &yes, DestructiveHint: &no, Extra: []Member{{Key: "x", Value: NewBool(true)}}},
		Examples:    []*Value{NewObject()},
		Timeout:     30 * time.Second,
		Icons:       []Icon{{Src: "https://x/i.png", Sizes: []string{"48x48"}}},
		Meta:        NewObject(),
		Extensions:  map[string]*Value{"openai": NewObject()},
		Source:      Source{File: "a.json", Fields: map[Pointer]Pointer{"/input": "/0/function/parameters"}},
	}
}

func TestHashIgnoresFormattingOrderAndSource(t *testing.T) {
	a := sampleTool(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number","minimum":1.0}}}`)
	b := sampleTool(t, `{
		"properties": {"b": {"minimum": 1, "type": "number"}, "a": {"type": "string"}},
		"type": "object"
	}`)
	b.Source = Source{File: "elsewhere.json"}
	if a.Hash() != b.Hash() {
		t.Errorf("Hash differs for formatting/order/source: %s vs %s", a.Hash(), b.Hash())
	}
	if !strings.HasPrefix(a.Hash(), "sha256:") || len(a.Hash()) != 7+64 {
		t.Errorf("Hash = %q", a.Hash())
	}
	c := sampleTool(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	if a.Hash() == c.Hash() {
		t.Error("Hash did not change with the schema")
	}
	d := sampleTool(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number","minimum":1.0}}}`)
	f := false
	d.Annotations.ReadOnlyHint = &f
	if a.Hash() == d.Hash() {
		t.Error("Hash did not change with an annotation")
	}
}

func TestToolDeepCopy(t *testing.T) {
	a := sampleTool(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	want := a.Hash()
	c := a.DeepCopy()
	*c.Annotations.ReadOnlyHint = false
	c.Annotations.Extra[0].Value.Bool = false
	c.Input.JSON().Set("x", NewNull())
	c.Tags[0] = "changed"
	c.Icons[0].Sizes[0] = "1x1"
	c.Examples[0].Set("k", NewNull())
	c.Meta.Set("k", NewNull())
	c.Extensions["openai"].Set("k", NewNull())
	c.Source.Fields["/x"] = "/y"
	if a.Hash() != want || len(a.Source.Fields) != 1 {
		t.Error("mutating a DeepCopy changed the original")
	}
}

func TestLocate(t *testing.T) {
	s := Source{Pointer: "/3", Fields: map[Pointer]Pointer{"/input": "/3/function/parameters", "/name": "/3/function/name"}}
	for in, want := range map[Pointer]Pointer{
		"/input/properties/a": "/3/function/parameters/properties/a",
		"/input":              "/3/function/parameters",
		"/name":               "/3/function/name",
		"/annotations":        "/3",
		"":                    "/3",
	} {
		if got := s.Locate(in); got != want {
			t.Errorf("Locate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		id, ns, name string
		ok           bool
	}{
		{"github:list_issues", "github", "list_issues", true},
		{"list_issues", "", "list_issues", true},
		{"", "", "", false},
		{":list", "", "", false},
		{"github:", "", "", false},
		{"a:b:c", "", "", false},
	} {
		ns, name, err := ParseID(tc.id)
		if ns != tc.ns || name != tc.name || (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrInvalidToolID) {
			t.Errorf("ParseID(%q) = %q, %q, %v; want %q, %q, ok %v", tc.id, ns, name, err, tc.ns, tc.name, tc.ok)
		}
	}
}

func TestCapTags(t *testing.T) {
	var many []string
	for i := range 22 {
		many = append(many, fmt.Sprintf("t%d", i))
	}
	kept, cut := CapTags(many)
	if len(kept) != MaxTags || !slices.Equal(cut, []string{"t20", "t21"}) {
		t.Errorf("CapTags(22 tags) kept %d, cut %q", len(kept), cut)
	}
	long := strings.Repeat("é", 70)
	kept, cut = CapTags([]string{"a", long})
	if len(kept) != 2 || len([]rune(kept[1])) != MaxTagLen || !slices.Equal(cut, []string{long}) {
		t.Errorf("CapTags(a long tag) = %q, cut %q", kept, cut)
	}
}
