//go:build unix

package main

import (
	"os"
	"syscall"
)

// quietRace starts the command again in its place (the same process, so
// the same process group) with GORACE=atexit_sleep_ms=0: a race-built
// binary otherwise waits a second as it exits, for races to report.
func quietRace() {
	exe, err := os.Executable()
	if err == nil {
		err = syscall.Exec(exe, os.Args, append(os.Environ(), "GORACE=atexit_sleep_ms=0"))
	}
	_ = err // not replaced: the command runs as it is, a second slower
}
