// Package manifest reads toolc.toml: which source files make the catalog,
// which bundles to build from it, and the policy that decides which
// diagnostics fail the build.
//
// Decoding is strict and versioned: the version is read first, the document is
// decoded into that version's types, and every unknown key, wrong type,
// unknown policy code or path that leaves the manifest's folder is an error
// with the key path, line and column. The package does no I/O; it decodes the
// bytes it is given.
package manifest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// Version is the manifest format version this package reads.
const Version = 1

// Manifest is toolc.toml as a value: decoded from its text by Decode, or
// built in code. Check validates it, whichever way it was made.
type Manifest struct {
	Version int
	Catalog Catalog
	Sources []Source
	Targets []Target
	Policy  diag.Policy
	// Deprecation is [policy] deprecation, nil when not set.
	Deprecation *Deprecation
	// Horizon is [policy] acknowledge, nil when not set (the defaults).
	Horizon *Horizon
	// Quality is [policy] quality, nil when not set: the build does not
	// score descriptions.
	Quality *Quality
	// Acknowledge are the intended breaking changes ([[acknowledge]]),
	// Removed the tombstones of removed tools ([[removed]]).
	Acknowledge []Acknowledgment
	Removed     []Tombstone
	// Load is [load]: when tools load into a model's context, nil when
	// not set.
	Load *Loading

	// Of a manifest decoded from text: its name, the positions of its
	// keys, its lines, the keys its unknown keys most likely meant, and
	// its hash.
	file  string
	keys  keyIndex
	lines []string
	meant map[string]bool
	sum   string
}

// File is the manifest's file name as diagnostics give it: the base of
// the name it was decoded as, or DefaultFile for a manifest built in code.
func (m *Manifest) File() string {
	if m.file == "" {
		return DefaultFile
	}
	return path.Base(m.file)
}

// Dir is the folder of the name the manifest was decoded as ("." for one
// built in code): every path in it is relative to that folder.
func (m *Manifest) Dir() string { return path.Dir(m.file) }

// Hash is "sha256:…" of the manifest's text, or, for a manifest built in
// code, of its TOML encoding: what the lock records, so that a change to
// the manifest makes the outputs out of date.
func (m *Manifest) Hash() string {
	if m.sum != "" {
		return m.sum
	}
	doc, err := m.Doc()
	if err != nil {
		return "" // a value TOML cannot encode: nothing to compare
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return ""
	}
	return hashOf(buf.Bytes())
}

// Doc returns m as the tables of its TOML document: each target's own keys
// and its format's options in one table.
func (m *Manifest) Doc() (map[string]any, error) {
	targets := make([]map[string]any, len(m.Targets))
	for i, t := range m.Targets {
		doc := map[string]any{}
		if err := option.Recode(t, &doc); err != nil {
			return nil, err
		}
		maps.Copy(doc, t.Table)
		targets[i] = doc
	}
	doc := map[string]any{}
	err := option.Recode(hashDoc{Version: m.Version, Catalog: m.Catalog, Sources: m.Sources, Targets: targets, Acknowledge: m.Acknowledge, Removed: m.Removed, Load: m.Load,
		Policy: policy{Deny: m.Policy.Deny, Warn: m.Policy.Warn, Ignore: m.Policy.Ignore, Deprecation: m.Deprecation, Acknowledge: m.Horizon, Quality: m.Quality}}, &doc)
	return doc, err
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// AtRoot returns a copy of m read from the root of the file system its
// paths are relative to: what a build over a file system already rooted
// at m's folder takes.
func (m *Manifest) AtRoot() *Manifest {
	c := *m
	c.file = path.Base(c.file)
	return &c
}

// Clone returns a copy of m whose sources and targets Check may change (it
// fills in defaults) without changing m's.
func (m *Manifest) Clone() *Manifest {
	c := *m
	c.Sources = slices.Clone(m.Sources)
	c.Targets = slices.Clone(m.Targets)
	return &c
}

// DefaultFile is the manifest's usual file name.
const DefaultFile = "toolc.toml"

// Pos returns the line and column of a key path such as "targets[1].out",
// or of its nearest written ancestor, for diagnostics about the manifest
// found after decoding.
func (m *Manifest) Pos(key string) (line, col int) { return m.keys.pos(key) }

// Catalog names and versions the catalog.
type Catalog struct {
	Name    string `toml:"name"`
	Version string `toml:"version"` // semantic version, or ""
	// Description says what the catalog's server does, for the release
	// targets (server-json takes at most 100 characters).
	Description string `toml:"description"`
}

// Source is one [[sources]] entry: a set of files in one format.
type Source struct {
	Include   []string `toml:"include"`   // globs relative to the manifest; ** allowed
	Exclude   []string `toml:"exclude"`   // globs removed from Include's matches
	Format    string   `toml:"format"`    // a format name or "auto" (the default)
	Namespace string   `toml:"namespace"` // sets every tool's namespace when not empty
	Tags      []string `toml:"tags"`      // added to every tool's tags
	Repair    bool     `toml:"repair"`    // rewrite non-standard schemas to JSON Schema
	// Optional lets the include globs match nothing (a folder that tools
	// will fill); otherwise a glob that matches no file is an error, as it
	// is mostly a typo that would ship empty bundles.
	Optional bool `toml:"optional"`
	// Capture says where the source's one file comes from live: an MCP
	// server that toolc capture reads and toolc verify compares with it.
	// build never starts a server.
	Capture *Capture `toml:"capture"`
	// Backend says where the source's tools run, for those whose format
	// does not say: { kind = "local" } (an in-process handler) or
	// "provider". A capture makes them "mcp"; OpenAPI operations are
	// "provider" with their HTTP binding.
	Backend *Backend `toml:"backend"`
	// Security is the default security metadata of the source's tools;
	// what a tool says itself wins.
	Security *Security `toml:"security"`
	// Stability is the default stability of the source's tools ("draft",
	// "alpha", "beta" or "stable"); what a tool says itself wins.
	Stability string `toml:"stability"`
	// Select keeps part of the source's tools, chosen after the source's
	// namespace and tags are set and before validation: a vendored file
	// whose other tools are invalid can still ship these.
	Select *Select `toml:"select"`
	// Policy decides, before the target's and the manifest's, the
	// diagnostics located in this source's files (vendored files whose
	// findings are not the team's to fix).
	Policy *diag.Policy `toml:"policy"`
	// OpenAPI curates the operations of OpenAPI descriptions: which become
	// tools, and overrides of each ([sources.openapi]).
	OpenAPI *openapi.Options `toml:"openapi"`
	// Load is the source's level of loading, over [load]'s.
	Load *Load `toml:"load,omitempty"`
	// Transforms curate the source's tools, by ID or glob
	// ([sources.transforms."GLOB"]): applied after reading, before
	// validation and lowering, and undone by toolcall.
	Transforms map[string]Transform `toml:"transforms,omitempty"`
}

// Backend is a source's backend: where its tools run.
type Backend struct {
	Kind string `toml:"kind"`
}

// Security is a source's default security metadata.
type Security struct {
	DataClassification string `toml:"data_classification"`
	PIIHandling        string `toml:"pii_handling"`
}

// Capture is a live MCP server: a command run over stdio, or a streamable
// HTTP endpoint. ${env:NAME} in Env and Headers is read from the
// environment when the server is reached, and written nowhere.
type Capture struct {
	Command []string          `toml:"command"` // the program and its arguments, run without a shell
	Env     map[string]string `toml:"env"`     // the command's environment, beside the few variables every MCP client passes
	Inherit []string          `toml:"inherit"` // variables of toolc's environment the command gets as they are, where set
	URL     string            `toml:"url"`     // a streamable HTTP endpoint
	Headers map[string]string `toml:"headers"` // sent with every HTTP request
	Timeout string            `toml:"timeout"` // a Go duration; DefaultCaptureTimeout when empty
}

// DefaultCaptureTimeout is how long a capture may take, from starting or
// connecting to the last page of tools/list, unless timeout says.
const DefaultCaptureTimeout = 30 * time.Second

// Deadline is the capture's timeout.
func (c *Capture) Deadline() time.Duration {
	if d, err := time.ParseDuration(c.Timeout); err == nil && d > 0 {
		return d
	}
	return DefaultCaptureTimeout
}

// envRef is a reference to an environment variable in env and headers.
var envRef = regexp.MustCompile(`\$\{env:([^}]*)\}`)

// EnvName is the pattern of the NAME in ${env:NAME}.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// EnvRefs lists the names of the environment variables s refers to as
// ${env:NAME}.
func EnvRefs(s string) []string {
	var names []string
	for _, m := range envRef.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// Expand replaces each ${env:NAME} in s with the variable's value, as
// lookup gives it, and names the variables that are not set.
func Expand(s string, lookup func(string) (string, bool)) (string, []string) {
	var missing []string
	out := envRef.ReplaceAllStringFunc(s, func(m string) string {
		name := envRef.FindStringSubmatch(m)[1]
		v, ok := lookup(name)
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	return out, missing
}

// Target is one [[targets]] entry: one bundle to write. What a target
// takes besides the keys every target has is its format's: Table holds
// those keys as written, and Check decodes them, strictly, into Options,
// a new value of the struct the format declares (Formats).
type Target struct {
	Name   string       `toml:"name"`   // unique among targets; defaults to the format
	Format string       `toml:"format"` // a target format name
	Out    string       `toml:"out"`    // output path relative to the manifest
	Policy *diag.Policy `toml:"policy"` // overrides [policy] for this target
	// Select builds the target from part of the catalog (a preset: the
	// core tools under a provider's per-request limit); nil is all of it.
	Select *Select `toml:"select"`
	// Table holds the target's other keys, its format's options, as TOML
	// decodes them (strings, booleans, int64, float64, []any,
	// map[string]any); a manifest built in code may give Go's own types.
	Table map[string]any `toml:"-" manifest:"rest"`
	// Options are Table decoded into the format's options, set by Check.
	Options any `toml:"-"`
}

// Select chooses tools of the catalog for one target. A tool is chosen
// when it matches every list that is set (any entry of each), and no
// entry of Exclude.
type Select struct {
	Tags []string `toml:"tags"` // tools with any of these tags
	// Classification chooses tools by data_classification: a public
	// bundle never carries a restricted tool. A tool that says none is
	// not chosen.
	Classification []string `toml:"classification"`
	Namespaces     []string `toml:"namespaces"` // tools in any of these namespaces ("" for none)
	Tools          []string `toml:"tools"`      // globs over tool IDs ("github:*")
	Exclude        []string `toml:"exclude"`    // globs over tool IDs left out
	// Stability chooses tools by stability ("stable" for a tool that says
	// none): a production bundle leaves draft and beta tools out.
	Stability []string `toml:"stability"`
}

// Empty reports whether s sets no list, which chooses every tool.
func (s *Select) Empty() bool {
	return s == nil || len(s.Tags)+len(s.Namespaces)+len(s.Tools)+len(s.Exclude)+len(s.Classification)+len(s.Stability) == 0
}

// Match reports whether s chooses the tool t (its ID, namespace, tags,
// data classification and stability).
func (s *Select) Match(t *canonical.Tool) bool {
	if s == nil {
		return true
	}
	id, namespace, tags := t.ID(), t.Namespace, t.Tags
	classification := ""
	if t.Security != nil {
		classification = t.Security.Classification
	}
	if len(s.Stability) > 0 && !slices.Contains(s.Stability, cmp.Or(t.Stability, "stable")) {
		return false
	}
	if len(s.Classification) > 0 && !slices.Contains(s.Classification, classification) {
		return false
	}
	if len(s.Tags) > 0 && !slices.ContainsFunc(s.Tags, func(t string) bool { return slices.Contains(tags, t) }) {
		return false
	}
	if len(s.Namespaces) > 0 && !slices.Contains(s.Namespaces, namespace) {
		return false
	}
	glob := func(p string) bool { ok, _ := doublestar.Match(p, id); return ok }
	if len(s.Tools) > 0 && !slices.ContainsFunc(s.Tools, glob) {
		return false
	}
	return !slices.ContainsFunc(s.Exclude, glob)
}

// Formats says which formats the caller supports, and the options of each
// target format, so that the manifest can reject others with a position.
type Formats struct {
	Sources []string // source formats, besides "auto"
	// Targets gives, by target format, a new value of its options: a
	// pointer to a struct whose fields' toml tags are the keys it takes
	// (package option reads the declaration).
	Targets map[string]func() any
}

// ErrInvalid is wrapped by the error Decode returns.
var ErrInvalid = errors.New("invalid manifest")

// v1 is the document of manifest version 1.
type v1 struct {
	Version     int              `toml:"version"`
	Catalog     Catalog          `toml:"catalog"`
	Sources     []Source         `toml:"sources"`
	Targets     []Target         `toml:"targets"`
	Policy      policy           `toml:"policy"`
	Acknowledge []Acknowledgment `toml:"acknowledge"`
	Removed     []Tombstone      `toml:"removed"`
	Load        *Loading         `toml:"load"`
}

// hashDoc is v1 with each target's keys in one table, its own and its
// format's: what Doc makes of a manifest.
type hashDoc struct {
	Version     int              `toml:"version"`
	Catalog     Catalog          `toml:"catalog"`
	Sources     []Source         `toml:"sources"`
	Targets     []map[string]any `toml:"targets"`
	Policy      policy           `toml:"policy"`
	Acknowledge []Acknowledgment `toml:"acknowledge"`
	Removed     []Tombstone      `toml:"removed"`
	Load        *Loading         `toml:"load,omitempty"`
}

type decoder struct {
	file  string
	keys  keyIndex
	lines []string // the text, for the column of a value
	diags []diag.Diagnostic
	// meant records, for each unknown key that is a misspelling, the key
	// it most likely meant, by the path of the meant key ("sources[0].include").
	meant map[string]bool
}

func (d *decoder) errorAt(code, key, format string, args ...any) {
	line, col := d.keys.pos(key)
	d.add(code, key, line, col, fmt.Sprintf(format, args...))
}

func (d *decoder) add(code, key string, line, col int, msg string) {
	if key != "" {
		msg = key + ": " + msg
	}
	d.diags = append(d.diags, diag.Diagnostic{Code: code, Severity: diag.Error, Message: msg, File: d.file, Line: line, Column: col})
}

// Decode decodes the manifest text data, named file in diagnostics. It
// returns the manifest and the errors found, every one located: no
// manifest when a value is of the wrong type, and the manifest with the
// keys no field takes. Check validates what it holds.
func Decode(data []byte, file string, formats Formats) (*Manifest, []diag.Diagnostic) {
	text := string(data)
	name := file
	file = path.Base(file)
	d := &decoder{file: file}
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, []diag.Diagnostic{{Code: "manifest.syntax", Severity: diag.Error, Message: pe.Message, File: file, Line: pe.Position.Line, Column: pe.Position.Col}}
		}
		return nil, []diag.Diagnostic{{Code: "manifest.syntax", Severity: diag.Error, Message: err.Error(), File: file}}
	}
	d.keys = indexKeys(text)
	d.lines = strings.Split(text, "\n")
	m, ds := d.decode(doc, formats)
	if m != nil {
		m.file, m.sum = name, hashOf(data)
	}
	return m, ds
}

// DecodeTable decodes a manifest given as the tables TOML decodes it to
// (or Go's own types for them), as Decode decodes text: the same checks,
// unlocated. file names the manifest, whose folder its paths are relative
// to ("" for the root).
func DecodeTable(doc map[string]any, file string, formats Formats) (*Manifest, []diag.Diagnostic) {
	d := &decoder{file: path.Base(cmp.Or(file, DefaultFile))}
	doc, err := normalize(doc)
	if err != nil {
		return nil, []diag.Diagnostic{{Code: "manifest.type", Severity: diag.Error, Message: err.Error(), File: d.file}}
	}
	m, ds := d.decode(doc, formats)
	if m != nil {
		m.file = file
	}
	return m, ds
}

// decode decodes the document doc: its version, every value's type and
// every key (those of each target's options against its format's
// declaration), then the typed manifest. There is none when a value is of
// the wrong type.
func (d *decoder) decode(doc map[string]any, formats Formats) (*Manifest, []diag.Diagnostic) {
	switch v, ok := doc["version"].(int64); {
	case doc["version"] == nil:
		d.errorAt("manifest.version", "", "the manifest has no version; write `version = %d` on its first line", Version)
		return nil, d.diags
	case !ok || v != Version:
		d.errorAt("manifest.version", "version", "unsupported manifest version %v; this toolc reads version %d", doc["version"], Version)
		return nil, d.diags
	}
	d.checkTypes(doc)
	targets := option.Tables(doc["targets"])
	for i, t := range targets {
		format, _ := t["format"].(string)
		if newOptions, ok := formats.Targets[format]; ok {
			d.walkOptions(fmt.Sprintf("targets[%d]", i), format, option.Undeclared(t, reflect.TypeFor[Target]()), newOptions, formats)
		}
	}
	if slices.ContainsFunc(d.diags, func(x diag.Diagnostic) bool { return x.Code == "manifest.type" }) {
		// The values are not what the checks below read; unknown keys
		// alone are not in their way.
		return nil, diag.Sort(d.diags)
	}
	var typed v1
	if err := option.Recode(doc, &typed); err != nil {
		// The walk above checks what the decoder does; this is a bug.
		return nil, []diag.Diagnostic{{Code: "manifest.type", Severity: diag.Error, Message: err.Error(), File: d.file}}
	}
	for i, doc := range targets {
		t := &typed.Targets[i]
		t.Table = option.Undeclared(doc, reflect.TypeFor[Target]())
		if newOptions, ok := formats.Targets[t.Format]; ok {
			t.Options = decodeOptions(t.Table, newOptions)
		}
	}
	m := &Manifest{Version: typed.Version, Catalog: typed.Catalog, Sources: typed.Sources, Targets: typed.Targets,
		Policy:      diag.Policy{Deny: typed.Policy.Deny, Warn: typed.Policy.Warn, Ignore: typed.Policy.Ignore},
		Deprecation: typed.Policy.Deprecation, Horizon: typed.Policy.Acknowledge, Quality: typed.Policy.Quality, Acknowledge: typed.Acknowledge, Removed: typed.Removed, Load: typed.Load,
		keys: d.keys, lines: d.lines, meant: d.meant}
	return m, diag.Sort(d.diags)
}

// Check validates m against the formats the registry has, filling in the
// defaults (a source's format auto, a target's name its format), and
// returns every error, located where m was decoded from text.
func (m *Manifest) Check(formats Formats) []diag.Diagnostic {
	d := &decoder{file: m.File(), keys: m.keys, lines: m.lines, meant: m.meant}
	if m.Version != Version {
		d.errorAt("manifest.version", "version", "unsupported manifest version %v; this toolc reads version %d", m.Version, Version)
		return d.diags
	}
	d.check(m, formats)
	return diag.Sort(d.diags)
}

// valueColumn returns the column of the value after the key written at pos.
func (d *decoder) valueColumn(pos [2]int) int {
	if pos[0] > len(d.lines) {
		return pos[1]
	}
	line := d.lines[pos[0]-1]
	rest := line[min(pos[1]-1, len(line)):]
	eq := indexOutsideQuotes(rest, '=')
	if eq < 0 {
		return pos[1]
	}
	after := rest[eq+1:]
	return pos[1] + eq + 1 + len(after) - len(strings.TrimLeft(after, " \t"))
}

// The patterns that names in a manifest must match. They mean the same as
// RE2 and as ECMA-262 regular expressions, so the JSON Schema of toolc.toml
// uses them as they are.
const (
	// SemverPattern is a semantic version, MAJOR.MINOR.PATCH with optional
	// pre-release and build parts (semver.org's own regular expression).
	SemverPattern = `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`
	// NamespacePattern is a source's namespace.
	NamespacePattern = `^[A-Za-z0-9][A-Za-z0-9_.-]*$`
	// TargetNamePattern is a target's name.
	TargetNamePattern = `^[a-z0-9][a-z0-9_-]*$`
)

var (
	semverRE    = regexp.MustCompile(SemverPattern)
	namespaceRE = regexp.MustCompile(NamespacePattern)
	targetRE    = regexp.MustCompile(TargetNamePattern)
)

func (d *decoder) check(m *Manifest, formats Formats) {
	if v := m.Catalog.Version; v != "" && !semverRE.MatchString(v) {
		d.errorAt("manifest.invalid", "catalog.version", "%q is not a semantic version (MAJOR.MINOR.PATCH): the catalog's version is the exact version of a release, which registries take, not a range", v)
		d.diags[len(d.diags)-1].Fix = `write the release's version, such as "1.2.0"`
	}
	if len(m.Sources) == 0 {
		d.errorAt("manifest.invalid", "", "the manifest has no [[sources]]")
	}
	for i := range m.Sources {
		d.checkSource(fmt.Sprintf("sources[%d]", i), &m.Sources[i], formats)
	}
	if len(m.Targets) == 0 {
		d.errorAt("manifest.invalid", "", "the manifest has no [[targets]]")
	}
	seen := &targetsSeen{names: map[string]int{}, outs: map[string]seenOut{}}
	for i := range m.Targets {
		d.checkTarget(i, &m.Targets[i], formats, seen)
	}
	d.checkPolicy("policy", &m.Policy)
	d.checkLifecycle(m)
	d.checkLoading(m)
	d.checkTransforms(m)
	if q := m.Quality; q != nil && (q.Min < 1 || q.Min > 5) {
		d.errorAt("manifest.invalid", "policy.quality.min", "quality.min = %g: a score is from 1 to 5", q.Min)
	}
}

// checkSource checks one [[sources]] entry, at key, filling in its format.
func (d *decoder) checkSource(key string, s *Source, formats Formats) {
	if s.Format == "" {
		s.Format = "auto"
	}
	if s.Format != "auto" && !slices.Contains(formats.Sources, s.Format) {
		d.errorAt("manifest.invalid", key+".format", "unknown source format %q (want auto or one of %s)%s", s.Format, strings.Join(formats.Sources, ", "), suggest.Hint(s.Format, formats.Sources))
	}
	if len(s.Include) == 0 && !d.misspelt(key, "include") {
		d.errorAt("manifest.invalid", key, "a source needs include = [...] with at least one glob")
	}
	for _, g := range s.Include {
		d.checkGlob(key+".include", g)
	}
	for _, g := range s.Exclude {
		d.checkGlob(key+".exclude", g)
	}
	if s.Namespace != "" && !namespaceRE.MatchString(s.Namespace) {
		d.errorAt("manifest.invalid", key+".namespace", "namespace %q must start with a letter or digit and hold only letters, digits, '_', '.' and '-'", s.Namespace)
	}
	d.checkSelect(key+".select", s.Select)
	d.checkCapture(key, s)
	if b := s.Backend; b != nil {
		switch {
		case s.Capture != nil:
			d.errorAt("manifest.invalid", key+".backend", "a source with a capture runs at its MCP server (kind mcp); it takes no backend")
		case b.Kind == canonical.BackendMCP:
			d.errorAt("manifest.invalid", key+".backend.kind", "kind \"mcp\" comes from a capture = { ... } on the source, which says which server")
		default:
			d.checkOneOf(key+".backend.kind", "kind", b.Kind, []string{canonical.BackendLocal, canonical.BackendProvider})
		}
	}
	d.checkDefaults(key, s)
	d.checkPolicy(key+".policy", s.Policy)
	if s.OpenAPI != nil {
		if s.Format != "openapi" {
			d.errorAt("manifest.invalid", key+".openapi", "[sources.openapi] curates OpenAPI descriptions; set format = \"openapi\" on this source")
		}
		for _, p := range s.OpenAPI.Check() {
			d.errorAt("manifest.invalid", key+".openapi."+KeyPath(p.Key...), "%s", p.Message)
		}
	}
}

// targetsSeen are the names and files of the targets checked so far.
type targetsSeen struct {
	names map[string]int
	outs  map[string]seenOut // by the path in lower case
}

// seenOut is the target that writes a file, and the path it gave.
type seenOut struct {
	i   int
	out string
}

// checkTarget checks the i-th [[targets]] entry, filling in its name and
// cleaning its path.
func (d *decoder) checkTarget(i int, t *Target, formats Formats, seen *targetsSeen) {
	key := fmt.Sprintf("targets[%d]", i)
	newOptions, ok := formats.Targets[t.Format]
	switch {
	case t.Format == "":
		d.errorAt("manifest.invalid", key, "a target needs format = \"...\"")
	case !ok:
		d.errorAt("manifest.invalid", key+".format", "unknown target format %q (want one of %s)%s", t.Format, strings.Join(slices.Sorted(maps.Keys(formats.Targets)), ", "), suggest.Hint(t.Format, slices.Sorted(maps.Keys(formats.Targets))))
	default:
		d.checkOptions(key, t, newOptions, formats)
	}
	d.checkSelect(key+".select", t.Select)
	if t.Name == "" {
		t.Name = t.Format
	} else if !targetRE.MatchString(t.Name) {
		d.errorAt("manifest.invalid", key+".name", "target name %q must be lower-case letters, digits, '_' and '-'", t.Name)
	}
	if j, dup := seen.names[t.Name]; dup {
		d.errorAt("manifest.invalid", key, "targets[%d] and targets[%d] are both named %q; give one a name = \"...\"", j, i, t.Name)
	}
	seen.names[t.Name] = i
	switch {
	case t.Out == "" && d.misspelt(key, "out"):
	case t.Out == "":
		d.errorAt("manifest.invalid", key, "a target needs out = \"...\"")
	case !d.checkPath(key+".out", t.Out):
	default:
		t.Out = path.Clean(t.Out)
		// By the path in lower case: macOS's and Windows' file systems
		// hold dist/OpenAI.json and dist/openai.json as one file.
		if o, dup := seen.outs[strings.ToLower(t.Out)]; dup {
			if o.out != t.Out {
				d.errorAt("manifest.invalid", key+".out", "targets[%d] and targets[%d] write %q and %q, one file on macOS and Windows", o.i, i, o.out, t.Out)
			} else {
				d.errorAt("manifest.invalid", key+".out", "targets[%d] and targets[%d] both write %q", o.i, i, t.Out)
			}
		}
		seen.outs[strings.ToLower(t.Out)] = seenOut{i, t.Out}
		if t.Out == LockFile {
			d.errorAt("manifest.invalid", key+".out", "%q is the lock file", t.Out)
		}
	}
	d.checkPolicy(key+".policy", t.Policy)
	d.checkTargetPolicy(key+".policy", t.Policy)
}

// checkCapture checks a source's capture: a command or a URL, a timeout
// that parses, well-formed ${env:NAME} references, and one file to write.
func (d *decoder) checkCapture(key string, s *Source) {
	c := s.Capture
	if c == nil {
		return
	}
	key += ".capture"
	switch {
	case len(c.Command) > 0 && c.URL != "":
		d.errorAt("manifest.invalid", key, "a capture is a command (stdio) or a url (streamable HTTP), not both")
	case len(c.Command) == 0 && c.URL == "":
		d.errorAt("manifest.invalid", key, "a capture needs command = [\"program\", \"arg\", ...] (stdio) or url = \"https://...\" (streamable HTTP)")
	case len(c.Command) > 0 && c.Command[0] == "":
		d.errorAt("manifest.invalid", key+".command", "the command's program is empty")
	case c.URL != "" && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		d.errorAt("manifest.invalid", key+".url", "url %q is not an http:// or https:// address", c.URL)
	}
	if len(c.Env) > 0 && c.URL != "" {
		d.errorAt("manifest.invalid", key+".env", "env is for a command; a url takes headers")
	}
	if len(c.Inherit) > 0 && c.URL != "" {
		d.errorAt("manifest.invalid", key+".inherit", "inherit is for a command; a url takes headers")
	}
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			d.errorAt("manifest.invalid", key+".env."+KeyPath(k), "%q cannot name an environment variable (no = and no NUL)", k)
		}
	}
	for i, name := range c.Inherit {
		at := fmt.Sprintf("%s.inherit[%d]", key, i)
		_, set := c.Env[name]
		switch {
		case !envName.MatchString(name):
			d.errorAt("manifest.invalid", at, "%q does not name an environment variable (letters, digits and _)", name)
		case slices.Index(c.Inherit, name) < i:
			d.errorAt("manifest.invalid", at, "%s is inherited twice", name)
		case set:
			d.errorAt("manifest.invalid", at, "%s is both inherited and set in env; env's value is what the command gets", name)
		}
	}
	if len(c.Headers) > 0 && len(c.Command) > 0 {
		d.errorAt("manifest.invalid", key+".headers", "headers are for a url; a command takes env")
	}
	if c.Timeout != "" {
		if t, err := time.ParseDuration(c.Timeout); err != nil || t <= 0 {
			d.errorAt("manifest.invalid", key+".timeout", "timeout %q is not a positive duration (\"30s\", \"2m\")", c.Timeout)
		}
	}
	for _, m := range []struct {
		name string
		vals map[string]string
	}{{"env", c.Env}, {"headers", c.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(m.vals)) {
			for _, ref := range envRef.FindAllStringSubmatch(m.vals[k], -1) {
				if !envName.MatchString(ref[1]) {
					d.errorAt("manifest.invalid", key+"."+m.name+"."+KeyPath(k), "${env:%s} does not name an environment variable (letters, digits and _)", ref[1])
				}
			}
		}
	}
	if len(s.Include) != 1 || strings.ContainsAny(s.Include[0], "*?[{") {
		d.errorAt("manifest.invalid", key, "a source with a capture names the one file it is written to: include = [\"servers/name.json\"], no glob")
	}
	switch s.Format {
	case "auto":
		s.Format = "mcp"
	case "mcp":
	default:
		d.errorAt("manifest.invalid", key, "a capture is an MCP tools/list; the source's format is mcp, not %s", s.Format)
	}
}

// checkDefaults checks what a source says of its tools by default: their
// security metadata and stability.
func (d *decoder) checkDefaults(key string, s *Source) {
	if sec := s.Security; sec != nil {
		if sec.DataClassification != "" {
			d.checkOneOf(key+".security.data_classification", "data_classification", sec.DataClassification, canonical.Classifications())
		}
		if sec.PIIHandling != "" {
			d.checkOneOf(key+".security.pii_handling", "pii_handling", sec.PIIHandling, canonical.PIIHandlings())
		}
	}
	if s.Stability != "" {
		d.checkOneOf(key+".stability", "stability", s.Stability, canonical.Stabilities())
	}
}

func (d *decoder) checkSelect(key string, s *Select) {
	if s == nil {
		return
	}
	for i, c := range s.Classification {
		d.checkOneOf(fmt.Sprintf("%s.classification[%d]", key, i), "classification", c, canonical.Classifications())
	}
	for i, c := range s.Stability {
		d.checkOneOf(fmt.Sprintf("%s.stability[%d]", key, i), "stability", c, canonical.Stabilities())
	}
	for _, g := range slices.Concat(s.Tools, s.Exclude) {
		if !doublestar.ValidatePattern(g) {
			d.errorAt("manifest.invalid", key, "%q is not a glob over tool IDs", g)
		}
	}
}

// checkOneOf reports v, the value of what at key, when it is not one of
// allowed.
func (d *decoder) checkOneOf(key, what, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		d.errorAt("manifest.invalid", key, "%s %q is not one of %s%s", what, v, strings.Join(allowed, ", "), suggest.Hint(v, allowed))
	}
}

// misspelt reports whether an unknown key of the table at key was taken
// for want, which then needs no error of its own for being missing.
func (d *decoder) misspelt(key, want string) bool { return d.meant[key+"."+want] }

// LockFile is the name of the lock file, beside the manifest.
const LockFile = "toolc.lock"

// checkPath checks that p is a relative, slash-separated path that stays in
// the manifest's folder.
func (d *decoder) checkPath(key, p string) bool {
	switch {
	case strings.Contains(p, `\`):
		d.errorAt("manifest.invalid", key, "path %q must use '/' as separator", p)
	case path.IsAbs(p) || (len(p) > 1 && p[1] == ':'):
		d.errorAt("manifest.path-escape", key, "path %q is absolute; paths are relative to the manifest's folder", p)
	case escapes(p):
		d.errorAt("manifest.path-escape", key, "path %q leaves the manifest's folder", p)
	case path.Clean(p) == ".":
		d.errorAt("manifest.invalid", key, "path %q names the manifest's folder itself", p)
	default:
		return true
	}
	return false
}

func escapes(p string) bool {
	c := path.Clean(p)
	return c == ".." || strings.HasPrefix(c, "../") || slices.Contains(strings.Split(p, "/"), "..")
}

func (d *decoder) checkGlob(key, g string) {
	if d.checkPath(key, g) && !doublestar.ValidatePattern(g) {
		d.errorAt("manifest.invalid", key, "%q is not a valid glob", g)
	}
}

// checkTargetPolicy rejects the entries of a target's policy that no
// target reports: a target's policy would never see them, and the build
// would silently do what the user did not ask.
func (d *decoder) checkTargetPolicy(key string, p *diag.Policy) {
	if p == nil {
		return
	}
	for _, l := range []struct {
		name    string
		entries []string
	}{{"deny", p.Deny}, {"warn", p.Warn}, {"ignore", p.Ignore}} {
		for _, e := range l.entries {
			if diag.Known(e) && !diag.PerTarget(e) {
				d.errorAt("manifest.invalid", key+"."+l.name, "%q does not depend on a target, so a target's policy never sees it; list it in [policy], or in the policy of the [[sources]] whose files it is about", e)
			}
		}
	}
}

func (d *decoder) checkPolicy(key string, p *diag.Policy) {
	if p == nil {
		return
	}
	for _, e := range p.Check() {
		if e.Unknown {
			d.errorAt("manifest.unknown-code", key+"."+e.List, "unknown code or category %q (categories: %s; docs/diagnostics.md lists every code)%s", e.Entry, strings.Join(diag.Categories(), ", "), suggest.Hint(e.Entry, diag.Names()))
		} else {
			d.errorAt("manifest.invalid", key+"."+e.List, "%q is also listed in %s", e.Entry, e.Also)
		}
	}
}
