package targets

import (
	"context"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Convert is the adapters' own round trip for their tests: decode, check
// the schemas' shape, Emit. Programs convert through compiler.Convert,
// which runs the whole pipeline (validation included).

// Result is the outcome of Convert.
type Result struct {
	Tools  []*canonical.Tool // the decoded canonical tools
	Bundle *canonical.Value  // the encoded bundle
	Names  map[string]string // tool ID → emitted name
	// Optional maps tool IDs to the properties the strict transform made
	// required and nullable (see Lowered.Optional).
	Optional map[string][]canonical.Pointer
	// Renamed maps tool IDs to the property keys the target renamed (see
	// Lowered.Renamed).
	Renamed     map[string]map[canonical.Pointer]string
	Diagnostics []diag.Diagnostic // sorted
}

// Convert decodes doc from the format from ("" or "auto" to detect it) and
// encodes the tools to the format to, lowering them for to's profile. The
// result carries every diagnostic; a failure is an *Error naming the adapter
// and direction. doc is never modified.
func (r *testRegistry) Convert(doc *canonical.Value, file, from, to string, opts profile.Options) (*Result, error) {
	if from == "" || from == "auto" {
		d := r.Detect(doc)
		if d.Err != nil {
			return nil, &Error{Adapter: "auto", Direction: Decoding, Err: d.Err}
		}
		from = d.Format
	}
	src, ok := r.Get(from)
	if !ok {
		return nil, &Error{Adapter: from, Direction: Decoding, Err: formats.ErrUnknownFormat}
	}
	dst, ok := r.Get(to)
	if !ok {
		return nil, &Error{Adapter: to, Direction: Encoding, Err: formats.ErrUnknownFormat}
	}
	if src.Decode == nil {
		return nil, &Error{Adapter: from, Direction: Decoding, Err: formats.ErrNotSupported}
	}
	if dst.Encode == nil || dst.Profile == nil {
		return nil, &Error{Adapter: to, Direction: Encoding, Err: formats.ErrNotSupported}
	}
	tools, ds := src.Decode(doc.DeepCopy(), file)
	ds = append(ds, formats.CheckSchemas(tools)...)
	if diag.HasErrors(ds) {
		return &Result{Tools: tools, Diagnostics: diag.Sort(ds)}, &Error{Adapter: from, Direction: Decoding, Err: invalid(ds)}
	}
	low := dst.Emit(context.Background(), tools, to, opts)
	ds = append(ds, low.All()...)
	res := &Result{Tools: tools, Names: low.Names, Optional: low.Optional, Renamed: low.Renamed, Diagnostics: diag.Sort(ds)}
	if diag.HasErrors(low.All()) {
		return res, &Error{Adapter: to, Direction: Encoding, Err: invalid(low.All())}
	}
	res.Bundle = low.Bundle
	return res, nil
}
