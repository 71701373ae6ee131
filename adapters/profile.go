package adapters

import (
	"maps"
	"regexp"
	"slices"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Profile is what one target accepts, as data: the one table that both the
// loss report and the lowering read, so the two cannot drift apart. Each row
// cites where the fact comes from.
type Profile struct {
	Format string
	// Name is the rule for tool names.
	Name NameRule
	// Carries lists the optional canonical tool fields that the target's tool
	// format has a place for; every other field that a tool sets is dropped
	// and reported with its field's loss code.
	Carries []string
	// Options lists the target options (toolc.toml keys besides name,
	// format, out and policy) that the format takes.
	Options []string
	// Source cites the facts.
	Source string
}

// NameRule is a target's rule for tool names.
type NameRule struct {
	Pattern string // a regular expression that a whole name must match
	re      *regexp.Regexp
	Source  string
}

// Match reports whether name is legal.
func (r *NameRule) Match(name string) bool {
	re := r.re
	if re == nil { // a rule built outside the table; compiled per call
		re = regexp.MustCompile(r.Pattern)
	}
	return re.MatchString(name)
}

func init() {
	for _, p := range profiles {
		p.Name.re = regexp.MustCompile(p.Name.Pattern)
	}
}

// toolField is one optional canonical tool field that a target may not carry.
type toolField struct {
	name  string // member of the canonical JSON form
	label string // what it is called in messages
	code  string // the loss code when dropped
	has   func(*canonical.Tool) bool
	clear func(*canonical.Tool)
}

// toolFields is the table of droppable tool fields. Name, description and the
// input schema are carried by every target.
var toolFields = []toolField{
	{"title", "title", "loss.title", func(t *canonical.Tool) bool { return t.Title != "" }, func(t *canonical.Tool) { t.Title = "" }},
	{"version", "version", "loss.metadata", func(t *canonical.Tool) bool { return t.Version != "" }, func(t *canonical.Tool) { t.Version = "" }},
	{"category", "category", "loss.metadata", func(t *canonical.Tool) bool { return t.Category != "" }, func(t *canonical.Tool) { t.Category = "" }},
	{"output", "output schema", "loss.output-schema", func(t *canonical.Tool) bool { return t.Output != nil }, func(t *canonical.Tool) { t.Output = nil }},
	{"annotations", "annotations", "loss.annotations", func(t *canonical.Tool) bool { return t.Annotations != nil }, func(t *canonical.Tool) { t.Annotations = nil }},
	{"examples", "input examples", "loss.examples", func(t *canonical.Tool) bool { return len(t.Examples) > 0 }, func(t *canonical.Tool) { t.Examples = nil }},
	{"timeout", "timeout", "loss.metadata", func(t *canonical.Tool) bool { return t.Timeout != 0 }, func(t *canonical.Tool) { t.Timeout = 0 }},
	{"scopes", "scopes", "loss.metadata", func(t *canonical.Tool) bool { return len(t.Scopes) > 0 }, func(t *canonical.Tool) { t.Scopes = nil }},
	{"icons", "icons", "loss.icons", func(t *canonical.Tool) bool { return len(t.Icons) > 0 }, func(t *canonical.Tool) { t.Icons = nil }},
	{"meta", "_meta", "loss.meta", func(t *canonical.Tool) bool { return t.Meta != nil }, func(t *canonical.Tool) { t.Meta = nil }},
}

// profiles holds the profile of every target format, from PROVIDERS.md.
var profiles = map[string]*Profile{
	"mcp": {
		Format:  "mcp",
		Name:    NameRule{Pattern: `^[A-Za-z0-9_.-]{1,128}$`, Source: "MCP specification 2025-11-25, Tool names (SHOULD)"},
		Carries: []string{"title", "output", "annotations", "icons", "meta"},
		Source:  "MCP specification 2025-11-25, schema.json Tool",
	},
	"openai": {
		Format:  "openai",
		Name:    NameRule{Pattern: `^[a-zA-Z0-9_-]{1,64}$`, Source: "OpenAI API reference, FunctionDefinition.name"},
		Carries: nil,
		Options: []string{"strict"},
		Source:  "OpenAI API reference, ChatCompletionTool / FunctionDefinition",
	},
	"anthropic": {
		Format:  "anthropic",
		Name:    NameRule{Pattern: `^[a-zA-Z0-9_-]{1,64}$`, Source: "Anthropic API reference, Tool.name (newer docs allow 128; toolc emits at most 64)"},
		Carries: []string{"examples"},
		Options: []string{"strict"},
		Source:  "Anthropic API reference, Messages Tool (input_examples)",
	},
}

// ProfileOf returns the built-in profile of a target format.
func ProfileOf(format string) (*Profile, bool) {
	p, ok := profiles[format]
	return p, ok
}

// EmittedName maps a tool ID to the name a target gets: the name, prefixed
// with "namespace__" when the tool has a namespace (':' is legal in no
// target's names but Gemini's).
func EmittedName(t *canonical.Tool) string {
	if t.Namespace == "" {
		return t.Name
	}
	return t.Namespace + "__" + t.Name
}

// Lower prepares tools for the profile's target, named target in
// diagnostics: each tool is copied (the input is never modified), given its
// emitted name, checked against the name rule, and stripped of the fields and
// foreign extensions the target cannot carry, each drop reported at the
// field's location. Names maps every tool ID to its emitted name. Two tools
// on one name are a name.collision error.
func (p *Profile) Lower(tools []*canonical.Tool, target string) (lowered []*canonical.Tool, names map[string]string, ds []diag.Diagnostic) {
	names = make(map[string]string, len(tools))
	byName := make(map[string]*canonical.Tool, len(tools))
	for _, t := range tools {
		at := func(code string, field canonical.Pointer, format string, args ...any) {
			d := diag.New(code, format, args...).At(t.Source.File, string(t.Source.Locate(field)))
			d.Target = target
			ds = append(ds, d)
		}
		name := EmittedName(t)
		names[t.ID()] = name
		if !p.Name.Match(name) {
			at("name.invalid", "/name", "tool %s: name %q is not legal for %s (want %s)", t.ID(), name, p.Format, p.Name.Pattern)
		}
		if prev, ok := byName[name]; ok {
			at("name.collision", "/name", "tools %s (%s) and %s (%s) both map to the name %q in %s",
				prev.ID(), prev.Source.String(), t.ID(), t.Source.String(), name, target)
		} else {
			byName[name] = t
		}
		// A shallow copy: only top-level fields change here, and encoders do
		// not modify schemas. A pass that rewrites a schema copies it first.
		c := *t
		c.Extensions = maps.Clone(t.Extensions)
		c.Namespace, c.Name = "", name
		for _, f := range toolFields {
			if f.has(&c) && !slices.Contains(p.Carries, f.name) {
				at(f.code, canonical.Pointer("").Append(f.name), "tool %s: %s cannot carry its %s; dropped", t.ID(), p.Format, f.label)
				f.clear(&c)
			}
		}
		for _, format := range slices.Sorted(maps.Keys(c.Extensions)) {
			if format == p.Format {
				continue
			}
			for _, m := range c.Extensions[format].Members {
				at("loss.extension", canonical.Pointer("").Append("extensions", format, m.Key),
					"tool %s: the %s field %q has no place in %s; dropped", t.ID(), format, m.Key, p.Format)
			}
			delete(c.Extensions, format)
		}
		lowered = append(lowered, &c)
	}
	return lowered, names, ds
}
