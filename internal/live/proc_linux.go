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
	"time"
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
// Those that are toolc's children are reaped, and so are those the group's
// kill left to it: a zombie has no environment to be found by.
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
	defer reapGroup(cmd.Process.Pid, self) // once every round is done
	killed := map[int]bool{}
	for range 50 {
		found := false
		pids, unsure := marked([]byte(mark), self)
		for _, pid := range pids {
			if pid != cmd.Process.Pid {
				found = true
				_ = syscall.Kill(pid, syscall.SIGKILL)
				killed[pid] = true
			}
		}
		reap(killed, self)
		if !found && !unsure {
			return
		}
		if !found { // a process in the middle of exec: its environment is readable in a moment
			time.Sleep(time.Millisecond)
		}
	}
}

// marked lists the processes whose environment holds mark (a zombie's
// reads empty). unsure says that the environment of one of toolc's
// children read empty: one in the middle of exec, whose new environment
// is not yet in place (a detached grandchild, come to toolc as its
// subreaper, that exec'd as the capture ended escaped it so).
func marked(mark []byte, self int) (pids []int, unsure bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue // gone, or another user's
		}
		if len(env) == 0 {
			unsure = unsure || execing(e.Name(), self)
			continue
		}
		if bytes.Contains(append(append([]byte{0}, env...), 0), append(append([]byte{0}, mark...), 0)) {
			pids = append(pids, pid)
		}
	}
	return pids, unsure
}

// execing reports whether the process pid, whose environment read empty,
// is a child of self's that is neither a zombie nor a kernel thread
// (which have none).
func execing(pid string, self int) bool {
	fields, err := statFields(pid)
	if err != nil || len(fields) < 7 || fields[0] == "Z" || fields[0] == "X" || fields[1] != strconv.Itoa(self) {
		return false
	}
	flags, err := strconv.ParseUint(fields[6], 10, 64)
	return err == nil && flags&pfKthread == 0
}

// pfKthread is PF_KTHREAD (linux/sched.h), in a process's stat flags.
const pfKthread = 0x00200000

// reap waits for each killed process that is toolc's child now, so that
// none stays a zombie.
func reap(killed map[int]bool, self int) {
	for pid := range killed {
		fields, err := statFields(strconv.Itoa(pid))
		if err != nil {
			delete(killed, pid) // reaped by its parent, or gone
			continue
		}
		if len(fields) > 1 && fields[1] == strconv.Itoa(self) {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err == nil || err == syscall.ECHILD {
				delete(killed, pid)
			}
		}
	}
}

// reapGroup waits for each of self's children in the process group that
// endGroup killed, but its leader (the command, which Wait reaps): a
// server's child left in its group (sleep 300 &) comes to toolc when the
// server ends, and the group's kill makes it a zombie, whose empty
// environment marked cannot tell from any other's.
func reapGroup(group, self int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid == group {
			continue
		}
		fields, err := statFields(e.Name())
		if err == nil && len(fields) > 2 && fields[1] == strconv.Itoa(self) && fields[2] == strconv.Itoa(group) {
			_ = syscall.Kill(pid, syscall.SIGKILL) // it was, with the group; one forked meanwhile was not
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
	}
}

// statFields are the fields of process pid's stat after its name: state,
// ppid, pgrp, session, tty_nr, tpgid, flags … (the name, in parentheses,
// may hold spaces: what follows its last ')' is read).
func statFields(pid string) ([]string, error) {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])), nil
}
