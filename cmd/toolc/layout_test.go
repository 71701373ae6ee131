package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"
)

// TestLayoutImportsPointDown holds the code to README's Layout: every Go
// package of the module is listed there, and each imports only packages
// listed below it, so no import runs back up and no two packages need each
// other.
func TestLayoutImportsPointDown(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Layout")
	if start < 0 {
		t.Fatal("README has no Layout section")
	}
	block := text[start:]
	block = block[strings.Index(block, "```\n")+4:]
	block = block[:strings.Index(block, "```")]
	rank := map[string]int{} // package folder → its place in the list
	for _, line := range strings.Split(block, "\n") {
		names, _, _ := strings.Cut(line, "  ")
		for _, name := range strings.Split(names, ", ") {
			if name = strings.TrimSuffix(strings.TrimSpace(name), "/"); name != "" {
				rank[name] = len(rank)
			}
		}
	}

	const module = "github.com/toolc-dev/toolc/"
	root := os.DirFS("../..")
	fset := token.NewFileSet()
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "dist") && p != "." {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := path.Dir(p)
		me, listed := rank[pkg]
		if !listed {
			t.Errorf("README's Layout does not list %s (of %s)", pkg, p)
			return nil
		}
		f, err := parser.ParseFile(fset, "../../"+p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			dep, _ := strconv.Unquote(imp.Path.Value)
			dep, ours := strings.CutPrefix(dep, module)
			if !ours {
				continue
			}
			if r, ok := rank[dep]; !ok {
				t.Errorf("%s imports %s, which README's Layout does not list", p, dep)
			} else if r <= me {
				t.Errorf("%s imports %s, which README's Layout lists above it: an import back up", p, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rank) < 20 {
		t.Fatalf("read %d packages from README's Layout; the parsing is broken", len(rank))
	}
}
