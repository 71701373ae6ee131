package pipeline

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/formats"
)

// DetectFile writes the format of one file, as toolc detect does, with
// every score and what it decodes to when verbose, and returns the error that keeps
// it from having one.
func DetectFile(stdout io.Writer, reg *formats.Registry, file string, verbose bool) []diag.Diagnostic {
	name := filepath.ToSlash(file)
	data, err := ReadFile(file)
	if err != nil {
		return []diag.Diagnostic{diag.New("source.read", "%v", err).At(name, "")}
	}
	doc, err := formats.Parse(data, file)
	if err != nil {
		return []diag.Diagnostic{formats.ParseDiagnostic(name, err)}
	}
	det := reg.Detect(doc)
	var ds []diag.Diagnostic
	if det.Err != nil {
		fmt.Fprintf(stdout, "%s: unknown\n", file)
		ds = append(ds, diag.New("source.unknown-format", "%v", det.Err).At(name, ""))
	} else {
		fmt.Fprintf(stdout, "%s: %s (%.2f)\n", file, det.Format, det.Scores[0].Confidence)
	}
	if verbose {
		for _, s := range det.Scores {
			fmt.Fprintf(stdout, "  %-17s %.2f\n", s.Format, s.Confidence)
		}
		if det.Err == nil {
			a, _ := reg.Get(det.Format)
			tools, ds := a.Decode(doc, file)
			errs, warns, _ := diag.Count(ds)
			fmt.Fprintf(stdout, "  decodes to %s (%s, %s)\n", diagfmt.Plural(len(tools), "tool"), diagfmt.Plural(errs, "error"), diagfmt.Plural(warns, "warning"))
		}
	}
	return ds
}
