//go:build unix && !linux

package live

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// endDescendants does nothing here: without Linux's subreaper, a
// descendant that left the process group (setsid) and outlived its parent
// belongs to init, out of toolc's reach (docs/live.md).
func endDescendants(*exec.Cmd) {}
