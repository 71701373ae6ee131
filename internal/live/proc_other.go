//go:build !unix

package live

import "os/exec"

func ownGroup(*exec.Cmd) {}

// endGroup kills the command; its children are the system's to end.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// terminate asks the command to end: there is no SIGTERM, so it is killed.
func terminate(cmd *exec.Cmd) func() error { return cmd.Process.Kill }
