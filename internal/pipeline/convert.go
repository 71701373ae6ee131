package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/targets"

	"github.com/toolc-dev/toolc/internal/suggest"
)

// ConvertOptions configure Convert.
type ConvertOptions struct {
	From   string   // the file's format; "" or "auto" to detect it
	To     string   // the target format
	Strict bool     // strict mode, for targets that take it
	Repair bool     // rewrite non-standard schemas, as a source's repair = true
	Schema string   // the target's schema mode (gemini: json-schema or openapi)
	Ignore []string // codes or categories to leave out, as [policy] ignore does
	Jobs   int
}

// Convert compiles one file as a catalog of its own with one target, exactly
// as Build would (validation, repair if asked, lowering, names), and returns the
// result, whose first output is the target's bundle. name is how
// diagnostics call the file; its extension chooses YAML (.yaml, .yml) or
// JSON, and any other name is read as JSON when data starts with '{' or
// '[', else as YAML. An unknown format, or --strict for a target without
// strict mode, is an error wrapping ErrUnknownFormat or
// ErrNotSupported.
func Convert(ctx context.Context, name string, data []byte, opts ConvertOptions) (*Result, error) {
	if opts.From == "" {
		opts.From = "auto"
	}
	if err := checkConvert(opts); err != nil {
		return nil, err
	}
	input := "input" + inputExt(name, data)
	m := &Manifest{
		Version: ManifestVersion,
		Sources: []manifest.Source{{Include: []string{input}, Format: opts.From, Repair: opts.Repair}},
		Targets: []manifest.Target{{Format: opts.To, Out: "out.json", Table: map[string]any{}}},
		Policy:  diag.Policy{Ignore: opts.Ignore},
	}
	if opts.Schema != "" {
		m.Targets[0].Table["schema"] = opts.Schema
	}
	if opts.Strict {
		m.Targets[0].Table["strict"] = true
	}
	fsys := fstest.MapFS{input: {Data: data}}
	// Advice names convert's flags, not the keys of a manifest the user
	// never wrote.
	res, err := Build(ctx, fsys, m, Options{Jobs: opts.Jobs, InputOrder: true,
		Flags: map[string]string{"format": "--from", "repair": "--repair"}})
	if err != nil {
		return nil, err
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		switch d.File {
		case input:
			d.File = name
		case DefaultManifest: // about the whole catalog, which is the file
			d.File, d.Line, d.Column, d.Pointer = name, 0, 0, ""
		}
	}
	res.Diagnostics = diag.Sort(res.Diagnostics)
	return res, nil
}

// checkConvert checks convert's options in its own words (flags, not
// keys), so that the manifest made from them is one the build takes.
func checkConvert(opts ConvertOptions) error {
	known := formatsOf(formats.Default(), targets.Default())
	if opts.From != "auto" && !slices.Contains(known.Sources, opts.From) {
		return fmt.Errorf("%w %q as a source (want one of %s)%s", ErrUnknownFormat, opts.From, strings.Join(known.Sources, ", "), suggest.Hint(opts.From, known.Sources))
	}
	newOptions, ok := known.Targets[opts.To]
	takes := func(key string) bool { _, ok := option.Lookup(reflect.TypeOf(newOptions()), key); return ok }
	if !ok {
		names := slices.Sorted(maps.Keys(known.Targets))
		return fmt.Errorf("%w %q as a target (want one of %s)%s", ErrUnknownFormat, opts.To, strings.Join(names, ", "), suggest.Hint(opts.To, names))
	}
	if opts.Strict && !takes("strict") {
		return fmt.Errorf("%w: format %s has no strict mode", ErrNotSupported, opts.To)
	}
	var bad []diag.Diagnostic
	flagError := func(code, format string, args ...any) {
		bad = append(bad, diag.Diagnostic{Code: code, Severity: diag.Error, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case opts.Schema == "":
	case !takes("schema"):
		flagError("manifest.unknown-key", "--schema: format %s has no option \"schema\"", opts.To)
	case !slices.Contains(emit.GeminiSchemas(), opts.Schema):
		flagError("manifest.invalid", "--schema: schema %q is not one of %s", opts.Schema, strings.Join(emit.GeminiSchemas(), ", "))
	}
	for _, c := range opts.Ignore {
		if !diag.Known(c) {
			flagError("manifest.unknown-code", "--ignore: unknown code or category %q%s", c, suggest.Hint(c, diag.Names()))
		}
	}
	if len(bad) > 0 {
		return &ConfigError{Diagnostics: bad}
	}

	return nil
}

// inputExt chooses how Convert parses data.
func inputExt(name string, data []byte) string {
	switch ext := path.Ext(name); ext {
	case ".json", ".yaml", ".yml":
		return ext
	}
	if s := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(s) > 0 && (s[0] == '{' || s[0] == '[') {
		return ".json"
	}
	return ".yaml"
}

// ConvertFormats are the formats Convert writes and reads, and those with
// strict mode (which makes every property required), from the registries.
func ConvertFormats() (to, from, strict []string) {
	for _, t := range targets.Default().List() {
		to = append(to, t.Name)
		if t.Profile.HasStrict {
			strict = append(strict, t.Name)
		}
	}
	for _, f := range formats.Default().List() {
		from = append(from, f.Name)
	}
	return to, from, strict
}

// ReadArg reads the file a command's argument names, or stdin for "-",
// and returns the name that diagnostics give it.
func ReadArg(stdin io.Reader, arg string) (string, []byte, error) {
	if arg == "-" {
		data, err := io.ReadAll(stdin)
		return "<stdin>", data, err
	}
	data, err := ReadFile(arg)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", arg, err)
	}
	return filepath.ToSlash(arg), data, nil
}
