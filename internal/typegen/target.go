package typegen

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The typed targets: the catalog's tools as TypeScript, Go and Python
// types, from the canonical tools (what a handler receives once toolcall
// has turned a call back), named as the MCP target names them.

// typed is one typed target's writing: the model, and its diagnostics.
func typed(sources []*canonical.Tool, tools []*canonical.Tool, opts profile.Options, langLosses func(*Model) []Loss) (*Model, []diag.Diagnostic) {
	names := map[string]string{}
	for i, t := range sources {
		names[t.ID()] = tools[i].ID()
	}
	m := Build(sources, names, opts.Publish.Types)
	var ds []diag.Diagnostic
	losses := append(m.Losses, langLosses(m)...)
	for _, l := range losses {
		ds = append(ds, diag.New(l.Code, "%s", l.Message).At(l.Tool.Source.Place(l.At)).About(l.Tool.ID()))
	}
	for _, c := range m.Collisions {
		d := diag.New("name.type-collision", "tools %s and %s both make the type name %s", c[0].ID(), c[1].ID(), Pascal(c[1].ID())).At(c[1].Source.Place("/name")).About(c[1].ID())
		ds = append(ds, d.WithFix(fmt.Sprintf(`name one on the target: types = { %q = "%sV2" }`, c[1].ID(), Pascal(c[1].ID()))))
	}
	return m, ds
}

func header(opts profile.Options) string {
	return strings.TrimSpace(fmt.Sprintf("The types of %s %s", cmp.Or(opts.Catalog.Name, "the catalog"), opts.Catalog.Version))
}

// TypeScriptTarget writes the typescript target: the module of the
// tools' types (Model.TypeScript), with a diagnostic for each loss.
func TypeScriptTarget(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, func(*Model) []Loss { return nil })
	return canonical.NewString(m.TypeScript(header(opts))), ds
}

// GoTarget writes the go target: the package of the tools' types
// (Model.Go), with a diagnostic for each loss; code go/format refuses is a
// publish.code-invalid error naming the tool.
func GoTarget(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, func(m *Model) []Loss { return m.GoLosses })
	src, err := m.Go(header(opts), cmp.Or(opts.Publish.Package, "tools"), opts.Publish.Runtime)
	if err != nil {
		return canonical.NewString(""), append(ds, codeError(err)) // the build fails: nothing is written
	}
	return canonical.NewString(string(src)), ds
}

// codeError is the error of generated code that its formatter refused:
// located at the tool it names.
func codeError(err error) diag.Diagnostic {
	d := diag.New("publish.code-invalid", "%v", err)
	var ce *CodeError
	if errors.As(err, &ce) && ce.Tool != nil {
		d = d.At(ce.Tool.Source.Place("/name")).About(ce.Tool.ID())
	}
	return d
}

// PythonTarget writes the python target: the module of the tools'
// TypedDicts (Model.Python), with a diagnostic for each loss.
func PythonTarget(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	m, ds := typed(sources, tools, opts, func(m *Model) []Loss { return m.PythonLosses })
	return canonical.NewString(m.Python(header(opts))), ds
}
