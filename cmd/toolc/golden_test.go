package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestScriptGoldensRead: every golden file of a script (an archive file
// whose name starts with "want") is named by one of the script's
// commands; one that none reads is stale, and fails.
func TestScriptGoldensRead(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/script/*.txtar")
	if len(scripts) == 0 {
		t.Fatal("no scripts in testdata/script")
	}
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		var commands []string
		for _, line := range strings.Split(string(a.Comment), "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				commands = append(commands, l)
			}
		}
		text := " " + strings.Join(commands, " \n ") + " "
		for _, f := range a.Files {
			if !strings.HasPrefix(f.Name, "want") {
				continue
			}
			if !strings.Contains(text, " "+f.Name+" ") && !strings.Contains(text, " "+f.Name+"\n") {
				t.Errorf("%s: the golden file %s is read by none of its commands: remove it, or compare with it", s, f.Name)
			}
		}
	}
}
