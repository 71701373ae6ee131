// Package diagfmt writes diagnostics in the formats that toolc's --error-format
// flag offers: text for people and GitHub problem matchers, JSON lines for
// scripts, workflow commands for GitHub Actions, and SARIF 2.1.0 for code
// scanning. It only formats; choosing where to write and which diagnostics
// to show is the command's business.
package diagfmt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// Format is an output format for diagnostics.
type Format string

// The formats, in the order the help text lists them.
const (
	Text          Format = "text"
	JSON          Format = "json"
	GitHubActions Format = "github-actions"
	SARIF         Format = "sarif"
)

// Formats lists every format's name.
func Formats() []string {
	return []string{string(Text), string(JSON), string(GitHubActions), string(SARIF)}
}

// ErrUnknownFormat is wrapped by ParseFormat's error.
var ErrUnknownFormat = errors.New("unknown error format")

// ParseFormat returns the format named s.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if s == f {
			return Format(s), nil
		}
	}
	return "", fmt.Errorf("%w %q (want %s)", ErrUnknownFormat, s, strings.Join(Formats(), ", "))
}

// Options tune Write.
type Options struct {
	// Color marks severities with ANSI colours in the text format.
	Color bool
	// Version is toolc's version, written into SARIF's tool.driver.
	Version string
	// Max, when positive, is how many findings the text format writes; the
	// machine formats always write every one.
	Max int
	// Prefix is joined before every diagnostic's file as it is shown (the
	// manifest's folder seen from the working directory). SARIF's
	// fingerprint is made from the file without it, so that it does not
	// depend on where toolc runs, and matches toolc.baseline's key.
	Prefix string
}

// Write writes ds to w in format f and returns how many findings the text
// format left out past opts.Max. SARIF is one document, so Write should be
// called once per run with every diagnostic; the other formats are a line
// (or two) per finding.
//
// Text, JSON and GitHub Actions write one finding for the diagnostics that
// differ only in their target, with every target; SARIF keeps a result per
// target, so that each result's fingerprint stays the same when a target is
// added or removed and code scanning tracks it as one alert.
func Write(w io.Writer, f Format, ds []diag.Diagnostic, opts Options) (int, error) {
	if f == SARIF {
		return 0, writeSARIF(w, ds, opts.Version, opts.Prefix)
	}
	if opts.Prefix != "" {
		shown := make([]diag.Diagnostic, len(ds))
		for i, d := range ds {
			if d.File != "" {
				d.File = path.Join(opts.Prefix, d.File)
			}
			shown[i] = d
		}
		ds = shown
	}
	switch f {
	case Text:
		return writeText(w, group(ds), opts.Color, opts.Max)
	case JSON:
		return 0, writeJSON(w, group(ds))
	case GitHubActions:
		return 0, writeActions(w, group(ds))
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownFormat, f)
}

var severityColor = map[diag.Severity]string{diag.Error: "\x1b[1;31m", diag.Warning: "\x1b[1;33m", diag.Info: "\x1b[1;36m"}

// writeText writes "file:line:col: severity code: tool T: message [targets
// a, b]" and, when there is a fix, an indented "fix:" line under it; at most
// max findings when max is positive, returning how many it left out.
func writeText(w io.Writer, fs []finding, color bool, max int) (int, error) {
	omitted := 0
	if max > 0 && len(fs) > max {
		fs, omitted = fs[:max], len(fs)-max
	}
	var b strings.Builder
	for _, f := range fs {
		line := Visible(f.String())
		if color {
			sev := f.Severity.String()
			colored := severityColor[f.Severity] + sev + "\x1b[0m"
			if strings.HasPrefix(line, sev+" ") {
				line = colored + line[len(sev):]
			} else {
				line = strings.Replace(line, " "+sev+" ", " "+colored+" ", 1)
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if f.Fix != "" {
			// A fix of several lines (a TOML table to paste) keeps its
			// lines, indented under the first.
			fmt.Fprintf(&b, "\tfix: %s\n", strings.ReplaceAll(Visible(f.Fix), "\n", "\n\t  "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return omitted, err
}

// jsonDiagnostic is one line of the json format. File, line, column and
// pointer are always there (empty or 0 when unknown) so that scripts can
// read them without checking; tool, targets and fix only when they apply.
type jsonDiagnostic struct {
	Code     string   `json:"code"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Pointer  string   `json:"pointer"`
	Tool     string   `json:"tool,omitempty"`
	Targets  []string `json:"targets,omitempty"`
	Fix      string   `json:"fix,omitempty"`
	// Fingerprint names the finding across runs (diag.Fingerprint): what
	// a baseline and an [[acknowledge]] entry may give for it.
	Fingerprint string `json:"fingerprint"`
}

func writeJSON(w io.Writer, fs []finding) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, f := range fs {
		err := enc.Encode(jsonDiagnostic{
			Code: f.Code, Severity: f.Severity.String(), Message: f.Message,
			File: f.File, Line: f.Line, Column: f.Column, Pointer: f.Pointer,
			Tool: f.Tool, Targets: f.targets, Fix: f.Fix, Fingerprint: diag.Fingerprint(f.Diagnostic),
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// actionsCommand maps a severity to its workflow command.
var actionsCommand = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "notice"}

// writeActions writes one workflow command per finding:
// ::error file=F,line=L,col=C,title=CODE::message
func writeActions(w io.Writer, fs []finding) error {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("::")
		b.WriteString(actionsCommand[f.Severity])
		var props []string
		if f.File != "" {
			props = append(props, "file="+escapeProperty(Visible(f.File)))
			if f.Line > 0 {
				props = append(props, "line="+strconv.Itoa(f.Line))
				if f.Column > 0 {
					props = append(props, "col="+strconv.Itoa(f.Column))
				}
			}
		}
		props = append(props, "title="+escapeProperty(f.Code))
		b.WriteByte(' ')
		b.WriteString(strings.Join(props, ","))
		b.WriteString("::")
		b.WriteString(escapeData(Visible(f.message())))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Message is d's message with its tool, target and fix: what a format that
// has one text field per diagnostic shows.
func Message(d diag.Diagnostic) string {
	f := finding{Diagnostic: d}
	if d.Target != "" {
		f.Target, f.targets = "", []string{d.Target}
	}
	return f.message()
}

// escapeData escapes a workflow command's message as the Actions toolkit's
// escapeData does.
var dataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// propertyEscaper escapes a workflow command's property value as the
// toolkit's escapeProperty does.
var propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
