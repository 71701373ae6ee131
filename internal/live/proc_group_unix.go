//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// endGroup kills what is left of the command's process group: a server's
// children (npx starts node) outlive a closed stdin.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		endDescendants(cmd)
	}
}

// terminate asks the command to end: SIGTERM.
func terminate(cmd *exec.Cmd) func() error {
	return func() error { return cmd.Process.Signal(syscall.SIGTERM) }
}
