package manifest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/targets"
)

// testFormats are the formats toolc reads, and the targets it writes with
// the options each declares.
var testFormats = func() Formats {
	f := Formats{Sources: []string{"mcp", "openai", "anthropic"}, Targets: map[string]func() any{}}
	for _, t := range targets.Default().List() {
		f.Targets[t.Name] = func() any { return t.Options() }
	}
	return f
}()

const good = `version = 1

[catalog]
name = "acme-tools"
version = "1.4.0"

[[sources]]
include = ["tools/github/**/*.json"]
exclude = ["tools/github/legacy/**"]
format = "auto"
namespace = "github"
tags = ["vcs"]

[[targets]]
format = "openai"
out = "dist/openai.json"
strict = false
policy = { deny = ["loss"] }

[[targets]]
name = "mcp-main"
format = "mcp"
out = "dist/./mcp.json"

[policy]
deny = ["loss.ref"]
warn = []
ignore = ["lint.description-missing"]
`

func TestDecodeGood(t *testing.T) {
	good := strings.Replace(good, `"loss.ref"`, `"loss.output-schema"`, 1)
	good = strings.Replace(good, `"lint.description-missing"`, `"loss.title"`, 1)
	m, ds := decodeChecked([]byte(good), "toolc.toml", testFormats)
	if len(ds) > 0 {
		t.Fatalf("Decode: %v", ds)
	}
	if m.Catalog.Name != "acme-tools" || len(m.Sources) != 1 || m.Sources[0].Namespace != "github" {
		t.Errorf("sources = %+v", m.Sources)
	}
	if l, _ := m.Pos("targets[1].out"); l != 23 {
		t.Errorf("Pos(targets[1].out) = %d, want 23", l)
	}
	if o, ok := m.Targets[0].Options.(*emit.OpenAIOptions); m.Targets[0].Name != "openai" || !ok || o.Strict == nil || o.Strict.On || m.Targets[0].Policy.Deny[0] != "loss" {
		t.Errorf("targets[0] = %+v", m.Targets[0])
	}
	if m.Targets[1].Name != "mcp-main" || m.Targets[1].Out != "dist/mcp.json" {
		t.Errorf("targets[1] = %+v", m.Targets[1])
	}
}

func TestDecodeErrors(t *testing.T) {
	base := func(extra string) string {
		return "version = 1\n[[sources]]\ninclude = [\"*.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"out.json\"\n" + extra
	}
	for _, tc := range []struct {
		in   string
		want string // "line:col code substring"
	}{
		{"version = \n", "1:11 manifest.syntax"},
		{"[catalog]\nname = \"x\"\n", "0:0 manifest.version no version"},
		{"version = 2\n", "1:1 manifest.version unsupported"},
		{"version = \"1\"\n", "1:1 manifest.version unsupported"},
		{base("[catalog]\nnmae = \"x\"\n"), "8:1 manifest.unknown-key \"nmae\"; did you mean \"name\"?"},
		// An unknown array of tables is one error, at its header (it had no line).
		{base("[[tagets]]\nformat = \"mcp\"\n"), "7:1 manifest.unknown-key \"tagets\"; did you mean \"targets\"?"},
		{"version = 1\n[[sources]]\nincldue = [\"*.json\"]\n", "3:1 manifest.unknown-key \"incldue\"; did you mean \"include\"?"},
		// A quoted key with an escape is found where it is written.
		{base("[catalog]\n\"na\\tme\" = \"x\"\n"), "8:1 manifest.unknown-key"},
		{base("[catalog]\n\"n\\u0061m\\\"e\" = \"x\"\n"), "8:1 manifest.unknown-key"},
		{base("[[targets]]\nformat = \"openai\"\nout = \"b.json\"\nstirct = true\n"), "10:1 manifest.unknown-key \"stirct\""},
		{base("[[targets]]\nformat = \"mcp\"\nout = \"b.json\"\nstrict = true\n"), "10:1 manifest.unknown-key no option \"strict\""},
		{base("[policy]\ndeny = \"loss\"\n"), "8:8 manifest.type policy.deny: want an array of strings, not a string"},
		// A wrong type is at its value, with its index, in TOML's words.
		{"version = 1\n[[sources]]\ninclude = [\"a\"]\n\n[[targets]]\nformat = \"openai\"\nstrict = 3\nout = \"o.json\"\n\n[[targets]]\nformat = \"mcp\"\nout = \"m.json\"\n", "7:10 manifest.type targets[0].strict: want true, false or \"auto\", not an integer"},
		// Issue 28: a wrong value in the first of two blocks with that key
		// is named at its own block, not the last one.
		{"version = 1\n[[sources]]\ninclude = [\"a\"]\n[[targets]]\nformat = \"openai\"\nout = \"o.json\"\nstrict = \"yes\"\n[[targets]]\nformat = \"anthropic\"\nout = \"a.json\"\nstrict = true\n", "7:10 manifest.type targets[0].strict: want true, false or \"auto\", not \"yes\""},
		{"version = 1\n[[sources]]\ninclude = \"a\"\n[[sources]]\ninclude = [\"b\"]\n", "3:11 manifest.type sources[0].include"},
		{base("[[targets]]\nformat = \"openai\"\nout = 5\n[[targets]]\nformat = \"mcp\"\nout = \"c.json\"\n"), "9:7 manifest.type targets[1].out: want a string, not an integer"},
		{base("limits = 5\n"), "7:10 manifest.type targets[0].limits: want a table of integers, not an integer"},
		{base("limits = \"big\"\n"), "7:10 manifest.type targets[0].limits: want a table of integers, not a string"},
		{base("profile = 5\n"), "7:11 manifest.type targets[0].profile: want a table, not an integer"},
		{base("select = 5\n"), "7:10 manifest.type targets[0].select: want a table, not an integer"},
		{base("select = { tools = [1] }\n"), "7:20 manifest.type targets[0].select.tools: want an array of strings, not an array with an integer"},
		{base("select = { tgs = [\"a\"] }\n"), "7:12 manifest.unknown-key targets[0].select.tgs: unknown key \"tgs\"; did you mean \"tags\"?"},
		{base("[[targets]]\nformat = \"openai\"\nout = \"o.json\"\nstrict = \"yes\"\n"), "10:10 manifest.type targets[1].strict: want true, false or \"auto\", not \"yes\""},
		{"version = 1\n[[sources]]\ninclude = \"a.json\"\n", "3:11 manifest.type sources[0].include: want an array of strings, not a string"},
		{base("[[targets]]\nformat = \"openai\"\nout = \"o.json\"\nlimits = {description = \"x\"}\n"), "10:25 manifest.type targets[1].limits.description: want an integer, not a string"},
		{base("[policy]\ndeny = [\"loss.nope\"]\n"), "8:1 manifest.unknown-code \"loss.nope\""},
		// [load], as strictly as every key.
		{base("[load]\ndefer = \"yes\"\n"), "8:9 manifest.type load.defer: defer = \"yes\": want true, false or \"auto\""},
		{base("[load]\ndefr = true\n"), "8:1 manifest.unknown-key \"defr\"; did you mean \"defer\"?"},
		{base("[load.tools.\"a:*\"]\ndefer = true\nalways_load = true\n"), "9:1 manifest.invalid contradict"},
		{base("[load]\ncallers = []\n"), "8:1 manifest.invalid callers = []"},
		{base("[load]\ncallers = [\"model\"]\n"), "8:1 manifest.invalid callers \"model\" is not one of direct, code"},
		{base("[load.tags.admin]\nnamespace = \"a.b\"\n"), "8:1 manifest.invalid namespace \"a.b\""},
		{base("[load.namespaces.crm]\n"), "7:1 manifest.invalid needs description"},
		{base("load = { defer = true }\n"), "7:1 manifest.unknown-key"},
		{"version = 1\n[[sources]]\ninclude = [\"a\"]\nload = { priority = \"high\" }\n[[targets]]\nformat = \"mcp\"\nout = \"o.json\"\n", "4:21 manifest.type sources[0].load.priority"},
		{base("[policy]\ndeny = [\"loss\"]\nwarn = [\"loss\"]\n"), "9:1 manifest.invalid also listed"},
		{base("[[sources]]\ninclude = [\"../x/*.json\"]\n"), "8:1 manifest.path-escape leaves"},
		{base("[[sources]]\ninclude = [\"/etc/*.json\"]\n"), "8:1 manifest.path-escape absolute"},
		{base("[[sources]]\ninclude = [\"a/[.json\"]\n"), "8:1 manifest.invalid not a valid glob"},
		{base("[[sources]]\ninclude = [\"a\"]\nformat = \"yaml\"\n"), "9:1 manifest.invalid unknown source format"},
		{base("[[sources]]\ninclude = [\"a\"]\nnamespace = \"a:b\"\n"), "9:1 manifest.invalid namespace"},
		{base("[[targets]]\nformat = \"mcp\"\nout = \"c.json\"\n"), "7:1 manifest.invalid both named"},
		{base("[[targets]]\nname = \"x\"\nformat = \"mcp\"\nout = \"out.json\"\n"), "10:1 manifest.invalid both write"},
		{base("[[targets]]\nname = \"x\"\nformat = \"mcp\"\nout = \"OUT.json\"\n"), "10:1 manifest.invalid targets[0] and targets[1] write \"out.json\" and \"OUT.json\", one file on macOS and Windows"},
		{base("[[sources]]\ninclude = [\"s.json\"]\ncapture = { command = [\"s\"], env = { \"A=B\" = \"x\" } }\n"), "9:30 manifest.invalid cannot name an environment variable"},
		{base("[[targets]]\nname = \"y\"\nformat = \"mcp\"\nout = \"sub/../../o.json\"\n"), "10:1 manifest.path-escape"},
		{base("[[targets]]\nname = \"y\"\nformat = \"gemini3\"\nout = \"o2.json\"\n"), "9:1 manifest.invalid unknown target format"},
		{base("[[targets]]\nname = \"z\"\nformat = \"openai\"\nout = \"o3.json\"\npolicy = { deny = [\"lossy\"] }\n"), "11:12 manifest.unknown-code \"lossy\""},
		{base("[catalog]\nversion = \"1.0\"\n"), "8:1 manifest.invalid semantic version"},
		{"version = 1\n", "0:0 manifest.invalid no [[sources]]"},
		// Issue 40: the lifecycle's entries, each wrong value at its key.
		{base("[[acknowledge]]\nfinding = \"breaking.required-added tool=shop:get_item\"\nreason = \"r\"\nuntil = \"soon\"\n"), "10:1 manifest.invalid acknowledge[0].until: until = \"soon\" is neither a semantic version"},
		{base("[[acknowledge]]\nfinding = \"get_item broke\"\nreason = \"r\"\nuntil = \"2.0.0\"\n"), "8:1 manifest.invalid acknowledge[0].finding: \"get_item broke\" is not a finding"},
		{base("[[acknowledge]]\nfinding = \"breaking.nope tool=a\"\nreason = \"r\"\nuntil = \"2.0.0\"\n"), "8:1 manifest.invalid acknowledge[0].finding"},
		{base("[[acknowledge]]\nfinding = \"breaking.tool-removed tool=a\"\nuntil = \"2027-01-31\"\n"), "7:1 manifest.invalid acknowledge[0]: an acknowledgment needs a reason"},
		{base("[[removed]]\nid = \"shop:search\"\nin = \"next\"\n"), "9:1 manifest.invalid removed[0].in"},
		{base("[[sources]]\ninclude = [\"b\"]\nstability = \"experimental\"\n"), "9:1 manifest.invalid stability \"experimental\" is not one of draft, alpha, beta, stable"},
		{base("select = { stability = [\"gamma\"] }\n"), "7:12 manifest.invalid stability \"gamma\""},
		{base("[policy]\ndeprecation = { releases = -1 }\n"), "8:1 manifest.invalid policy.deprecation"},
	} {
		_, ds := decodeChecked([]byte(tc.in), "toolc.toml", testFormats)
		if !found(ds, tc.want) {
			t.Errorf("Decode(%q) = %v\nwant one with %q", tc.in, ds, tc.want)
		}
	}
}

// TestDecodeEveryTypeError: every wrong value is reported in one run, not
// the first the decoder meets.
func TestDecodeEveryTypeError(t *testing.T) {
	in := "version = 1\n[[sources]]\ninclude = \"a\"\n[[targets]]\nformat = \"openai\"\nout = \"o.json\"\nstrict = \"yes\"\nlimits = 5\n[[targets]]\nformat = \"mcp\"\nout = 7\n"
	_, ds := decodeChecked([]byte(in), "toolc.toml", testFormats)
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Message[:strings.Index(d.Message, ":")]))
	}
	want := []string{"3:11 sources[0].include", "7:10 targets[0].strict", "8:10 targets[0].limits", "11:7 targets[1].out"}
	if !slices.Equal(got, want) {
		t.Errorf("Decode = %q, want %q", got, want)
	}
}

func found(ds []diag.Diagnostic, want string) bool {
	for _, d := range ds {
		got := fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Code, d.Message)
		pos, rest, _ := strings.Cut(want, " ")
		code, sub, _ := strings.Cut(rest, " ")
		if strings.HasPrefix(got, pos+" "+code) && strings.Contains(d.Message, sub) && d.Severity == diag.Error && d.File == "toolc.toml" {
			return true
		}
	}
	return false
}

func TestKeyIndex(t *testing.T) {
	idx := indexKeys(good)
	for key, want := range map[string][2]int{
		"catalog.version":        {5, 1},
		"sources[0].namespace":   {11, 1},
		"targets[0].policy":      {18, 1},
		"targets[0].policy.deny": {18, 12},
		"targets[1].name":        {21, 1},
		"policy.ignore":          {28, 1},
	} {
		if got := idx[key]; got != want {
			t.Errorf("index[%q] = %v, want %v", key, got, want)
		}
	}
	if l, _ := idx.pos("targets[1].policy.deny"); l != 20 {
		t.Errorf("pos falls back to the table: %d", l)
	}
}

func TestKeyIndexQuotes(t *testing.T) {
	text := "version = 1\n[[targets]]\npolicy = { deny = [\"a\\\" , b = 2\"], warn = ['c = \\'] }\nout = \"x#y\" # a = 1\n"
	idx := indexKeys(text)
	if got := idx["targets[0].policy.warn"]; got != [2]int{3, 36} {
		t.Errorf("warn at %v, want [3 36] (an escaped quote must not end the string)", got)
	}
	if _, ok := idx["targets[0].policy.b"]; ok {
		t.Error("a key inside a string was indexed")
	}
	if got := idx["targets[0].out"]; got != [2]int{4, 1} {
		t.Errorf("out at %v", got)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("version = 1\n[[sources]]\ninclude = [\"\"\"\na\n\"\"\"]\n"))
	// The shapes of issue 27: an unknown array of tables, escaped quoted
	// keys, an output that is an input, a glob of many **.
	f.Add([]byte("version = 1\n[[sources]]\ninclude = [\"*.json\"]\n[[tagets]]\nformat = \"mcp\"\n"))
	f.Add([]byte("version = 1\n[[sources]]\n\"in\\u0063lude\" = [\"a\"]\n\"bo\\\"gus\\tkey\" = 1\n"))
	f.Add([]byte("version = 1\n[[sources]]\ninclude = [\"**/**/**/**/*.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"toolc.toml\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ds := decodeChecked(data, "toolc.toml", testFormats)
		if (m == nil) == (len(ds) == 0) {
			t.Fatalf("Decode returned manifest %v with %d diagnostics", m != nil, len(ds))
		}
	})
}

// TestUnknownTableOnce: the keys of an unknown table are not errors of
// their own; the table is one.
func TestUnknownTableOnce(t *testing.T) {
	_, ds := decodeChecked([]byte("version = 1\n[[sources]]\ninclude = [\"*.json\"]\n[[targets]]\nformat = \"mcp\"\nout = \"o.json\"\n[[tagets]]\nformat = \"mcp\"\nout = \"p.json\"\n"), "toolc.toml", testFormats)
	if len(ds) != 1 || ds[0].Line != 7 {
		t.Errorf("Decode of an unknown [[tagets]] = %v, want one error at line 7", ds)
	}
}

// decodeChecked decodes and checks data as reading toolc.toml does: the
// manifest, or every error.
func decodeChecked(data []byte, file string, formats Formats) (*Manifest, []diag.Diagnostic) {
	m, ds := Decode(data, file, formats)
	if m == nil {
		return nil, ds
	}
	ds = diag.Sort(append(ds, m.Check(formats)...))
	if len(ds) > 0 {
		return nil, ds
	}
	return m, nil
}
