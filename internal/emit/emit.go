// Package emit writes provider bundles: each target format's encoder (MCP
// tools/list results, OpenAI Chat and Responses tools, Anthropic tools,
// Gemini function declarations, Bedrock tool specs, the canonical bundle
// and the arguments' JSON Schema) and Bundle, which runs a target as
// lower → encode → accept: the tools lowered by the target's profile, the
// bundle encoded, and the bundle checked against the provider's acceptance
// table (package accept). Release files are package publish's, typed code
// package typegen's. Nothing here does I/O.
package emit

import (
	"context"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Encoder writes the tools of low, lowered for its format by the target's
// profile, as one bundle, each with what the lowering decided of it (its
// strict flag).
type Encoder func(low *profile.Lowered, opts profile.Options) *canonical.Value

// Tools is tools as a lowering that decided nothing of them: for writing
// tools already lowered (an MCP answer inside a release file).
func Tools(tools []*canonical.Tool) *profile.Lowered { return &profile.Lowered{Tools: tools} }

// flag is the strict flag of the i-th tool of low, nil for none.
func flag(low *profile.Lowered, i int) *bool {
	if i < len(low.Flags) {
		return low.Flags[i]
	}
	return nil
}

// setFlag writes "strict" on o where the lowering decided a flag: after the
// tool's own fields and extensions (a provider's newest field, as the
// lowering adds it).
func setFlag(o *canonical.Value, f *bool) {
	if f != nil {
		o.Set("strict", canonical.NewBool(*f))
	}
}

// Bundle lowers tools for the profile p of a target named target in
// diagnostics, encodes them with enc, and checks the bundle against the
// target's acceptance table: a shape the provider would refuse is an
// accept.* error in the result's Diagnostics, a per-request count over its
// limit a warning. Once ctx is done it stops, and returns nil.
func Bundle(ctx context.Context, p *profile.Profile, enc Encoder, tools []*canonical.Tool, target string, opts profile.Options) *profile.Lowered {
	low := p.Lower(ctx, tools, target, opts)
	if low == nil {
		return nil
	}
	low.Bundle = enc(low, opts)
	low.Diagnostics = append(low.Diagnostics, p.Accept(low.Bundle, low.Sources, target, opts)...)
	return low
}
