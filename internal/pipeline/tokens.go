package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/tokens"
)

// budgets checks target i's token count against its limits tokens (the
// bundle) and tool-tokens (each tool), saying what is biggest.
func (b *build) budgets(i int, c *tokens.Count, low *profile.Lowered, keepsRefs bool, limits map[string]int) []diag.Diagnostic {
	t := b.m.Targets[i]
	var ds []diag.Diagnostic
	how := "exact for the rendering OpenAI publishes"
	if !c.Method.Exact {
		how = "estimated"
	}
	if max, ok := limits["tool-tokens"]; ok {
		byName := map[string]int{}
		for j, src := range low.Sources {
			byName[low.Names[src.ID()]] = j
		}
		for _, tc := range c.Tools {
			if tc.Tokens <= max {
				continue
			}
			j, ok := byName[tc.Name]
			if !ok {
				continue
			}
			src, emitted := low.Sources[j], low.Tools[j]
			parts := whereTokensGo(emitted, keepsRefs)
			d := diag.New("limit.tokens", "the definition costs %d tokens (%s), over the tool-tokens budget of %d: %s",
				tc.Tokens, how, max, strings.Join(parts, "; ")).At(src.Source.File, string(src.Source.Pointer)).About(src.ID())
			d.Target = t.Name
			ds = append(ds, d)
		}
	}
	if max, ok := limits["tokens"]; ok && c.Total() > max {
		top := slices.Clone(c.Tools)
		slices.SortStableFunc(top, func(x, y tokens.ToolCount) int { return cmp.Compare(y.Tokens, x.Tokens) })
		var names []string
		for _, tc := range top[:min(5, len(top))] {
			names = append(names, fmt.Sprintf("%s (%d)", tc.Name, tc.Tokens))
		}
		d := diag.New("limit.tokens", "the bundle costs %d tokens a request (%s; %d tools), over the tokens budget of %d; the biggest tools: %s",
			c.Total(), how, len(c.Tools), max, strings.Join(names, ", "))
		d.File = b.manifestFile
		d.Line, d.Column = b.m.Pos(fmt.Sprintf("targets[%d].limits", i))
		d.Target = t.Name
		ds = append(ds, d.WithFix("select fewer tools for this target, or shorten the biggest"))
	}
	return ds
}

// whereTokensGo says what a tool's tokens go on: its description, and the
// biggest parts of its input schema.
func whereTokensGo(emitted *canonical.Tool, keepsRefs bool) []string {
	var parts []string
	if n, err := tokens.Tokens(emitted.Description); err == nil {
		parts = append(parts, fmt.Sprintf("its description is %d of them", n))
	}
	if emitted.Input != nil {
		if big, err := tokens.Explain(emitted.Input.JSON()); err == nil {
			parts = append(parts, big.Describe(keepsRefs)...)
		}
	}
	return parts
}
