// Package formats reads tool files of every format toolc knows (MCP, OpenAI
// Chat and Responses, Anthropic, Gemini, Bedrock, LangChain, OpenAPI and
// toolc's canonical bundle) into canonical tools, parses JSON and YAML with
// the position of every value, and detects a file's format. Writing a
// format is package emit's (provider bundles), publish's (release files)
// and typegen's (typed code); package targets joins them by name.
//
// Decoders work on a parsed document (canonical.Value), so the caller
// parses a file once and every diagnostic can be located by its JSON
// Pointer. Nothing here does I/O.
package formats

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
)

// Format is one tool format that toolc reads.
type Format struct {
	// Name is the format name used in toolc.toml ("mcp", "openai" …).
	Name string
	// Detect scores how well doc fits the format, from 0 (not at all) to
	// 1 (certainly). Nil when the format cannot be detected, or is told
	// by fit.
	Detect func(doc *canonical.Value) float64
	// fit, for a format told by the shapes of a document's tools, is what
	// they are weighed by: Registry.Detect finds the shapes once and
	// weighs them for every such format.
	fit *fitting
	// Decode reads the tools of doc, a file named file. Problems with the
	// input are diagnostics located by file and JSON Pointer; a tool that
	// cannot be read is left out.
	Decode func(doc *canonical.Value, file string) ([]*canonical.Tool, []diag.Diagnostic)
}

// Sentinel errors.
var (
	ErrUnknownFormat = errors.New("unknown format")
	ErrNotSupported  = errors.New("format does not support this direction")
	ErrAmbiguous     = errors.New("format cannot be detected")
	ErrDuplicate     = errors.New("format already registered")
)

// Registry is a set of formats by name. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	formats map[string]*Format
}

// NewRegistry returns a registry holding formats.
func NewRegistry(formats ...*Format) *Registry {
	r := &Registry{formats: map[string]*Format{}}
	for _, a := range formats {
		if err := r.Register(a); err != nil {
			panic(err)
		}
	}
	return r
}

// Register adds a. It fails if a format of the same name is registered.
func (r *Registry) Register(a *Format) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.formats[a.Name]; ok {
		return fmt.Errorf("%w: %s", ErrDuplicate, a.Name)
	}
	r.formats[a.Name] = a
	return nil
}

// Unregister removes the format name and reports whether it was registered.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.formats[name]
	delete(r.formats, name)
	return ok
}

// Get returns the format name.
func (r *Registry) Get(name string) (*Format, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.formats[name]
	return a, ok
}

// List returns the registered formats sorted by name.
func (r *Registry) List() []*Format {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Format, 0, len(r.formats))
	for _, a := range r.formats {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *Format) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Default returns a new registry with every format toolc reads.
func Default() *Registry {
	return NewRegistry(MCP(), OpenAI(), OpenAIResponses(), Anthropic(), Gemini(), Bedrock(), Canonical(), OpenAPI(), LangChain())
}

// Canonical returns the format of toolc's own canonical bundle:
// {"toolc": "canonical", "version": 1, "catalog": {name, version}, "tools":
// [...]}, each tool in its canonical JSON form (canonical.Tool.ToValue). It
// is lossless: every field of every tool is kept, format-specific fields
// under "extensions", so a canonical bundle reads back as the same catalog.
func Canonical() *Format {
	return &Format{Name: "canonical", Detect: bundle.Detect, Decode: bundle.DecodeCanonical}
}

// CheckSchemas reports, as schema.not-object errors, each tool whose input
// or output schema is not an object schema, which every target requires.
func CheckSchemas(tools []*canonical.Tool) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, t := range tools {
		for _, e := range t.Validate() {
			if e.NotObj {
				d := diag.NewText("schema.not-object", e.Msg).At(t.Source.Place(e.Pointer)).About(t.ID())
				ds = append(ds, d.WithFix(`make it {"type": "object", "properties": {…}}`))
			}
		}
	}
	return ds
}

// OpenAPI returns the format of OpenAPI 3.0, 3.1 and 3.2 descriptions
// (package openapi), reading every operation.
func OpenAPI() *Format {
	return &Format{Name: "openapi", Detect: openapi.Detect, Decode: openapi.Decode}
}

// decoder is the state of decoding one file, with each format's way of
// reading a tool as its methods.
type decoder struct{ decode.Decoder }
