package live

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

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
