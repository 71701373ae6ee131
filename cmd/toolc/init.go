package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/adapters"
	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/report"
	"github.com/toolc-dev/toolc/manifest"
)

func newInit(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter toolc.toml for the tool files in a folder",
		Long: `Init scans DIR (default: the working directory) for tool files (.json, .yaml, .yml),
detects their formats, and writes a commented toolc.toml beside them: one source per
folder and format, the common targets, and a sample policy. It builds the new
manifest in memory first and prints what toolc build would say.

Hidden folders, node_modules, vendor and dist are not scanned. It never overwrites
a manifest: an existing toolc.toml makes it exit 1.`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out, err := a.output()
			if err != nil {
				return err
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runInit(cmd, dir, out)
		},
	}
}

// found is one folder's tool files of one format.
type found struct {
	dir    string // '/'-separated, relative to the scanned folder; "." for itself
	format string
	files  []string // base names
	others bool     // the folder has files with the same extension that are not in this group
	tools  int
}

// skipDirs are folders that hold dependencies or outputs, not tool sources.
var skipDirs = []string{"node_modules", "vendor", "dist"}

func runInit(cmd *cobra.Command, dir string, out *output) error {
	info, err := os.Stat(dir)
	if err != nil {
		return out.fail(exitUsage, "%v", err)
	}
	if !info.IsDir() {
		return out.fail(exitUsage, "%s is not a folder", dir)
	}
	manifestPath := filepath.Join(dir, compiler.DefaultManifest)
	if _, err := os.Stat(manifestPath); err == nil {
		return out.fail(exitFailed, "%s exists; not overwriting it", manifestPath)
	}
	fsys := os.DirFS(dir)
	groups, maybe, err := scan(fsys)
	if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	text := starter(filepath.Base(absPath(dir)), groups, maybe)

	// O_EXCL: a manifest written since the check above is not overwritten.
	f, err := os.OpenFile(manifestPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return out.fail(exitFailed, "%v", err)
	}
	if err := f.Close(); err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	// Build it, writing nothing, so that init says what build will say.
	res, err := compiler.Build(cmd.Context(), fsys, compiler.Options{})
	var ce *compiler.ConfigError
	if errors.As(err, &ce) {
		return out.fail(exitFailed, "internal error: the starter manifest is invalid: %v", ce)
	} else if err != nil {
		return out.fail(exitFailed, "%v", err)
	}
	cwd, _ := os.Getwd()
	out.relativeTo(cwd, absPath(dir))
	var errs []diag.Diagnostic // the warnings are counted; toolc build lists them
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	out.diagnostics(errs, false)
	files := 0
	for _, g := range groups {
		files += len(g.files)
	}
	_, warns, _ := report.Count(res.Diagnostics)
	out.status("wrote %s: %s in %s, %s; toolc build now gives %s and %s",
		out.path(compiler.DefaultManifest), plural(files, "tool file"), plural(len(groups), "source"), plural(res.Tools, "tool"), plural(warns, "warning"), plural(len(errs), "error"))
	return nil
}

func absPath(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// initConfidence is the detection confidence a file needs to be included;
// below it (a package.json has name and description, and so looks a little
// like an OpenAI function) the file is only mentioned.
const initConfidence = 0.9

// scan walks fsys for files that decode to at least one tool, grouped by
// folder and format, in path order, and lists the files that only might be
// tool files.
func scan(fsys fs.FS) (groups []*found, maybe []string, err error) {
	reg := adapters.Default()
	byKey := map[[2]string]*found{}
	exts := map[string]map[string]int{} // dir → extension → files seen
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || slices.Contains(skipDirs, name)) {
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(name)
		if !d.Type().IsRegular() || (ext != ".json" && ext != ".yaml" && ext != ".yml") {
			return nil
		}
		dir := path.Dir(p)
		if exts[dir] == nil {
			exts[dir] = map[string]int{}
		}
		exts[dir][ext]++
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil // not ours to judge: build will report it if it is named
		}
		doc, err := adapters.Parse(data, p)
		if err != nil {
			return nil
		}
		det := reg.Detect(doc)
		if det.Err != nil {
			return nil
		}
		a, _ := reg.Get(det.Format)
		tools, ds := a.Decode(doc, p)
		if len(tools) == 0 || diag.HasErrors(ds) {
			return nil
		}
		if c := det.Scores[0].Confidence; c < initConfidence {
			maybe = append(maybe, fmt.Sprintf("%s (%s, %.2f)", p, det.Format, c))
			return nil
		}
		key := [2]string{dir, det.Format}
		g := byKey[key]
		if g == nil {
			g = &found{dir: dir, format: det.Format}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.files = append(g.files, name)
		g.tools += len(tools)
		return nil
	})
	for _, g := range groups {
		n := 0
		for _, f := range g.files {
			if path.Ext(f) == path.Ext(g.files[0]) {
				n++
			}
		}
		g.others = n != len(g.files) || n != exts[g.dir][path.Ext(g.files[0])]
	}
	return groups, maybe, err
}

var (
	notNamespace = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
	namespaceOK  = regexp.MustCompile(manifest.NamespacePattern)
)

// namespaceFor makes a folder's name a namespace the manifest takes, or ""
// when nothing of it is left.
func namespaceFor(dir string) string {
	ns := notNamespace.ReplaceAllString(path.Base(dir), "_")
	ns = strings.TrimLeft(ns, "_.-")
	if !namespaceOK.MatchString(ns) {
		return ""
	}
	return ns
}

// starter writes the manifest text for the groups found.
func starter(name string, groups []*found, maybe []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `#:schema https://raw.githubusercontent.com/toolc-dev/toolc/main/toolc.schema.json
# toolc.toml: what toolc build reads. Written by toolc init; edit it freely.
# Every path is relative to this file. toolc explain CODE says what a
# diagnostic means; toolc rules lists them all.
version = 1

[catalog]
name = %q
version = "0.1.0"               # semantic; toolc breaking checks each release's bump
`, name)
	if len(groups) == 0 {
		b.WriteString(`
# No tool files were found. Put tool definitions (MCP, OpenAI, Anthropic,
# Gemini, Bedrock, LangChain, OpenAPI …) under tools/ or change the glob.
[[sources]]
include = ["tools/**/*.json"]
`)
	}
	if len(maybe) > 0 {
		b.WriteString("\n# Left out: these files decode as tools but do not look much like them\n# (format, detection confidence). Add a source with the format if they are.\n")
		for _, m := range maybe {
			b.WriteString("#   " + m + "\n")
		}
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n# %s in %s (%s)\n[[sources]]\n", plural(len(g.files), "file"), g.dir, plural(g.tools, "tool"))
		fmt.Fprintf(&b, "include = [%s]\n", strings.Join(includes(g), ", "))
		fmt.Fprintf(&b, "format = %q\n", g.format)
		if ns := namespaceFor(g.dir); g.dir != "." && ns != "" {
			fmt.Fprintf(&b, "namespace = %q  # tool IDs become %s:name\n", ns, ns)
		}
	}
	b.WriteString(`
# One bundle per provider, in the shape its API takes.
[[targets]]
format = "mcp"
out = "dist/mcp.json"

[[targets]]
format = "openai"
out = "dist/openai.json"
strict = "auto"                 # strict where it narrows nothing; true forces it, false turns it off

[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
strict = "auto"

[[targets]]
format = "gemini"
out = "dist/gemini.json"

[policy]
# What to do with codes or whole categories: deny (fail the build), warn, or
# ignore. Errors always fail.
warn = ["loss"]                 # a target drops something it cannot carry
ignore = ["loss.annotations", "loss.title", "loss.icons"]  # MCP-only fields
# deny = ["loss.ref", "lint"]   # fail on recursive refs a target cannot take, and on lint
`)
	return b.String()
}

// includes returns a group's include globs, quoted: one glob for the folder
// when every file with that extension there is in the group, else the files.
func includes(g *found) []string {
	var out []string
	if !g.others {
		out = append(out, fmt.Sprintf("%q", path.Join(g.dir, "*"+path.Ext(g.files[0]))))
		return out
	}
	for _, f := range g.files {
		out = append(out, fmt.Sprintf("%q", path.Join(g.dir, escapeGlob(f))))
	}
	return out
}

var globMeta = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `{`, `\{`)

func escapeGlob(s string) string { return globMeta.Replace(s) }
