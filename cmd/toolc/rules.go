package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing/fstest"
	"text/tabwriter"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/report"
)

func newRules(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "rules [CATEGORY...]",
		Short: "List every diagnostic code: its default severity and what it means",
		Long: `Rules lists every code toolc reports, or those of the categories named, with its
default severity (before the policy) and a summary. toolc explain CODE says more.`,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return diag.Categories(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, cats []string) error {
			for _, c := range cats {
				if !diag.IsCategory(c) {
					fmt.Fprintf(a.stderr, "toolc: unknown category %q (want one of %s)\n", c, strings.Join(diag.Categories(), ", "))
					return &exitError{exitUsage}
				}
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "CODE\tSEVERITY\tSUMMARY")
			for _, c := range diag.Codes() {
				if len(cats) == 0 || slices.Contains(cats, c.Category()) {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Code, c.Severity, c.Summary)
				}
			}
			return tw.Flush()
		},
	}
}

func newExplain(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "explain CODE",
		Short: "Say what a diagnostic code means, show an example, and how to fix or silence it",
		Long: `Explain prints what a code means and why it matters, then a small catalog that
gives it and what toolc says about that catalog (built as you read it, so the
example is always true), and how to fix or silence it. An unknown code exits 2.`,
		Args: cobra.ExactArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var codes []string
			for _, c := range diag.Codes() {
				codes = append(codes, c.Code+"\t"+c.Summary)
			}
			return codes, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ok := diag.Lookup(args[0])
			if !ok {
				fmt.Fprintf(a.stderr, "toolc: unknown code %q; toolc rules lists them all\n", args[0])
				return &exitError{exitUsage}
			}
			return explain(cmd.Context(), a.stdout, c)
		},
	}
}

// explanations holds one example catalog per code, as a txtar archive whose
// comment is the command that shows the code.
//
//go:embed explain/*.txtar
var explanations embed.FS

// example is a code's example catalog. The archive's comment is the
// command, then any "symlink NAME -> TARGET" lines, for what a txtar file
// cannot hold.
type example struct {
	command  string            // "toolc build", "toolc build --check" or "toolc breaking --against old"
	library  string            // for command "library": why no catalog gives the code
	symlinks map[string]string // name → target
	archive  *txtar.Archive
}

func loadExample(code string) (*example, error) {
	data, err := explanations.ReadFile("explain/" + code + ".txtar")
	if err != nil {
		return nil, err
	}
	ar := txtar.Parse(data)
	lines := strings.Split(strings.TrimSpace(string(ar.Comment)), "\n")
	e := &example{command: lines[0], symlinks: map[string]string{}, archive: ar}
	if e.command == "library" {
		e.library = strings.Join(lines[1:], " ")
		return e, nil
	}
	for _, line := range lines[1:] {
		name, target, ok := strings.Cut(strings.TrimPrefix(line, "symlink "), " -> ")
		if !ok || !strings.HasPrefix(line, "symlink ") {
			return nil, fmt.Errorf("example %s: cannot read %q", code, line)
		}
		e.symlinks[name] = target
	}
	return e, nil
}

// run builds the example in memory and returns every diagnostic it gives.
func (e *example) run(ctx context.Context) ([]diag.Diagnostic, error) {
	fsys := fstest.MapFS{}
	for _, f := range e.archive.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	for name, target := range e.symlinks {
		fsys[name] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	var build fs.FS = fsys
	if e.command == "toolc breaking --against old" {
		// The new catalog is everything but old/, which is the earlier one.
		build = fstest.MapFS{}
		for name, f := range fsys {
			if !strings.HasPrefix(name, "old/") {
				build.(fstest.MapFS)[name] = f
			}
		}
	}
	res, err := compiler.Build(ctx, build, compiler.Options{Baseline: compiler.BaselineFile})
	var ce *compiler.ConfigError
	switch {
	case errors.As(err, &ce):
		return ce.Diagnostics, nil
	case err != nil:
		return nil, err
	}
	ds := res.Diagnostics
	switch e.command {
	case "toolc build":
	case "toolc breaking --against old":
		sub, err := fs.Sub(fsys, "old")
		if err != nil {
			return nil, err
		}
		old, err := buildEarlier(ctx, sub, compiler.DefaultManifest, "old")
		if err != nil {
			return nil, err
		}
		found, _ := compareCatalogs(old, res, compiler.DefaultManifest)
		ds = append(ds, found...)
	case "toolc build --check":
		stale, err := res.Stale(fsys)
		if err != nil {
			return nil, err
		}
		ds = append(ds, stale.Diagnostics()...)
	default:
		return nil, fmt.Errorf("example: unknown command %q", e.command)
	}
	return ds, nil
}

// explain writes what toolc explain CODE prints.
func explain(ctx context.Context, w io.Writer, c diag.Code) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n\n", c.Code, c.Summary)
	fmt.Fprintf(&b, "Category %s; default severity %s.\n\n", c.Category(), c.Severity)
	b.WriteString(wrap(c.Explanation, 80))
	b.WriteString("\n\nExample:\n\n")
	ex, err := loadExample(c.Code)
	if err != nil {
		return fmt.Errorf("internal error: no example for %s: %w", c.Code, err)
	}
	if ex.library != "" {
		b.WriteString(wrap(ex.library, 80) + "\n\n")
		return explainSilence(w, b, c)
	}
	for _, name := range slices.Sorted(maps.Keys(ex.symlinks)) {
		fmt.Fprintf(&b, "  %s is a symbolic link to %s, which does not exist.\n\n", name, ex.symlinks[name])
	}
	for _, f := range ex.archive.Files {
		fmt.Fprintf(&b, "  -- %s --\n", f.Name)
		indent(&b, f.Data)
	}
	ds, err := ex.run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n%s says:\n\n", ex.command)
	var shown []diag.Diagnostic
	for _, d := range ds {
		if d.Code == c.Code {
			shown = append(shown, d)
		}
	}
	var lines bytes.Buffer
	if _, err := report.Write(&lines, report.Text, shown, report.Options{}); err != nil {
		return err
	}
	indent(&b, lines.Bytes())
	b.WriteString("\n")
	return explainSilence(w, b, c)
}

// explainSilence ends an explanation with how to silence the code, and
// writes it.
func explainSilence(w io.Writer, b bytes.Buffer, c diag.Code) error {
	if !c.Silenceable() {
		b.WriteString("It is an error, which no policy can silence: fix the input.\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	fmt.Fprintf(&b, "To silence it, in toolc.toml:\n\n  [policy]\n  ignore = [%q]  # or the whole category: %q\n\n", c.Code, c.Category())
	var scopes []string
	if c.Category() == "breaking" {
		b.WriteString("toolc breaking reads the [policy] of the new manifest")
		scopes = append(scopes, "and the policy of the [[sources]] whose files the tool is in")
	}
	if diag.PerTarget(c.Code) {
		scopes = append(scopes, fmt.Sprintf("for one target only, policy = { ignore = [%q] } in its [[targets]]", c.Code))
	}
	if !slices.Contains([]string{"breaking", "catalog", "check", "manifest"}, c.Category()) {
		scopes = append(scopes, fmt.Sprintf("for one source's files only (vendored ones), policy = { ignore = [%q] } in its [[sources]]", c.Code))
	}
	switch {
	case c.Category() == "breaking":
		fmt.Fprintf(&b, " %s.\n", strings.Join(scopes, ""))
	case len(scopes) > 0:
		fmt.Fprintf(&b, "or %s.\n", strings.Join(scopes, ";\nor "))
	}
	if c.Severity != diag.Error {
		fmt.Fprintf(&b, "To fail on it: deny = [%q].\n", c.Code)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// indent writes text indented by two spaces, leaving blank lines blank.
func indent(b *bytes.Buffer, text []byte) {
	for _, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if line != "" {
			b.WriteString("  ")
		}
		b.WriteString(line + "\n")
	}
}

// wrap breaks text into lines of at most width columns.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(text) {
		if n > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
