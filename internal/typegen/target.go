package typegen

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The typed targets: the catalog's tools as TypeScript, Go and Python
// types, from the canonical tools (what a handler receives once toolcall
// has turned a call back), named as the MCP target names them.

// typed is one typed target's writing: the model, and its findings.
func typed(sources []*canonical.Tool, tools []*canonical.Tool, types TypeNames, opts profile.Options, langLosses func(*Model) []Loss) (*Model, profile.Later) {
	m := model(sources, tools, types, opts)
	return m, findings(m, m.Losses, langLosses(m))
}

// model is the model of the tools: made once for every typed target of a
// build (opts.Shared) that has the same tools, emitted names and type
// names, as the TypeScript, Go and Python targets of a catalog do. Nothing
// changes a model once it is built: each language writes it through a
// scope of its own.
func model(sources, tools []*canonical.Tool, types TypeNames, opts profile.Options) *Model {
	return opts.Shared.Once(modelKey(sources, tools, types), func() any { return Build(sources, emittedNames(sources, tools), types) }).(*Model)
}

// modelKey identifies a model by what makes it: the tools' IDs (one ID is
// one tool in a build), their emitted names (the lowered tools' IDs) and
// the types option.
func modelKey(sources, tools []*canonical.Tool, types TypeNames) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte("typegen.Model\x00"))
	for i, t := range sources {
		fmt.Fprintf(h, "%s\x00%s\x00", t.ID(), tools[i].ID())
	}
	h.Write([]byte{0})
	for _, id := range slices.Sorted(maps.Keys(types)) {
		fmt.Fprintf(h, "%s\x00%s\x00", id, types[id])
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// findings are a typed target's: of each of the losses, at its place,
// then of m's collisions, made when the build gathers them (each a
// diagnostic of 152 bytes where the loss, which the model keeps, is 56).
// A 20,000-tool catalog has 80,000 losses in its three typed targets.
func findings(m *Model, losses ...[]Loss) profile.Later {
	n := len(m.Collisions)
	for _, ls := range losses {
		n += len(ls)
	}
	if n == 0 {
		return profile.Later{}
	}
	return profile.Later{N: n, Append: func(ds []diag.Diagnostic) []diag.Diagnostic {
		ds = slices.Grow(ds, n)
		for _, ls := range losses {
			for _, l := range ls {
				ds = append(ds, diag.NewText(l.Code, l.Message).At(l.Tool.Source.Place(l.At)).About(l.Tool.ID()))
			}
		}
		return collisions(ds, m)
	}}
}

// collisions appends to ds the diagnostics of two tools whose types take
// one name.
func collisions(ds []diag.Diagnostic, m *Model) []diag.Diagnostic {
	for _, c := range m.Collisions {
		d := diag.New("name.type-collision", "tools %s and %s both make the type name %s", c[0].ID(), c[1].ID(), Pascal(c[1].ID())).At(c[1].Source.Place("/name")).About(c[1].ID())
		ds = append(ds, d.WithFix(fmt.Sprintf(`name one on the target: types = { %q = "%sV2" }`, c[1].ID(), Pascal(c[1].ID()))))
	}
	return ds
}

func header(opts profile.Options) string {
	return strings.TrimSpace(fmt.Sprintf("The types of %s %s", cmp.Or(opts.Catalog.Name, "the catalog"), opts.Catalog.Version))
}

// Generator is a typed target's writer: the file of the lowered tools and
// their sources, as a Text written as it is made, and the findings of
// what its types cannot say, all known before a byte is written.
type Generator func(tools, sources []*canonical.Tool, opts profile.Options) (Text, profile.Later)

// TypeScriptTarget writes the typescript target: the module of the
// tools' types (Model.TypeScript), with a diagnostic for each loss.
//
// With validators = "zod" the module is the zod one (Model.Zod): the
// validators and the types they infer, with a diagnostic for each check
// they leave out.
func TypeScriptTarget(tools, sources []*canonical.Tool, opts profile.Options) (Text, profile.Later) {
	o := profile.FormatOf[TypeScriptOptions](opts)
	h := header(opts)
	if o.Validators == "zod" {
		m := model(sources, tools, o.Types, opts)
		write := func(w io.Writer) error { return m.WriteZod(w, h, false) }
		return write, findings(m, m.ZodLosses(false))
	}
	m, later := typed(sources, tools, o.Types, opts, func(*Model) []Loss { return nil })
	return func(w io.Writer) error { return m.WriteTypeScript(w, h) }, later
}

// GoTarget writes the go target: the package of the tools' types
// (Model.Go), with a diagnostic for each loss. Code go/parser refuses is
// found as the file is written: the write fails with a *CodeError, which
// names the tool.
func GoTarget(tools, sources []*canonical.Tool, opts profile.Options) (Text, profile.Later) {
	o := profile.FormatOf[GoOptions](opts)
	m, later := typed(sources, tools, o.Types, opts, func(m *Model) []Loss { return m.GoLosses })
	h, pkg := header(opts), cmp.Or(o.Package, "tools")
	return func(w io.Writer) error { return m.WriteGo(w, h, pkg, o.Runtime) }, later
}

// PythonTarget writes the python target: the module of the tools'
// TypedDicts (Model.Python), with a diagnostic for each loss.
//
// With model = "pydantic" the module is the Pydantic one (Model.Pydantic),
// with a diagnostic for each check its models leave out.
func PythonTarget(tools, sources []*canonical.Tool, opts profile.Options) (Text, profile.Later) {
	o := profile.FormatOf[PythonOptions](opts)
	h := header(opts)
	if o.Model == "pydantic" {
		m := model(sources, tools, o.Types, opts)
		losses, used := m.PydanticLosses()
		write := func(w io.Writer) error { return m.WritePydantic(w, h, used) }
		return write, findings(m, losses)
	}
	m, later := typed(sources, tools, o.Types, opts, func(m *Model) []Loss { return m.PythonLosses })
	return func(w io.Writer) error { return m.WritePython(w, h) }, later
}

// emittedNames maps each source tool's ID to the ID its lowered tool has.
func emittedNames(sources, tools []*canonical.Tool) map[string]string {
	names := map[string]string{}
	for i, t := range sources {
		names[t.ID()] = tools[i].ID()
	}
	return names
}

// TypeScriptOptions are the typescript target's options.
type TypeScriptOptions struct {
	profile.Naming
	Typing
	Validators string `toml:"validators" enum:"none,zod" default:"none" doc:"zod: the module is zod v4 validators of each tool's input and output, with the types they infer and a tools map that MCP's registerTool and the AI SDK's tool() take"`
}

// Typing is the option of the typed targets that names types.
type Typing struct {
	Types TypeNames `toml:"types" pattern:"^[A-Z][A-Za-z0-9_]*$" doc:"the type name of a tool, by its ID, where two IDs make one name"`
}

// TypeNames name the types of tools by ID.
type TypeNames map[string]string

// check checks that each name is a type name in every language.
func (n TypeNames) check() []option.Problem {
	var ps []option.Problem
	for _, id := range slices.Sorted(maps.Keys(n)) {
		if why := TypeName(n[id]); why != "" {
			ps = append(ps, option.Problem{Key: []string{"types", id}, Message: fmt.Sprintf("types = { %q = %q }: %s", id, n[id], why)})
		}
	}
	return ps
}

// Check checks the names.
func (o *TypeScriptOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	_, ps := o.Naming.Check(p)
	return p, append(ps, o.Types.check()...)
}

// GoOptions are the go target's options.
type GoOptions struct {
	profile.Naming
	Typing
	Package string `toml:"package" pattern:"^[a-z][a-z0-9_]*$" default:"tools" doc:"the generated file's package"`
	Runtime bool   `toml:"runtime" doc:"add Decode, over toolcall, which returns a call's input struct"`
}

// Check checks the names and the package.
func (o *GoOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	_, ps := o.Naming.Check(p)
	ps = append(ps, o.Types.check()...)
	if o.Package != "" {
		if why := GoPackage(o.Package); why != "" {
			ps = append(ps, option.Problemf("package", "package = %q cannot be a Go package name: %s", o.Package, why))
		}
	}
	return p, ps
}

// PythonOptions are the python target's options.
type PythonOptions struct {
	profile.Naming
	Typing
	Model string `toml:"model" enum:"typeddict,pydantic" default:"typeddict" doc:"pydantic: the module is Pydantic v2 models of each tool's input and output, strict, that accept what the schemas accept, and TOOLS from each tool's name to its input model"`
}

// Check checks the names.
func (o *PythonOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	_, ps := o.Naming.Check(p)
	return p, append(ps, o.Types.check()...)
}
