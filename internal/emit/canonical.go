package emit

import (
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/profile"
)

// Canonical writes toolc's own canonical bundle: {"toolc": "canonical",
// "version": 1, "catalog": {name, version}, "tools": [...]}, each tool in
// its canonical JSON form (canonical.Tool.ToValue), lossless: every field
// of every tool is kept, format-specific ones under "extensions", so the
// bundle reads back as the same catalog.
func Canonical(low *profile.Lowered, opts profile.Options) *canonical.Value {
	b := canonical.NewObject()
	b.Set("toolc", canonical.NewString(bundle.Marker))
	b.Set("version", canonical.NewNumber("1"))
	if cat := catalogValue(opts.Catalog); cat != nil {
		b.Set("catalog", cat)
	}
	list := canonical.NewArray()
	for _, t := range low.Tools {
		list.SetItems(append(list.Items(), t.ToValue()))
	}
	b.Set("tools", list)
	return b
}

// catalogValue is {name, version} of a catalog, or nil when both are empty.
func catalogValue(c profile.Catalog) *canonical.Value {
	if c.Name == "" && c.Version == "" {
		return nil
	}
	o := canonical.NewObject()
	if c.Name != "" {
		o.Set("name", canonical.NewString(c.Name))
	}
	if c.Version != "" {
		o.Set("version", canonical.NewString(c.Version))
	}
	return o
}
