// Package schematest compiles the JSON Schemas that tests check toolc's own
// outputs against (the SARIF shape, the manifest's schema), parses the
// JSON that tests write inline, and reads the JSON-Schema-Test-Suite's
// schemas from the shared corpus. It is for tests only.
package schematest

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
)

// Compile reads the 2020-12 schema in file and compiles it with format
// assertions on and every remote reference refused.
func Compile(tb testing.TB, file string) *jsonschema.Schema {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refuse{})
	const url = "toolc:///schema.json"
	if err := c.AddResource(url, doc); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return sch
}

// Validate checks the JSON document data against sch and returns the
// validation error, or nil.
func Validate(sch *jsonschema.Schema, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(doc)
}

type refuse struct{}

// Load refuses url: test schemas read nothing.
func (refuse) Load(url string) (any, error) { return nil, fmt.Errorf("not loading %s", url) }

// JSON parses s, JSON a test writes inline, or fails the test.
func JSON(tb testing.TB, s string) *canonical.Value {
	tb.Helper()
	v, err := canonical.ParseJSON([]byte(s))
	if err != nil {
		tb.Fatalf("%s: %v", s, err)
	}
	return v
}

// Schema parses s as a schema, or fails the test.
func Schema(tb testing.TB, s string) *canonical.Schema {
	return canonical.AsSchema(JSON(tb, s))
}

// ReadJSON reads and parses the JSON file f, or fails the test: its text
// and its value.
func ReadJSON(tb testing.TB, f string) ([]byte, *canonical.Value) {
	tb.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := canonical.ParseJSON(data)
	if err != nil {
		tb.Fatalf("%s: %v", f, err)
	}
	return data, v
}

// SuiteSchema is one schema of the JSON-Schema-Test-Suite in the shared
// corpus: its file, its text and the schema parsed.
type SuiteSchema struct {
	File, Text string
	Schema     *canonical.Schema
}

// SuiteSchemas reads and parses the suite's draft 2020-12 and draft-07
// schemas (the keyword coverage real tools lack: recursion, anchors,
// tuples, conditionals), each anew for the caller.
func SuiteSchemas(tb testing.TB) []SuiteSchema {
	tb.Helper()
	files := append(corpus.Glob(tb, "jsonschema-test-suite/draft2020-12/*.json"), corpus.Glob(tb, "jsonschema-test-suite/draft7/*.json")...)
	out := make([]SuiteSchema, len(files))
	for i, f := range files {
		data, v := ReadJSON(tb, f)
		out[i] = SuiteSchema{File: f, Text: string(data), Schema: canonical.AsSchema(v)}
	}
	return out
}
