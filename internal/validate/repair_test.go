package validate

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/formats"
)

func TestRepairTable(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		codes          []string
	}{
		{"bfcl types",
			`{"type": "dict", "properties": {"a": {"type": "float"}, "b": {"type": "tuple", "items": {"type": "String"}}, "c": {"type": "any"}, "d": {"type": ["str", "null"]}, "e": {"type": "HashMap"}, "f": {"type": "long"}}}`,
			`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"array","items":{"type":"string"}},"c":{},"d":{"type":["string","null"]},"e":{"type":"object"},"f":{"type":"integer"}}}`,
			[]string{"repair.type /input/properties/a/type", "repair.type /input/properties/b/items/type", "repair.type /input/properties/b/type", "repair.type /input/properties/c/type", "repair.type /input/properties/d/type/0", "repair.type /input/properties/e/type", "repair.type /input/properties/f/type", "repair.type /input/type"}},
		{"nullable",
			`{"type": "object", "properties": {"a": {"type": "string", "nullable": true, "enum": ["x"]}, "b": {"type": "integer", "nullable": false}}}`,
			`{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null]},"b":{"type":"integer"}}}`,
			[]string{"repair.nullable /input/properties/a/nullable", "repair.nullable /input/properties/b/nullable"}},
		{"exclusive bounds",
			`{"type": "object", "properties": {"a": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": false}}}`,
			`{"type":"object","properties":{"a":{"type":"number","maximum":10,"exclusiveMinimum":0}}}`,
			[]string{"repair.exclusive-bound /input/properties/a/exclusiveMaximum", "repair.exclusive-bound /input/properties/a/exclusiveMinimum"}},
		{"draft-04 keeps boolean bounds",
			`{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"a": {"minimum": 0, "exclusiveMinimum": true}}}`,
			`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"minimum":0,"exclusiveMinimum":true}}}`,
			nil},
		{"optional list and flags",
			`{"type": "object", "optional": ["b"], "properties": {"a": {"type": "string", "required": true}, "b": {"type": "string"}, "c": {"type": "string", "optional": true}}, "required": ["b", "c"]}`,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}},"required":["a"]}`,
			[]string{"repair.optional /input/optional", "repair.optional /input/properties/c/optional", "repair.required-flag /input/properties/a/required"}},
		{"required null", // DeepSeek refuses it (zed issue 64386)
			`{"type": "object", "properties": {"a": {"type": "object", "properties": {}, "required": null}}, "required": null}`,
			`{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`,
			[]string{"repair.required-null /input/properties/a/required", "repair.required-null /input/required"}},
		{"root with properties and no type",
			`{"properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
			[]string{"repair.root-type /input"}},
		{"root allOf of objects and no type",
			`{"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]}`,
			`{"type":"object","allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"string"}}}]}`,
			[]string{"repair.root-type /input"}},
		{"root allOf with a non-object member keeps its form",
			`{"allOf": [{"type": "object"}, {"$ref": "#/$defs/x"}], "$defs": {"x": {"type": "object"}}}`,
			`{"allOf":[{"type":"object"},{"$ref":"#/$defs/x"}],"$defs":{"x":{"type":"object"}}}`,
			nil},
		{"standard schema untouched", `{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`, nil},
	} {
		in := schemaOf(t, tc.in)
		before := string(in.JSON().AppendJSON(nil, ""))
		tool := &canonical.Tool{Name: "t", Input: in, Source: canonical.Source{Fields: map[canonical.Pointer]canonical.Pointer{"/input": "/input"}}}
		ds := Repair(tool)
		if got := string(tool.Input.JSON().AppendJSON(nil, "")); got != tc.want {
			t.Errorf("%s: Repair =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
		if got := found(ds); !slices.Equal(got, tc.codes) {
			t.Errorf("%s: diagnostics %q, want %q", tc.name, got, tc.codes)
		}
		if string(in.JSON().AppendJSON(nil, "")) != before {
			t.Errorf("%s: Repair modified the original schema", tc.name)
		}
		if len(tc.codes) > 0 && len(New().Schema(tool.Input)) > 0 {
			t.Errorf("%s: the repaired schema is still invalid: %v", tc.name, New().Schema(tool.Input))
		}
		// Repair is idempotent.
		if again := Repair(tool); len(again) > 0 {
			t.Errorf("%s: a second Repair changed %q", tc.name, found(again))
		}
	}
}

func TestInvalidWithoutRepairSuggestsIt(t *testing.T) {
	ds := New().Schema(schemaOf(t, `{"type": "object", "properties": {"a": {"type": "float"}, "b": {"minimum": 1, "exclusiveMinimum": true}}}`))
	if len(ds) != 2 {
		t.Fatalf("Schema = %v", ds)
	}
	for _, d := range ds {
		if !strings.Contains(d.Message, "repair = true") || d.Fix != "set repair = true on the source" {
			t.Errorf("%s does not suggest repair", d)
		}
	}
}

// TestBFCLImportsWithRepair decodes every BFCL and ToolBench function as an
// OpenAI legacy function, repairs it, and validates it: no schema error may
// remain (lint warnings, such as defaults BFCL writes as strings, may).
func TestBFCLImportsWithRepair(t *testing.T) {
	corpus.Heavy(t)
	openai, _ := formats.Default().Get("openai")
	v := New()
	var tools, repaired int
	counts := map[string]int{}
	for _, f := range []string{"openai/bfcl/all_functions.distinct.jsonl", "openai/toolbench/answer_functions.distinct.jsonl"} {
		for i, l := range corpus.Lines(t, f) {
			line := i + 1
			doc, err := canonical.ParseJSON(l)
			if err != nil {
				t.Fatal(err)
			}
			decoded, ds := openai.Decode(doc.Get("function"), f)
			if diag.HasErrors(ds) || len(decoded) != 1 {
				t.Errorf("%s:%d: decode: %v", f, line, ds)
				continue
			}
			tool := decoded[0]
			rds := Repair(tool)
			if len(rds) > 0 {
				repaired++
			}
			for _, d := range append(formats.CheckSchemas(decoded), v.Tool(tool)...) {
				counts[d.Code]++
				if d.Severity == diag.Error {
					t.Errorf("%s:%d: after repair: %s", f, line, d)
				}
			}
			tools++
		}
	}
	t.Logf("%d functions imported, %d repaired; warnings after repair: %v", tools, repaired, counts)
	if tools < 3526+56 {
		t.Errorf("only %d functions", tools)
	}
}

// TestNeedsRepairCoversRepair holds needsRepair, which spares the copy of
// schemas with nothing to repair, to never missing what repairSchema
// rewrites: on every corpus schema, BFCL's and ToolBench's parameters
// included, a schema repairSchema changes is one needsRepair flags.
func TestNeedsRepairCoversRepair(t *testing.T) {
	schemas := corpusSchemas(t)
	for _, f := range []string{"openai/bfcl/all_functions.distinct.jsonl", "openai/toolbench/answer_functions.distinct.jsonl"} {
		for i, l := range corpus.Lines(t, f) {
			if doc, err := canonical.ParseJSON(l); err == nil {
				if p := doc.Get("function").Get("parameters"); p != nil && p.Kind == canonical.Object {
					schemas[f+"#"+strings.Repeat("'", i)] = canonical.AsSchema(p)
				}
			}
		}
	}
	var flagged, changed int
	for name, s := range schemas {
		if !s.IsObject() {
			continue
		}
		draft, _ := Dialect(s)
		c := s.DeepCopy()
		var fs []finding
		for p, sub := range c.All() {
			fs = append(fs, repairSchema(p, sub, draft)...)
		}
		needs := needsRepair(s, draft)
		if len(fs) > 0 && !needs {
			t.Errorf("%s: repairSchema rewrites %v, needsRepair says nothing to do", name, fs)
		}
		if needs {
			flagged++
		}
		if len(fs) > 0 {
			changed++
		}
	}
	t.Logf("%d schemas: needsRepair flagged %d, repairSchema changed %d", len(schemas), flagged, changed)
}
