package adapters

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// The typed targets: the catalog's tools as TypeScript, Go and Python
// types, from the canonical tools (what a handler receives once toolcall
// has turned a call back), named as the MCP target names them.

// typed is one typed target's writing: the model, and its diagnostics.
func typed(sources []*canonical.Tool, tools []*canonical.Tool, opts profile.Options, goLosses bool) (*typegen.Model, []diag.Diagnostic) {
	names := map[string]string{}
	for i, t := range sources {
		names[t.ID()] = tools[i].ID()
	}
	m := typegen.Build(sources, names, opts.Publish.Types)
	var ds []diag.Diagnostic
	losses := m.Losses
	if goLosses {
		losses = append(losses, m.GoLosses...)
	}
	for _, l := range losses {
		ds = append(ds, diag.New(l.Code, "%s", l.Message).At(l.Tool.Source.Place(l.At)).About(l.Tool.ID()))
	}
	for _, c := range m.Collisions {
		d := diag.New("name.type-collision", "tools %s and %s both make the type name %s", c[0].ID(), c[1].ID(), typegen.Pascal(c[1].ID())).At(c[1].Source.Place("/name")).About(c[1].ID())
		ds = append(ds, d.WithFix(fmt.Sprintf(`name one on the target: types = { %q = "%sV2" }`, c[1].ID(), typegen.Pascal(c[1].ID()))))
	}
	return m, ds
}

func header(opts profile.Options) string {
	return strings.TrimSpace(fmt.Sprintf("The types of %s %s", cmp.Or(opts.Catalog.Name, "the catalog"), opts.Catalog.Version))
}

func publishTypeScript(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, false)
	return canonical.NewString(m.TypeScript(header(opts))), ds
}

func publishGo(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, true)
	return canonical.NewString(string(m.Go(header(opts), cmp.Or(opts.Publish.Package, "tools"), opts.Publish.Runtime))), ds
}

func publishPython(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, false)
	return canonical.NewString(m.Python(header(opts))), ds
}

// TypeScript returns the adapter of the TypeScript declarations.
func TypeScript() *Adapter { return releaseAdapter("typescript", publishTypeScript) }

// GoTypes returns the adapter of the Go types.
func GoTypes() *Adapter { return releaseAdapter("go", publishGo) }

// Python returns the adapter of the Python TypedDicts.
func Python() *Adapter { return releaseAdapter("python", publishPython) }
