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
	"cmp"
	"context"
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/tokens"
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
	if opts.Loading != nil && tokens.Counts(p.Format) {
		// What the manifest decides of loading: the plan is made from
		// each tool's tokens as the bundle without it sends them.
		c, err := tokens.Bundle(p.Format, enc(low, opts), 64)
		if err != nil {
			low.Err = fmt.Errorf("%s: the deferral plan's token counts: %w", target, err)
			return low
		}
		costs := make([]int, len(c.Tools))
		for i, tc := range c.Tools {
			costs[i] = tc.Tokens
		}
		plan, ds := p.Plan(low, costs, target, opts)
		low.Plan = plan
		for i := range ds {
			ds[i].Target = target
		}
		low.Diagnostics = append(low.Diagnostics, ds...)
	}
	low.Bundle = enc(low, opts)
	low.Diagnostics = append(low.Diagnostics, p.Accept(low.Bundle, low.InOrder(), target, opts)...)
	return low
}

// planned returns the plan's deferral, group and callers of the i-th tool.
func planned(low *profile.Lowered, i int) (deferred bool, group string, callers []string) {
	if low.Plan == nil {
		return false, "", nil
	}
	return low.Plan.Deferred[i], low.Plan.Groups[i], low.Plan.Callers[i]
}

// setLoad writes on the tool object o what the plan decided of the i-th
// tool: defer_loading where it is deferred, allowed_callers where callers
// other than the model may call it (each caller named by name), and
// neither where the plan loads it for the model alone, whatever the
// source's own fields said.
func setLoad(o *canonical.Value, low *profile.Lowered, i int, name func(caller string) string) {
	if low.Plan == nil {
		return
	}
	deferred, _, callers := planned(low, i)
	o.Delete("defer_loading")
	o.Delete("allowed_callers")
	if deferred {
		o.Set("defer_loading", canonical.NewBool(true))
	}
	if callers != nil {
		var names []string
		for _, c := range callers {
			names = append(names, name(c))
		}
		o.Set("allowed_callers", canonical.NewStrings(names))
	}
}

// searchTool is the type of the tool search tool that the bundle list
// needs, or "": the plan's, where the manifest decides loading; without a
// plan, where a tool carries its source's "defer_loading": true, the
// target's (opts.Search) or def, as a request with a deferred tool and no
// search tool is refused.
func searchTool(low *profile.Lowered, opts profile.Options, list *canonical.Value, def string) string {
	if low.Plan != nil {
		return low.Plan.Search
	}
	for _, f := range bundle.EntriesOf(list.Items()).Functions {
		if d, _ := f.Get("defer_loading").BoolValue(); d {
			return cmp.Or(opts.Search, def)
		}
	}
	return ""
}
