package live

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/manifest"
)

// TestServerEnv: a server gets the variables every MCP client passes,
// those its capture inherits where they are set, and its env; no other
// variable of toolc's, and no exported shell function.
func TestServerEnv(t *testing.T) {
	outer := map[string]string{
		"HOME": "/home/ci", "PATH": "/usr/bin:/bin", "USER": "ci", "TERM": "() { :; }; echo pwned",
		"APPDATA": `C:\Users\ci\AppData\Roaming`, "SYSTEMROOT": `C:\Windows`,
		"GITHUB_TOKEN": "ghp_job", "AWS_SECRET_ACCESS_KEY": "aws-secret", "HTTPS_PROXY": "http://proxy:3128",
	}
	lookup := func(k string) (string, bool) { v, ok := outer[k]; return v, ok }
	c := &manifest.Capture{Command: []string{"server"}, Inherit: []string{"HTTPS_PROXY", "NO_PROXY"},
		Env: map[string]string{"TOKEN": "${env:GITHUB_TOKEN}", "MODE": "test"}}
	env, err := serverEnv(c, lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"HOME=/home/ci", "PATH=/usr/bin:/bin", "USER=ci", "HTTPS_PROXY=http://proxy:3128", "MODE=test", "TOKEN=ghp_job"}
	if runtime.GOOS == "windows" {
		want = []string{`APPDATA=C:\Users\ci\AppData\Roaming`, "PATH=/usr/bin:/bin", `SYSTEMROOT=C:\Windows`, "HTTPS_PROXY=http://proxy:3128", "MODE=test", "TOKEN=ghp_job"}
	}
	if !slices.Equal(env, want) {
		t.Errorf("the server's environment is\n%s\nwant\n%s", strings.Join(env, "\n"), strings.Join(want, "\n"))
	}

	// A variable env names that is not set stops the capture, naming it.
	c.Env["KEY"] = "${env:TOOLC_NOT_SET}"
	if _, err := serverEnv(c, lookup); err == nil || !strings.Contains(err.Error(), "env KEY: the environment variable TOOLC_NOT_SET is not set") {
		t.Errorf("an env value whose variable is not set: %v", err)
	}
}

// TestInheritedValuesAreSecrets: what a capture inherits is hidden from
// what toolc prints, as ${env:NAME} values are.
func TestInheritedValuesAreSecrets(t *testing.T) {
	c := &manifest.Capture{Command: []string{"server"}, Inherit: []string{"HTTPS_PROXY", "NO_PROXY"}}
	got := secrets(c, func(k string) (string, bool) {
		if k == "HTTPS_PROXY" {
			return "http://user:pass@proxy:3128", true
		}
		return "", false
	})
	if !slices.Equal(got, []string{"http://user:pass@proxy:3128"}) {
		t.Errorf("secrets = %q", got)
	}
}

// TestLeaked: a value taken from the environment for env or headers that
// the server's answer holds anywhere (a key, a nested string, its own
// name) is named by where it came from; one shorter than a credential
// ("prod", in "production"), and what inherit passes, are not looked for.
func TestLeaked(t *testing.T) {
	outer := map[string]string{"GITHUB_TOKEN": "ghp_0123456789", "REGION": "eu", "MODE": "prod", "HTTPS_PROXY": "http://proxy:3128", "API": "sk-live-42aa"}
	lookup := func(k string) (string, bool) { v, ok := outer[k]; return v, ok }
	c := &manifest.Capture{Env: map[string]string{"TOKEN": "${env:GITHUB_TOKEN}", "AWS_REGION": "${env:REGION}", "STAGE": "${env:MODE}"}, Inherit: []string{"HTTPS_PROXY"},
		Headers: map[string]string{"Authorization": "Bearer ${env:API}"}}
	for _, tc := range []struct{ tools, server, want string }{
		{`[{"name": "a", "description": "Via http://proxy:3128, in eu, for production."}]`, "s", ""},
		{`[{"name": "a", "inputSchema": {"properties": {"x": {"default": "ghp_0123456789"}}}}]`, "s", "env TOKEN (${env:GITHUB_TOKEN})"},
		{`[{"name": "a", "inputSchema": {"properties": {"sk-live-42aa": {}}}}]`, "s", "headers Authorization (${env:API})"},
		{`[{"name": "a"}]`, "server for ghp_0123456789", "env TOKEN (${env:GITHUB_TOKEN})"},
	} {
		v, err := canonical.ParseJSON([]byte(tc.tools))
		if err != nil {
			t.Fatal(err)
		}
		l := &Listing{Tools: v.Items(), Server: &mcp.Implementation{Name: tc.server}}
		if got := leaked(l, c, lookup); got != tc.want {
			t.Errorf("%s from %q: leaked = %q, want %q", tc.tools, tc.server, got, tc.want)
		}
	}
}
