// Package scaffold plans a first toolc.toml for a folder of tool files, as
// toolc init writes it: it scans the folder, detects each file's format,
// groups the files by folder and format into sources, gives each folder a
// namespace of its own, leaves out (with the reason) the files that would
// fail the build, and writes the manifest text with the common targets.
//
// It reads through an fs.FS and writes nothing; the command writes the file.
package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/accept"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/validate"
)

// found is one folder's tool files of one format.
type found struct {
	dir       string // '/'-separated, relative to the scanned folder; "." for itself
	format    string
	files     []string          // base names, in path order
	siblings  []string          // the folder's other files with the same extension
	left      map[string]string // files left out → why
	tools     map[string]int    // file → its tools
	namespace string
	// captures are the files that are one server's tools/list as a client
	// captured it (named *tools_list*, or a JSON-RPC response); repairs
	// the files that need repair = true (dict, float, nullable …).
	captures, repairs map[string]bool
	// hashes are each file's tools: name → content hash.
	hashes map[string]map[string]string
	// server names the one server whose capture this group is, when a
	// folder of captures of several servers was split file by file.
	server string
}

func newFound(dir, format string) *found {
	return &found{dir: dir, format: format, left: map[string]string{}, tools: map[string]int{},
		captures: map[string]bool{}, repairs: map[string]bool{}, hashes: map[string]map[string]string{}}
}

// take adds file f to g, with what was found of it in from.
func (g *found) take(from *found, f string) {
	g.files = append(g.files, f)
	g.tools[f], g.captures[f], g.repairs[f], g.hashes[f] = from.tools[f], from.captures[f], from.repairs[f], from.hashes[f]
}

// scanned is what init found.
type scanned struct {
	groups []*found
	maybe  []string     // files that might be tool files, with format and confidence
	files  fstest.MapFS // every file the sources could include, to build in memory
}

// Plan is a starter manifest for a folder of tool files: the text of a
// toolc.toml that builds, and what a build of it gives.
type Plan struct {
	// Manifest is the manifest's text, comments and all.
	Manifest string
	// Result is the build of the manifest, made in memory.
	Result *pipeline.Result
	// Files counts the tool files the manifest includes, in Sources
	// sources; LeftOut the files left out because they would not build
	// (the manifest says why).
	Files, Sources, LeftOut int
}

// New scans fsys for tool files and plans a manifest, named name in its
// catalog table, that builds: it builds the manifest in memory and leaves
// out each file that still fails (a tool defined twice, a schema no repair
// fixes), until the manifest builds, and says in it what it left out and
// why.
func New(ctx context.Context, fsys fs.FS, name string) (*Plan, error) {
	sc, err := scan(fsys)
	if err != nil {
		return nil, err
	}
	sc.groups = splitServers(sc.groups)
	assignNamespaces(sc.groups)
	p := &Plan{}
	for range maxInitRounds {
		p.Manifest = starter(name, sc.groups, sc.maybe)
		sc.files[pipeline.DefaultManifest] = &fstest.MapFile{Data: []byte(p.Manifest)}
		// The check reads the text init writes, comments and all: that
		// text, not a value beside it, is what has to build.
		m, err := pipeline.ReadManifest(sc.files, pipeline.DefaultManifest)
		if err == nil {
			p.Result, err = pipeline.Build(ctx, sc.files, m, pipeline.Options{})
		}
		var ce *pipeline.ConfigError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("internal error: the starter manifest is invalid: %v", ce)
		} else if err != nil {
			return nil, err
		}
		if !leaveOutFailing(sc.groups, p.Result.Diagnostics) {
			break
		}
	}
	for _, g := range sc.groups {
		if len(g.files) > 0 {
			p.Files += len(g.files)
			p.Sources++
		}
		p.LeftOut += len(g.left)
	}
	return p, nil
}

// skipDirs are folders that hold dependencies or outputs, not tool sources.
var skipDirs = []string{"node_modules", "vendor", "dist"}

// maxInitRounds bounds the builds init makes while it leaves out failing
// files: each round leaves out every file that failed in the one before.
const maxInitRounds = 5

// initConfidence is the detection confidence a file needs to be included;
// below it (a package.json has name and description, and so looks a little
// like an OpenAI function) the file is only mentioned.
const initConfidence = 0.9

// scan walks fsys for files that decode to at least one tool, grouped by
// folder and format, in path order, and lists the files that only might be
// tool files.
func scan(fsys fs.FS) (*scanned, error) {
	reg := formats.Default()
	sc := &scanned{files: fstest.MapFS{}}
	byKey := map[[2]string]*found{}
	names := map[[2]string][]string{} // dir, extension → every such file
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
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
		if (ext != ".json" && ext != ".yaml" && ext != ".yml") || p == pipeline.DefaultManifest {
			return nil
		}
		dir := path.Dir(p)
		// Every such name, so that a glob over the folder leaves out what
		// init does not read: a named pipe (reading one waits forever), a
		// symbolic link (it may lead outside the folder).
		names[[2]string{dir, ext}] = append(names[[2]string{dir, ext}], name)
		if !d.Type().IsRegular() {
			return nil
		}
		sc.read(fsys, reg, p, byKey)
		return nil
	})
	for _, g := range sc.groups {
		for _, n := range names[[2]string{g.dir, path.Ext(g.files[0])}] {
			if !slices.Contains(g.files, n) {
				g.siblings = append(g.siblings, n)
			}
		}
	}
	return sc, err
}

// read reads the file at p: one that decodes to tools is added to the
// group of its folder and format, one that only might be a tool file is
// listed as maybe.
func (sc *scanned) read(fsys fs.FS, reg *formats.Registry, p string, byKey map[[2]string]*found) {
	dir, name := path.Dir(p), path.Base(p)
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return // not ours to judge: build will report it if it is named
	}
	sc.files[p] = &fstest.MapFile{Data: data}
	doc, err := formats.Parse(data, p)
	if err != nil {
		return
	}
	det := reg.Detect(doc)
	if det.Err != nil {
		return
	}
	a, _ := reg.Get(det.Format)
	tools, ds := a.Decode(doc, p)
	if len(tools) == 0 || diag.HasErrors(ds) {
		return
	}
	if c := det.Scores[0].Confidence; c < initConfidence {
		sc.maybe = append(sc.maybe, fmt.Sprintf("%s (%s, %.2f)", p, det.Format, c))
		return
	}
	key := [2]string{dir, det.Format}
	g := byKey[key]
	if g == nil {
		g = newFound(dir, det.Format)
		byKey[key] = g
		sc.groups = append(sc.groups, g)
	}
	g.files = append(g.files, name)
	g.tools[name] = len(tools)
	g.captures[name] = det.Format == "mcp" && (captureName.MatchString(name) || doc.Has("jsonrpc") || doc.Has("serverInfo"))
	g.hashes[name] = map[string]string{}
	for _, t := range tools {
		g.hashes[name][t.Name] = t.Hash()
		if len(validate.Repair(t)) > 0 {
			g.repairs[name] = true
		}
	}
}

// captureName matches the name of a file that holds one server's
// tools/list, as MCP clients and inspectors save them
// (server-github.tools_list.json, fetch-tools-list.json).
var captureName = regexp.MustCompile(`(?i)tools?[-_.]?list`)

// splitServers gives each file of a folder that holds several servers a
// source of its own, named for its server: the captures of a folder with
// two or more (one folder of ten servers' captures is ten servers), and
// any two files that define one tool name differently (create_branch in
// git's and GitHub's), which one source would fail on and init would
// otherwise leave out whole. The folder's other files stay one source.
func splitServers(groups []*found) []*found {
	var out []*found
	for _, g := range groups {
		caps := serverFiles(g)
		slices.SortFunc(caps, func(a, b string) int { return slices.Index(g.files, a) - slices.Index(g.files, b) })
		if len(caps) < 2 {
			out = append(out, g)
			continue
		}
		servers := serverNames(caps)
		for i, f := range caps {
			one := newFound(g.dir, g.format)
			one.server = servers[i]
			one.take(g, f)
			for _, o := range append(slices.Clone(g.files), g.siblings...) {
				if o != f {
					one.siblings = append(one.siblings, o)
				}
			}
			out = append(out, one)
		}
		rest := newFound(g.dir, g.format)
		rest.left, rest.siblings = g.left, slices.Concat(g.siblings, caps)
		for _, f := range g.files {
			if !slices.Contains(caps, f) {
				rest.take(g, f)
			}
		}
		if len(rest.files) > 0 {
			out = append(out, rest)
		}
	}
	return out
}

// serverFiles are the files of g that are servers of their own: its
// captures where it has two or more, and any two files that define one
// tool name differently (a copy of a tool is left out instead, by the
// build).
func serverFiles(g *found) []string {
	var caps []string
	for _, f := range g.files {
		if g.captures[f] {
			caps = append(caps, f)
		}
	}
	if len(caps) < 2 {
		caps = nil
	}
	for i, f := range g.files {
		for _, o := range g.files[i+1:] {
			for name, h := range g.hashes[f] {
				if oh, ok := g.hashes[o][name]; ok && oh != h {
					for _, x := range []string{f, o} {
						if !slices.Contains(caps, x) {
							caps = append(caps, x)
						}
					}
				}
			}
		}
	}
	return caps
}

// serverNames names the server of each capture file: its name without
// the extension, the tools_list part, and what every name begins with
// (server-github.tools_list.json and server-git.tools_list.json: github
// and git).
func serverNames(files []string) []string {
	stems := make([]string, len(files))
	for i, f := range files {
		stem := strings.TrimSuffix(f, path.Ext(f))
		if loc := captureName.FindStringIndex(stem); loc != nil {
			stem = strings.Trim(stem[:loc[0]]+stem[loc[1]:], "-_.")
		}
		stems[i] = stem
	}
	prefix := stems[0]
	for _, s := range stems[1:] {
		for !strings.HasPrefix(s, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	// Only up to a separator: server-git and server-github share "server-git".
	prefix = prefix[:strings.LastIndexAny(prefix, "-_.")+1]
	names := make([]string, len(files))
	for i, s := range stems {
		names[i] = strings.TrimPrefix(s, prefix)
		if namespaceFor(names[i]) == "" {
			names[i] = s
		}
	}
	return names
}

// leaveOutFailing moves each file of the groups that has an error in ds
// to its group's left-out files, with the first error as the reason, and
// reports whether it left out any.
func leaveOutFailing(groups []*found, ds []diag.Diagnostic) bool {
	changed := false
	for _, d := range ds {
		if d.Severity != diag.Error || d.File == "" {
			continue
		}
		dir, name := path.Dir(d.File), path.Base(d.File)
		for _, g := range groups {
			if g.dir != dir || !slices.Contains(g.files, name) {
				continue
			}
			g.files = slices.DeleteFunc(g.files, func(f string) bool { return f == name })
			delete(g.tools, name)
			g.siblings = append(g.siblings, name)
			g.left[name] = d.Code + ": " + d.Text() // whole: a cut reason hides the fix
			changed = true
		}
	}
	return changed
}

// assignNamespaces gives each folder a namespace of its own: the folder's
// name, or with its parents' when another folder has the same name
// (alpha/tools and beta/tools: alpha-tools and beta-tools).
func assignNamespaces(groups []*found) {
	dirs := map[string]bool{}
	for _, g := range groups {
		if g.dir != "." {
			dirs[g.dir] = true
		}
	}
	depth := map[string]int{}
	for d := range dirs {
		depth[d] = 1
	}
	ns := func(d string) string {
		parts := strings.Split(d, "/")
		return namespaceFor(strings.Join(parts[max(len(parts)-depth[d], 0):], "-"))
	}
	for range 16 { // more folders deep than that share no name in practice
		byNS := map[string][]string{}
		for d := range dirs {
			byNS[ns(d)] = append(byNS[ns(d)], d)
		}
		clash := false
		for n, ds := range byNS {
			if len(ds) > 1 || n == "" {
				for _, d := range ds {
					if depth[d] < strings.Count(d, "/")+1 {
						depth[d]++
						clash = true
					}
				}
			}
		}
		if !clash {
			break
		}
	}
	for _, g := range groups {
		if g.dir != "." {
			g.namespace = ns(g.dir)
		}
	}
	nameServers(groups)
}

// nameServers names a server's capture for its server; where two folders
// hold a server of one name, or a folder has that name, with its folder's.
func nameServers(groups []*found) {
	count := map[string]int{}
	for _, g := range groups {
		if g.server != "" {
			count[namespaceFor(g.server)]++
		} else if g.namespace != "" {
			count[g.namespace]++
		}
	}
	for _, g := range groups {
		if g.server == "" {
			continue
		}
		n := namespaceFor(g.server)
		if count[n] > 1 && g.namespace != "" {
			n = g.namespace + "-" + n
		}
		g.namespace = n
	}
}

var (
	notNamespace = regexp.MustCompile(`[^a-z0-9_-]+`)
	namespaceOK  = regexp.MustCompile(manifest.NamespacePattern)
)

// namespaceFor makes a folder's name a namespace the manifest takes, or ""
// when nothing of it is left.
func namespaceFor(dir string) string {
	ns := shortName(path.Base(dir))
	if !namespaceOK.MatchString(ns) {
		return ""
	}
	return ns
}

// mcpAffixes are what server names repeat that says nothing of the server:
// server-github, notion-mcp-server, playwright-mcp.
var (
	mcpPrefixes = []string{"mcp-server-", "mcp_server_", "server-", "server_", "mcp-", "mcp_"}
	mcpSuffixes = []string{"-mcp-server", "_mcp_server", "-server", "_server", "-mcp", "_mcp"}
)

// shortName is a namespace for a file or folder name: short, and legal in
// the tool names of every client it is written for (Claude Desktop takes
// only letters, digits, '_' and '-'): lower case, cut at its first '.'
// (playwright-mcp.caps-all), without the words every MCP server's name
// repeats (server-github, notion-mcp-server), other characters as '_'.
func shortName(name string) string {
	n := strings.ToLower(name)
	if i := strings.IndexByte(n, '.'); i > 0 && strings.ContainsAny(n[i:], "abcdefghijklmnopqrstuvwxyz") {
		n = n[:i] // a variant's name: playwright-mcp.caps-all; v1.2 stays v1_2
	}
	for changed := true; changed; {
		changed = false
		for _, p := range mcpPrefixes {
			if rest, ok := strings.CutPrefix(n, p); ok && rest != "" {
				n, changed = rest, true
			}
		}
		for _, x := range mcpSuffixes {
			if rest, ok := strings.CutSuffix(n, x); ok && rest != "" {
				n, changed = rest, true
			}
		}
	}
	n = notNamespace.ReplaceAllString(n, "_")
	return strings.Trim(n, "_-")
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
	if !slices.ContainsFunc(groups, func(g *found) bool { return len(g.files) > 0 }) {
		b.WriteString(`
# No tool files were found. Put tool definitions (MCP, OpenAI, Anthropic,
# Gemini, Bedrock, LangChain, OpenAPI …) under tools/ or change the glob.
[[sources]]
include = ["tools/**/*.json"]
optional = true                 # tools/ is empty so far: remove this once it holds tool files
`)
	}
	if len(maybe) > 0 {
		b.WriteString("\n# Left out: these files decode as tools but do not look much like them\n# (format, detection confidence). Add a source with the format if they are.\n")
		for _, m := range maybe {
			b.WriteString("#   " + m + "\n")
		}
	}
	namespaced := false
	for _, g := range groups {
		namespaced = writeSource(&b, g) || namespaced
	}
	b.WriteString("\n# One bundle per provider, in the shape its API takes.\n")
	if namespaced {
		b.WriteString("# Namespaces rename the emitted tools: a model sees namespace__name (the\n# names template), and toolc.lock maps each name back to its tool ID.\n")
	}
	writeTargets(&b, groups)
	return b.String()
}

// writeSource writes one group's [[sources]] entry, after what was left
// out of it and why, and reports whether it sets a namespace.
func writeSource(b *strings.Builder, g *found) (namespaced bool) {
	for _, f := range slices.Sorted(maps.Keys(g.left)) {
		b.WriteString("\n" + comment(fmt.Sprintf("Left out: %s does not build: %s", path.Join(g.dir, f), g.left[f])))
	}
	if len(g.left) > 0 {
		b.WriteString("\n")
	}
	if len(g.files) == 0 {
		return false
	}
	if g.server != "" {
		fmt.Fprintf(b, "\n# %s: the %s server (%s), a source of its own\n[[sources]]\n", path.Join(g.dir, g.files[0]), g.server, diagfmt.Plural(sum(maps.Values(g.tools)), "tool"))
	} else {
		fmt.Fprintf(b, "\n# %s in %s (%s)\n[[sources]]\n", diagfmt.Plural(len(g.files), "file"), g.dir, diagfmt.Plural(sum(maps.Values(g.tools)), "tool"))
	}
	include, exclude := globs(g)
	fmt.Fprintf(b, "include = [%s]\n", strings.Join(include, ", "))
	if len(exclude) > 0 {
		fmt.Fprintf(b, "exclude = [%s]\n", strings.Join(exclude, ", "))
	}
	fmt.Fprintf(b, "format = %q\n", g.format)
	if g.namespace != "" {
		fmt.Fprintf(b, "namespace = %q  # tool IDs become %s:name\n", g.namespace, g.namespace)
	}
	if slices.ContainsFunc(g.files, func(f string) bool { return g.repairs[f] }) {
		b.WriteString("repair = true                   # its schemas use non-standard types (dict, float …) or keywords: rewritten as JSON Schema, each a repair.* warning\n")
	}
	if n, max := sum(maps.Values(g.tools)), openAIMaxTools(); g.format == "openapi" && max > 0 && n > max {
		fmt.Fprintf(b, "# %d operations: more than the %d tools OpenAI takes in a request. Choose\n"+
			"# some (docs/formats.md: Importing an HTTP API), for example:\n"+
			"# [sources.openapi]\n# include = { tags = [\"...\"], methods = [\"get\"] }\n", n, max)
	}
	return g.namespace != ""
}

// openAIPreset is the comment that shows a select preset for a catalog of
// more tools than OpenAI takes in one request, "" for one that fits: a
// preset per agent is the user's choice to make, so it is shown, not
// made. The example takes namespaces while they fit.
func openAIPreset(groups []*found, total int) string {
	max := openAIMaxTools()
	if max <= 0 || total <= max {
		return ""
	}
	perNS := map[string]int{}
	var order []string
	for _, g := range groups {
		if g.namespace != "" && len(g.files) > 0 {
			if _, ok := perNS[g.namespace]; !ok {
				order = append(order, g.namespace)
			}
			perNS[g.namespace] += sum(maps.Values(g.tools))
		}
	}
	var ns []string
	n := 0
	for _, name := range order {
		if n+perNS[name] <= max {
			ns, n = append(ns, strconv.Quote(name)), n+perNS[name]
		}
	}
	example := `select = { tags = ["..."] }`
	if len(ns) > 0 && n < total {
		example = "select = { namespaces = [" + strings.Join(ns, ", ") + "] }  # " + diagfmt.Plural(n, "tool")
	}
	return comment(fmt.Sprintf("OpenAI takes at most %d tools in one request and this catalog has %d (accept.tools): give each agent a target with part of it (docs/formats.md: Presets), for example", max, total)) + "\n# " + example + "\n"
}

// writeTargets writes the targets and the policy.
func writeTargets(b *strings.Builder, groups []*found) {
	total := 0
	for _, g := range groups {
		total += sum(maps.Values(g.tools))
	}
	anthropicStrict := "strict = \"auto\"\n"
	if max := anthropicMaxStrict(); max > 0 && total > max {
		// Anthropic takes at most that many strict tools in one request:
		// strict mode for a bigger catalog is refused, not a setting.
		anthropicStrict = fmt.Sprintf("# strict = \"auto\"              # Anthropic takes at most %d strict tools in one request; this catalog has %d\n", max, total)
	}
	b.WriteString(`[[targets]]
format = "mcp"
out = "dist/mcp.json"

[[targets]]
format = "openai"
out = "dist/openai.json"
strict = "auto"                 # strict where it narrows nothing; true forces it, false turns it off
` + openAIPreset(groups, total) + `
[[targets]]
format = "anthropic"
out = "dist/anthropic.json"
` + anthropicStrict + `
[[targets]]
format = "gemini"
out = "dist/gemini.json"

[[targets]]
format = "canonical"
out = "dist/canonical.json"     # the catalog itself: what toolc decode and toolc breaking read

[policy]
# What to do with codes or whole categories: deny (fail the build), warn, or
# ignore. Errors always fail.
warn = ["loss"]                 # a target drops something it cannot carry
# Hints, titles and icons are for MCP clients, scopes and versions for the
# server that runs the tool; models do without them.
ignore = ["loss.annotations", "loss.title", "loss.icons", "loss.metadata"]
# deny = ["loss.ref", "lint"]   # fail on recursive refs a target cannot take, and on lint
`)
}

// comment writes text as comment lines of at most 78 characters, broken
// at spaces (a word longer than a line stays whole), lines after the first
// indented under the first's text, without a final newline.
func comment(text string) string {
	return "# " + strings.ReplaceAll(diagfmt.Wrap(text, 74), "\n", "\n#   ")
}

func sum(ns iter.Seq[int]) int {
	t := 0
	for n := range ns {
		t += n
	}
	return t
}

// globs returns a group's include and exclude globs, quoted: the folder's
// files of that extension, less the few that are not in the group, or
// the group's files when they are the fewer.
func globs(g *found) (include, exclude []string) {
	all := path.Join(g.dir, "*"+path.Ext(g.files[0]))
	switch {
	case len(g.siblings) == 0:
		return []string{fmt.Sprintf("%q", all)}, nil
	case len(g.siblings) < len(g.files):
		for _, f := range slices.Sorted(slices.Values(g.siblings)) {
			exclude = append(exclude, fmt.Sprintf("%q", path.Join(g.dir, escapeGlob(f))))
		}
		return []string{fmt.Sprintf("%q", all)}, exclude
	}
	for _, f := range g.files {
		include = append(include, fmt.Sprintf("%q", path.Join(g.dir, escapeGlob(f))))
	}
	return include, nil
}

var globMeta = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `{`, `\{`)

func escapeGlob(s string) string { return globMeta.Replace(s) }

// anthropicMaxStrict is how many strict tools Anthropic takes in one
// request, from its acceptance table; 0 if the table does not say.
func anthropicMaxStrict() int {
	t, _ := accept.TableNamed("anthropic")
	return requestMax(t, true, accept.StrictTools)
}

// openAIMaxTools is how many tools OpenAI takes in one request, from its
// acceptance table; 0 if the table does not say.
func openAIMaxTools() int {
	t, _ := accept.TableNamed("openai")
	return requestMax(t, false, accept.Tools)
}

// requestMax is the Max of the table's request rule of kind (of its
// strict tools when strict); 0 if it has none.
func requestMax(t *accept.Table, strict bool, kind accept.Kind) int {
	if t == nil {
		return 0
	}
	rules := t.Request
	if strict {
		rules = t.StrictRequest
	}
	for _, r := range rules {
		if r.Kind == kind {
			return r.Max
		}
	}
	return 0
}

// Write writes the manifest to dir's toolc.toml, never over one that is
// there (O_EXCL: not even one written since the caller looked).
func (p *Plan) Write(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, manifest.DefaultFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(p.Manifest); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Errors are the errors of the manifest's build (its warnings are for
// toolc build to list).
func (p *Plan) Errors() []diag.Diagnostic {
	var errs []diag.Diagnostic
	for _, d := range p.Result.Diagnostics {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	return errs
}

// Summary says what init wrote, the manifest named by name.
func (p *Plan) Summary(name string) string {
	errs, warns, _ := diagfmt.Count(p.Result.Diagnostics)
	msg := fmt.Sprintf("wrote %s: %s in %s, %s; toolc build now gives %s and %s",
		name, diagfmt.Plural(p.Files, "tool file"), diagfmt.Plural(p.Sources, "source"), diagfmt.Plural(p.Result.Tools, "tool"), diagfmt.Plural(warns, "warning"), diagfmt.Plural(errs, "error"))
	if p.LeftOut > 0 {
		msg += fmt.Sprintf(" (%s that would not build left out; the manifest says why)", diagfmt.Plural(p.LeftOut, "file"))
	}
	return msg
}
