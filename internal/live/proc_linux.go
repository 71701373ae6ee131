//go:build linux

package live

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, and has the
// kernel kill it when toolc dies, even by kill -9 (which no handler of
// toolc's sees). Its own children die with it only when they do not
// outlive their parent: a grandchild in a session of its own is out of
// toolc's reach.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
