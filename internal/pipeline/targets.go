package pipeline

// Building the targets: each target's tools lowered, encoded and checked
// in parallel, with what a target's options read (files, the publish
// tables), the lowerings targets share, and each target's findings placed
// and decided by its policy.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/tokens"
)

// targetResult is what building one target made, kept until finish.
type targetResult struct {
	names    map[string]string
	optional map[string][]canonical.Pointer
	renamed  map[string]map[canonical.Pointer]string
	renamedO map[string]map[canonical.Pointer]string // of output schemas
	aliases  map[string]string                       // renamed tool's ID → its old name
	deferred map[string]bool                         // the IDs of the tools [load] defers
	groups   map[string]string                       // tool ID → its namespace group
	plan     *profile.Plan
	bundle   *canonical.Value
	text     func(io.Writer) error // a typed target's file, in place of bundle
	diags    [][]diag.Diagnostic   // each tool's, then the bundle's
	later    profile.Later         // a typed target's, made when finish gathers them
	tokens   *tokens.Count         // nil when not counted
}

// buildTargets lowers and encodes the catalog for every target in parallel,
// then counts the tokens a report asks for.
func (b *build) buildTargets(ctx context.Context) error {
	b.targets = make([]targetResult, len(b.m.Targets))
	options := make([]profile.Options, len(b.m.Targets))
	for i, t := range b.m.Targets {
		options[i] = b.targetOptions(t)
		options[i].Publish = b.publish(i)
	}
	memo := b.memo(options)
	shared := &profile.Shared{} // the typed targets' model, made once
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(b.opts.Jobs)
	for i := range b.m.Targets {
		if b.skipped(i) {
			continue
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			opts := options[i]
			opts.Memo, opts.Shared = memo, shared
			return b.buildTarget(gctx, i, opts)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return b.countTokens(ctx)
}

// countTokens counts the tokens of every bundle not yet counted, for a
// report: after the targets are built, one bundle at a time (each on
// every core), so that the counting's garbage never adds to lowering's.
func (b *build) countTokens(ctx context.Context) error {
	if !b.opts.Tokens {
		return nil
	}
	for i, t := range b.m.Targets {
		if b.targets[i].tokens != nil || !tokens.Counts(t.Format) || b.skipped(i) {
			continue
		}
		if err := ctx.Err(); err != nil { // a cancelled report stops between bundles
			return err
		}
		c, err := tokens.Bundle(t.Format, b.targets[i].bundle, b.opts.Jobs)
		if err != nil {
			return err
		}
		b.targets[i].tokens = c
	}
	return nil
}

// targetOptions are the options a target's manifest entry sets.
func (b *build) targetOptions(t manifest.Target) profile.Options {
	fo := formatOptions(t)
	o := profile.Options{
		Catalog:   profile.Catalog{Name: b.m.Catalog.Name, Version: b.m.Catalog.Version},
		Format:    fo,
		Unchecked: b.invalid,
	}
	fo.Apply(&o)
	o.Loading = b.loading
	if fr, ok := fo.(profile.FileReader); ok {
		o.Files = map[string]string{}
		for _, f := range fr.ReadFiles() {
			if h, ok := b.targetFiles[f]; ok {
				o.Files[f] = strings.TrimPrefix(h, "sha256:")
			}
		}
	}
	return o
}

// hashTargetFiles hashes the files that targets' options name (an MCPB
// package whose hash server.json gives): inputs of the build like the
// sources. A file that does not exist is left out, for its target to say.
func (b *build) hashTargetFiles() {
	for _, t := range b.m.Targets {
		fr, ok := formatOptions(t).(profile.FileReader)
		if !ok {
			continue
		}
		for _, f := range fr.ReadFiles() {
			if _, done := b.targetFiles[f]; done {
				continue
			}
			if h, err := HashFile(b.fsys, f); err == nil {
				if b.targetFiles == nil {
					b.targetFiles = map[string]string{}
				}
				b.targetFiles[f] = h
			}
		}
	}
}

// publish is what the i-th target, a release target, writes besides the
// tools, with the places of its tables for the target's diagnostics.
func (b *build) publish(i int) profile.Publish {
	t := b.m.Targets[i]
	p := profile.Publish{Description: b.m.Catalog.Description, File: b.manifestFile}
	p.Table = fmt.Sprintf("targets[%d]", i)
	switch {
	case t.Table["mcpb"] != nil:
		p.Table += ".mcpb"
	case t.Table["server"] != nil:
		p.Table += ".server"
	case t.Table["card"] != nil:
		p.Table += ".card"
	}
	p.Line, p.Column = b.m.Pos(p.Table)
	p.DescriptionLine, p.DescriptionColumn = b.m.Pos("catalog.description")
	if p.DescriptionLine == 0 {
		p.DescriptionLine, p.DescriptionColumn = b.m.Pos("catalog")
	}
	return p
}

// memo is where targets under the same rules (OpenAI's Chat and
// Responses, say) lower each schema once between them: it keeps only the
// fingerprints two or more targets share.
func (b *build) memo(options []profile.Options) *lower.Memo {
	users := map[string]int{}
	for i := range b.m.Targets {
		for _, f := range b.profiles[i].Fingerprints(options[i]) {
			users[f]++
		}
	}
	var shared []string
	for f, n := range users {
		if n > 1 && !b.opts.lowerAlone {
			shared = append(shared, f)
		}
	}
	return lower.NewMemo(shared)
}

// buildTarget lowers, encodes and checks the i-th target's bundle, and
// counts its tokens where the target has a token budget.
func (b *build) buildTarget(ctx context.Context, i int, opts profile.Options) error {
	t := b.m.Targets[i]
	a, _ := b.writers.Get(t.Format)
	emit := *a
	emit.Profile = b.profiles[i]
	low := emit.Emit(ctx, b.chosen[i], t.Name, opts)
	switch {
	case low == nil:
		return ctx.Err()
	case low.Err != nil:
		return low.Err
	}
	// Each tool's diagnostics, then the bundle's: applied in place, and
	// gathered into one list once, by finish, with those made later.
	parts := append(slices.Clip(low.ToolDiagnostics), low.Diagnostics)
	place := b.placeAtTarget(i)
	for _, part := range parts {
		for j := range part {
			place(&part[j])
		}
	}
	var count *tokens.Count
	_, bundleBudget := opts.Limits["tokens"]
	_, toolBudget := opts.Limits["tool-tokens"]
	if tokens.Counts(t.Format) && (bundleBudget || toolBudget) { // a report's counts are made after (countTokens)
		c, err := tokens.Bundle(t.Format, low.Bundle, b.opts.Jobs)
		if err != nil {
			return err
		}
		count = c
		parts[len(parts)-1] = append(parts[len(parts)-1], b.budgets(i, c, low, emit.Profile.KeepsRefs(opts), opts.Limits)...)
	}
	for j := range parts {
		parts[j] = b.apply(parts[j], t.Policy)
	}
	r := targetResult{names: low.Names, optional: low.Optional, renamed: low.Renamed, renamedO: low.RenamedOutput, aliases: low.Aliases,
		bundle: low.Bundle, text: low.Text, diags: parts, later: low.Later, tokens: count}
	if low.Plan != nil {
		r.deferred, r.groups, r.plan = map[string]bool{}, map[string]string{}, low.Plan
		for j, src := range low.Sources {
			if low.Plan.Deferred[j] {
				r.deferred[src.ID()] = true
			}
			if g := low.Plan.Groups[j]; g != "" {
				r.groups[src.ID()] = g
			}
		}
	}
	b.targets[i] = r
	return nil
}

// placeAtTarget returns what places a diagnostic of the i-th target that
// is in no file (a limit of the whole bundle) at the target's table.
func (b *build) placeAtTarget(i int) func(*diag.Diagnostic) {
	line, column := b.m.Pos(fmt.Sprintf("targets[%d]", i))
	return func(d *diag.Diagnostic) {
		if d.File == "" {
			d.File = b.manifestFile
			d.Line, d.Column = line, column
			if d.Code == "defer.over-budget" {
				d.Line, d.Column = b.m.Pos(fmt.Sprintf("targets[%d].defer_budget", i))
			}
		}
	}
}
