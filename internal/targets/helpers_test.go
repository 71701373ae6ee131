package targets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/publish"
)

// adapter is a format as these tests read and write it by one name: what
// package formats reads of it (Decode), and what this package writes
// (the rest; nil for a format only read).
type adapter struct {
	Name    string
	Decode  func(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic)
	Encode  emit.Encoder
	Publish publish.Publisher
	Profile *profile.Profile
	target  *Target
}

// Emit runs the target, as Target.Emit does.
func (a *adapter) Emit(ctx context.Context, tools []*canonical.Tool, target string, opts profile.Options) *profile.Lowered {
	return a.target.Emit(ctx, tools, target, opts)
}

// testRegistry is every format read or written, by name.
type testRegistry struct {
	read  *formats.Registry
	write *Registry
}

func allFormats() *testRegistry { return &testRegistry{formats.Default(), Default()} }

func (r *testRegistry) Get(name string) (*adapter, bool) {
	a := &adapter{Name: name}
	f, readable := r.read.Get(name)
	if readable {
		a.Decode = f.Decode
	}
	t, writable := r.write.Get(name)
	if writable {
		a.Encode, a.Publish, a.Profile, a.target = t.Encode, t.Publish, t.Profile, t
	}
	return a, readable || writable
}

func (r *testRegistry) List() []*adapter {
	var names []string
	for _, f := range r.read.List() {
		names = append(names, f.Name)
	}
	for _, t := range r.write.List() {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	var out []*adapter
	for _, n := range slices.Compact(names) {
		a, _ := r.Get(n)
		out = append(out, a)
	}
	return out
}

func (r *testRegistry) Detect(doc *canonical.Value) formats.Detection { return r.read.Detect(doc) }

// Direction says which way a conversion failed.
type Direction string

// The directions of a conversion.
const (
	Decoding Direction = "decode"
	Encoding Direction = "encode"
)

// ErrInvalidInput is a conversion whose input or output has errors.
var ErrInvalidInput = errors.New("invalid input")

// Error is a failed conversion: which format, which direction, and why.
type Error struct {
	Adapter   string
	Direction Direction
	Err       error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s: %v", e.Adapter, e.Direction, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

func invalid(ds []diag.Diagnostic) error {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return fmt.Errorf("%w: %s", ErrInvalidInput, d)
		}
	}
	return ErrInvalidInput
}

var _ = strings.Contains

// corpusDoc is one corpus document with the format it is in.
type corpusDoc struct {
	name   string
	format string
	doc    *canonical.Value
}

func parse(t testing.TB, data []byte) *canonical.Value {
	t.Helper()
	v, err := canonical.ParseJSON(data)
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	return v
}

// corpusDocs loads every MCP, OpenAI and Anthropic tool document of the
// corpus. The JSON-lines files become one document per line (the "function"
// member, a legacy OpenAI function).
func corpusDocs(t testing.TB) []corpusDoc {
	var docs []corpusDoc
	add := func(format string, patterns ...string) {
		for _, pat := range patterns {
			for _, f := range corpus.Glob(t, pat) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, corpusDoc{name: f, format: format, doc: parse(t, data)})
			}
		}
	}
	add("mcp", "mcp/github-mcp-server/current/*.json", "mcp/reference-servers-py/*.json", "mcp/spec/schema/*/examples/Tool/*.json")
	add("openai", "openai/cookbook/*.json")
	add("anthropic", "anthropic/*/*.json")
	for _, f := range []string{"openai/bfcl/all_functions.distinct.jsonl", "openai/toolbench/answer_functions.distinct.jsonl"} {
		for i, l := range corpus.Lines(t, f) {
			docs = append(docs, corpusDoc{name: fmt.Sprintf("%s:%d", f, i+1), format: "openai", doc: parse(t, l).Get("function")})
		}
	}
	return docs
}

// jsonEqual compares two JSON texts as JSON values (member order ignored,
// number text kept).
func jsonEqual(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
