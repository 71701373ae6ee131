//go:build linux

package live

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// ownGroup starts the command in a process group of its own, and has the
// kernel kill it when toolc dies, even by kill -9 (which no handler of
// toolc's sees). Its descendants carry a mark in their environment, and
// toolc is their subreaper: one that leaves the group (a grandchild in a
// session of its own, setsid) and outlives its parent becomes toolc's
// child, and endDescendants finds it by its mark.
func ownGroup(cmd *exec.Cmd) {
	subreaper.Do(func() {
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
	var id [8]byte
	_, _ = rand.Read(id[:])
	cmd.Env = append(cmd.Env, markVar+"="+hex.EncodeToString(id[:]))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

var subreaper sync.Once

// markVar is the environment variable that marks a server's processes.
const markVar = "TOOLC_CAPTURE_PROCESS"

// endDescendants kills every process that carries the command's mark but
// the command itself (which Wait reaps), round after round, until none is
// left: a process killed may leave children, which then come to toolc.
// Those that are toolc's children are reaped.
func endDescendants(cmd *exec.Cmd) {
	mark := ""
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, markVar+"=") {
			mark = kv
		}
	}
	if mark == "" || cmd.Process == nil {
		return
	}
	self := os.Getpid()
	killed := map[int]bool{}
	for range 50 {
		found := false
		for _, pid := range marked([]byte(mark), self) {
			if pid != cmd.Process.Pid {
				found = true
				_ = syscall.Kill(pid, syscall.SIGKILL)
				killed[pid] = true
			}
		}
		reap(killed, self)
		if !found {
			return
		}
	}
}

// marked lists the processes whose environment holds mark (a zombie's
// reads empty).
func marked(mark []byte, self int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue // gone, or another user's
		}
		if bytes.Contains(append(append([]byte{0}, env...), 0), append(append([]byte{0}, mark...), 0)) {
			out = append(out, pid)
		}
	}
	return out
}

// reap waits for each killed process that is toolc's child now, so that
// none stays a zombie.
func reap(killed map[int]bool, self int) {
	for pid := range killed {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			delete(killed, pid) // reaped by its parent, or gone
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(self) {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err == nil || err == syscall.ECHILD {
				delete(killed, pid)
			}
		}
	}
}
