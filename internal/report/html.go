package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"iter"
	"maps"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/par"
)

//go:embed page.html
var pageHTML string

//go:embed page.js
var pageJS string

//go:embed page.css
var pageCSS string

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// The page's data is two JSON islands: what the matrix needs, read at
// once, and each tool's schemas and findings, read when a tool is first
// opened, so that a page of 20,000 tools opens fast.
type pageData struct {
	Catalog    string   `json:"catalog"`
	Version    string   `json:"version"`
	Summary    string   `json:"summary"`
	Statuses   []string `json:"statuses"`
	Targets    []Target `json:"targets"`
	Namespaces []string `json:"namespaces"`
	Codes      []string `json:"codes"`
	// Tools are [id, namespace, statuses (one letter a target: a l x r,
	// or - when the target leaves it out), tokens per target, code indexes].
	Tools [][]any `json:"tools"`
}

// pageDetail is one tool's detail: its source, canonical input schema and
// findings, and per target its emitted name, schema and findings.
type pageDetail struct {
	Source      string     `json:"source"`
	Description string     `json:"description,omitempty"`
	Input       string     `json:"input"`
	Findings    []Finding  `json:"findings"`
	Cells       []pageCell `json:"cells"`

	input *canonical.Value // made into Input as the detail is written, when Input is ""
}

type pageCell struct {
	Name     string    `json:"name"`
	Schema   string    `json:"schema,omitempty"`
	Findings []Finding `json:"findings,omitempty"`

	schema *canonical.Value // made into Schema as the detail is written
}

// texts makes the detail's schema texts that the overview did not make
// (Summary's), so that only one tool's are held at a time.
func (d pageDetail) texts() pageDetail {
	if d.Input == "" && d.input != nil {
		d.Input = string(d.input.Indent())
	}
	d.Cells = slices.Clone(d.Cells) // the texts go with the copy, once written
	for j, c := range d.Cells {
		if c.Schema == "" && c.schema != nil {
			d.Cells[j].Schema = string(c.schema.Indent())
		}
	}
	return d
}

var statusLetter = map[string]string{AsIs: "a", Lowered: "l", Lossy: "x", Refused: "r", Absent: "-"}

// WriteHTML writes ov as one self-contained HTML page: no network, no file
// beside it.
func WriteHTML(w io.Writer, ov *Overview) error {
	d, details := pageOf(ov)
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	title := "toolc report"
	if ov.Catalog != "" {
		title += ": " + ov.Catalog
	}
	// The page is made with a marker where the tools' details go, and
	// they are written there a tool at a time: they are most of the page
	// (10 of Stripe's 11 MB), and made whole, then copied into the
	// template, they were most of what the report held beyond its build.
	// encoding/json escapes <, > and & in strings, so neither island can
	// end its script element early, and the marker is no JSON's text.
	const marker = "<toolc-details>"
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, map[string]any{
		"Title":  title,
		"CSS":    template.CSS(pageCSS),
		"JS":     template.JS(pageJS),
		"Data":   template.JS(data),
		"Detail": template.JS(marker),
	}); err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(page.Bytes(), []byte(marker))
	if !ok {
		panic("report: the page has no place for the details") // page.html changed
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	if err := writeDetails(w, details); err != nil {
		return err
	}
	_, err = w.Write(tail)
	return err
}

// pageOf is the page's data: the overview of every tool in the table, the
// codes and namespaces it filters by, and each tool's details.
func pageOf(ov *Overview) (pageData, []pageDetail) {
	d := pageData{Catalog: ov.Catalog, Version: ov.Version, Statuses: Statuses(), Targets: ov.Targets}
	var summary bytes.Buffer
	if err := WriteMarkdown(&summary, ov, nil, ""); err == nil {
		d.Summary = firstLine(summary.String())
	}
	codeIndex := map[string]int{}
	ns := map[string]bool{}
	for i := range ov.Tools {
		ns[ov.Tools[i].Namespace] = true
		for f := range allFindings(&ov.Tools[i]) {
			codeIndex[f.Code] = 0
		}
	}
	d.Codes = slices.Sorted(maps.Keys(codeIndex))
	for i, c := range d.Codes {
		codeIndex[c] = i
	}
	d.Namespaces = slices.Sorted(maps.Keys(ns))
	details := make([]pageDetail, len(ov.Tools))
	for i := range ov.Tools {
		t := &ov.Tools[i]
		d.Tools = append(d.Tools, pageRow(t, codeIndex))
		det := pageDetail{Source: t.Source, Description: t.Description, Input: t.Input, Findings: t.Findings, Cells: make([]pageCell, len(t.Cells)), input: t.input}
		for j, c := range t.Cells {
			det.Cells[j] = pageCell{Name: c.Name, Schema: c.Schema, Findings: c.Findings, schema: c.schema}
		}
		details[i] = det
	}
	return d, details
}

// pageRow is a tool's row of the table: ID, namespace, a status letter
// per target, tokens per target, and the indexes of its codes.
func pageRow(t *Tool, codeIndex map[string]int) []any {
	status := make([]byte, 0, len(t.Cells))
	tokens := make([]int, len(t.Cells))
	for j, c := range t.Cells {
		status = append(status, statusLetter[c.Status][0])
		tokens[j] = c.Tokens
	}
	var codes []int // a few: a tool has a few codes
	for f := range allFindings(t) {
		if k := codeIndex[f.Code]; !slices.Contains(codes, k) {
			codes = append(codes, k)
		}
	}
	slices.Sort(codes)
	return []any{t.ID, t.Namespace, string(status), tokens, codes}
}

// writeDetails writes the details as a JSON array, a tool at a time.
func writeDetails(w io.Writer, details []pageDetail) error {
	if len(details) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	// A batch of tools at a time, each tool's texts made and encoded in
	// parallel and then written in order: made one after the other they
	// were a third of what the report added to its build, and a batch
	// keeps what is held to a batch's texts.
	const batch = 512
	encoded := make([][]byte, min(batch, len(details)))
	errs := make([]error, len(encoded))
	for start := 0; start < len(details); start += batch {
		n := min(batch, len(details)-start)
		par.For(n, 8, func(i int) {
			det := details[start+i].texts()
			encoded[i], errs[i] = json.Marshal(&det)
		})
		for i, b := range encoded[:n] {
			if errs[i] != nil {
				return errs[i]
			}
			sep := ","
			if start+i == 0 {
				sep = "["
			}
			if _, err := io.WriteString(w, sep); err != nil {
				return err
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
			encoded[i] = nil
		}
	}
	_, err := io.WriteString(w, "]")
	return err
}

// allFindings yields the tool's findings and then each target's, where
// they are: copying them into one list, twice a tool, was half of what
// writing the page of 20,000 tools allocated.
func allFindings(t *Tool) iter.Seq[*Finding] {
	return func(yield func(*Finding) bool) {
		for i := range t.Findings {
			if !yield(&t.Findings[i]) {
				return
			}
		}
		for _, c := range t.Cells {
			for i := range c.Findings {
				if !yield(&c.Findings[i]) {
					return
				}
			}
		}
	}
}

func firstLine(md string) string {
	for _, line := range bytes.Split([]byte(md), []byte("\n")) {
		if len(line) > 0 && line[0] != '#' {
			return string(line)
		}
	}
	return ""
}
