package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/quality"
)

// TestQualityOnTheCorpus: the description score orders the corpus's tools
// as a reader would (GitHub's MCP tools over BFCL's one-line functions, a
// description that is the name again under any real one), and each rule
// fires on a real tool and not on another, which docs/quality.md quotes.
func TestQualityOnTheCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("scores the whole corpus")
	}
	t.Parallel()
	res := wholeCatalog(t)
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"city": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	nameOnly := &canonical.Tool{Namespace: "probe", Name: "get_weather", Description: "Get weather", Input: in}
	tools := append(slices.Clone(res.Catalog), nameOnly)
	c := quality.Score(tools)
	mean := map[string][]float64{}
	for i, s := range c.Tools[:len(res.Catalog)] {
		mean[tools[i].Namespace] = append(mean[tools[i].Namespace], s.Score)
	}
	avg := func(ns string) float64 {
		sum := 0.0
		for _, x := range mean[ns] {
			sum += x
		}
		return sum / float64(max(1, len(mean[ns])))
	}
	if avg("github") <= avg("bfcl") {
		t.Errorf("GitHub's MCP tools score %.2f, BFCL's functions %.2f: want GitHub's higher", avg("github"), avg("bfcl"))
	}
	probe := c.Tools[len(tools)-1].Score
	for i, s := range c.Tools[:len(res.Catalog)] {
		tl := tools[i]
		if d := strings.TrimSpace(tl.Description); d != "" && !slices.Contains(s.Codes(), "quality.purpose-name") && s.Score < probe {
			t.Errorf("%s (%q) scores %.2f, under a description that is its name again (%.2f)", tl.ID(), firstLine(d), s.Score, probe)
		}
	}
	t.Logf("catalog %.2f (mean %.2f, lowest %.2f); GitHub %.2f, reference servers %.2f, BFCL %.2f, Stripe %.2f; a name-only description %.2f",
		c.Score, c.Mean, c.Min, avg("github"), avg("reference"), avg("bfcl"), avg("stripe"), probe)
	// Each rule fires on a real tool and spares another.
	fired := map[string][]string{}
	for i, s := range c.Tools[:len(res.Catalog)] {
		for _, code := range s.Codes() {
			fired[code] = append(fired[code], tools[i].ID())
		}
	}
	for _, code := range diag.Codes() {
		if !strings.HasPrefix(code.Code, "quality.") || code.Code == "quality.below-min" {
			continue
		}
		ids := slices.Compact(slices.Sorted(slices.Values(fired[code.Code])))
		if code.Code == "quality.purpose-missing" && len(ids) == 0 {
			// Every corpus tool has a description: GitHub's get_me
			// without its own stands for one that has none.
			var bare *canonical.Tool
			for _, tl := range res.Catalog {
				if tl.ID() == "github:get_me" {
					bare = tl.DeepCopy()
				}
			}
			bare.Description = ""
			if got := quality.Score([]*canonical.Tool{bare}).Tools[0].Codes(); !slices.Contains(got, code.Code) {
				t.Errorf("github:get_me without its description gives %v, not %s", got, code.Code)
			}
			t.Logf("%s: no corpus tool lacks a description; github:get_me without its own fires it", code.Code)
			continue
		}
		if len(ids) == 0 || len(ids) == len(res.Catalog) {
			t.Errorf("%s fires on %d of the corpus's %d tools: want some and not all", code.Code, len(ids), len(res.Catalog))
			continue
		}
		spared := ""
		for _, tl := range res.Catalog {
			if !slices.Contains(ids, tl.ID()) && tl.Namespace == "github" {
				spared = tl.ID()
				break
			}
		}
		t.Logf("%s: %d tools, such as %s; not %s", code.Code, len(ids), ids[0], spared)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
