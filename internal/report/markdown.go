package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/quality"
)

// maxCodes is how many codes a target's row names, most frequent first.
const maxCodes = 4

// WriteMarkdown writes ov as Markdown: a line of totals, a table of the
// targets, and the biggest tools. With base (an earlier build, nil for
// none) named baseName, every figure has its delta, and a section says
// what the change costs.
func WriteMarkdown(w io.Writer, ov, base *Overview, baseName string) error {
	var b strings.Builder
	title := "toolc report"
	if ov.Catalog != "" {
		title += ": " + ov.Catalog
		if ov.Version != "" {
			title += " " + ov.Version
		}
	}
	fmt.Fprintf(&b, "## %s\n\n", title)
	fmt.Fprintf(&b, "%s from %s, %s: %s, %s.", plural(len(ov.Tools), "tool"), plural(ov.Files, "source file"), plural(len(ov.Targets), "target"),
		plural(ov.Errors, "error"), plural(ov.Warnings, "warning"))
	if base != nil {
		fmt.Fprintf(&b, " Against %s: %s tools, %s errors, %s warnings.", baseName,
			delta(len(ov.Tools)-len(base.Tools)), delta(ov.Errors-base.Errors), delta(ov.Warnings-base.Warnings))
	}
	b.WriteString("\n\n")

	writeTargetTable(&b, ov, base)
	b.WriteString("\n")
	for _, t := range ov.Targets {
		for _, r := range t.Refusals {
			fmt.Fprintf(&b, "**%s would be refused as a whole**: `%s\n\n", t.Name, strings.Replace(r, ": ", "`: ", 1))
		}
		for _, r := range t.Cautions {
			fmt.Fprintf(&b, "**%s**, warning `%s\n\n", t.Name, strings.Replace(r, ": ", "`: ", 1))
		}
	}
	if m := methods(ov); m != "" {
		b.WriteString(m + "\n\n")
	}
	writeDeferred(&b, ov)
	writeQuality(&b, ov)
	if base != nil {
		writeChanges(&b, ov, base)
	}
	writeBiggest(&b, ov)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTargetTable writes the table of targets, with the changes since
// base where there is one.
func writeTargetTable(b *strings.Builder, ov, base *Overview) {
	var prev map[string]Target
	if base != nil {
		prev = map[string]Target{}
		for _, t := range base.Targets {
			prev[t.Name] = t
		}
	}
	if base != nil {
		b.WriteString("| target | format | tools | tokens | Δ tokens | as is | lowered | lossy | refused | errors | warnings | Δ warnings | most frequent |\n")
		b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	} else {
		b.WriteString("| target | format | tools | tokens | as is | lowered | lossy | refused | errors | warnings | most frequent |\n")
		b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	}
	for _, t := range ov.Targets {
		p, had := prev[t.Name]
		b.WriteString("| " + strings.Join(targetRow(t, p, had, base != nil), " | ") + " |\n")
	}
}

// targetRow is one target's cells: the counts, the statuses, and the
// change since its earlier figures p (had: the target was there).
func targetRow(t Target, p Target, had, compare bool) []string {
	tokens := "–"
	if t.Counted {
		tokens = thousands(t.Tokens)
		if !t.Exact {
			tokens = "≈ " + tokens
		}
	}
	change := func(now, then int) string {
		if !had {
			return "new"
		}
		return delta(now - then)
	}
	cells := []string{t.Name, t.Format, thousands(t.Tools), tokens}
	if compare {
		cells = append(cells, change(t.Tokens, p.Tokens))
	}
	for _, s := range Statuses() {
		if s == Refused && len(t.Refusals) > 0 {
			cells = append(cells, "**the bundle**") // said below the table
			continue
		}
		cells = append(cells, thousands(t.Status[s]))
	}
	cells = append(cells, thousands(t.Errors), thousands(t.Warnings))
	if compare {
		cells = append(cells, change(t.Warnings, p.Warnings))
	}
	return append(cells, topCodes(t.Codes))
}

// methods says how each target's tokens were counted, once per method.
func methods(ov *Overview) string {
	var lines []string
	seen := map[string]bool{}
	for _, t := range ov.Targets {
		if !t.Counted || seen[t.TokenMethod] {
			continue
		}
		seen[t.TokenMethod] = true
		var names []string
		for _, u := range ov.Targets {
			if u.Counted && u.TokenMethod == t.TokenMethod {
				names = append(names, u.Name)
			}
		}
		line := fmt.Sprintf("Tokens of %s: %s", strings.Join(names, ", "), t.TokenMethod)
		if t.Overhead > 0 {
			line += fmt.Sprintf(", with %d tokens a request that the provider adds", t.Overhead)
		}
		lines = append(lines, line+".")
	}
	return strings.Join(lines, " ")
}

// writeQuality writes the catalog's description score and its worst
// tools, each with its dimensions and the first thing to write.
func writeQuality(b *strings.Builder, ov *Overview) {
	if len(ov.Tools) == 0 {
		return
	}
	fmt.Fprintf(b, "### Description quality: %.2f of 5\n\n", ov.Quality.Score)
	fmt.Fprintf(b, "60%% the mean of the tools' scores (%.2f), 40%% the lowest (%.2f), as Glama's TDQS weighs a server's worst tool (docs/quality.md). The worst first:\n\n", ov.Quality.Mean, ov.Quality.Min)
	dims := quality.Dimensions()
	fmt.Fprintf(b, "| tool | score | %s | first to fix |\n|---|--:|%s---|\n", strings.Join(dims, " | "), strings.Repeat("--:|", len(dims)))
	tools := slices.Clone(ov.Tools)
	slices.SortStableFunc(tools, func(x, y Tool) int {
		return cmp.Or(cmp.Compare(x.Quality.Score, y.Quality.Score), strings.Compare(x.ID, y.ID))
	})
	for _, t := range tools[:min(10, len(tools))] {
		fix := "–"
		if len(t.Quality.Findings) > 0 {
			f := t.Quality.Findings[0]
			fix = "`" + f.Code + "`: " + strings.ReplaceAll(f.Message, "|", "\\|")
		}
		fmt.Fprintf(b, "| `%s` | %.1f | ", t.ID, t.Quality.Score)
		for _, dim := range dims {
			fmt.Fprintf(b, "%d | ", t.Quality.Dimensions[dim])
		}
		fmt.Fprintf(b, "%s |\n", fix)
	}
	b.WriteString("\n")
}

// writeDeferred says, for the targets that defer tools ([load]), what the
// first request costs with the plan and without it, and which tools wait
// for a tool search.
func writeDeferred(b *strings.Builder, ov *Overview) {
	var ts []Target
	for _, t := range ov.Targets {
		if len(t.Deferred) > 0 {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return
	}
	b.WriteString("### Deferred loading\n\n| target | loaded | deferred | loaded tools' tokens | defer_budget | first request | without the plan |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, t := range ts {
		approx := ""
		if !t.Exact {
			approx = "≈ "
		}
		budget := "–"
		if t.Budget > 0 {
			budget = thousands(t.Budget)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s%s | %s | %s%s | %s%s |\n", t.Name, thousands(t.Tools-len(t.Deferred)), thousands(len(t.Deferred)),
			approx, thousands(t.LoadedTools), budget, approx, thousands(t.Loaded), approx, thousands(t.Tokens))
	}
	b.WriteString("\n")
	for _, t := range ts {
		fmt.Fprintf(b, "**%s** defers `%s`.\n\n", t.Name, strings.Join(t.Deferred, "`, `"))
	}
}

// writeChanges says what changed against base: tools added and removed,
// the tools whose tokens changed most, and the codes that appeared or went.
func writeChanges(b *strings.Builder, ov, base *Overview) {
	c := compareTools(ov, base)
	b.WriteString("### What this change costs\n\n")
	summary := fmt.Sprintf("%s added, %s removed", plural(len(c.added), "tool"), plural(len(c.removed), "tool"))
	if len(c.renamed) > 0 {
		summary += ", " + plural(len(c.renamed), "tool") + " renamed"
	}
	fmt.Fprintf(b, "- %s, %s with other token counts.\n", summary, plural(len(c.moves), "tool"))
	for _, r := range c.renamed[:min(5, len(c.renamed))] {
		fmt.Fprintf(b, "- %s\n", r)
	}
	slices.SortFunc(c.moves, func(x, y tokenMove) int {
		return cmp.Or(cmp.Compare(abs(y.delta), abs(x.delta)), strings.Compare(x.id, y.id))
	})
	for _, m := range c.moves[:min(5, len(c.moves))] {
		fmt.Fprintf(b, "- `%s`: %s tokens (summed over the targets)\n", m.id, delta(m.delta))
	}
	for _, id := range c.added[:min(5, len(c.added))] {
		fmt.Fprintf(b, "- `%s` is new\n", id)
	}
	oldCodes, newCodes := codes(base), codes(ov)
	for _, c := range slices.Sorted(maps.Keys(newCodes)) {
		if d := newCodes[c] - oldCodes[c]; d > 0 {
			fmt.Fprintf(b, "- `%s`: %s\n", c, delta(d))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(oldCodes)) {
		if d := newCodes[c] - oldCodes[c]; d < 0 {
			fmt.Fprintf(b, "- `%s`: %s\n", c, delta(d))
		}
	}
	b.WriteString("\n")
}

// tokenMove is a tool whose tokens changed, summed over the targets.
type tokenMove struct {
	id    string
	delta int
}

// toolChanges are the tools added, removed, renamed and costing other
// tokens since an earlier overview.
type toolChanges struct {
	added, removed, renamed []string
	moves                   []tokenMove
}

func compareTools(ov, base *Overview) toolChanges {
	old := map[string]Tool{}
	for _, t := range base.Tools {
		old[t.ID] = t
	}
	now := map[string]bool{}
	var c toolChanges
	for _, t := range ov.Tools {
		now[t.ID] = true
		o, ok := old[t.ID]
		if !ok && t.RenamedFrom != "" {
			// A rename its source declares is the same tool, as toolc
			// breaking says: not one added and one removed.
			if o, ok = old[t.RenamedFrom]; ok {
				now[t.RenamedFrom] = true
				c.renamed = append(c.renamed, fmt.Sprintf("`%s` is `%s` renamed", t.ID, t.RenamedFrom))
			}
		}
		if !ok {
			c.added = append(c.added, t.ID)
			continue
		}
		if d := tokensOf(t) - tokensOf(o); d != 0 {
			c.moves = append(c.moves, tokenMove{t.ID, d})
		}
	}
	for _, t := range base.Tools {
		if !now[t.ID] {
			c.removed = append(c.removed, t.ID)
		}
	}
	return c
}

// writeBiggest lists the tools that cost the most tokens.
func writeBiggest(b *strings.Builder, ov *Overview) {
	tools := slices.Clone(ov.Tools)
	slices.SortStableFunc(tools, func(x, y Tool) int { return cmp.Compare(tokensOf(y), tokensOf(x)) })
	if len(tools) == 0 || tokensOf(tools[0]) == 0 {
		return
	}
	b.WriteString("### The biggest tools\n\n| tool |")
	var counted []int
	for i, t := range ov.Targets {
		if t.Counted {
			counted = append(counted, i)
			b.WriteString(" " + t.Name + " |")
		}
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("--:|", len(counted)))
	b.WriteString("\n")
	for _, t := range tools[:min(10, len(tools))] {
		b.WriteString("| `" + t.ID + "` |")
		for _, i := range counted {
			b.WriteString(" " + thousands(t.Cells[i].Tokens) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func tokensOf(t Tool) int {
	n := 0
	for _, c := range t.Cells {
		n += c.Tokens
	}
	return n
}

func codes(ov *Overview) map[string]int {
	m := map[string]int{}
	for _, t := range ov.Targets {
		for c, n := range t.Codes {
			m[c] += n
		}
	}
	for _, t := range ov.Tools {
		for _, f := range t.Findings {
			if f.Severity != "info" {
				m[f.Code]++
			}
		}
	}
	return m
}

func topCodes(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(m[b], m[a]) })
	var out []string
	for _, k := range keys[:min(maxCodes, len(keys))] {
		out = append(out, fmt.Sprintf("`%s` ×%d", k, m[k]))
	}
	if len(keys) > maxCodes {
		out = append(out, fmt.Sprintf("%d more", len(keys)-maxCodes))
	}
	return strings.Join(out, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return thousands(n) + " " + what + "s"
}

func delta(d int) string {
	switch {
	case d > 0:
		return "+" + thousands(d)
	case d < 0:
		return "−" + thousands(-d)
	}
	return "±0"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string { return diagfmt.Thousands(n) }
