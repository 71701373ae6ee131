package manifest

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/option"
)

// Load says when tools load into a model's context and who may call them,
// at one level: the catalog ([load]), a source (load = { … } on it), a tag
// ([load.tags.NAME]) or tools ([load.tools."GLOB"]). A key a level does
// not set is the level above's.
type Load struct {
	// Defer is true (loaded only when a search finds the tool), false
	// (always in the request) or "auto" (loaded while the target's
	// defer_budget lasts); false by default.
	Defer Defer `toml:"defer,omitempty" doc:"true: loaded only when the model's tool search finds it; false: always sent; \"auto\": sent while the target's defer_budget lasts" default:"false"`
	// AlwaysLoad keeps a tool loaded whatever the budget.
	AlwaysLoad *bool `toml:"always_load,omitempty" doc:"never deferred, whatever the budget"`
	// Priority orders the tools defer = "auto" keeps: higher first.
	Priority *int `toml:"priority,omitempty" doc:"defer = \"auto\" keeps tools of higher priority first" default:"0"`
	// Namespace groups tools for targets that take groups (OpenAI
	// Responses' namespace tools): a name, "{namespace}" for each tool's
	// own namespace, or "" for none.
	Namespace *string `toml:"namespace,omitempty" doc:"the group the tool is sent in where a target takes groups (OpenAI Responses namespaces): a name, \"{namespace}\" for the tool's namespace, \"\" for none"`
	// Callers are who may call the tool: the model directly, code the
	// model runs (programmatic calling), or both.
	Callers []string `toml:"callers,omitempty" enum:"direct,code" doc:"who may call the tool: the model (direct), code the model runs (code)" default:"[\"direct\"]"`
}

// Loading is [load]: the catalog's level, the tables by tag and by tool,
// and what each namespace group says of itself.
type Loading struct {
	Load
	Tags       map[string]Load           `toml:"tags,omitempty"`
	Tools      map[string]Load           `toml:"tools,omitempty"`
	Namespaces map[string]NamespaceGroup `toml:"namespaces,omitempty"`
}

// NamespaceGroup is [load.namespaces.NAME]: what the model reads of a
// group before it loads its tools.
type NamespaceGroup struct {
	Description string `toml:"description" doc:"what the group's tools do, as the model reads it before it loads them"`
}

// Defer is a level's defer: "true", "false", "auto", or "" when the level
// does not say.
type Defer string

// UnmarshalTOML takes true, false or "auto".
func (d *Defer) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		*d = Defer(strconv.FormatBool(x))
	case string:
		if x != "auto" {
			return fmt.Errorf("defer = %q: want true, false or \"auto\"", x)
		}
		*d = "auto"
	default:
		return fmt.Errorf("want true, false or \"auto\", not %s", option.WordOf(v))
	}
	return nil
}

// MarshalTOML writes true and false as booleans, "auto" as a string.
func (d Defer) MarshalTOML() ([]byte, error) {
	if d == "auto" {
		return []byte(`"auto"`), nil
	}
	return []byte(cmp.Or(string(d), "false")), nil
}

// GroupPattern is what a namespace group's name matches: OpenAI's
// function name pattern, which a namespace tool's name follows.
const GroupPattern = `^[a-zA-Z0-9_-]{1,64}$`

var groupRE = regexp.MustCompile(GroupPattern)

// NamespaceTemplate is the namespace group that stands for each tool's own
// namespace.
const NamespaceTemplate = "{namespace}"

// over returns below with what l sets over it: each key l has.
func (l Load) over(below Load) Load {
	if l.Defer != "" {
		below.Defer = l.Defer
	}
	if l.AlwaysLoad != nil {
		below.AlwaysLoad = l.AlwaysLoad
	}
	if l.Priority != nil {
		below.Priority = l.Priority
	}
	if l.Namespace != nil {
		below.Namespace = l.Namespace
	}
	if l.Callers != nil {
		below.Callers = l.Callers
	}
	return below
}

// Empty reports whether l sets nothing.
func (l Load) Empty() bool {
	return l.Defer == "" && l.AlwaysLoad == nil && l.Priority == nil && l.Namespace == nil && l.Callers == nil
}

// LoadOf returns what the manifest decides of the loading of tool t from
// the source at index source: the catalog's level, the source's, each of
// the tool's tags in its order, then each table of [load.tools] whose glob
// matches its ID, in sorted order, an exact ID last.
func (m *Manifest) LoadOf(t *canonical.Tool, source int) Load {
	var l Load
	if m.Load != nil {
		l = m.Load.Load
	}
	if source >= 0 && source < len(m.Sources) && m.Sources[source].Load != nil {
		l = m.Sources[source].Load.over(l)
	}
	if m.Load == nil {
		return l
	}
	for _, tag := range t.Tags {
		if tl, ok := m.Load.Tags[tag]; ok {
			l = tl.over(l)
		}
	}
	id := t.ID()
	globs := slices.Sorted(maps.Keys(m.Load.Tools))
	for _, exact := range []bool{false, true} {
		for _, g := range globs {
			if (g == id) != exact {
				continue
			}
			if ok, _ := doublestar.Match(g, id); ok {
				l = m.Load.Tools[g].over(l)
			}
		}
	}
	return l
}

// HasLoad reports whether the manifest says anything of loading.
func (m *Manifest) HasLoad() bool {
	if m.Load != nil && (!m.Load.Load.Empty() || len(m.Load.Tags)+len(m.Load.Tools) > 0) {
		return true
	}
	return slices.ContainsFunc(m.Sources, func(s Source) bool { return s.Load != nil && !s.Load.Empty() })
}

// checkLoad checks one level of loading, at key.
func (d *decoder) checkLoad(key string, l *Load) {
	if l == nil {
		return
	}
	if l.Defer == "true" && l.AlwaysLoad != nil && *l.AlwaysLoad {
		d.errorAt("manifest.invalid", key+".always_load", "always_load = true and defer = true contradict each other at one level; keep one")
	}
	if l.Callers != nil && len(l.Callers) == 0 {
		d.errorAt("manifest.invalid", key+".callers", "callers = [] leaves a tool no one may call; list \"direct\", \"code\" or both")
	}
	if n := l.Namespace; n != nil && *n != "" && *n != NamespaceTemplate && !groupRE.MatchString(*n) {
		d.errorAt("manifest.invalid", key+".namespace", "namespace %q must be \"{namespace}\", \"\", or a name of at most 64 letters, digits, '_' and '-' (OpenAI names a namespace as a function)", *n)
	}
}

// checkLoading checks [load] and each source's load.
func (d *decoder) checkLoading(m *Manifest) {
	for i := range m.Sources {
		d.checkLoad(fmt.Sprintf("sources[%d].load", i), m.Sources[i].Load)
	}
	if m.Load == nil {
		return
	}
	d.checkLoad("load", &m.Load.Load)
	for _, tag := range slices.Sorted(maps.Keys(m.Load.Tags)) {
		l := m.Load.Tags[tag]
		d.checkLoad("load.tags."+quotePart(tag), &l)
	}
	for _, g := range slices.Sorted(maps.Keys(m.Load.Tools)) {
		l := m.Load.Tools[g]
		d.checkGlob("load.tools", g)
		d.checkLoad("load.tools."+quotePart(g), &l)
	}
	for _, n := range slices.Sorted(maps.Keys(m.Load.Namespaces)) {
		if !groupRE.MatchString(n) {
			d.errorAt("manifest.invalid", "load.namespaces."+quotePart(n), "namespace group %q must be a name of at most 64 letters, digits, '_' and '-' (OpenAI names a namespace as a function)", n)
		}
		if m.Load.Namespaces[n].Description == "" {
			d.errorAt("manifest.invalid", "load.namespaces."+quotePart(n), "a namespace group needs description = \"…\": the model reads it to decide whether to load the group's tools")
		}
	}
}
