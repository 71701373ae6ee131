// Package report makes, from one build, the picture a person looks at:
// per target, how many tools, what they cost in tokens, and the findings;
// per tool and target, whether the target takes the tool as it is, lowered,
// with a loss, or refuses it. It writes it as Markdown (for a pull request
// or a job summary, with the deltas against an earlier build) and as one
// self-contained HTML page.
package report

import (
	"math"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/quality"
	"github.com/toolc-dev/toolc/internal/tokens"
)

// The statuses of a tool in a target, from best to worst.
const (
	AsIs    = "as-is"   // the target takes the tool unchanged
	Lowered = "lowered" // changed to fit, nothing lost
	Lossy   = "lossy"   // changed, and something the target cannot carry is lost
	Refused = "refused" // the provider would refuse it, or it has an error
	Absent  = ""        // the target's select leaves it out
)

// Statuses returns the statuses in order.
func Statuses() []string { return []string{AsIs, Lowered, Lossy, Refused} }

// Overview is one build, seen from above.
type Overview struct {
	Catalog string   `json:"catalog,omitempty"`
	Version string   `json:"version,omitempty"`
	Files   int      `json:"files"`
	Targets []Target `json:"targets"`
	Tools   []Tool   `json:"tools"`
	// Errors, Warnings and Infos count the build's findings as toolc build
	// does (one for a change made the same way in several targets).
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// Quality is the catalog's description score (docs/quality.md): 60 %
	// the mean of its tools', 40 % the lowest.
	Quality QualitySummary `json:"quality"`
}

// QualitySummary is the catalog's description score.
type QualitySummary struct {
	Score float64 `json:"score"`
	Mean  float64 `json:"mean"`
	Min   float64 `json:"min"`
}

// Target is one target's totals.
type Target struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	Tools  int    `json:"tools"`
	// Tokens is what a request with the whole bundle costs, TokenMethod
	// how it was counted; Counted is false for formats that are never sent
	// to a model.
	Tokens      int    `json:"tokens"`
	Counted     bool   `json:"counted"`
	Exact       bool   `json:"exact"`
	TokenMethod string `json:"tokenMethod,omitempty"`
	Overhead    int    `json:"overhead,omitempty"`
	// Loaded is what the first request costs where the target defers
	// tools ([load]): Tokens less the deferred tools'. Deferred are the
	// deferred tools' emitted names, Budget the target's defer_budget.
	// LoadedTools is the loaded tools' own tokens, which the budget is
	// compared with.
	Loaded      int      `json:"loaded,omitempty"`
	LoadedTools int      `json:"loadedTools,omitempty"`
	Deferred    []string `json:"deferred,omitempty"`
	Budget      int      `json:"deferBudget,omitempty"`
	// Status counts the tools by status.
	Status   map[string]int `json:"status"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	// Codes counts the warnings and errors by code.
	Codes map[string]int `json:"codes"`
	// Refusals are what fails the whole bundle (accept.tools: more tools
	// than one request takes, where the policy makes it an error), whatever
	// each tool's status; none when the build takes the bundle.
	Refusals []string `json:"refusals,omitempty"`
	// Cautions are what the build warns of the whole bundle: the same
	// findings where the policy leaves them warnings.
	Cautions []string `json:"cautions,omitempty"`
}

// Tool is one tool of the catalog, in every target.
type Tool struct {
	ID        string `json:"id"`
	Namespace string `json:"namespace,omitempty"`
	// Description is the tool's description in the catalog.
	Description string `json:"description,omitempty"`
	// RenamedFrom is the ID the tool had before a rename its source
	// declares (renamed_from): comparing with an earlier build, the two
	// are one tool.
	RenamedFrom string `json:"renamed_from,omitempty"`
	Source      string `json:"source"`
	// Input is the canonical input schema, indented.
	Input string `json:"input"`
	// Findings are those about the tool itself (its source, its schema),
	// not about one target.
	Findings []Finding `json:"findings,omitempty"`
	// Cells are the tool in each target, in the order of Targets.
	Cells []Cell `json:"cells"`
	// Quality is the tool's description score, per dimension and in all,
	// and what the rules found.
	Quality ToolQuality `json:"quality"`

	input *canonical.Value // Input's schema, which the page writes when Input is not made
}

// ToolQuality is one tool's description score.
type ToolQuality struct {
	Score      float64        `json:"score"`
	Dimensions map[string]int `json:"dimensions"`
	Findings   []Finding      `json:"findings,omitempty"`
}

// Cell is one tool in one target.
type Cell struct {
	Status string `json:"status"`         // "" when the target leaves the tool out
	Name   string `json:"name,omitempty"` // emitted
	Tokens int    `json:"tokens,omitempty"`
	// Schema is the emitted input schema, indented, when it differs from
	// the canonical one ("" when it is the same, or not known).
	Schema   string    `json:"schema,omitempty"`
	Findings []Finding `json:"findings,omitempty"`

	schema *canonical.Value // Schema's, when it differs, for the page
}

// Finding is a diagnostic about a tool, placed in its canonical form.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Pointer is where it is in the tool's canonical form ("/input/properties/q"),
	// "" when it is about the whole tool.
	Pointer string `json:"pointer,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Make makes the overview of res, a build with token counts
// (pipeline.Options.Tokens), with up to jobs goroutines: everything, the
// schemas' texts included, for the page and JSON.
func Make(res *pipeline.Result, jobs int) *Overview { return makeOverview(res, jobs, true) }

// Summary makes the overview of res without the schemas' texts (Tool.Input
// and Cell.Schema are empty; every status is as Make says): what the
// Markdown report reads, and what WriteHTML writes the page from, making
// each tool's texts as it writes the tool. Indenting every schema of every
// target was most of what a report allocated beyond its build.
func Summary(res *pipeline.Result, jobs int) *Overview { return makeOverview(res, jobs, false) }

func makeOverview(res *pipeline.Result, jobs int, schemas bool) *Overview {
	ov := &Overview{Files: res.Files}
	if m := res.Manifest; m != nil {
		ov.Catalog, ov.Version = m.Catalog.Name, m.Catalog.Version
	}
	byTarget := map[string]int{}
	out := make([]map[string]emitted, len(res.Bundles))
	par.For(len(res.Bundles), jobs, func(i int) { out[i] = emittedTools(res.Bundles[i]) })
	for i, b := range res.Bundles {
		byTarget[b.Target] = i
		t := Target{Name: b.Target, Format: b.Format, Tools: len(b.Names), Status: map[string]int{}, Codes: map[string]int{}}
		if c := b.Tokens; c != nil {
			t.Tokens, t.Counted, t.Exact, t.TokenMethod, t.Overhead = c.Total(), true, c.Method.Exact, c.Method.How, c.Overhead
			if c.Deferred() > 0 {
				t.Loaded, t.LoadedTools = c.Loaded(), c.LoadedTools()
				if b.Plan != nil {
					t.Budget = b.Plan.Budget
				}
				for _, tc := range c.Tools {
					if tc.Deferred {
						t.Deferred = append(t.Deferred, tc.Name)
					}
				}
			}
		}
		ov.Targets = append(ov.Targets, t)
	}
	ov.Tools = make([]Tool, len(res.Catalog))
	// Findings as build counts them: one for the same change in several
	// targets.
	ov.Errors, ov.Warnings, ov.Infos = diagfmt.Count(res.Diagnostics)
	for _, d := range res.Diagnostics {
		if ti, ok := byTarget[d.Target]; ok && d.Severity != diag.Info {
			ov.Targets[ti].count(d)
		}
	}
	byTool := map[string][]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		if d.Tool != "" {
			byTool[d.Tool] = append(byTool[d.Tool], d)
		}
	}
	par.For(len(res.Catalog), jobs, func(i int) {
		ct := res.Catalog[i]
		ov.Tools[i] = makeTool(ct, byTool[ct.ID()], res.Bundles, out, byTarget, schemas)
	})
	q := quality.Score(res.Catalog)
	ov.Quality = QualitySummary{Score: round2(q.Score), Mean: round2(q.Mean), Min: round2(q.Min)}
	for i, s := range q.Tools {
		tq := ToolQuality{Score: round2(s.Score), Dimensions: s.Dimensions}
		for _, f := range s.Findings {
			d := diag.New(f.Code, "%s; %s", f.Message, f.Fix) // its code's severity, as a build with [policy] quality reports it
			tq.Findings = append(tq.Findings, Finding{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Pointer: string(f.At)})
		}
		ov.Tools[i].Quality = tq
	}
	for i := range ov.Tools {
		for j, c := range ov.Tools[i].Cells {
			if c.Status != Absent {
				ov.Targets[j].Status[c.Status]++
			}
		}
	}
	return ov
}

// count counts a finding about the target: its code, and a refusal of
// the whole bundle.
func (t *Target) count(d diag.Diagnostic) {
	t.Codes[d.Code]++
	if d.Tool == "" && strings.HasPrefix(d.Code, "accept.") {
		// One judgment with the build's: refused only where it fails.
		if d.Severity == diag.Error {
			t.Refusals = append(t.Refusals, d.Code+": "+d.Message)
		} else {
			t.Cautions = append(t.Cautions, d.Code+": "+d.Message)
		}
	}
	if d.Severity == diag.Error {
		t.Errors++
	} else {
		t.Warnings++
	}
}

func makeTool(ct *canonical.Tool, ds []diag.Diagnostic, bundles []pipeline.Bundle, out []map[string]emitted, byTarget map[string]int, schemas bool) Tool {
	t := Tool{ID: ct.ID(), Namespace: ct.Namespace, Description: ct.Description, Source: ct.Source.File, Cells: make([]Cell, len(bundles))}
	if ct.RenamedFrom != "" {
		old := *ct
		old.Name = ct.RenamedFrom
		t.RenamedFrom = old.ID()
	}
	var input *canonical.Value
	if ct.Input != nil {
		input = ct.Input.JSON()
		t.input = input
		if schemas {
			t.Input = string(input.Indent())
		}
	}
	for i, b := range bundles {
		name, ok := b.Names[t.ID]
		if !ok {
			continue
		}
		c := &t.Cells[i]
		e := out[i][name]
		c.Name, c.Status, c.Tokens = name, AsIs, e.tokens
		if in := e.input; in != nil && input != nil && !in.Equal(input) {
			c.schema = in
			if schemas {
				c.Schema = string(in.Indent())
			}
			c.Status = Lowered
		}
	}
	t.place(ct, ds, byTarget)
	return t
}

// place puts each finding about the tool in its target's cell, or with
// the tool where it has no target, and judges each cell by its findings:
// an error of the tool's own fails it everywhere.
func (t *Tool) place(ct *canonical.Tool, ds []diag.Diagnostic, byTarget map[string]int) {
	for _, d := range ds {
		f := Finding{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Pointer: canonicalPointer(ct, d), File: d.File, Line: d.Line}
		i, ok := byTarget[d.Target]
		if !ok {
			t.Findings = append(t.Findings, f)
			continue
		}
		c := &t.Cells[i]
		if c.Status == Absent {
			continue
		}
		c.Findings = append(c.Findings, f)
		c.Status = worst(c.Status, statusOf(d))
	}
	if slices.ContainsFunc(t.Findings, func(f Finding) bool { return f.Severity == diag.Error.String() }) {
		for i := range t.Cells { // an error of the tool's own fails it everywhere
			if t.Cells[i].Status != Absent {
				t.Cells[i].Status = Refused
			}
		}
	}
}

// statusOf is what one finding for a target says of the tool there.
func statusOf(d diag.Diagnostic) string {
	switch {
	case d.Severity == diag.Error || strings.HasPrefix(d.Code, "accept."):
		return Refused
	case strings.HasPrefix(d.Code, "loss.") || strings.HasPrefix(d.Code, "limit."):
		return Lossy
	}
	return Lowered
}

func worst(a, b string) string {
	if slices.Index(Statuses(), b) > slices.Index(Statuses(), a) {
		return b
	}
	return a
}

// canonicalPointer turns a diagnostic's pointer into the tool's source file
// back into a pointer into its canonical form, by the longest field whose
// source holds it.
func canonicalPointer(t *canonical.Tool, d diag.Diagnostic) string {
	if d.File != t.Source.File || d.Pointer == "" {
		return ""
	}
	// The longest source wins; between fields of one source (an OpenAPI
	// schema that is both the output and one of its $defs), the least
	// pointer, whatever order the map gives them in.
	best, bestLen := "", -1
	for canon, src := range t.Source.Fields {
		rest, ok := strings.CutPrefix(d.Pointer, string(src))
		if !ok || (rest != "" && rest[0] != '/') {
			continue
		}
		if p := string(canon) + rest; len(src) > bestLen || len(src) == bestLen && p < best {
			best, bestLen = p, len(src)
		}
	}
	return best
}

// emitted is one tool as a bundle has it.
type emitted struct {
	input  *canonical.Value
	tokens int
}

// emittedTools maps each tool of a bundle, by emitted name, to its input
// schema and tokens.
func emittedTools(b pipeline.Bundle) map[string]emitted {
	out := map[string]emitted{}
	for _, f := range tokens.Functions(b.Format, b.Value) {
		out[f.Name] = emitted{input: f.Parameters}
	}
	if b.Tokens != nil {
		for _, tc := range b.Tokens.Tools {
			e := out[tc.Name]
			e.tokens = tc.Tokens
			out[tc.Name] = e
		}
	}
	return out
}

// round2 rounds a score to two decimals, as the report writes it.
func round2(f float64) float64 { return math.Round(f*100) / 100 }
