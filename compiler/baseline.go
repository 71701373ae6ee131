package compiler

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/toolc-dev/toolc/diag"
)

// BaselineFile is the name of the baseline, beside the manifest: the
// findings known when `toolc baseline` wrote it, which a build hides.
const BaselineFile = "toolc.baseline"

// baselineDoc is toolc.baseline. Each entry is keyed by its fingerprint
// (diag.Fingerprint, SARIF's partial fingerprint), which ignores lines and
// columns so an entry survives edits above it; the other fields are there
// for a person reviewing the file.
type baselineDoc struct {
	Version int             `toml:"version"`
	Known   []baselineEntry `toml:"known"`
}

type baselineEntry struct {
	Fingerprint string `toml:"fingerprint"`
	Code        string `toml:"code"`
	File        string `toml:"file,omitempty"`
	Tool        string `toml:"tool,omitempty"`
	Target      string `toml:"target,omitempty"`
	Message     string `toml:"message"`
}

// Baselined reports whether a baseline may hide d: every diagnostic whose
// code a policy could silence (warnings and infos, even denied ones, and
// breaking judgments); never an error that makes the output wrong.
func Baselined(d diag.Diagnostic) bool {
	c, ok := diag.Lookup(d.Code)
	return ok && c.Silenceable() && c.Category() != "check"
}

// EncodeBaseline writes the baseline of ds: every diagnostic that
// Baselined allows, once per fingerprint, sorted by file, code and
// fingerprint, so that the file is the same for the same findings.
func EncodeBaseline(ds []diag.Diagnostic) []byte {
	doc := baselineDoc{Version: 1}
	seen := map[string]bool{}
	for _, d := range ds {
		if !Baselined(d) {
			continue
		}
		fp := diag.Fingerprint(d)
		if seen[fp] {
			continue
		}
		seen[fp] = true
		doc.Known = append(doc.Known, baselineEntry{Fingerprint: fp, Code: d.Code, File: d.File, Tool: d.Tool, Target: d.Target, Message: d.Message})
	}
	slices.SortFunc(doc.Known, func(a, b baselineEntry) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
	var b bytes.Buffer
	b.WriteString("# toolc.baseline: the findings known when `toolc baseline` wrote it.\n")
	b.WriteString("# toolc build reports only the others, and says how many it hid.\n")
	b.WriteString("# Rewrite it with `toolc baseline`; delete it, or pass --no-baseline, to see every finding.\n\n")
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(doc); err != nil {
		panic(err) // only strings and ints
	}
	return b.Bytes()
}

// readBaseline reads the baseline file name in fsys, if there is one, as
// the set of its fingerprints.
func readBaseline(fsys fs.FS, name string) (map[string]bool, []diag.Diagnostic) {
	data, err := readRegular(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	bad := func(line, col int, format string, args ...any) []diag.Diagnostic {
		d := diag.New("manifest.baseline", format, args...)
		d.File, d.Line, d.Column = name, line, col
		return []diag.Diagnostic{d.WithFix("rewrite it with toolc baseline, or delete it")}
	}
	if err != nil {
		return nil, bad(0, 0, "cannot read it: %v", err)
	}
	var doc baselineDoc
	md, err := toml.Decode(string(data), &doc)
	var pe toml.ParseError
	switch {
	case errors.As(err, &pe):
		return nil, bad(pe.Position.Line, pe.Position.Col, "%s", pe.Message)
	case err != nil:
		return nil, bad(0, 0, "%v", err)
	case doc.Version != 1:
		return nil, bad(1, 1, "version = %d: want 1", doc.Version)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return nil, bad(0, 0, "unknown key %q", keys[0].String())
	}
	known := make(map[string]bool, len(doc.Known))
	for i, k := range doc.Known {
		if k.Fingerprint == "" {
			return nil, bad(0, 0, "known[%d] has no fingerprint", i)
		}
		known[k.Fingerprint] = true
	}
	return known, nil
}

// hideKnown removes from ds the diagnostics the baseline knows, and
// returns what remains, how many findings it hid (diagnostics that differ
// only in their target count once, as people read them) and how many
// entries of the baseline no longer occur.
func hideKnown(ds []diag.Diagnostic, known map[string]bool) (kept []diag.Diagnostic, hidden, gone int) {
	if known == nil {
		return ds, 0, 0
	}
	kept = ds[:0:0]
	used := map[string]bool{}
	findings := map[diag.Diagnostic]bool{}
	for _, d := range ds {
		if Baselined(d) {
			if fp := diag.Fingerprint(d); known[fp] {
				used[fp] = true
				f := d
				f.Target = ""
				if !findings[f] {
					findings[f] = true
					hidden++
				}
				continue
			}
		}
		kept = append(kept, d)
	}
	return kept, hidden, len(known) - len(used)
}
