package pipeline

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestTargetOptions: each format's table is checked against the options
// the format declares, as strictly as the manifest's own keys: an unknown
// key is located, with the key it most likely misspells; a wrong value is
// located, in the format's words; the same keys spelled right build.
func TestTargetOptions(t *testing.T) {
	const head = "version = 1\n[catalog]\nname = \"io.github.acme/tools\"\nversion = \"1.0.0\"\ndescription = \"Acme's tools.\"\n[[sources]]\ninclude = [\"tools.json\"]\n"
	target := func(format, table string) string {
		return head + fmt.Sprintf("[[targets]]\nformat = %q\nout = \"dist/x\"\n", format) + table
	}
	server := "[targets.server]\nwebsite = \"https://acme.example\"\npackages = [{ registry_type = \"npm\", identifier = \"@acme/tools\" }]\n"
	mcpb := "[targets.mcpb]\nauthor = { name = \"Acme\" }\nserver = { type = \"node\", entry_point = \"i.js\", mcp_config = { command = \"node\" } }\n"
	for _, tc := range []struct {
		name, manifest string
		want           string // "line:col code substring"; "" builds
	}{
		{"server spelled right", target("server-json", server), ""},
		{"server misspelt", target("server-json", strings.Replace(server, "website", "websit", 1)), `12:1 manifest.unknown-key targets[0].server.websit: unknown key "websit"; did you mean "website"?`},
		{"server's package misspelt", target("server-json", strings.Replace(server, "identifier", "identifer", 1)), `13:1 manifest.unknown-key targets[0].server.packages[0].identifer: unknown key "identifer"; did you mean "identifier"?`},
		{"server key toolc does not write", target("server-json", server+"status = \"active\"\n"), `14:1 manifest.unknown-key targets[0].server.status: unknown key "status"`},
		{"server of the wrong type", target("server-json", "server = 5\n"), `11:10 manifest.type targets[0].server: want a table, not an integer`},
		{"mcpb spelled right", target("mcpb", mcpb), ""},
		{"mcpb misspelt", target("mcpb", mcpb+"licence = \"MIT\"\n"), `14:1 manifest.unknown-key targets[0].mcpb.licence: unknown key "licence"; did you mean "license"?`},
		{"mcpb's author misspelt", target("mcpb", strings.Replace(mcpb, "{ name", "{ nmae", 1)), `12:12 manifest.unknown-key targets[0].mcpb.author.nmae: unknown key "nmae"; did you mean "name"?`},
		{"mcpb's server type", target("mcpb", strings.Replace(mcpb, `"node"`, `"nodejs"`, 1)), `13:12 manifest.invalid targets[0].mcpb.server.type: type "nodejs" is not one of python, node, binary`},
		{"mcpb's flavor", target("mcpb", "flavor = \"smithy\"\n"+mcpb), `11:1 manifest.invalid targets[0].flavor: flavor "smithy" is not one of spec, smithery; did you mean "smithery"?`},
		{"typescript spelled right", target("typescript", "types = { \"x\" = \"ReadFile\" }\n"), ""},
		{"typescript misspelt", target("typescript", "typse = { \"x\" = \"ReadFile\" }\n"), `11:1 manifest.unknown-key targets[0].typse: unknown key "typse"; did you mean "types"?`},
		{"go spelled right", target("go", "package = \"acme\"\nruntime = true\n"), ""},
		{"go misspelt", target("go", "pakage = \"acme\"\n"), `11:1 manifest.unknown-key targets[0].pakage: unknown key "pakage"; did you mean "package"?`},
		{"go's runtime", target("go", "runtime = \"yes\"\n"), `11:11 manifest.type targets[0].runtime: want a boolean, not a string`},
		{"python spelled right", target("python", "names = \"{name}\"\n"), ""},
		{"python misspelt", target("python", "name = \"py\"\nnmaes = \"{name}\"\n"), `12:1 manifest.unknown-key targets[0].nmaes: unknown key "nmaes"; did you mean "names"?`},
		{"another format's option", target("python", "package = \"acme\"\n"), `11:1 manifest.unknown-key targets[0].package: format python has no option "package" (go takes it)`},
		{"a source's key misspelt", strings.Replace(target("mcp", ""), "include", "incldue", 1), `7:1 manifest.unknown-key sources[0].incldue: unknown key "incldue"; did you mean "include"?`},
		// Issue 54: the options that become identifiers of generated code.
		{"go package", target("go", "package = \"my-tools\"\n"), `11:1 manifest.invalid targets[0].package: package = "my-tools" cannot be a Go package name`},
		{"go keyword", target("go", "package = \"func\"\n"), "11:1 manifest.invalid func is a Go keyword"},
		{"go main", target("go", "package = \"main\"\n"), "11:1 manifest.invalid package main is a program"},
		{"python type name", target("python", "types = { \"x\" = \"Read File\" }\n"), `11:11 manifest.invalid targets[0].types.x: types = { "x" = "Read File" }: a type name is ASCII letters`},
		{"typescript type name", target("typescript", "types = { \"x\" = \"readFile\" }\n"), "11:11 manifest.invalid beginning with an upper-case letter"},
		{"go type name", target("go", "types = { \"x\" = \"Tools\" }\n"), "11:11 manifest.invalid Tools is a name the typed modules use themselves"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"toolc.toml": {Data: []byte(tc.manifest)}, "tools.json": {Data: []byte(mcpTools)}}
			_, err := ReadManifest(fsys, DefaultManifest)
			var ce *ConfigError
			if tc.want == "" {
				if err != nil {
					t.Fatalf("ReadManifest: %v", err)
				}
				return
			}
			if !errors.As(err, &ce) {
				t.Fatalf("ReadManifest = %v, want a ConfigError with %q", err, tc.want)
			}
			pos, rest, _ := strings.Cut(tc.want, " ")
			code, sub, _ := strings.Cut(rest, " ")
			for _, d := range ce.Diagnostics {
				if fmt.Sprintf("%d:%d", d.Line, d.Column) == pos && d.Code == code && strings.Contains(d.Message, sub) {
					return
				}
			}
			t.Errorf("got %v\nwant %q", ce.Diagnostics, tc.want)
		})
	}
}
