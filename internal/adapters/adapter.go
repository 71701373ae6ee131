// Package adapters converts tool files of each format (MCP, OpenAI,
// Anthropic …) to and from canonical tools and detects the format of a file.
// What each target accepts (its profile: names, schema rules, dialects) is
// package profile's; an adapter that writes a format carries that format's
// profile, and Emit lowers, encodes and checks a bundle in one call.
//
// Decoders work on a parsed JSON document (canonical.Value), so the caller
// parses a file once and every diagnostic can be located by its JSON Pointer.
// Encoders build the bundle that the provider's API takes as is. Neither does
// I/O; reading and writing files belongs to the compiler.
package adapters

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/adapters/openapi"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Adapter is one tool format. A format that is only read (OpenAPI) has no
// Encode; a format that is only written has no Decode.
type Adapter struct {
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
	// Encode writes tools, already lowered for this format by its Profile,
	// as one bundle.
	Encode func(tools []*canonical.Tool, opts profile.Options) *canonical.Value
	// Profile is what the format accepts as a target. Nil for source-only
	// formats.
	Profile *profile.Profile
	// Publish, for a release target (server-json, mcpb, a2a-card,
	// llms-txt), writes the bundle from the lowered tools and their sources
	// and checks it against what its destination publishes, in place of
	// Encode and the acceptance table.
	Publish func(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic)
}

// Direction says which way a conversion failed.
type Direction string

// The directions of a conversion.
const (
	Decoding Direction = "decode"
	Encoding Direction = "encode"
)

// Sentinel errors, wrapped by *Error.
var (
	ErrUnknownFormat = errors.New("unknown format")
	ErrNotSupported  = errors.New("format does not support this direction")
	ErrInvalidInput  = errors.New("invalid input")
	ErrAmbiguous     = errors.New("format cannot be detected")
	ErrDuplicate     = errors.New("format already registered")
)

// Error is a failed conversion: which adapter, which direction, and why.
type Error struct {
	Adapter   string
	Direction Direction
	Err       error
}

// Error says which adapter failed in which direction, and why.
func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Adapter, e.Direction, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Registry is a set of adapters by name. It is safe for concurrent use.
type Registry struct {
	mu       sync.RWMutex
	adapters map[string]*Adapter
}

// NewRegistry returns a registry holding adapters.
func NewRegistry(adapters ...*Adapter) *Registry {
	r := &Registry{adapters: map[string]*Adapter{}}
	for _, a := range adapters {
		if err := r.Register(a); err != nil {
			panic(err)
		}
	}
	return r
}

// Register adds a. It fails if a format of the same name is registered.
func (r *Registry) Register(a *Adapter) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.adapters[a.Name]; ok {
		return fmt.Errorf("%w: %s", ErrDuplicate, a.Name)
	}
	r.adapters[a.Name] = a
	return nil
}

// Unregister removes the format name and reports whether it was registered.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.adapters[name]
	delete(r.adapters, name)
	return ok
}

// Get returns the adapter of the format name.
func (r *Registry) Get(name string) (*Adapter, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.adapters[name]
	return a, ok
}

// List returns the registered adapters sorted by name.
func (r *Registry) List() []*Adapter {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Adapter, 0, len(r.adapters))
	for _, a := range r.adapters {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *Adapter) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Default returns a new registry with every format toolc knows.
func Default() *Registry {
	return NewRegistry(MCP(), OpenAI(), OpenAIResponses(), Anthropic(), Gemini(), Bedrock(), Canonical(), JSONSchema(), OpenAPI(), LangChain(),
		ServerJSON(), MCPB(), A2ACard(), LLMsTxt(), TypeScript(), GoTypes(), Python())
}

// CheckSchemas reports, as schema.not-object errors, each tool whose input
// or output schema is not an object schema, which every target requires.
func CheckSchemas(tools []*canonical.Tool) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, t := range tools {
		for _, e := range t.Validate() {
			if e.NotObj {
				d := diag.New("schema.not-object", "%s", e.Msg).At(t.Source.Place(e.Pointer)).About(t.ID())
				ds = append(ds, d.WithFix(`make it {"type": "object", "properties": {…}}`))
			}
		}
	}
	return ds
}

func invalid(ds []diag.Diagnostic) error {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return fmt.Errorf("%w: %s", ErrInvalidInput, d)
		}
	}
	return ErrInvalidInput
}

// OpenAPI returns the source-only adapter of OpenAPI 3.0, 3.1 and 3.2
// descriptions (package openapi), reading every operation.
func OpenAPI() *Adapter {
	return &Adapter{Name: "openapi", Detect: openapi.Detect, Decode: openapi.Decode}
}

// decoder is the state of decoding one file, with each format's way of
// reading a tool as its methods.
type decoder struct{ decode.Decoder }

// Emit lowers tools for the adapter's target (named target in
// diagnostics), encodes them, and checks the bundle against the target's
// acceptance table (package accept): a shape the provider would refuse is
// an accept.* error in Diagnostics, a per-request count over its limit a
// warning. Once ctx is done it stops, and returns nil.
func (a *Adapter) Emit(ctx context.Context, tools []*canonical.Tool, target string, opts profile.Options) *profile.Lowered {
	low := a.Profile.Lower(ctx, tools, target, opts)
	if low == nil {
		return nil
	}
	if a.Publish != nil {
		var ds []diag.Diagnostic
		low.Bundle, ds = a.Publish(low.Tools, low.Sources, opts)
		for i := range ds {
			ds[i].Target = target
		}
		low.Diagnostics = append(low.Diagnostics, ds...)
		return low
	}
	low.Bundle = a.Encode(low.Tools, opts)
	low.Diagnostics = append(low.Diagnostics, a.Profile.Accept(low.Bundle, low.Sources, target, opts)...)
	return low
}

// profileOf is the profile of a format this package registers.
func profileOf(format string) *profile.Profile {
	p, ok := profile.Of(format)
	if !ok {
		panic("adapters: no target profile for " + format) // a bug in this package's table
	}
	return p
}
