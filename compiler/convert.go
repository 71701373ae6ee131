package compiler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"github.com/toolc-dev/toolc/adapters"
	"github.com/toolc-dev/toolc/diag"
)

// ConvertOptions configure Convert.
type ConvertOptions struct {
	From     string   // the file's format; "" or "auto" to detect it
	To       string   // the target format
	Strict   bool     // strict mode, for targets that take it
	Repair   bool     // rewrite non-standard schemas, as a source's repair = true
	Schema   string   // the target's schema mode (gemini: json-schema or openapi)
	Ignore   []string // codes or categories to leave out, as [policy] ignore does
	Jobs     int
	Registry *adapters.Registry // default adapters.Default()
}

// Convert compiles one file as a catalog of its own with one target, exactly
// as Build would (validation, repair if asked, lowering, names), and returns the
// result, whose first output is the target's bundle. name is how
// diagnostics call the file; its extension chooses YAML (.yaml, .yml) or
// JSON, and any other name is read as JSON when data starts with '{' or
// '[', else as YAML. An unknown format, or --strict for a target without
// strict mode, is an error wrapping adapters.ErrUnknownFormat or
// adapters.ErrNotSupported.
func Convert(ctx context.Context, name string, data []byte, opts ConvertOptions) (*Result, error) {
	if opts.Registry == nil {
		opts.Registry = adapters.Default()
	}
	if opts.From == "" {
		opts.From = "auto"
	}
	formats := (&build{reg: opts.Registry}).formats()
	if opts.From != "auto" && !slices.Contains(formats.Sources, opts.From) {
		return nil, fmt.Errorf("%w %q as a source (want one of %v)", adapters.ErrUnknownFormat, opts.From, formats.Sources)
	}
	takes, ok := formats.Targets[opts.To]
	if !ok {
		return nil, fmt.Errorf("%w %q as a target", adapters.ErrUnknownFormat, opts.To)
	}
	if opts.Strict && !slices.Contains(takes, "strict") {
		return nil, fmt.Errorf("%w: format %s has no strict mode", adapters.ErrNotSupported, opts.To)
	}

	input := "input" + inputExt(name, data)
	type source struct {
		Include []string `toml:"include"`
		Format  string   `toml:"format"`
		Repair  bool     `toml:"repair"`
	}
	type target struct {
		Format string `toml:"format"`
		Out    string `toml:"out"`
		Strict *bool  `toml:"strict,omitempty"`
		Schema string `toml:"schema,omitempty"`
	}
	type policy struct {
		Ignore []string `toml:"ignore,omitempty"`
	}
	m := struct {
		Version int      `toml:"version"`
		Sources []source `toml:"sources"`
		Targets []target `toml:"targets"`
		Policy  policy   `toml:"policy"`
	}{Version: 1, Sources: []source{{Include: []string{input}, Format: opts.From, Repair: opts.Repair}}, Targets: []target{{Format: opts.To, Out: "out.json", Schema: opts.Schema}}, Policy: policy{Ignore: opts.Ignore}}
	if opts.Strict {
		m.Targets[0].Strict = &opts.Strict
	}
	var manifest bytes.Buffer
	if err := toml.NewEncoder(&manifest).Encode(m); err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{DefaultManifest: {Data: manifest.Bytes()}, input: {Data: data}}
	res, err := Build(ctx, fsys, Options{Jobs: opts.Jobs, Registry: opts.Registry, InputOrder: true})
	var ce *ConfigError
	if errors.As(err, &ce) {
		for i := range ce.Diagnostics {
			d := &ce.Diagnostics[i]
			d.Message = convertWords(d.Message)
			if d.File == DefaultManifest { // the manifest is convert's flags
				d.File, d.Line, d.Column = "", 0, 0
			}
		}
	}
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
		d.Message, d.Fix = convertWords(d.Message), convertWords(d.Fix)
	}
	res.Diagnostics = diag.Sort(res.Diagnostics)
	return res, nil
}

// convertWords says the build's advice in convert's terms: its flags, not
// the keys of a manifest the user never wrote.
func convertWords(s string) string {
	s = formatAdvice.ReplaceAllString(s, "pass --from $1")
	return convertAdvice.Replace(s)
}

var (
	formatAdvice  = regexp.MustCompile(`set format = "([^"]*)" on sources\[0\] in ` + regexp.QuoteMeta(DefaultManifest) + `( if it is right)?`)
	convertAdvice = strings.NewReplacer(
		`, which sources[0] in `+DefaultManifest+` says`, `, which --from says`,
		`set repair = true on the source`, `pass --repair`,
		`repair = true on the source`, `--repair`,
		`policy.ignore`, `--ignore`,
		`targets[0].schema`, `--schema`,
		`targets[0].strict`, `--strict`,
	)
)

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
