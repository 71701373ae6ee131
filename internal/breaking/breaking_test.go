package breaking

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/schematest"
)

func schema(t *testing.T, s string) *canonical.Schema { return schematest.Schema(t, s) }

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	slices.Sort(out)
	return out
}

// TestRules has one case per rule (and the cases that must give nothing):
// the old and new input schemas of one tool and the codes expected.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new string
		want     string // codes, space-separated, sorted
	}{
		{"no change", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"properties": {"a": {"type": "string"}}, "type": "object"}`, ""},
		{"property removed", `{"type": "object", "properties": {"a": {}, "b": {}}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.property-removed"},
		{"required property added", `{"type": "object", "properties": {}}`, `{"type": "object", "properties": {"a": {}}, "required": ["a"]}`, "breaking.required-added"},
		{"optional property added", `{"type": "object", "properties": {}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.optional-added"},
		{"optional made required", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {}}, "required": ["a"]}`, "breaking.made-required"},
		{"required made optional", `{"type": "object", "properties": {"a": {}}, "required": ["a"]}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.constraint-loosened"},
		{"type changed", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"type": "integer"}}}`, "breaking.type-changed"},
		{"type narrowed", `{"type": "object", "properties": {"a": {"type": "number"}}}`, `{"type": "object", "properties": {"a": {"type": "integer"}}}`, "breaking.type-changed"},
		{"type union narrowed", `{"type": "object", "properties": {"a": {"type": ["string", "null"]}}}`, `{"type": "object", "properties": {"a": {"type": "string"}}}`, "breaking.type-changed"},
		{"type added", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {"type": "string"}}}`, "breaking.type-changed"},
		{"type widened", `{"type": "object", "properties": {"a": {"type": "integer"}}}`, `{"type": "object", "properties": {"a": {"type": "number"}}}`, ""},
		{"enum value removed", `{"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}`, `{"type": "object", "properties": {"a": {"enum": ["x"]}}}`, "breaking.enum-value-removed"},
		{"enum added", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}}`, "breaking.enum-value-removed"},
		{"enum value added", `{"type": "object", "properties": {"a": {"enum": ["x"]}}}`, `{"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}`, "breaking.enum-value-added"},
		{"enum removed", `{"type": "object", "properties": {"a": {"enum": ["x"]}}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.constraint-loosened"},
		{"const changed", `{"type": "object", "properties": {"a": {"const": 1}}}`, `{"type": "object", "properties": {"a": {"const": 2}}}`, "breaking.const-changed"},
		{"const added", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {"const": 2}}}`, "breaking.const-changed"},
		{"maximum lowered", `{"type": "object", "properties": {"a": {"maximum": 10}}}`, `{"type": "object", "properties": {"a": {"maximum": 5}}}`, "breaking.bound-tightened"},
		{"maxLength added", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {"maxLength": 5}}}`, "breaking.bound-tightened"},
		{"maxItems lowered", `{"type": "object", "properties": {"a": {"maxItems": 3}}}`, `{"type": "object", "properties": {"a": {"maxItems": 2}}}`, "breaking.bound-tightened"},
		{"minimum raised", `{"type": "object", "properties": {"a": {"minimum": 0}}}`, `{"type": "object", "properties": {"a": {"minimum": 1}}}`, "breaking.bound-tightened"},
		{"minLength raised", `{"type": "object", "properties": {"a": {"minLength": 0}}}`, `{"type": "object", "properties": {"a": {"minLength": 1}}}`, "breaking.bound-tightened"},
		{"minItems added", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {"minItems": 1}}}`, "breaking.bound-tightened"},
		{"same bound, other spelling", `{"type": "object", "properties": {"a": {"maximum": 10}}}`, `{"type": "object", "properties": {"a": {"maximum": 10.0}}}`, ""},
		{"bound loosened", `{"type": "object", "properties": {"a": {"maximum": 5}}}`, `{"type": "object", "properties": {"a": {"maximum": 10}}}`, "breaking.constraint-loosened"},
		{"bound removed", `{"type": "object", "properties": {"a": {"minLength": 5}}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.constraint-loosened"},
		{"pattern added", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}`, "breaking.pattern-changed"},
		{"pattern changed", `{"type": "object", "properties": {"a": {"pattern": "^x"}}}`, `{"type": "object", "properties": {"a": {"pattern": "^y"}}}`, "breaking.pattern-changed"},
		{"pattern removed", `{"type": "object", "properties": {"a": {"pattern": "^x"}}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.constraint-loosened"},
		{"additionalProperties closed", `{"type": "object", "properties": {}}`, `{"type": "object", "properties": {}, "additionalProperties": false}`, "breaking.additional-properties-closed"},
		{"additionalProperties opened", `{"type": "object", "additionalProperties": false}`, `{"type": "object"}`, "breaking.constraint-loosened"},
		{"description changed", `{"type": "object", "properties": {"a": {"description": "x"}}}`, `{"type": "object", "properties": {"a": {"description": "y"}}}`, "breaking.description-changed"},
		{"nested in items", `{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {}}}}}}`, `{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {}}}}}`, "breaking.property-removed"},
		{"through $ref", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "integer"}}}`, "breaking.type-changed"},
		{"inlined $ref is no change", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"type": "string"}}}`, ""},
		{"recursive $ref", `{"type": "object", "properties": {"n": {"$ref": "#"}, "v": {"type": "string"}}}`, `{"type": "object", "properties": {"n": {"$ref": "#"}, "v": {"type": "integer"}}}`, "breaking.type-changed"},
		{"anyOf branch removed", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}`, "breaking.type-changed"},
		{"anyOf branch added", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, "breaking.constraint-loosened"},
		{"nullable wrap", `{"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]}}}`, "breaking.constraint-loosened"},
		{"nullable unwrap", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}`, `{"type": "object", "properties": {"a": {"type": "string"}}}`, "breaking.type-changed"},
		{"oneOf as anyOf is no change", `{"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}`, ""},
		{"branch inline to $ref is no change", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"$ref": "#/$defs/s"}, {"type": "null"}]}}, "$defs": {"s": {"type": "string"}}}`, ""},
		{"enum value removed in a branch", `{"type": "object", "properties": {"a": {"anyOf": [{"enum": ["x", "y"]}, {"type": "integer"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"enum": ["x"]}, {"type": "integer"}]}}}`, "breaking.type-changed"},
		{"a branch narrowed by a bound", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 9}]}}}`, "breaking.type-changed"},
		{"type array to anyOf is no change", `{"type": "object", "properties": {"a": {"type": ["string", "integer"]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, ""},
		{"allOf member added", `{"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}}}}}`, `{"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}}, "allOf": [{"required": ["x"]}]}}}`, "breaking.type-changed"},
		{"a pattern in a branch stays unverified", `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "null"}]}}}`, `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "pattern": "^b"}, {"type": "null"}]}}}`, "breaking.unverified"},
		{"format added", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type": "object", "properties": {"a": {"type": "string", "format": "email"}}}`, "breaking.unverified"},
		{"default changed is no finding", `{"type": "object", "properties": {"a": {"default": 1}}}`, `{"type": "object", "properties": {"a": {"default": 2}}}`, ""},
		{"false schema", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": false}}`, "breaking.type-changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := []*canonical.Tool{{Name: "t", Input: schema(t, c.old)}}
			new := []*canonical.Tool{{Name: "t", Input: schema(t, c.new)}}
			got := strings.Join(codes(Compare(old, new, Options{})), " ")
			if got != c.want {
				t.Errorf("Compare(%s, %s) = %q, want %q", c.old, c.new, got, c.want)
			}
		})
	}
}

// TestOutputRules: the output rules are the mirror image of the input ones.
func TestOutputRules(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new string
		want     string
	}{
		{"output property removed", `{"type": "object", "properties": {"a": {}, "b": {}}}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.output-property-removed"},
		{"output property made optional", `{"type": "object", "properties": {"a": {}}, "required": ["a"]}`, `{"type": "object", "properties": {"a": {}}}`, "breaking.output-made-optional"},
		{"output property added", `{"type": "object", "properties": {}}`, `{"type": "object", "properties": {"a": {}}}`, ""},
		{"output made required", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "properties": {"a": {}}, "required": ["a"]}`, ""},
		{"output type widened", `{"type": "object", "properties": {"a": {"type": "integer"}}}`, `{"type": "object", "properties": {"a": {"type": "number"}}}`, "breaking.type-changed"},
		{"output type narrowed", `{"type": "object", "properties": {"a": {"type": "number"}}}`, `{"type": "object", "properties": {"a": {"type": "integer"}}}`, ""},
		{"output bound tightened", `{"type": "object", "properties": {"a": {"maximum": 10}}}`, `{"type": "object", "properties": {"a": {"maximum": 5}}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := schema(t, `{"type": "object"}`)
			old := []*canonical.Tool{{Name: "t", Input: in, Output: schema(t, c.old)}}
			new := []*canonical.Tool{{Name: "t", Input: in, Output: schema(t, c.new)}}
			got := strings.Join(codes(Compare(old, new, Options{})), " ")
			if got != c.want {
				t.Errorf("Compare(output %s, %s) = %q, want %q", c.old, c.new, got, c.want)
			}
		})
	}
}

func TestToolRules(t *testing.T) {
	in := func() *canonical.Schema { return schema(t, `{"type": "object", "properties": {"a": {}}}`) }
	a := &canonical.Tool{Namespace: "ns", Name: "a", Description: "A.", Input: in()}
	b := &canonical.Tool{Namespace: "ns", Name: "b", Description: "B.", Input: in()}
	a2 := &canonical.Tool{Namespace: "ns", Name: "a", Description: "A, better.", Title: "A", Input: in()}
	aOut := &canonical.Tool{Namespace: "ns", Name: "a", Description: "A.", Input: in(), Output: schema(t, `{"type": "object"}`)}
	renamed := &canonical.Tool{Namespace: "ns", Name: "a2", Description: "A.", Input: in()}
	for _, c := range []struct {
		name     string
		old, new []*canonical.Tool
		opts     Options
		want     string
		bump     Bump
	}{
		{"same", []*canonical.Tool{a, b}, []*canonical.Tool{a, b}, Options{}, "", None},
		{"tool removed", []*canonical.Tool{a, b}, []*canonical.Tool{a}, Options{}, "breaking.tool-removed", Major},
		{"tool added", []*canonical.Tool{a}, []*canonical.Tool{a, b}, Options{}, "breaking.tool-added", Minor},
		{"tool renamed", []*canonical.Tool{a}, []*canonical.Tool{renamed}, Options{}, "breaking.tool-added breaking.tool-removed", Major},
		{"description and title changed", []*canonical.Tool{a}, []*canonical.Tool{a2}, Options{}, "breaking.description-changed breaking.description-changed", Patch},
		{"output schema removed", []*canonical.Tool{aOut}, []*canonical.Tool{a}, Options{}, "breaking.output-property-removed", Major},
		{"output schema added", []*canonical.Tool{a}, []*canonical.Tool{aOut}, Options{}, "", None},
		{"optional property under strict targets", []*canonical.Tool{{Name: "t", Input: schema(t, `{"type": "object"}`)}}, []*canonical.Tool{{Name: "t", Input: in()}}, Options{Strict: []string{"openai-strict"}}, "breaking.optional-added-strict", Major},
	} {
		t.Run(c.name, func(t *testing.T) {
			ds := Compare(c.old, c.new, c.opts)
			if got := strings.Join(codes(ds), " "); got != c.want {
				t.Errorf("Compare = %q, want %q", got, c.want)
			}
			if got := Needed(ds); got != c.bump {
				t.Errorf("Needed = %s, want %s", got, c.bump)
			}
		})
	}
}

func TestStrictMessageNamesTargets(t *testing.T) {
	ds := Compare([]*canonical.Tool{{Name: "t", Input: schema(t, `{"type": "object"}`)}},
		[]*canonical.Tool{{Name: "t", Input: schema(t, `{"type": "object", "properties": {"a": {}}}`)}},
		Options{Strict: []string{"openai-strict", "anthropic"}})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "the strict targets openai-strict, anthropic make it required") {
		t.Errorf("Compare = %v", ds)
	}
}

func TestLocation(t *testing.T) {
	n := &canonical.Tool{Name: "t", Input: schema(t, `{"type": "object", "properties": {"a": {"type": "integer"}}}`),
		Source: canonical.Source{File: "tools.json", Pointer: "/0", Fields: map[canonical.Pointer]canonical.Pointer{"/input": "/0/inputSchema"}}}
	o := &canonical.Tool{Name: "t", Input: schema(t, `{"type": "object", "properties": {"a": {"type": "string"}}}`)}
	ds := Compare([]*canonical.Tool{o}, []*canonical.Tool{n}, Options{})
	if len(ds) != 1 || ds[0].File != "tools.json" || ds[0].Pointer != "/0/inputSchema/properties/a/type" {
		t.Errorf("Compare = %+v, want breaking.type-changed at tools.json#/0/inputSchema/properties/a/type", ds)
	}
}

func TestCheckVersion(t *testing.T) {
	for _, c := range []struct {
		old, new string
		need     Bump
		want     string // the code, or ""
	}{
		{"1.2.3", "2.0.0", Major, ""},
		{"1.2.3", "1.3.0", Major, "breaking.version"},
		{"1.2.3", "1.2.4", Major, "breaking.version"},
		{"0.3.1", "0.4.0", Major, ""},
		{"0.3.1", "0.3.2", Major, "breaking.version"},
		{"0.0.1", "0.0.2", Major, ""},
		{"1.2.3", "1.3.0", Minor, ""},
		{"1.2.3", "1.2.4", Minor, "breaking.version-minor"},
		{"0.3.1", "0.3.2", Minor, ""},
		{"1.2.3", "1.2.4", Patch, ""},
		{"1.2.3", "1.2.3", Patch, ""},
		{"", "1.0.0", Major, ""},
		{"1.0.0", "1.0.0-rc.1", Major, "breaking.version"},
		{"1.9.0", "1.10.0", Minor, ""},
	} {
		d, ok := CheckVersion(c.old, c.new, c.need)
		got := ""
		if ok {
			got = d.Code
		}
		if got != c.want {
			t.Errorf("CheckVersion(%q, %q, %s) = %q, want %q", c.old, c.new, c.need, got, c.want)
		}
	}
	// The message words a version that did not change, or went back, as no
	// release ("a none release" was printed).
	for _, c := range []struct{ old, new, want string }{
		{"1.2.3", "1.2.3", "the catalog version stays 1.2.3, but its changes break callers: it needs 2.0.0"},
		{"1.2.3", "1.0.0", "the catalog version goes from 1.2.3 to 1.0.0, which is no release after it, but its changes break callers: it needs 2.0.0"},
		{"1.2.3", "1.3.0", "the catalog version goes from 1.2.3 to 1.3.0, a minor release, but its changes break callers: it needs 2.0.0"},
	} {
		if d, _ := CheckVersion(c.old, c.new, Major); d.Message != c.want {
			t.Errorf("CheckVersion(%q, %q) says %q, want %q", c.old, c.new, d.Message, c.want)
		}
	}
	for _, c := range []struct {
		old  string
		need Bump
		want string
	}{{"1.2.3", Major, "2.0.0"}, {"1.2.3", Minor, "1.3.0"}, {"1.2.3", Patch, "1.2.4"}, {"0.3.1", Major, "0.4.0"}, {"0.3.1", Minor, "0.3.2"}, {"0.0.1", Major, "0.0.2"}} {
		if got := Next(c.old, c.need); got != c.want {
			t.Errorf("Next(%q, %s) = %q, want %q", c.old, c.need, got, c.want)
		}
	}
}

// TestEveryRuleIsACode keeps the rules and diag's table together.
func TestEveryRuleIsACode(t *testing.T) {
	for code := range minorCodes {
		if _, ok := diag.Lookup(code); !ok {
			t.Errorf("%s is not in diag's table", code)
		}
	}
}

// FuzzCompare: no pair of schemas may panic Compare or loop forever.
func FuzzCompare(f *testing.F) {
	f.Add(`{"type": "object", "properties": {"a": {"$ref": "#"}}}`, `{"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}}`)
	f.Add(`{"properties": {"a": {"items": {"enum": [1, 2]}, "maxItems": 3}}, "required": ["a"]}`, `{"properties": {"a": {"items": {"enum": [1]}, "maxItems": 1e2}}}`)
	f.Add(`{"$ref": "#/$defs/x", "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}}`, `true`)
	f.Add(`{"prefixItems": [{"type": "string"}], "additionalProperties": {"minimum": 1}}`, `{"prefixItems": [false], "additionalProperties": {"minimum": 2}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		va, err1 := canonical.ParseJSON([]byte(a))
		vb, err2 := canonical.ParseJSON([]byte(b))
		if err1 != nil || err2 != nil {
			return
		}
		// Tools x0 … x3 are in one catalog or the other by the bits of
		// the inputs' lengths, beside t, which both have.
		old := []*canonical.Tool{{Name: "t", Input: canonical.AsSchema(va), Output: canonical.AsSchema(vb)}}
		new := []*canonical.Tool{{Name: "t", Input: canonical.AsSchema(vb), Output: canonical.AsSchema(va)}}
		for i := range 4 {
			x := func() *canonical.Tool {
				return &canonical.Tool{Name: fmt.Sprintf("x%d", i), Input: canonical.AsSchema(va)}
			}
			if len(a)>>i&1 == 1 {
				old = append(old, x())
			}
			if len(b)>>i&1 == 1 {
				new = append(new, x())
			}
		}
		forth := Compare(old, new, Options{Strict: []string{"s"}})
		back := Compare(new, old, Options{Strict: []string{"s"}})
		Needed(forth)
		// Antisymmetric on the tools: what one way adds the other removes.
		if got, want := toolsWith(forth, "breaking.tool-added"), toolsWith(back, "breaking.tool-removed"); !slices.Equal(got, want) {
			t.Fatalf("added one way %v, removed the other %v", got, want)
		}
		if got, want := toolsWith(forth, "breaking.tool-removed"), toolsWith(back, "breaking.tool-added"); !slices.Equal(got, want) {
			t.Fatalf("removed one way %v, added the other %v", got, want)
		}
	})
}

func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		need     Bump
		want     bool
	}{
		{"1.0.0", "2.0.0", Major, true},
		{"1.0.0", "1.1.0", Major, false},
		{"0.3.1", "0.4.0", Major, true}, // 0.y.z: the minor number is the major one
		{"0.3.1", "0.3.2", Major, false},
		{"1.4.0", "1.5.0", Minor, true},
		{"1.4.0", "", Major, false},
		{"", "2.0.0", Major, false},
	} {
		if got := Covers(tc.old, tc.new, tc.need); got != tc.want {
			t.Errorf("Covers(%q, %q, %v) = %v, want %v", tc.old, tc.new, tc.need, got, tc.want)
		}
	}
}

// TestLifecycle: a rename is compared as one tool, a removal after its
// sunset and a deprecation are minor changes.
func TestLifecycle(t *testing.T) {
	in := func(props string) *canonical.Schema {
		return schema(t, `{"type": "object", "properties": {`+props+`}}`)
	}
	today := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		old, new []*canonical.Tool
		want     string
		bump     Bump
	}{
		{"renamed", []*canonical.Tool{{Name: "search", Input: in(`"q": {}`)}}, []*canonical.Tool{{Name: "find", RenamedFrom: "search", Input: in(`"q": {}`)}},
			"breaking.tool-renamed", Minor},
		{"renamed, and a property removed", []*canonical.Tool{{Name: "search", Input: in(`"q": {}`)}}, []*canonical.Tool{{Name: "find", RenamedFrom: "search", Input: in(``)}},
			"breaking.property-removed breaking.tool-renamed", Major},
		{"removed after its sunset", []*canonical.Tool{{Name: "search", Deprecated: true, Sunset: "2026-01-31", Input: in(``)}}, nil,
			"breaking.tool-sunset", Minor},
		{"removed before its sunset", []*canonical.Tool{{Name: "search", Deprecated: true, Sunset: "2027-01-31", Input: in(``)}}, nil,
			"breaking.tool-removed", Major},
		{"deprecated", []*canonical.Tool{{Name: "search", Input: in(``)}}, []*canonical.Tool{{Name: "search", Deprecated: true, Input: in(``)}},
			"breaking.tool-deprecated", Minor},
	}
	for _, tc := range tests {
		ds := Compare(tc.old, tc.new, Options{Today: today})
		if got := strings.Join(codes(ds), " "); got != tc.want || Needed(ds) != tc.bump {
			t.Errorf("%s: Compare = %q (%v), want %q (%v)", tc.name, got, Needed(ds), tc.want, tc.bump)
		}
	}
}

// toolsWith lists, sorted, the tools of the findings with code.
func toolsWith(ds []diag.Diagnostic, code string) []string {
	var out []string
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d.Tool)
		}
	}
	slices.Sort(out)
	return out
}
