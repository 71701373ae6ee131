//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWrapperForwardsSignals: the npm wrapper passes SIGTERM (and SIGINT
// and SIGHUP) to toolc, waits for it and ends as it did: with its exit
// code, or by the same signal. A stand-in for toolc's binary records that
// the signal came.
func TestWrapperForwardsSignals(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	for _, c := range []struct {
		name, script string
		code         int
		signal       syscall.Signal
	}{
		{"toolc exits", `trap 'echo TERM > "$TOOLC_MARK"; exit 1' TERM; echo $$ > "$TOOLC_PID"; while :; do sleep 0.05; done`, 1, 0},
		{"toolc is killed", `echo $$ > "$TOOLC_PID"; exec sleep 300`, -1, syscall.SIGTERM},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pkg := filepath.Join(dir, "node_modules", "toolc")
			plat := filepath.Join(dir, "node_modules", "@toolc-dev", "toolc-"+runtime.GOOS+"-"+map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH])
			for _, d := range []string{filepath.Join(pkg, "bin"), filepath.Join(plat, "bin")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			wrapper, err := os.ReadFile(filepath.Join(root, "npm", "toolc", "bin", "toolc.js"))
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{
				filepath.Join(pkg, "bin", "toolc.js"): string(wrapper),
				filepath.Join(pkg, "package.json"):    `{"name": "toolc", "version": "0.0.0"}`,
				filepath.Join(plat, "package.json"):   `{"name": "@toolc-dev/toolc-test", "version": "0.0.0"}`,
				filepath.Join(plat, "bin", "toolc"):   "#!/bin/sh\n" + c.script + "\n",
			}
			for name, data := range files {
				if err := os.WriteFile(name, []byte(data), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			pidFile, mark := filepath.Join(dir, "pid"), filepath.Join(dir, "mark")
			cmd := exec.Command(node, filepath.Join(pkg, "bin", "toolc.js"), "build")
			cmd.Env = append(os.Environ(), "TOOLC_PID="+pidFile, "TOOLC_MARK="+mark)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pid int
			for range 200 {
				if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
					pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
					break
				}
				time.Sleep(25 * time.Millisecond)
			}
			if pid == 0 {
				cmd.Process.Kill()
				t.Fatal("the stand-in never started")
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			switch {
			case c.signal != 0 && (!ws.Signaled() || ws.Signal() != c.signal):
				t.Errorf("node ended with %v, want the signal %v toolc ended by", err, c.signal)
			case c.signal == 0 && ws.ExitStatus() != c.code:
				t.Errorf("node ended with %v, want toolc's exit code %d", err, c.code)
			}
			if c.signal == 0 {
				if data, _ := os.ReadFile(mark); string(data) != "TERM\n" {
					t.Errorf("toolc was not sent SIGTERM (mark %q)", data)
				}
			}
			if err := syscall.Kill(pid, 0); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("toolc (%d) still runs after node ended", pid)
			}
		})
	}
}
