package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"
)

// invocation finds a toolc command in a line of a README code block: toolc
// itself, go run of the module or the repository's cmd/toolc, or the
// Makefile's $(TOOLC). What follows, up to a redirection or a comment, are
// its arguments.
var invocation = regexp.MustCompile(`(?:^|[\s:])(?:toolc|go run \S*cmd/toolc(?:@\S+)?|\$\(TOOLC\)) ([^>#]*)`)

// readmeCommands returns the arguments of every toolc command in the code
// blocks of README and docs/, except the synopsis (a text block) and the
// transcripts (TestTranscripts runs those).
func readmeCommands(t *testing.T) [][]string {
	var data []byte
	files, _ := filepath.Glob("../../docs/*.md")
	for _, f := range append([]string{"../../README.md"}, files...) {
		d, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(append(data, d...), '\n')
	}
	var cmds [][]string
	inBlock, run := false, false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			lang := strings.TrimPrefix(line, "```")
			if !inBlock {
				run = slices.Contains([]string{"sh", "yaml", "make"}, lang)
			}
			inBlock = !inBlock
			continue
		}
		if !inBlock || !run || strings.Contains(line, "go install") || strings.Contains(line, "go build") || strings.HasPrefix(line, "$ ") {
			continue
		}
		if m := invocation.FindStringSubmatch(line); m != nil {
			cmds = append(cmds, strings.Fields(m[1]))
		}
	}
	return cmds
}

// TestREADMECommands runs every toolc command of the README's code blocks,
// the GitHub Action's and the pre-commit hook's, on a copy of the example
// catalog: each must exit 0, so the recipes stay true.
func TestREADMECommands(t *testing.T) {
	cmds := readmeCommands(t)
	action := loadYAML[struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				Uses  string
				Shell string
				Run   string
				Env   map[string]string
			}
		}
	}](t, "../../action.yml")
	if action.Runs.Using != "composite" {
		t.Errorf("action.yml runs.using = %q, want composite", action.Runs.Using)
	}
	last := action.Runs.Steps[len(action.Runs.Steps)-1]
	if last.Run != `toolc $TOOLC_ARGS --error-format "$TOOLC_ERROR_FORMAT"` || last.Shell != "bash" {
		t.Errorf("action.yml's last step runs %q in %q", last.Run, last.Shell)
	}
	cmds = append(cmds, append(strings.Fields(action.Inputs["args"].Default), "--error-format", action.Inputs["error-format"].Default))

	hooks := loadYAML[[]struct {
		ID            string
		Language      string
		Entry         string
		PassFilenames *bool `yaml:"pass_filenames"`
		Files         string
	}](t, "../../.pre-commit-hooks.yaml")
	if len(hooks) != 1 || hooks[0].ID != "toolc-check" || hooks[0].Language != "golang" || hooks[0].Entry != "toolc build --check" || hooks[0].PassFilenames == nil || *hooks[0].PassFilenames {
		t.Fatalf(".pre-commit-hooks.yaml = %+v", hooks)
	}
	files := regexp.MustCompile(hooks[0].Files)
	for _, f := range []string{"toolc.toml", "toolc.lock", "examples/catalog/billing/openapi.yaml", "tools/a.json", "x.yml"} {
		if !files.MatchString(f) {
			t.Errorf("the hook's files pattern misses %s", f)
		}
	}
	cmds = append(cmds, strings.Fields(hooks[0].Entry)[1:])

	if len(cmds) < 14 {
		t.Fatalf("found %d commands in the README and integrations; the extraction is broken", len(cmds))
	}
	dir := copyCatalog(t)
	t.Chdir(dir)
	for _, args := range cmds {
		t.Logf("toolc %s", strings.Join(args, " "))
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Errorf("toolc %s = exit %d:\n%s", strings.Join(args, " "), code, stderr.String())
		}
	}
}

func loadYAML[T any](t *testing.T, file string) T {
	var v T
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// copyCatalog copies the repository's example catalog, its outputs and lock
// to a temporary folder.
func copyCatalog(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range []string{"dist", "examples"} {
		if err := os.CopyFS(filepath.Join(dir, name), os.DirFS(filepath.Join("../..", name))); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"toolc.toml", "toolc.lock", "toolc.schema.json"} {
		data, err := os.ReadFile(filepath.Join("../..", name))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestREADMESaysTheGoVersion: README names the Go version go.mod needs, not
// an older one (issue 28, item 16).
func TestREADMESaysTheGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Go " + string(m[1]); !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README does not say %q, the version go.mod needs", want)
	}
}

// TestBuildGraphWiringIsTheScripts checks that the wiring docs/ci.md shows
// for each build engine is what its script test runs: turbo.json of
// turbo.txtar, the catalog's project.json of nx.txtar (the same JSON,
// whatever its spacing), and bazel.txtar's BUILD of the catalog, its
// toolc.bzl and the BUILD of its skills (the same text), in that order.
func TestBuildGraphWiringIsTheScripts(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		engine, lang, script string
		files                []string
	}{
		{"**Turborepo**", "json", "turbo.txtar", []string{"turbo.json"}},
		{"**Nx**", "json", "nx.txtar", []string{"packages/catalog/project.json"}},
		{"**Bazel**", "starlark", "bazel.txtar", []string{"repo/catalog/BUILD", "repo/toolc.bzl", "repo/skills/BUILD"}},
	} {
		archive, err := txtar.ParseFile(filepath.Join("testdata/script", c.script))
		if err != nil {
			t.Fatal(err)
		}
		_, after, ok := bytes.Cut(doc, []byte("\n"+c.engine))
		if !ok {
			t.Errorf("docs/ci.md has no %s", c.engine)
			continue
		}
		for _, file := range c.files {
			_, rest, ok := bytes.Cut(after, []byte("```"+c.lang+"\n"))
			var block []byte
			block, after, _ = bytes.Cut(rest, []byte("```"))
			if !ok {
				t.Errorf("docs/ci.md has no %s block after %s for %s", c.lang, c.engine, file)
				break
			}
			i := slices.IndexFunc(archive.Files, func(f txtar.File) bool { return f.Name == file })
			if i < 0 {
				t.Fatalf("%s has no %s", c.script, file)
			}
			run := archive.Files[i].Data
			same := bytes.Equal(block, run)
			if c.lang == "json" {
				var shownJSON, runJSON any
				if err := json.Unmarshal(block, &shownJSON); err != nil {
					t.Fatalf("docs/ci.md's %s block: %v", c.engine, err)
				}
				if err := json.Unmarshal(run, &runJSON); err != nil {
					t.Fatal(err)
				}
				same = reflect.DeepEqual(shownJSON, runJSON)
			}
			if !same {
				t.Errorf("docs/ci.md shows %s a %s that is not %s's:\n%s\nwant:\n%s", c.engine, file, c.script, block, run)
			}
		}
	}
}
