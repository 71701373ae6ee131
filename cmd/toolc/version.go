package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// releaseVersion and releaseCommit are set by a release build
// (internal/cmd/release): go build -ldflags "-X main.releaseVersion=v1.2.3
// -X main.releaseCommit=<sha>" ./cmd/toolc.
var releaseVersion, releaseCommit string

// version returns toolc's version from the module's build information: the
// module version when installed with go install (v1.2.3, or a pseudo-version),
// else "devel" and, when built in a git checkout, the commit.
func version() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	v := "devel"
	if rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if modified == "true" {
			v += "+dirty"
		}
	}
	return v
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print toolc's version, from the module's build information",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			commit := ""
			if releaseCommit != "" {
				commit = "commit " + releaseCommit[:min(12, len(releaseCommit))] + ", "
			}
			fmt.Fprintf(stdout, "toolc %s (%s%s, %s/%s)\n", version(), commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
