// Package profile holds what each target of toolc accepts, as data: one
// Profile per target format (its name rule, the schema rules of each mode,
// the fields it carries, its options), the dialects of servers that speak a
// format with their evidence, and the lowering of a whole catalog for one
// target (names, dropped fields, schemas through package lower), whose
// result package accept then checks against its own, separate tables.
//
// It is not a format: reading tool files belongs to package formats,
// writing them to packages emit, publish and typegen; package targets gives
// each format it writes the profile of this package.
package profile

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/accept"
	"github.com/toolc-dev/toolc/internal/lower"
)

// Profile is what one target accepts, as data: the one table that both the
// loss report and the lowering read, so the two cannot drift apart. Each row
// cites where the fact comes from.
type Profile struct {
	Format string
	// Name is the rule for tool names.
	Name NameRule
	// Names is the default name template; DefaultNames when empty. Only a
	// target whose names take ':' keeps the ID's own form.
	Names string
	// Carries lists the optional canonical tool fields that the target's tool
	// format has a place for; every other field that a tool sets is dropped
	// and reported with its field's loss code.
	Carries []string
	// HasStrict reports whether the format has a strict mode and writes
	// each tool's strict flag; HasClients whether its bundle is what MCP
	// clients read, whose rules and protocol revisions apply.
	HasStrict, HasClients bool
	// Defers says the format can leave a tool out of a request until a
	// search finds it (Anthropic's and OpenAI Responses' defer_loading;
	// MCP carries the decision in _meta for the harness); Callers that it
	// says who may call a tool (allowed_callers); Groups that it sends
	// tools in named groups (Responses' namespaces). Search is the search
	// tool it adds where it defers a tool.
	Defers, Callers, Groups bool
	Search                  string
	// Extensions names the formats whose format-specific fields the target
	// writes back; every other format's are dropped and reported. "*" keeps
	// them all.
	Extensions []string
	// APIFields, when set, are the only fields of those formats the
	// target writes back: the fields its provider's API (its SDK's request
	// type) has beside those toolc writes itself. A field of a source's
	// that the API has not (BFCL's "response" in an OpenAI function) is
	// dropped and reported, as the API refuses a request with it.
	APIFields []string
	// Schema holds the schema rules per mode: "" by default, "strict" for
	// strict = true, "openapi" for Gemini's schema = "openapi".
	Schema map[string]*lower.Rules
	// Acceptance names, per mode, the table of package accept that checks what
	// the target emits: kept apart from Schema on purpose, so that a wrong
	// fact in one is caught by the other.
	Acceptance map[string]string
	// Source cites the facts.
	Source string

	// accepted are the keywords a manifest's profile override keeps, and
	// limits its limits: the acceptance check takes the manifest's word.
	accepted []string
	skip     []accept.Kind
	limits   map[string]int
	// overridden are the features a manifest's profile override set,
	// which a dialect's rows leave alone.
	overridden []string
}

// Of returns the built-in profile of a target format.
func Of(format string) (*Profile, bool) {
	p, ok := profiles[format]
	return p, ok
}

// Override returns a copy of p whose schema rules have the rows and limits
// of a manifest's profile and limits tables in every mode: features maps a
// feature to an action ("keep", "drop" …) or to the list of values that
// "only" accepts.
func (p *Profile) Override(features map[string]any, limits map[string]int) (*Profile, error) {
	c := *p
	c.Schema = map[string]*lower.Rules{}
	for _, mode := range slices.Sorted(maps.Keys(p.Schema)) { // the first error is the same on every run
		r := p.Schema[mode].Clone()
		for _, f := range slices.Sorted(maps.Keys(features)) {
			var err error
			switch v := features[f].(type) {
			case string:
				err = r.Set(f, lower.Action(v), nil, "toolc.toml")
			case []any:
				var vals []string
				for _, x := range v {
					vals = append(vals, fmt.Sprint(x))
				}
				err = r.Set(f, lower.Only, vals, "toolc.toml")
			default:
				err = fmt.Errorf("feature %q: want an action or a list of accepted values, not %T", f, v)
			}
			if err != nil {
				return nil, err
			}
		}
		for _, l := range slices.Sorted(maps.Keys(limits)) {
			if err := r.SetLimit(l, limits[l], "toolc.toml"); err != nil {
				return nil, err
			}
		}
		c.Schema[mode] = r
	}
	c.accepted = slices.Clone(p.accepted)
	for _, f := range slices.Sorted(maps.Keys(features)) {
		if a, ok := features[f].(string); ok && lower.Action(a) != lower.Keep {
			continue
		}
		if row, ok := lower.FeatureNamed(f); ok {
			c.accepted = append(c.accepted, row.Keywords...)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(features)) {
		c.skip = append(c.skip, overrideKinds[f]...)
		if f == "$ref" {
			c.accepted = append(c.accepted, "$defs", "definitions")
		}
	}
	c.limits = maps.Clone(limits)
	c.overridden = append(slices.Clone(p.overridden), slices.Sorted(maps.Keys(features))...)
	return &c, nil
}

// overrideKinds are the acceptance rules that a manifest's override of a
// shape feature speaks for: the manifest's word is taken for them.
var overrideKinds = map[string][]accept.Kind{
	"untyped":              {accept.Typed},
	"items-missing":        {accept.Items},
	"properties-missing":   {accept.Properties},
	"ref-siblings":         {accept.RefSiblings},
	"required-undefined":   {accept.RequiredDefined},
	"root-any-of":          {accept.RootObject, accept.RootKeywords},
	"root-all-of":          {accept.RootKeywords},
	"root-enum":            {accept.RootKeywords},
	"root-not":             {accept.RootKeywords},
	"legacy-forms":         {accept.Draft2020},
	"anyOf":                {accept.AnyOfAlone},
	"additionalProperties": {accept.Closed},
	"optional":             {accept.AllRequired},
	"type":                 {accept.TypeNames},
	"type-array":           {accept.TypeNames},
	"$ref":                 {accept.Acyclic},
}

// Accept checks an encoded bundle against the profile's acceptance table
// for opts' mode; tools are the catalog's tools in bundle order, which name
// and locate each finding.
func (p *Profile) Accept(bundle *canonical.Value, tools []*canonical.Tool, target string, opts Options) []diag.Diagnostic {
	name, ok := p.Acceptance[p.mode(opts)]
	if !ok {
		return nil
	}
	if d, ok := p.dialect(opts); ok && d.Acceptance != "" {
		name = d.Acceptance
	}
	if _, ok := accept.TableNamed(name + "-vertex"); ok && opts.Vertex {
		name += "-vertex"
	}
	t, _ := accept.TableNamed(name)
	if p.objectOutputOnly(opts) {
		t = t.WithOutput(accept.Rule{Kind: accept.OutputObject, Evidence: "MCP " + opts.Protocol + ": outputSchema is an object schema, as structuredContent is a JSON object; the 2026-07-28 revision takes any schema"})
	}
	ao := accept.Options{Accepted: p.accepted, Skip: p.skip, Max: map[accept.Kind]int{}, Unchecked: opts.Unchecked}
	for l, n := range p.limits {
		ao.Max[accept.Kind(l)] = n
	}
	ds := accept.Check(t.ForClients(opts.Clients), bundle, tools, target, ao)
	if p.HasClients {
		ds = append(ds, accept.Advise(t, bundle, tools, target, opts.Clients, ao)...)
	}
	return ds
}

// StrictRequiresAll reports whether the target's strict mode makes every
// property required (OpenAI's does; Anthropic's keeps required as written).
func (p *Profile) StrictRequiresAll() bool {
	r := p.Schema["strict"]
	return r != nil && r.Action("optional") == lower.Require
}

// KeepsRefs reports whether the target carries $ref in the schemas it
// emits with opts (non-strict mode), so that a repeated subtree could be
// one definition.
func (p *Profile) KeepsRefs(opts Options) bool {
	r := p.Schema[p.mode(opts)]
	if r == nil {
		return false
	}
	a := r.Action("$ref")
	return a == lower.Keep || a == lower.Acyclic
}

// mode returns the schema mode that opts select ("" or "openapi").
func (p *Profile) mode(opts Options) string {
	if opts.Schema == "json-schema" {
		return ""
	}
	return opts.Schema
}

// strictOf returns whether t is lowered in strict mode: the target's option
// when set, else the strict flag of t's source if it is of a format the
// target writes back.
func (p *Profile) strictOf(t *canonical.Tool, opts Options) bool {
	if opts.Strict != nil {
		return *opts.Strict
	}
	if d, _ := p.dialect(opts); d.SameStrict {
		return false // one value for every tool: the default
	}
	b, _, _ := p.sourceStrict(t)
	return b
}

// sourceStrict returns the strict flag that t's source gave, and the
// format whose field it is: one the target writes back, or else another
// format with a strict mode (an OpenAI tool's "strict": true, converted to
// Anthropic, asks for Anthropic's strict mode), for a target that has one.
func (p *Profile) sourceStrict(t *canonical.Tool) (strict bool, format string, ok bool) {
	for _, f := range p.extensionFormats() {
		if b, ok := t.Extensions[f].Get("strict").BoolValue(); ok {
			return b, f, true
		}
	}
	if !p.HasStrict {
		return false, "", false
	}
	// The first format in sorted order whose flag it is: found without
	// sorting, as this is asked of every tool several times.
	for f, ext := range t.Extensions {
		if format != "" && f > format {
			continue
		}
		if q, known := profiles[f]; !known || !q.HasStrict {
			continue
		}
		if b, has := ext.Get("strict").BoolValue(); has {
			strict, format = b, f
		}
	}
	return strict, format, format != ""
}

func (p *Profile) extensionFormats() []string {
	if p.Extensions == nil {
		return []string{p.Format}
	}
	return p.Extensions
}

// Formats lists the target formats that have a built-in profile, sorted.
func Formats() []string { return slices.Sorted(maps.Keys(profiles)) }

// LongestName is the most characters any target takes in a tool name
// (MCP's 128): a longer name can be emitted nowhere as it is.
func LongestName() int {
	n := 0
	for _, p := range profiles {
		n = max(n, p.Name.Max)
	}
	return n
}
