package live

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/manifest"
)

// passed are the variables of toolc's environment that every server a
// capture starts gets, as the MCP SDKs' stdio clients give them to a server
// whose environment the client does not set (the TypeScript SDK's
// DEFAULT_INHERITED_ENV_VARS, src/client/stdio.ts, which the Python SDK's
// mcp/client/stdio repeats): what a program needs to start and find its
// files, and no token. A capture runs third-party code in CI, where the
// environment holds the job's tokens and cloud credentials.
func passed(goos string) []string {
	if goos == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// serverEnv is the environment of c's command: the variables every MCP
// client passes (passed), those c inherits where they are set, then c's
// env, each ${env:NAME} read with lookup. A value that starts with "()" is
// a shell function exported by bash, which the SDKs leave out as a risk,
// and so does serverEnv, unless c sets it itself.
func serverEnv(c *manifest.Capture, lookup func(string) (string, bool)) ([]string, error) {
	var env []string
	for _, k := range append(passed(runtime.GOOS), c.Inherit...) {
		if v, ok := lookup(k); ok && !strings.HasPrefix(v, "()") {
			env = append(env, k+"="+v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		v, missing := manifest.Expand(c.Env[k], lookup)
		if len(missing) > 0 {
			return nil, fmt.Errorf("env %s: the environment variable %s is not set", k, strings.Join(missing, ", "))
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

// envValue is a value a capture reads through ${env:NAME}, and where:
// "env TOKEN (${env:GITHUB_TOKEN})", "headers Authorization (${env:API})".
type envValue struct{ value, from string }

// fromEnv lists the values c's env and headers read through ${env:NAME}
// and are set, each key's in order (what secrets hides and leaked looks
// for).
func fromEnv(c *manifest.Capture, lookup func(string) (string, bool)) []envValue {
	var out []envValue
	for _, m := range []struct {
		name string
		vals map[string]string
	}{{"env", c.Env}, {"headers", c.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(m.vals)) {
			for _, ref := range manifest.EnvRefs(m.vals[k]) {
				if v, ok := lookup(ref); ok {
					out = append(out, envValue{v, fmt.Sprintf("%s %s (${env:%s})", m.name, k, ref)})
				}
			}
		}
	}
	return out
}

// leaked names the first value a capture took from the environment (an
// ${env:NAME} in env or headers) that the server's answer holds, in a tool
// or its own name: "" when none does. Such a value would be written into
// the pinned file and printed by verify; those are credentials (a server
// that echoes its token in a description), while what inherit passes is
// only hidden from what toolc prints (a proxy's address may well be
// named in a tool).
func leaked(l *Listing, c *manifest.Capture, lookup func(string) (string, bool)) string {
	var texts []string
	if l.Server != nil {
		texts = append(texts, l.Server.Name, l.Server.Version, l.Server.Title)
	}
	for _, t := range l.Tools {
		texts = appendStrings(texts, t)
	}
	for _, v := range fromEnv(c, lookup) {
		if len(strings.TrimSpace(v.value)) < leakMin {
			continue
		}
		for _, s := range texts {
			if strings.Contains(s, v.value) {
				return v.from
			}
		}
	}
	return ""
}

// leakMin is the length from which leaked looks for a value: a credential
// is longer (GitHub's tokens are 40 characters and more), and a shorter
// value ("prod", "true", a port) is too likely to be a tool's own word,
// where a capture that fails on it would only be in the way.
const leakMin = 8

// appendStrings appends every string of v, keys included, to out.
func appendStrings(out []string, v *canonical.Value) []string {
	if s, ok := v.StringValue(); ok {
		return append(out, s)
	}
	for _, it := range v.Items() {
		out = appendStrings(out, it)
	}
	for _, m := range v.Members() {
		out = appendStrings(append(out, m.Key), m.Value)
	}
	return out
}
