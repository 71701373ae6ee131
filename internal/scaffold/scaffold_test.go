package scaffold

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNamespaceFor(t *testing.T) {
	for dir, want := range map[string]string{
		// Only letters, digits, '_' and '-': a namespace is part of every
		// emitted name, and Claude Desktop refuses a name with a dot.
		"tools/github": "github", "my tools": "my_tools", "_internal": "internal", "-x.y": "x",
		"wetter-äöü": "wetter", "___": "", "v1.2": "v1_2",
	} {
		if got := namespaceFor(dir); got != want {
			t.Errorf("namespaceFor(%q) = %q, want %q", dir, got, want)
		}
	}
}

// TestNew plans a manifest for two folders of the same name and a file
// that would fail the build: each folder gets a namespace with its parent's
// name, the failing file is left out with its reason, and the plan builds.
func TestNew(t *testing.T) {
	tool := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"tools": [{"name": "` + name + `", "description": "d", "inputSchema": {"type": "object"}}]}`)}
	}
	fsys := fstest.MapFS{
		"alpha/tools/a.json":    tool("search"),
		"beta/tools/b.json":     tool("search"),
		"beta/tools/c.json":     tool("search"), // the same ID as b.json in one namespace
		"node_modules/x/d.json": tool("hidden"),
	}
	p, err := New(context.Background(), fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name = "demo"`, `namespace = "alpha-tools"`, `namespace = "beta-tools"`, "# Left out: beta/tools/c.json does not build: catalog.duplicate-id",
		`format = "canonical"`} { // what decode reads (issue 28, item 7)
		if !strings.Contains(p.Manifest, want) {
			t.Errorf("the manifest lacks %q:\n%s", want, p.Manifest)
		}
	}
	if strings.Contains(p.Manifest, "node_modules") {
		t.Errorf("the manifest names a file under node_modules:\n%s", p.Manifest)
	}
	if p.Result.Failed || p.Files != 2 || p.Sources != 2 || p.LeftOut != 1 || p.Result.Tools != 2 {
		t.Errorf("New = failed %v, %d files in %d sources, %d left out, %d tools; want a build of 2 files in 2 sources, 1 left out, 2 tools",
			p.Result.Failed, p.Files, p.Sources, p.LeftOut, p.Result.Tools)
	}
}

// TestNewStrictOnlyWhereTaken: init wrote strict = "auto" for Anthropic
// whatever the catalog's size, and a catalog of more than 20 tools then
// got accept.strict-tools, which a first build hid (issue 28, item 5).
// Past Anthropic's strict budget the setting is left as a comment saying
// why, and the plan builds without it.
func TestNewStrictOnlyWhereTaken(t *testing.T) {
	for _, n := range []int{3, 25} {
		var tools []string
		for i := range n {
			tools = append(tools, fmt.Sprintf(`{"name": "t%d", "description": "d", "inputSchema": {"type": "object"}}`, i))
		}
		p, err := New(context.Background(), fstest.MapFS{"tools/a.json": {Data: []byte(`{"tools": [` + strings.Join(tools, ",") + `]}`)}}, "demo")
		if err != nil {
			t.Fatal(err)
		}
		anthropic := p.Manifest[strings.Index(p.Manifest, `format = "anthropic"`):]
		anthropic = anthropic[:strings.Index(anthropic, "[[targets]]")]
		strict := strings.Contains(anthropic, "\nstrict = \"auto\"")
		if strict != (n <= 20) {
			t.Errorf("%d tools: the Anthropic target is\n%s", n, anthropic)
		}
		for _, d := range p.Result.Diagnostics {
			if d.Code == "accept.strict-tools" {
				t.Errorf("%d tools: %s", n, d)
			}
		}
	}
}

func TestServerNames(t *testing.T) {
	for _, tc := range []struct{ files, want []string }{
		{[]string{"server-github.tools_list.json", "server-git.tools_list.json", "server-time.tools_list.json"}, []string{"github", "git", "time"}},
		{[]string{"fetch-tools-list.json", "slack-tools-list.json"}, []string{"fetch", "slack"}},
		{[]string{"git.json", "github.json"}, []string{"git", "github"}},
		{[]string{"a.tools_list.json", "ab.tools_list.json"}, []string{"a", "ab"}},
	} {
		if got := serverNames(tc.files); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("serverNames(%q) = %q, want %q", tc.files, got, tc.want)
		}
	}
}

// TestNewSplitsServers (issue 28, item 6): a folder of captures of several
// servers is one source per server, named for it, and a tool name two
// servers share fails nothing; two files that define a name differently
// are two servers too, while a copy is left out, with its whole reason.
func TestNewSplitsServers(t *testing.T) {
	file := func(desc string, names ...string) *fstest.MapFile {
		var tools []string
		for _, n := range names {
			tools = append(tools, `{"name": "`+n+`", "description": "`+desc+` `+n+`.", "inputSchema": {"type": "object"}}`)
		}
		return &fstest.MapFile{Data: []byte(`{"tools": [` + strings.Join(tools, ", ") + `]}`)}
	}
	fsys := fstest.MapFS{
		"servers/server-git.tools_list.json":    file("Git:", "status", "create_branch"),
		"servers/server-github.tools_list.json": file("GitHub:", "create_branch", "list_issues"),
		"servers/server-time.tools_list.json":   file("Time:", "now"),
		"servers/README.json":                   file("Other:", "other"),
		"mixed/alpha.json":                      file("Alpha:", "search"),
		"mixed/beta.json":                       file("Beta:", "search"),
		"mixed/gamma.json":                      file("Gamma:", "gamma"),
		"copies/a.json":                         file("Same:", "ping"),
		"copies/b.json":                         file("Same:", "ping"),
	}
	p, err := New(context.Background(), fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# servers/server-git.tools_list.json: the git server (2 tools), a source of its own\n[[sources]]\ninclude = [\"servers/server-git.tools_list.json\"]\nformat = \"mcp\"\nnamespace = \"git\"",
		`namespace = "github"`, `namespace = "time"`,
		"include = [\"servers/README.json\"]\nformat = \"mcp\"\nnamespace = \"servers\"",
		`namespace = "alpha"`, `namespace = "beta"`, "include = [\"mixed/gamma.json\"]\nformat = \"mcp\"\nnamespace = \"mixed\"",
		"# Left out: copies/b.json does not build: catalog.duplicate-id: tool ID\n#   \"copies:ping\" is defined twice: in copies/a.json#/tools/0 and in\n#   copies/b.json#/tools/0\n",
	} {
		if !strings.Contains(p.Manifest, want) {
			t.Errorf("the manifest lacks %q:\n%s", want, p.Manifest)
		}
	}
	if p.Result.Failed || p.Result.Tools != 10 || p.LeftOut != 1 {
		t.Errorf("New = failed %v, %d tools, %d left out; want a build of 10 tools, 1 left out:\n%s", p.Result.Failed, p.Result.Tools, p.LeftOut, p.Manifest)
	}
}

// TestShortNames: a namespace init derives from a file or folder name is
// short and legal for every client (issue 37: playwright-mcp.caps-all,
// server-github and notion-mcp-server were namespaces as they were).
func TestShortNames(t *testing.T) {
	for in, want := range map[string]string{
		"playwright-mcp.caps-all": "playwright",
		"server-github":           "github",
		"notion-mcp-server":       "notion",
		"mcp-server-fetch":        "fetch",
		"Brave_Search_MCP":        "brave_search",
		"tools":                   "tools",
		"mcp":                     "mcp",
		"alpha tools!":            "alpha_tools",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}
