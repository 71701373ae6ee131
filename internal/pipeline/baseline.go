package pipeline

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

// baselineDoc is toolc.baseline. Version 2 has one entry per finding: its
// fingerprint without the target (diag.Fingerprint of the finding with no
// target), which ignores lines and columns so an entry survives edits
// above it, and the targets it was found for; the other fields are there
// for a person reviewing the file. Version 1, one entry per target and
// the target in the fingerprint, is still read.
type baselineDoc struct {
	Version int             `toml:"version"`
	Known   []baselineEntry `toml:"known"`
}

type baselineEntry struct {
	Fingerprint string   `toml:"fingerprint"`
	Code        string   `toml:"code"`
	File        string   `toml:"file,omitempty"`
	Tool        string   `toml:"tool,omitempty"`
	Targets     []string `toml:"targets,omitempty"` // version 2
	Target      string   `toml:"target,omitempty"`  // version 1
	Message     string   `toml:"message"`
}

// baseline is a read toolc.baseline: finding fingerprint → the targets it
// was known for ("" for a finding of no target).
type baseline map[string][]string

// has reports whether the baseline knows d, and the key it is known by.
func (k baseline) has(d diag.Diagnostic) (string, bool) {
	fp := findingPrint(d)
	if slices.Contains(k[fp], d.Target) {
		return fp, true
	}
	// A version 1 entry: the whole diagnostic's fingerprint.
	fp = diag.Fingerprint(d)
	_, ok := k[fp]
	return fp, ok
}

// findingPrint is the fingerprint of d as a finding, whatever target it
// was found for.
func findingPrint(d diag.Diagnostic) string {
	d.Target = ""
	return diag.Fingerprint(d)
}

// Baselined reports whether a baseline may hide d: every diagnostic whose
// code a policy could silence (warnings and infos, even denied ones, and
// breaking judgments); never an error that makes the output wrong.
func Baselined(d diag.Diagnostic) bool {
	c, ok := diag.Lookup(d.Code)
	return ok && c.Silenceable() && c.Category() != "check"
}

// EncodeBaseline writes the baseline of ds: every diagnostic that
// Baselined allows, one entry per finding with the targets it was found
// for, sorted by file, code and fingerprint, so that the file is the same
// for the same findings. It returns the file and how many findings it holds.
func EncodeBaseline(ds []diag.Diagnostic) ([]byte, int) {
	doc := baselineDoc{Version: 2}
	at := map[string]int{}
	for _, d := range ds {
		if !Baselined(d) {
			continue
		}
		fp := findingPrint(d)
		i, ok := at[fp]
		if !ok {
			i = len(doc.Known)
			at[fp] = i
			doc.Known = append(doc.Known, baselineEntry{Fingerprint: fp, Code: d.Code, File: d.File, Tool: d.Tool, Message: d.Message})
		}
		if d.Target != "" && !slices.Contains(doc.Known[i].Targets, d.Target) {
			doc.Known[i].Targets = append(doc.Known[i].Targets, d.Target)
		}
	}
	for i := range doc.Known {
		slices.Sort(doc.Known[i].Targets)
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
	return b.Bytes(), len(doc.Known)
}

// readBaseline reads the baseline file name in fsys, if there is one, as
// what it knows.
// HideBaseline leaves out of ds the findings the baseline file name in
// fsys knows, as Build does, and says how many it hid and how many of its
// entries no longer occur. An unreadable baseline is a *ConfigError.
func HideBaseline(fsys fs.FS, name string, ds []diag.Diagnostic) (kept []diag.Diagnostic, hidden, gone int, err error) {
	known, bds := readBaseline(fsys, name)
	if bds != nil {
		return nil, 0, 0, &ConfigError{Diagnostics: bds}
	}
	kept, hidden, gone = hideKnown(ds, known)
	return kept, hidden, gone, nil
}

func readBaseline(fsys fs.FS, name string) (baseline, []diag.Diagnostic) {
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
	case doc.Version != 1 && doc.Version != 2:
		return nil, bad(1, 1, "version = %d: want 2 (or 1, which this toolc still reads)", doc.Version)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return nil, bad(0, 0, "unknown key %q", keys[0].String())
	}
	known := make(baseline, len(doc.Known))
	for i, k := range doc.Known {
		if k.Fingerprint == "" {
			return nil, bad(0, 0, "known[%d] has no fingerprint", i)
		}
		switch {
		case doc.Version == 1:
			known[k.Fingerprint] = nil
		case len(k.Targets) == 0:
			known[k.Fingerprint] = []string{""}
		default:
			known[k.Fingerprint] = k.Targets
		}
	}
	return known, nil
}

// hideKnown removes from ds the diagnostics the baseline knows, and
// returns what remains, how many findings it hid (diagnostics that differ
// only in their target count once, as people read them) and how many
// entries of the baseline no longer occur.
func hideKnown(ds []diag.Diagnostic, known baseline) (kept []diag.Diagnostic, hidden, gone int) {
	if known == nil {
		return ds, 0, 0
	}
	kept = ds[:0:0]
	used := map[string]bool{}
	findings := map[string]bool{}
	for _, d := range ds {
		if Baselined(d) {
			if fp, ok := known.has(d); ok {
				used[fp] = true
				if f := findingPrint(d); !findings[f] {
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

// Baselinable parts ds into what a baseline knows and the errors no
// baseline hides (denied warnings it does).
func Baselinable(ds []diag.Diagnostic) (known, errs []diag.Diagnostic) {
	for _, d := range ds {
		switch {
		case Baselined(d):
			known = append(known, d)
		case d.Severity == diag.Error:
			errs = append(errs, d)
		}
	}
	return known, errs
}
