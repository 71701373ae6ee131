// Package explain says what a diagnostic code means, as toolc explain does:
// its summary and explanation from package diag's code table, then a small
// example catalog that gives the code, built in memory when it is read so
// that the example cannot go stale, and how to silence the code or fail on
// it. The examples are txtar archives in examples/, one per code.
package explain

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/suggest"
	"github.com/toolc-dev/toolc/internal/targets"
)

// explanations holds one example catalog per code, as a txtar archive whose
// comment is the command that shows the code.
//
//go:embed examples/*.txtar
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
	data, err := explanations.ReadFile("examples/" + code + ".txtar")
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
	fsys := e.files()
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
	res, err := pipeline.BuildFile(ctx, build, pipeline.DefaultManifest, pipeline.Options{Baseline: pipeline.BaselineFile})
	var ce *pipeline.ConfigError
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
		old, err := pipeline.BuildEarlier(ctx, sub, pipeline.DefaultManifest, "old")
		if err != nil {
			return nil, err
		}
		ds = append(ds, res.Compare(old, pipeline.DefaultManifest).Findings...)
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

// files is the example's catalog as a file system.
func (e *example) files() fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, f := range e.archive.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	for name, target := range e.symlinks {
		fsys[name] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	return fsys
}

// Write writes what toolc explain CODE prints for c: what the code means,
// its example catalog and what toolc says of it (built as it is read, so
// the example is always true), and how to silence it or fail on it.
func Write(ctx context.Context, w io.Writer, c diag.Code) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n\n", c.Code, c.Summary)
	fmt.Fprintf(&b, "Category %s; default severity %s.\n\n", c.Category(), c.Severity)
	b.WriteString(diagfmt.Wrap(c.Explanation, 80))
	b.WriteString("\n\nExample:\n\n")
	ex, err := loadExample(c.Code)
	if err != nil {
		return fmt.Errorf("internal error: no example for %s: %w", c.Code, err)
	}
	if ex.library != "" {
		b.WriteString(diagfmt.Wrap(ex.library, 80) + "\n\n")
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
	if _, err := diagfmt.Write(&lines, diagfmt.Text, shown, diagfmt.Options{}); err != nil {
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

// WriteFormat writes what toolc explain FORMAT prints for the target format
// t: what it writes, and the options its table takes, from the format's
// declaration of them.
func WriteFormat(w io.Writer, t *targets.Target) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n\n", t.Name, t.Profile.Source)
	typ := reflect.TypeOf(t.Options())
	if len(option.Fields(typ)) == 0 {
		fmt.Fprintf(&b, "A target of format %q takes no options besides name, format, out, policy and select.\n", t.Name)
	} else {
		fmt.Fprintf(&b, "A target of format %q takes, besides name, format, out, policy and select:\n\n", t.Name)
		b.WriteString(option.Text(typ))
		b.WriteString("\nAny other key is an error (manifest.unknown-key). docs/manifest.md has every format's table.\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// For returns what toolc explain ARG writes: a code's explanation, or a
// target format's options; or an error that says what arg is not, with
// the name it most likely misspells.
func For(arg string) (func(ctx context.Context, w io.Writer) error, error) {
	if t, ok := targets.Default().Get(arg); ok {
		return func(_ context.Context, w io.Writer) error { return WriteFormat(w, t) }, nil
	}
	if c, ok := diag.Lookup(arg); ok {
		return func(ctx context.Context, w io.Writer) error { return Write(ctx, w, c) }, nil
	}
	if strings.Contains(arg, ".") {
		return nil, fmt.Errorf("unknown code %q%s (toolc rules lists them all)", arg, suggest.Hint(arg, diag.Names()))
	}
	var formats []string
	for _, t := range targets.Default().List() {
		formats = append(formats, t.Name)
	}
	return nil, fmt.Errorf("unknown target format %q%s (one of %s; toolc rules lists the codes)", arg, suggest.Hint(arg, formats), strings.Join(formats, ", "))
}

// Completions are what toolc explain takes, each with what it is, for a
// shell's completion: every code, then every target format.
func Completions() []string {
	var names []string
	for _, c := range diag.Codes() {
		names = append(names, c.Code+"\t"+c.Summary)
	}
	for _, t := range targets.Default().List() {
		names = append(names, t.Name+"\ttarget format: "+t.Profile.Source)
	}
	return names
}
