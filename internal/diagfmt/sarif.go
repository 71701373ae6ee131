package diagfmt

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/toolc-dev/toolc/diag"
)

// SARIF output: one run whose driver lists every code of diag's table as a
// rule (so a rule's index never depends on what was found), and one result
// per diagnostic. Each result has a partial fingerprint made from its code,
// file, JSON Pointer, target and message, not its line, so that code
// scanning keeps tracking a finding when lines above it move.

// HelpURI is where a rule's help points: the list of diagnostics in docs/.
const HelpURI = "https://github.com/toolc-dev/toolc/blob/main/docs/diagnostics.md"

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// fingerprintKey names toolc's partial fingerprint; the /v1 changes if
	// the way it is computed ever does.
	fingerprintKey = "toolc/v1"
	// srcRoot is the base that result paths are relative to: the folder
	// toolc ran in.
	srcRoot = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri"`
	Version        string `json:"version,omitempty"`
	// SemanticVersion is the version of a release build, without its v
	// (SARIF 2.1.0 §3.19.5): a devel build has none.
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

// releaseVersion is a release's version, v1.2.0 or 1.2.0-rc.1.
var releaseVersion = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$`)

// semanticVersion is version as SARIF's semanticVersion, "" for a build
// that is no release.
func semanticVersion(version string) string {
	if m := releaseVersion.FindStringSubmatch(version); m != nil {
		return m[1]
	}
	return ""
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Category string   `json:"category"`
	Tags     []string `json:"tags"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *sarifResultProps `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifResultProps struct {
	Pointer string `json:"pointer,omitempty"`
	Target  string `json:"target,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// sarifLevel maps a severity to SARIF's level.
var sarifLevel = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "note"}

func writeSARIF(w io.Writer, ds []diag.Diagnostic, version, prefix string) error {
	codes := diag.Codes()
	index := make(map[string]int, len(codes))
	rules := make([]sarifRule, len(codes))
	for i, c := range codes {
		index[c.Code] = i
		rules[i] = sarifRule{
			ID:                   c.Code,
			ShortDescription:     sarifText{c.Summary},
			FullDescription:      sarifText{c.Explanation},
			Help:                 sarifText{c.Explanation + "\n\nRun `toolc explain " + c.Code + "` for an example."},
			HelpURI:              HelpURI,
			DefaultConfiguration: sarifConfig{sarifLevel[c.Severity]},
			Properties:           sarifRuleProps{Category: c.Category(), Tags: []string{"toolc", c.Category()}},
		}
	}
	results := make([]sarifResult, 0, len(ds))
	for _, d := range ds {
		r := sarifResult{
			RuleID:              d.Code,
			RuleIndex:           index[d.Code],
			Level:               sarifLevel[d.Severity],
			Message:             sarifText{Message(d)},
			PartialFingerprints: map[string]string{fingerprintKey: diag.Fingerprint(d)},
		}
		if d.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(path.Join(prefix, d.File)), URIBaseID: srcRoot}}}
			if d.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Column}
			}
			r.Locations = []sarifLocation{loc}
		}
		if d.Pointer != "" || d.Target != "" || d.Fix != "" {
			r.Properties = &sarifResultProps{Pointer: d.Pointer, Target: d.Target, Fix: d.Fix}
		}
		results = append(results, r)
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: "toolc", InformationURI: "https://github.com/toolc-dev/toolc", Version: version, SemanticVersion: semanticVersion(version), Rules: rules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// fileURI writes a '/'-separated relative path as a relative URI reference.
func fileURI(file string) string {
	parts := strings.Split(file, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
