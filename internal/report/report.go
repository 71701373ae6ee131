// Package report writes diagnostics in the formats that toolc's --error-format
// flag offers: text for people and GitHub problem matchers, JSON lines for
// scripts, workflow commands for GitHub Actions, and SARIF 2.1.0 for code
// scanning. It only formats; choosing where to write and which diagnostics
// to show is the command's business.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
}

// Write writes ds to w in format f. SARIF is one document, so Write should be
// called once per run with every diagnostic; the other formats are a line (or
// two) per diagnostic.
func Write(w io.Writer, f Format, ds []diag.Diagnostic, opts Options) error {
	switch f {
	case Text:
		return writeText(w, ds, opts.Color)
	case JSON:
		return writeJSON(w, ds)
	case GitHubActions:
		return writeActions(w, ds)
	case SARIF:
		return writeSARIF(w, ds, opts.Version)
	}
	return fmt.Errorf("%w %q", ErrUnknownFormat, f)
}

var severityColor = map[diag.Severity]string{diag.Error: "\x1b[1;31m", diag.Warning: "\x1b[1;33m", diag.Info: "\x1b[1;36m"}

// writeText writes "file:line:col: severity code: message [target t]" and,
// when there is a fix, an indented "fix:" line under it.
func writeText(w io.Writer, ds []diag.Diagnostic, color bool) error {
	var b strings.Builder
	for _, d := range ds {
		line := d.String()
		if color {
			sev := d.Severity.String()
			colored := severityColor[d.Severity] + sev + "\x1b[0m"
			if strings.HasPrefix(line, sev+" ") {
				line = colored + line[len(sev):]
			} else {
				line = strings.Replace(line, " "+sev+" ", " "+colored+" ", 1)
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if d.Fix != "" {
			fmt.Fprintf(&b, "\tfix: %s\n", d.Fix)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonDiagnostic is one line of the json format. File, line, column and
// pointer are always there (empty or 0 when unknown) so that scripts can
// read them without checking; target and fix only when they apply.
type jsonDiagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Pointer  string `json:"pointer"`
	Target   string `json:"target,omitempty"`
	Fix      string `json:"fix,omitempty"`
}

func writeJSON(w io.Writer, ds []diag.Diagnostic) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range ds {
		err := enc.Encode(jsonDiagnostic{
			Code: d.Code, Severity: d.Severity.String(), Message: d.Message,
			File: d.File, Line: d.Line, Column: d.Column, Pointer: d.Pointer,
			Target: d.Target, Fix: d.Fix,
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// actionsCommand maps a severity to its workflow command.
var actionsCommand = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "notice"}

// writeActions writes one workflow command per diagnostic:
// ::error file=F,line=L,col=C,title=CODE::message
func writeActions(w io.Writer, ds []diag.Diagnostic) error {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("::")
		b.WriteString(actionsCommand[d.Severity])
		var props []string
		if d.File != "" {
			props = append(props, "file="+escapeProperty(d.File))
			if d.Line > 0 {
				props = append(props, "line="+strconv.Itoa(d.Line))
				if d.Column > 0 {
					props = append(props, "col="+strconv.Itoa(d.Column))
				}
			}
		}
		props = append(props, "title="+escapeProperty(d.Code))
		b.WriteByte(' ')
		b.WriteString(strings.Join(props, ","))
		b.WriteString("::")
		b.WriteString(escapeData(Message(d)))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Message is d's message with its target and fix: what a format that has
// one text field per diagnostic shows.
func Message(d diag.Diagnostic) string {
	msg := d.Message
	if d.Target != "" {
		msg += " [target " + d.Target + "]"
	}
	if d.Fix != "" {
		msg += "\nfix: " + d.Fix
	}
	return msg
}

// escapeData escapes a workflow command's message as the Actions toolkit's
// escapeData does.
var dataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// propertyEscaper escapes a workflow command's property value as the
// toolkit's escapeProperty does.
var propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
