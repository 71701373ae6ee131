package pipeline

import (
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/quality"
)

// checkQuality scores the catalog's descriptions where [policy] quality
// asks (docs/quality.md): each rule that fires is a quality.* finding at
// its tool, and a catalog under the minimum fails the build, naming its
// worst tools.
func (b *build) checkQuality() {
	q := b.m.Quality
	if q == nil {
		return
	}
	c := quality.Score(b.tools)
	for i, s := range c.Tools {
		t := b.tools[i]
		for _, f := range s.Findings {
			d := diag.New(f.Code, "%s (the tool scores %.1f of 5)", f.Message, s.Score).At(t.Source.Place(f.At)).About(t.ID())
			b.diags = append(b.diags, d.WithFix(f.Fix))
		}
	}
	if c.Score >= q.Min {
		return
	}
	var worst []string
	for _, s := range c.Worst(5) {
		if s.Score < q.Min {
			worst = append(worst, fmt.Sprintf("%s (%.1f)", s.ID, s.Score))
		}
	}
	d := diag.New("quality.below-min", "the catalog's description score is %.2f (60%% the mean of its tools, %.2f, and 40%% the lowest, %.2f), under [policy] quality.min = %g; the worst: %s",
		c.Score, c.Mean, c.Min, q.Min, strings.Join(worst, ", "))
	d.File = b.manifestFile
	d.Line, d.Column = b.m.Pos("policy.quality.min")
	b.diags = append(b.diags, d.WithFix("toolc report lists each tool's score and what to write; fix the worst first"))
}
