package validate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
)

// proves reports whether quick proves s, and what the full check finds.
func proves(v *Validator, s *canonical.Schema) (proven bool, full []finding) {
	if s.IsBool() {
		return true, nil
	}
	draft, ok := Dialect(s)
	if !ok {
		return false, nil
	}
	fs, external := checkRefs(s)
	proven = len(fs) == 0 && len(external) == 0 && v.quick(s, draft)
	return proven, v.full(s, draft, fs, external)
}

// TestQuickAgreesOnCorpus holds quick to its promise on every schema of the
// corpus, the JSON-Schema-Test-Suite's and the providers' rejections
// included: what it proves, the full check finds nothing in. It also
// checks that quick proves most real tool schemas, or it would save nothing.
func TestQuickAgreesOnCorpus(t *testing.T) {
	corpus.Heavy(t)
	schemas := corpusSchemas(t)
	for i, l := range corpus.Lines(t, "rejections/cases.jsonl") {
		var c struct {
			Schema json.RawMessage `json:"schema"`
		}
		if json.Unmarshal(l, &c) != nil || len(c.Schema) == 0 {
			continue
		}
		if s, err := canonical.ParseSchema(c.Schema); err == nil {
			schemas["rejection#"+string(rune('A'+i%26))+strings.Repeat("'", i/26)] = s
		}
	}
	v := New()
	v.Loader = failLoader{t}
	var tools, toolsProven, proven, withFindings int
	for name, s := range schemas {
		ok, full := proves(v, s)
		if ok && len(full) > 0 {
			t.Errorf("%s: quick proved it, the full check finds %v", name, full)
		}
		if ok {
			proven++
		}
		if len(full) > 0 {
			withFindings++
		}
		if !strings.Contains(name, "jsonschema-test-suite") && !strings.HasPrefix(name, "rejection") {
			tools++
			if ok {
				toolsProven++
			}
		}
	}
	t.Logf("%d schemas: quick proved %d, the full check found something in %d; tool schemas: %d of %d proved", len(schemas), proven, withFindings, toolsProven, tools)
	if toolsProven*10 < tools*8 {
		t.Errorf("quick proved only %d of %d tool schemas", toolsProven, tools)
	}
}

// TestQuickDeclines lists schemas quick must hand to the full check, each
// for a reason the full check alone can judge or word.
func TestQuickDeclines(t *testing.T) {
	for _, src := range []string{
		`{"type": "object", "properties": {"a": {"type": "dict"}}}`,                                      // a node the meta-schema refuses
		`{"type": "string", "default": 3}`,                                                               // a value its schema refuses
		`{"properties": {"a": {"enum": ["x", 1], "type": "string"}}}`,                                    // one enum value refused
		`{"$id": "https://example.com/s", "type": "object"}`,                                             // an identifier
		`{"$defs": {"a": {"$anchor": "a"}}, "$ref": "#a"}`,                                               // an anchor
		`{"properties": {"a": {"$ref": "#/properties/b"}}}`,                                              // a reference to nothing
		`{"properties": {"a": {"$ref": "#/properties"}}}`,                                                // a reference to what is not a node
		`{"$defs": {"a": {"type": "string"}}, "properties": {"b": {"$ref": "#/$defs/a", "default": 1}}}`, // a value behind a reference
		`{"pattern": "("}`,                 // a broken pattern
		`{"patternProperties": {"(": {}}}`, // a broken pattern as a name
		`{"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#"}}}`, // a dialect inside
		`{"$schema": "http://json-schema.org/draft-04/schema#", "id": "x", "type": "object"}`,
		`{"$schema": "http://json-schema.org/draft-04/schema#", "additionalProperties": false}`, // a boolean schema in draft-04
	} {
		s := schemaOf(t, src)
		if ok, full := proves(New(), s); ok {
			t.Errorf("quick proved %s (the full check finds %v)", src, full)
		}
	}
}

// TestQuickReusesShapes checks that schemas differing only in what the
// meta-schema ignores share their proofs, and that a shape is not taken for
// another.
func TestQuickReusesShapes(t *testing.T) {
	v := New()
	for i, src := range []string{
		`{"type": "object", "description": "one", "properties": {"a": {"type": "string", "description": "x", "enum": ["p", "q"]}}, "required": ["a"]}`,
		`{"type": "object", "description": "two", "properties": {"b": {"type": "string", "description": "y", "enum": ["p", "q"]}}, "required": ["b"]}`,
	} {
		if ok, _ := proves(v, schemaOf(t, src)); !ok {
			t.Fatalf("schema %d not proved", i)
		}
	}
	if n := len(v.shapes.valid.m); n != 2 {
		t.Errorf("%d shallow forms cached for two schemas of one shape, want 2 (root and property)", n)
	}
	if n := len(v.shapes.compiled.m); n != 1 {
		t.Errorf("%d compiled forms for one enum, want 1", n)
	}
	if n := len(v.shapes.values.m); n != 1 {
		t.Errorf("%d proofs of values for one enum, want 1", n)
	}
	// Another default under the same form is proved on its own, and a
	// default the form refuses is not proved.
	if ok, _ := proves(v, schemaOf(t, `{"type": "string", "enum": ["p", "q"], "default": "q"}`)); !ok {
		t.Error("a valid default not proved")
	}
	if ok, full := proves(v, schemaOf(t, `{"type": "string", "enum": ["p", "q"], "default": "r"}`)); ok || len(full) == 0 {
		t.Errorf("a default outside the enum: proved %v, full check %v", ok, full)
	}
	if n := len(v.shapes.values.m); n != 2 {
		t.Errorf("%d proofs of values, want 2: a failed one is not kept", n)
	}
	// required's names keep their equalities: a repeated name is another shape.
	if ok, full := proves(v, schemaOf(t, `{"type": "object", "description": "", "properties": {"a": {}}, "required": ["a", "a"]}`)); ok || len(full) == 0 {
		t.Errorf("a repeated required name: proved %v, full check %v", ok, full)
	}
}

// FuzzQuick checks quick against the full check on any JSON: what quick
// proves, the full check must find nothing in.
func FuzzQuick(f *testing.F) {
	for _, seed := range []string{
		`{"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"], "default": "x"}}, "required": ["a"]}`,
		`{"$defs": {"n": {"type": "integer", "minimum": 0}}, "type": "array", "items": {"$ref": "#/$defs/n"}, "default": [1]}`,
		`{"anyOf": [{"type": "string", "pattern": "^a+$"}, {"type": "null"}], "const": "aa"}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": true}, "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`,
		`{"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"a": {"exclusiveMinimum": true, "minimum": 1}}}`,
		`{"patternProperties": {"^x-": {"type": "string"}}, "propertyNames": {"maxLength": 3}, "examples": [{"x-a": "b"}]}`,
		`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]}`,
	} {
		f.Add([]byte(seed))
	}
	v := New()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := canonical.ParseSchema(data)
		if err != nil || !(s.IsObject() || s.IsBool()) {
			return
		}
		if ok, full := proves(v, s); ok && len(full) > 0 {
			t.Errorf("quick proved %s; the full check finds %v", data, full)
		}
		if ok, _ := proves(v, s); ok && slices.ContainsFunc(s.JSON().Members(), func(m canonical.Member) bool { return forbidden[m.Key] }) {
			t.Errorf("quick proved a schema with an identifier: %s", data)
		}
	})
}
