package live

import (
	"runtime"
	"slices"
	"strings"
	"testing"

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
