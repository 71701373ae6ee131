package manifest

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// The names a transform gives: a tool's, as a source's namespace (its
// name then makes the ID), and a property's, as providers take keys.
var (
	nameRE     = regexp.MustCompile(NamespacePattern)
	propertyRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
)

// Transform is [sources.transforms."GLOB"]: what the manifest changes of
// the source's tools whose ID the glob matches, whatever the source says
// (a pinned server's file is rewritten by the next toolc capture; the
// manifest's transforms are not).
type Transform struct {
	Name              *string                      `toml:"name,omitempty" doc:"the tool's new name (its ID becomes namespace:name); calls are turned back to the source's name"`
	Title             *string                      `toml:"title,omitempty" doc:"the tool's display name"`
	Description       *string                      `toml:"description,omitempty" doc:"the tool's description, in the place of the source's"`
	AppendDescription *string                      `toml:"append_description,omitempty" doc:"added after the source's description, on a line of its own"`
	Tags              []string                     `toml:"tags,omitempty" doc:"added to the tool's tags"`
	Deprecated        *bool                        `toml:"deprecated,omitempty" doc:"mark the tool deprecated"`
	Sunset            *string                      `toml:"sunset,omitempty" doc:"the date (YYYY-MM-DD) after which removing the deprecated tool is a minor change"`
	Stability         *string                      `toml:"stability,omitempty" enum:"draft,alpha,beta,stable" doc:"how far the tool's schema may still move"`
	Annotations       map[string]bool              `toml:"annotations,omitempty" doc:"MCP hints over the source's: readOnlyHint, destructiveHint, idempotentHint, openWorldHint"`
	Arguments         map[string]ArgumentTransform `toml:"arguments,omitempty" doc:"per input property, by its name at the source"`
}

// ArgumentTransform is what a transform changes of one input property,
// named as the source names it. It only narrows: a value the transformed
// schema takes, the source's takes too.
type ArgumentTransform struct {
	Rename      string   `toml:"rename,omitempty" doc:"the property's name in the catalog; calls are turned back to the source's"`
	Description *string  `toml:"description,omitempty" doc:"the property's description"`
	Hide        bool     `toml:"hide,omitempty" doc:"the model never sees the property: every call sends value"`
	Value       any      `toml:"value,omitempty" doc:"with hide: what every call sends, which the source's schema must take"`
	Default     any      `toml:"default,omitempty" doc:"what a call that leaves the property out sends (and the schema's default)"`
	Enum        []any    `toml:"enum,omitempty" doc:"the values the property takes: a subset of the source's enum, or values of its type"`
	Minimum     *float64 `toml:"minimum,omitempty" doc:"a lower bound, at least the source's"`
	Maximum     *float64 `toml:"maximum,omitempty" doc:"an upper bound, at most the source's"`
	MinLength   *int     `toml:"min_length,omitempty" doc:"a shortest length, at least the source's"`
	MaxLength   *int     `toml:"max_length,omitempty" doc:"a longest length, at most the source's"`
	MinItems    *int     `toml:"min_items,omitempty" doc:"the fewest items, at least the source's"`
	MaxItems    *int     `toml:"max_items,omitempty" doc:"the most items, at most the source's"`
}

// checkTransforms checks what a transform's keys can say alone: the glob,
// the stability and annotations, a hidden property's value.
func (d *decoder) checkTransforms(m *Manifest) {
	for i, src := range m.Sources {
		for _, g := range slices.Sorted(maps.Keys(src.Transforms)) {
			tr := src.Transforms[g]
			key := fmt.Sprintf("sources[%d].transforms.%s", i, quotePart(g))
			d.checkGlob(fmt.Sprintf("sources[%d].transforms", i), g)
			for _, a := range slices.Sorted(maps.Keys(tr.Annotations)) {
				if !slices.Contains(canonical.Hints, a) {
					d.errorAt("manifest.invalid", key+".annotations."+quotePart(a), "annotations.%s is no MCP hint (%s)", a, strings.Join(canonical.Hints, ", "))
				}
			}
			if tr.Description != nil && tr.AppendDescription != nil {
				d.errorAt("manifest.invalid", key+".append_description", "description replaces the source's and append_description adds to it: keep one")
			}
			if tr.Name != nil && !nameRE.MatchString(*tr.Name) {
				d.errorAt("manifest.invalid", key+".name", "name %q must start with a letter or digit and hold only letters, digits, '_', '.' and '-'", *tr.Name)
			}
			for _, arg := range slices.Sorted(maps.Keys(tr.Arguments)) {
				at := tr.Arguments[arg]
				akey := key + ".arguments." + quotePart(arg)
				switch {
				case at.Hide && at.Value == nil:
					d.errorAt("manifest.invalid", akey+".hide", "hide = true needs value = …: what every call sends in the model's place")
				case !at.Hide && at.Value != nil:
					d.errorAt("manifest.invalid", akey+".value", "value = … is what a hidden property sends: add hide = true, or use default")
				case at.Hide && (at.Rename != "" || at.Enum != nil || at.Description != nil):
					d.errorAt("manifest.invalid", akey+".hide", "a hidden property is not in the catalog: rename, description and enum have nothing to change")
				}
				if at.Rename != "" && !propertyRE.MatchString(at.Rename) {
					d.errorAt("manifest.invalid", akey+".rename", "rename = %q: a property name of letters, digits, '_', '.' and '-', at most 64", at.Rename)
				}
			}
		}
	}
}
