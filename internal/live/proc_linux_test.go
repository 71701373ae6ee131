//go:build linux

package live

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestMarkedUnsureOfAnEmptyEnvironment: a process of toolc's whose
// environment reads empty is one in the middle of exec (its new
// environment not yet in place), and may carry the mark a moment later:
// marked says it is unsure, and endDescendants looks again. A child
// started with no environment at all reads the same way.
func TestMarkedUnsureOfAnEmptyEnvironment(t *testing.T) {
	self := os.Getpid()
	if _, unsure := marked([]byte("TOOLC_CAPTURE_PROCESS=none"), self); unsure {
		t.Skip("a child of this process already reads an empty environment")
	}
	cmd := exec.Command("sleep", "30")
	cmd.Env = []string{}
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := strconv.Itoa(cmd.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if st, err := os.ReadFile("/proc/" + pid + "/cmdline"); err == nil && string(st) == "sleep\x0030\x00" {
			break // exec'd
		}
		if time.Now().After(deadline) {
			t.Fatal("sleep did not start")
		}
	}
	if !execing(pid, self) {
		t.Errorf("execing(%s) = false for a child whose environment reads empty", pid)
	}
	if execing(pid, self+1) {
		t.Errorf("execing(%s) = true for another process's child", pid)
	}
	if execing(strconv.Itoa(self), self) {
		t.Errorf("execing(self) = true")
	}
	if _, unsure := marked([]byte("TOOLC_CAPTURE_PROCESS=none"), self); !unsure {
		t.Error("marked is sure with a child whose environment reads empty")
	}
}
