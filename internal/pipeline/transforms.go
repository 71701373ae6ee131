package pipeline

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/suggest"
	"github.com/toolc-dev/toolc/internal/transform"
)

// transformProblem is what is wrong with one transform of a file's
// source: at its key under sources[i].transforms."GLOB".
type transformProblem struct {
	glob    string
	problem transform.Problem
}

// transformTools applies the transforms of the file's source to its tools,
// each glob in sorted order, and notes in r which globs matched and what
// went wrong.
func (b *build) transformTools(src manifest.Source, r *fileResult, tools []*canonical.Tool) {
	if len(src.Transforms) == 0 {
		return
	}
	globs := slices.Sorted(maps.Keys(src.Transforms))
	for _, t := range tools {
		id := t.ID() // the source's: a transform that renames does not move the tool from under the next
		for _, g := range globs {
			if !transform.Matches(g, id) {
				continue
			}
			if r.transformed == nil {
				r.transformed = map[string]bool{}
			}
			r.transformed[g] = true
			for _, p := range transform.Apply(t, src.Transforms[g], b.validator) {
				r.transformProblems = append(r.transformProblems, transformProblem{g, p})
			}
		}
	}
}

// checkTransforms reports, per source and over all of its files, each
// transform that matched no tool (the source dropped or renamed it) and
// each one that does not fit its tool, at its key in the manifest.
func (b *build) checkTransforms() {
	for i, src := range b.m.Sources {
		if len(src.Transforms) == 0 {
			continue
		}
		key := func(g string, more ...string) string {
			return fmt.Sprintf("sources[%d].transforms.%s", i, manifest.KeyPath(append([]string{g}, more...)...))
		}
		at := func(code, k, format string, args ...any) {
			d := diag.New(code, format, args...)
			d.File = b.manifestFile
			d.Line, d.Column = b.m.Pos(k)
			b.diags = append(b.diags, d)
		}
		matched := map[string]bool{}
		said := map[string]bool{}
		read := false
		var ids []string
		for j, in := range b.inputs {
			if in.source != i {
				continue
			}
			read = true
			r := &b.files[j]
			for g := range r.transformed {
				matched[g] = true
			}
			for _, t := range r.tools {
				ids = append(ids, t.ID())
			}
			for _, p := range r.transformProblems {
				k := key(p.glob, p.problem.Key...)
				code := "transform.invalid"
				if p.problem.Unmatched {
					code = "transform.unmatched"
				}
				if !said[k+p.problem.Message] {
					said[k+p.problem.Message] = true
					at(code, k, "%s: %s", k, p.problem.Message)
				}
			}
		}
		if !read {
			continue // no file was read: its own errors say why
		}
		for _, g := range slices.Sorted(maps.Keys(src.Transforms)) {
			if !matched[g] {
				at("transform.unmatched", key(g), "%s: no tool of the source has an ID the glob matches (it has %s); a server that dropped or renamed the tool leaves the transform with nothing to change%s",
					key(g), diagfmt.Plural(len(ids), "tool"), suggest.Hint(g, ids))
			}
		}
	}
}
