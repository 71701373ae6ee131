//go:build linux

package live

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// TestCaptureEndsDetachedDescendants: a server that starts a grandchild in
// a session of its own (setsid, out of its process group) leaves nothing
// running once the capture ends (toolc is the subreaper and finds
// its server's processes by their mark).
func TestCaptureEndsDetachedDescendants(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	captureLeavesNothing(t, "setsid sleep 300", "detached grandchild")
}

// TestCaptureReapsItsGroup: a server's child left in its process group
// comes to toolc when the server ends, and the group's kill made it a
// zombie of toolc's that nothing reaped (a zombie's environment is empty,
// so its mark cannot find it): under load, the detached grandchild of the
// test above, killed before it left the group, was one.
func TestCaptureReapsItsGroup(t *testing.T) {
	captureLeavesNothing(t, "sleep 300", "child (Z: a zombie of the test's)")
}

// captureLeavesNothing captures a server whose shell starts start in the
// background first, and fails if that process is still there, running or
// a zombie, once the capture ends.
func captureLeavesNothing(t *testing.T, start, what string) {
	t.Helper()
	c := server(t, `{"name": "demo", "tools": `+tools+`}`)
	pidFile := filepath.Join(t.TempDir(), "pid")
	c.Command = []string{"sh", "-c", start + ` </dev/null >/dev/null 2>&1 & echo $! > "$0"; exec "$1" "$2"`, pidFile, c.Command[0], c.Command[1]}
	if _, err := List(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server's %s %d is still there after the capture: %s", what, pid, stat)
	}
}
