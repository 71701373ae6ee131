package pipeline

import (
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// checkCuration reports, per source with a [sources.openapi] table and
// over all of its files, what the table got wrong: an entry that matches
// no operation (a typo), an override that does not fit its operation, or
// a selection that leaves nothing. Each is located at its key in the
// manifest.
func (b *build) checkCuration() {
	for i, src := range b.m.Sources {
		if src.OpenAPI == nil {
			continue
		}
		key := fmt.Sprintf("sources[%d].openapi", i)
		at := func(code, sub string, format string, args ...any) {
			d := diag.New(code, format, args...)
			d.File = b.manifestFile
			d.Line, d.Column = b.m.Pos(strings.TrimSuffix(key+"."+sub, "."))
			b.diags = append(b.diags, d)
		}
		files, sel, matched, ids := b.curated(i, key, at)
		if len(files) == 0 {
			continue // no description was read: its own errors say why
		}
		for _, e := range src.OpenAPI.Entries() {
			if !matched[e] {
				sub := manifest.KeyPath(e.Parts()...)
				if e.Key == "operations" {
					at("source.openapi-unmatched", sub, "%s.%s: no operation of %s has this operationId or \"METHOD /path\"%s", key, sub, strings.Join(files, ", "), suggest.Hint(e.Value, ids))
				} else {
					at("source.openapi-unmatched", sub, "%s.%s: %q matches no operation of %s", key, sub, e.Value, strings.Join(files, ", "))
				}
			}
		}
		if sel.Selected == 0 && sel.Operations > 0 {
			at("source.openapi-empty", "", "%s: the selection leaves none of the %d operations of %s (%s)", key, sel.Operations, strings.Join(files, ", "), why(sel))
		}
	}
}

// curated gathers what the descriptions of source i selected and matched,
// reporting each problem of its curation once (at key).
func (b *build) curated(i int, key string, at func(code, sub, format string, args ...any)) (files []string, sel openapi.Selection, matched map[openapi.Entry]bool, ids []string) {
	matched = map[openapi.Entry]bool{}
	said := map[string]bool{}
	for j, in := range b.inputs {
		r := b.files[j].openapi
		if in.source != i || r == nil {
			continue
		}
		files = append(files, in.path)
		ids = append(ids, r.OperationIDs...)
		sel.Add(r.Selection)
		for e := range r.Matched {
			matched[e] = true
		}
		for _, list := range []struct {
			code     string
			problems []option.Problem
		}{{"manifest.invalid", r.Problems}, {"source.openapi-unmatched", r.Idle}} {
			for _, p := range list.problems {
				sub := manifest.KeyPath(p.Key...)
				if said[sub+p.Message] {
					continue
				}
				said[sub+p.Message] = true
				at(list.code, sub, "%s.%s: %s", key, sub, p.Message)
			}
		}
	}
	return files, sel, matched, ids
}

// why says what left operations out.
func why(s openapi.Selection) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{s.NotIncluded, "not matched by include"}, {s.Excluded, "matched by exclude"}, {s.Off, "turned off by x-mcp or x-speakeasy-mcp"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return strings.Join(parts, ", ")
}
