package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// A transcript is a text block of README or docs/ that quotes what toolc
// prints, marked by the HTML comment before it:
//
//	<!-- transcript: NAME -->                    $ toolc … lines, each followed by its output
//	<!-- transcript: NAME: toolc ARGS -->        the whole output of one command
//	<!-- transcript: NAME: toolc ARGS (lines) --> lines that appear, in order, in its output
//
// NAME is a setup in testdata/transcripts/NAME.txtar: its files are the
// folder the commands run in, and its comment holds script commands run
// first (corpus GLOB DIR copies files of the shared corpus; catalog copies
// the repository's example catalog without its outputs). Each command's
// output is its stdout then its stderr; durations are masked.
type transcript struct {
	file, name string
	line       int
	steps      []step
	partial    bool
}

type step struct {
	args []string
	line string // the "$ toolc …" line as quoted
	want string
}

var (
	marker   = regexp.MustCompile(`^<!-- transcript: ([a-z0-9-]+)(?:: toolc (.*?)( \(lines\))?)? -->$`)
	duration = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|m)\b`)
	dollar   = regexp.MustCompile(`^\$ toolc(.*?)(?:\s+(?:&&|#).*)?$`)
)

// transcripts reads every transcript of README and docs/, and fails on a
// block that quotes a toolc command without saying how to run it.
func transcripts(t *testing.T) []transcript {
	files, _ := filepath.Glob("../../docs/*.md")
	var out []transcript
	for _, f := range append([]string{"../../README.md"}, files...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "```") || lines[i] == "```" {
				continue
			}
			start := i
			end := start + 1
			for end < len(lines) && lines[end] != "```" {
				end++
			}
			block := lines[start+1 : end]
			i = end
			m := (marker.FindStringSubmatch(prev(lines, start)))
			if m == nil {
				for _, l := range block {
					if dollar.MatchString(l) {
						t.Errorf("%s:%d: a transcript without <!-- transcript: NAME --> before it", f, start+1)
						break
					}
				}
				continue
			}
			tr := transcript{file: f, name: m[1], line: start + 1, partial: m[3] != ""}
			if m[2] != "" {
				tr.steps = []step{{args: strings.Fields(m[2]), want: strings.Join(block, "\n")}}
			} else {
				for _, l := range block {
					if d := dollar.FindStringSubmatch(l); d != nil {
						tr.steps = append(tr.steps, step{args: strings.Fields(d[1]), line: l})
					} else if len(tr.steps) > 0 {
						s := &tr.steps[len(tr.steps)-1]
						s.want += l + "\n"
					}
				}
			}
			out = append(out, tr)
		}
	}
	return out
}

// script is the name of the i-th transcript's script.
func (tr transcript) script(i int) string {
	return fmt.Sprintf("%02d-%s-%s-%d", i, strings.TrimSuffix(filepath.Base(tr.file), ".md"), tr.name, tr.line)
}

// rewriteTranscripts writes what each command printed into its transcript
// (go test ./cmd/toolc -run TestTranscripts -update); a transcript of
// lines is left as it is.
func rewriteTranscripts(t *testing.T, trs []transcript, out string) {
	byFile := map[string][]int{}
	for i, tr := range trs {
		byFile[tr.file] = append(byFile[tr.file], i)
	}
	for file, idx := range byFile {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for k := len(idx) - 1; k >= 0; k-- { // from the end: line numbers stay true
			tr := trs[idx[k]]
			if tr.partial {
				continue
			}
			var block []string
			for j, s := range tr.steps {
				printed, err := os.ReadFile(fmt.Sprintf("%s-%d", filepath.Join(out, tr.script(idx[k])), j))
				if err != nil {
					t.Errorf("%s:%d: %v", file, tr.line, err)
					return
				}
				if s.line != "" {
					block = append(block, s.line)
				}
				if p := strings.TrimRight(string(printed), "\n"); p != "" {
					block = append(block, strings.Split(p, "\n")...)
				}
			}
			end := tr.line
			for lines[end] != "```" {
				end++
			}
			lines = append(lines[:tr.line], append(block, lines[end:]...)...)
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// prev is the line before the block at i, past blank lines.
func prev(lines []string, i int) string {
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(lines[j]) != "" {
			return lines[j]
		}
	}
	return ""
}

// TestTranscripts runs every transcript of README and docs/ and compares
// what toolc prints with what they quote, so no quoted output goes stale.
func TestTranscripts(t *testing.T) {
	trs := transcripts(t)
	if len(trs) < 5 {
		t.Fatalf("found %d transcripts; the extraction is broken", len(trs))
	}
	dir := t.TempDir()
	_, noCorpus := corpus.Find()
	for i, tr := range trs {
		setup, err := txtar.ParseFile(filepath.Join("testdata/transcripts", tr.name+".txtar"))
		if err != nil {
			t.Errorf("%s:%d: %v", tr.file, tr.line, err)
			continue
		}
		if needsCorpus(setup) && noCorpus != nil {
			if os.Getenv(corpus.RequireEnv) == "1" {
				t.Errorf("%s:%d: the transcript copies files of the shared corpus, which %s=1 requires: %v", tr.file, tr.line, corpus.RequireEnv, noCorpus)
			} else {
				t.Logf("%s:%d: skipped: the transcript copies files of the shared corpus, which was not found (%v)", tr.file, tr.line, noCorpus)
			}
			continue
		}
		script := &txtar.Archive{Comment: bytes.Clone(setup.Comment), Files: slices.Clone(setup.Files)}
		for j, s := range tr.steps {
			script.Comment = append(script.Comment, fmt.Sprintf("transcript %d\n", j)...)
			mode := "whole"
			if tr.partial {
				mode = "lines"
			}
			script.Files = append(script.Files, txtar.File{Name: fmt.Sprintf(".transcript/%d", j),
				Data: []byte(mode + "\n" + strings.Join(s.args, " ") + "\n" + s.want)})
		}
		name := tr.script(i)
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), txtar.Format(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if *update {
		t.Cleanup(func() { rewriteTranscripts(t, trs, out) })
	}
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TRANSCRIPT_OUT", filepath.Join(out, strings.TrimPrefix(filepath.Base(env.WorkDir), "script-")))
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GORACE", "atexit_sleep_ms=0 "+os.Getenv("GORACE"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"transcript": runTranscript,
			"corpus":     copyCorpus,
			"catalog":    copyExampleCatalog,
			"bfcl":       writeBFCL,
		},
	})
}

// needsCorpus reports whether a transcript's setup copies files of the
// shared corpus (its corpus and bfcl commands).
func needsCorpus(setup *txtar.Archive) bool {
	for _, line := range strings.Split(string(setup.Comment), "\n") {
		if cmd, _, _ := strings.Cut(strings.TrimSpace(line), " "); cmd == "corpus" || cmd == "bfcl" {
			return true
		}
	}
	return false
}

// runTranscript runs step N of the transcript and compares its output.
func runTranscript(ts *testscript.TestScript, neg bool, args []string) {
	n, _ := strconv.Atoi(args[0])
	data := ts.ReadFile(fmt.Sprintf(".transcript/%d", n))
	mode, rest, _ := strings.Cut(data, "\n")
	cmd, want, _ := strings.Cut(rest, "\n")
	_ = ts.Exec("toolc", strings.Fields(cmd)...) // a transcript may show a failing command
	printed := ts.ReadFile("stdout") + ts.ReadFile("stderr")
	if *update {
		ts.Check(os.WriteFile(fmt.Sprintf("%s-%d", ts.Getenv("TRANSCRIPT_OUT"), n), []byte(printed), 0o644))
		return
	}
	got := mask(printed)
	want = mask(want)
	if mode == "lines" {
		at := 0
		for _, l := range strings.Split(strings.TrimRight(want, "\n"), "\n") {
			i := strings.Index(got[at:], l+"\n")
			if i < 0 {
				ts.Fatalf("toolc %s prints no line\n%s\nafter what it matched so far; it printed:\n%s", cmd, l, got)
			}
			at += i + len(l) + 1
		}
		return
	}
	if strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
		ts.Fatalf("toolc %s prints, where the transcript quotes something else:\n%s", cmd, got)
	}
}

func mask(s string) string { return duration.ReplaceAllString(s, "D") }

// copyCorpus copies files of the shared corpus into a folder:
//
//	corpus mcp/reference-servers-py/*.json alpha/tools
func copyCorpus(ts *testscript.TestScript, neg bool, args []string) {
	dir, err := corpus.Find()
	if err != nil {
		if os.Getenv(corpus.RequireEnv) == "1" {
			ts.Fatalf("the shared corpus is required: %v", err)
		}
		ts.Fatalf("shared corpus not found: the transcript cannot run (TestTranscripts skips those that need it)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, args[0]))
	if len(files) == 0 {
		ts.Fatalf("corpus %s matches nothing", args[0])
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		to := ts.MkAbs(filepath.Join(args[1], filepath.Base(f)))
		ts.Check(os.MkdirAll(filepath.Dir(to), 0o755))
		ts.Check(os.WriteFile(to, data, 0o644))
	}
}

// writeBFCL writes the first n functions of the corpus's BFCL set as one
// file of OpenAI functions, as a team that wrote them for BFCL keeps them:
//
//	bfcl 8 bfcl/functions.json
func writeBFCL(ts *testscript.TestScript, neg bool, args []string) {
	dir, err := corpus.Find()
	if err != nil {
		ts.Fatalf("the shared corpus is required: %v", err)
	}
	n, _ := strconv.Atoi(args[0])
	data, err := os.ReadFile(filepath.Join(dir, "openai", "bfcl", "all_functions.distinct.jsonl"))
	ts.Check(err)
	var fns []string
	for _, l := range strings.Split(string(data), "\n") {
		if len(fns) == n {
			break
		}
		if i := strings.Index(l, `"function": `); i >= 0 {
			fns = append(fns, strings.TrimSuffix(strings.TrimSpace(l[i+len(`"function": `):]), "}"))
		}
	}
	to := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(to), 0o755))
	ts.Check(os.WriteFile(to, []byte("["+strings.Join(fns, ",\n")+"]\n"), 0o644))
}

// copyExampleCatalog copies the repository's example catalog, without its
// outputs and lock: a first build.
func copyExampleCatalog(ts *testscript.TestScript, neg bool, args []string) {
	ts.Check(os.CopyFS(ts.MkAbs("examples"), os.DirFS("../../examples")))
	data, err := os.ReadFile("../../toolc.toml")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs("toolc.toml"), data, 0o644))
}
