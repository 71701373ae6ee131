package profile

import (
	"fmt"
	"slices"
	"sync"

	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/option"
)

// Options are the target options that shape a bundle: what the lowering
// reads, set by the target's FormatOptions (Apply), and the format's own
// options for its writer.
type Options struct {
	// Strict, when set, lowers every tool for strict mode (or for none) in
	// formats that have one, and writes the tool's "strict" flag; when nil,
	// each tool keeps the strict flag of its source, if the source was of a
	// format the target writes back, and is lowered accordingly.
	Strict *bool
	// Dialect names the server that speaks the format, where servers
	// differ (Dialects); "" is the provider itself.
	Dialect string
	// Auto, with Strict true, makes each tool strict only where strict
	// mode can express it without narrowing what it accepts (a free-form
	// object, an untyped value, a recursion the target refuses); the others
	// are emitted non-strict, each with a lower.strict-fallback saying why.
	Auto bool
	// Schema is the schema mode of formats that have several: "" (or
	// "json-schema") or "openapi" for Gemini.
	Schema string
	// Vertex says a Gemini bundle goes to Vertex AI, whose acceptance
	// table it is checked against.
	Vertex bool
	// Loading is what the manifest decides of when each tool loads and
	// who may call it; nil when it decides nothing.
	Loading *Loading
	// DeferBudget is the target's budget for tools with defer = "auto".
	DeferBudget *Budget
	// Search is the search tool the target adds where it defers tools,
	// when its option names one ("" for the format's).
	Search string
	// CodeExecution is the code execution tool that "code" callers name
	// (Anthropic's allowed_callers).
	CodeExecution string
	// Names is the template of emitted names (default DefaultNames).
	Names string
	// Describe moves constraints that lowering drops into the description
	// of their schema.
	Describe bool
	// Limits are the budgets the target's limits table sets, by name: the
	// build counts tokens for "tokens" and "tool-tokens".
	Limits map[string]int
	// Catalog names the catalog in formats that have room for it (MCP
	// _meta, canonical, jsonschema); empty fields are left out.
	Catalog Catalog
	// Clients names the MCP clients an MCP bundle is made for ("vscode",
	// "claude-desktop", "cursor", "windsurf"): their rules are lowered for
	// and checked; the others' refusals are advice.
	Clients []string
	// Protocol is the MCP revision an MCP bundle is for (Protocols); ""
	// is the newest.
	Protocol string
	// Format holds the target's options as its format declares them, for
	// the format's writer: a release target's tables, say.
	Format FormatOptions
	// Publish is where a release target's tables are, for its diagnostics.
	Publish Publish
	// Files are the SHA-256s (64 hex digits) of the files the target's
	// options name (FileReader), by path, of those that exist.
	Files map[string]string
	// Unchecked holds the IDs of tools that the acceptance check skips:
	// tools whose own schemas are in error, which fail the build already.
	Unchecked map[string]bool
	// Memo, when set, lowers each schema once for every target of a build
	// under the same rules (Fingerprints), which then share it.
	Memo *lower.Memo
	// Shared, when set, is what the targets of one build make once for all
	// of them (the typed targets' model of the catalog).
	Shared *Shared
}

// Shared holds what the targets of one build make once for all of them:
// each value by its key, made by whichever target asks first while the
// others wait. Safe for concurrent use; a nil Shared makes every value
// anew.
type Shared struct{ values sync.Map } // key → *sharedValue

type sharedValue struct {
	once sync.Once
	v    any
}

// Once returns the value of key, made by make when it is first asked for.
func (s *Shared) Once(key any, make func() any) any {
	if s == nil {
		return make()
	}
	e, _ := s.values.LoadOrStore(key, &sharedValue{})
	sv := e.(*sharedValue)
	sv.once.Do(func() { sv.v = make() })
	return sv.v
}

// Catalog identifies a catalog in a bundle.
type Catalog struct {
	Name, Version string
}

// FormatOptions are a target's options as its format declares them: a
// pointer to a struct whose fields' toml tags are the keys the target's
// table takes (package option reads the declaration). The manifest decodes
// a target's table into a new one, strictly.
type FormatOptions interface {
	// Apply sets in o what the options say of the lowering.
	Apply(o *Options)
	// Check judges the options against the format's profile p, and returns
	// the profile the target lowers with (p with the target's overrides),
	// or what is wrong, each at its key in the target's table.
	Check(p *Profile) (*Profile, []option.Problem)
}

// FileReader is a target's options that name files the target reads
// besides the catalog: a server-json target's .mcpb package, whose hash the
// registry entry gives. The build hashes each, lists it among its inputs
// and records it in the lock, and gives the target the hashes (Files).
type FileReader interface {
	// ReadFiles are the paths, relative to the manifest's folder.
	ReadFiles() []string
}

// FormatOf returns the options of opts' target as the type T its format
// declares, or a new T (the defaults) when the target has none.
func FormatOf[T any](opts Options) *T {
	if t, ok := any(opts.Format).(*T); ok && t != nil {
		return t
	}
	return new(T)
}

// Naming is the option of every target that names tools: the template of
// emitted names. It is the whole of a release format's options that take
// no other.
type Naming struct {
	Names string `toml:"names" pattern:"\\{name\\}" doc:"the template of emitted names, over {namespace} and {name}; {namespace}__{name} by default (the format's own default where it has one)"`
}

// Apply sets the name template.
func (n Naming) Apply(o *Options) { o.Names = n.Names }

// Check checks the name template.
func (n Naming) Check(p *Profile) (*Profile, []option.Problem) {
	if n.Names == "" {
		return p, nil
	}
	if err := CheckNames(n.Names); err != nil {
		return p, []option.Problem{option.Problemf("names", "%v", err)}
	}
	return p, nil
}

// Lowering are the options of every target that lowers schemas for a
// provider: names, and the rows and budgets of its profile.
type Lowering struct {
	Naming
	Deferral
	Describe bool    `toml:"describe" doc:"move the constraints that lowering drops into the descriptions of their schemas"`
	Profile  Rows    `toml:"profile" doc:"override rows of the target's profile (providers change): feature = action, or the list of values kept"`
	Limits   Budgets `toml:"limits" doc:"override the target's budgets by name; tokens and tool-tokens set token budgets"`
}

// Apply sets the lowering's options.
func (l Lowering) Apply(o *Options) {
	l.Naming.Apply(o)
	l.Deferral.Apply(o)
	o.Describe, o.Limits = l.Describe, l.Limits
}

// Check checks the names and makes p's copy with the rows and budgets.
func (l Lowering) Check(p *Profile) (*Profile, []option.Problem) {
	if _, ps := l.Naming.Check(p); ps != nil {
		return p, ps
	}
	if ps := l.Deferral.Check(); ps != nil {
		return p, ps
	}
	if l.Profile == nil && l.Limits == nil {
		return p, nil
	}
	over, err := p.Override(l.Profile, l.Limits)
	if err != nil {
		return p, []option.Problem{option.Problemf("profile", "%v", err)}
	}
	return over, nil
}

// Rows are a profile table's overrides: feature → action, or the list of
// values "only" accepts.
type Rows map[string]any

// OptionSchema lists the features and their actions.
func (Rows) OptionSchema() option.Object {
	var features option.Object
	for _, f := range lower.Features() {
		var actions []string
		for _, a := range f.Actions {
			actions = append(actions, string(a))
		}
		features = append(features, option.Member{Key: f.Name, Value: option.Object{
			{Key: "description", Value: f.Doc},
			{Key: "anyOf", Value: []any{
				option.Object{{Key: "enum", Value: actions}},
				option.Object{{Key: "type", Value: "array"}, {Key: "items", Value: option.Object{{Key: "type", Value: []string{"string", "number", "boolean"}}}}, {Key: "description", Value: "only these values are kept"}},
			}},
		}})
	}
	return option.Object{{Key: "type", Value: "object"}, {Key: "additionalProperties", Value: false}, {Key: "properties", Value: features}}
}

// TypeWord says what a profile table holds.
func (Rows) TypeWord() string { return "a table: feature = action or [values]" }

// Budgets are a limits table: budget name → its number.
type Budgets map[string]int

// OptionSchema lists the budgets.
func (Budgets) OptionSchema() option.Object {
	var names []string
	for _, l := range lower.LimitChecks() {
		names = append(names, l.Name)
	}
	slices.Sort(names)
	var props option.Object
	for _, n := range slices.Compact(names) {
		props = append(props, option.Member{Key: n, Value: option.Object{{Key: "type", Value: "integer"}, {Key: "minimum", Value: 0}}})
	}
	return option.Object{{Key: "type", Value: "object"}, {Key: "additionalProperties", Value: false}, {Key: "properties", Value: props}}
}

// TypeWord says what a limits table holds.
func (Budgets) TypeWord() string { return "a table: budget = integer" }

// Strictness is the option of the formats with a strict mode.
type Strictness struct {
	Strict *Strict `toml:"strict" doc:"strict mode: closed objects, typed schemas, OpenAI's optional properties made nullable; \"auto\": per tool, strict only where that narrows nothing; unset, each tool keeps its source's flag"`
}

// Apply sets strict mode.
func (s Strictness) Apply(o *Options) {
	if s.Strict != nil {
		on := s.Strict.On
		o.Strict, o.Auto = &on, s.Strict.Auto
	}
}

// Strict is a target's strict option: strict = true, false or "auto".
type Strict struct {
	On   bool // true or "auto": the strict transform, "strict": true where it applies
	Auto bool // "auto": per tool, strict only where it narrows nothing
}

// UnmarshalTOML reads true, false or "auto".
func (s *Strict) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		*s = Strict{On: x}
		return nil
	case string:
		if x == "auto" {
			*s = Strict{On: true, Auto: true}
			return nil
		}
		return fmt.Errorf("want true, false or \"auto\", not %q", x)
	}
	return fmt.Errorf("want true, false or \"auto\", not %s", option.WordOf(v))
}

// OptionSchema is true, false or "auto".
func (Strict) OptionSchema() option.Object {
	return option.Object{{Key: "anyOf", Value: []any{option.Object{{Key: "type", Value: "boolean"}}, option.Object{{Key: "const", Value: "auto"}}}}}
}

// TypeWord says what strict takes.
func (Strict) TypeWord() string { return `true, false or "auto"` }

// DialectName is the name of an OpenAI-format dialect.
type DialectName string

// Values are the dialects of the openai format.
func (DialectName) Values() []string {
	var names []string
	for _, d := range dialects["openai"] {
		names = append(names, d.Name)
	}
	return names
}

// ClientName is the name of an MCP client whose rules a bundle meets.
type ClientName string

// Values are the MCP clients profile knows.
func (ClientName) Values() []string { return Clients() }

// Revision is an MCP protocol revision.
type Revision string

// Values are the revisions profile knows.
func (Revision) Values() []string { return Protocols() }
