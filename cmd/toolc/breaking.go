package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolc-dev/toolc/adapters"
	"github.com/toolc-dev/toolc/breaking"
	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/compiler"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/gitfs"
	"github.com/toolc-dev/toolc/internal/report"
)

type breakingFlags struct {
	dir, manifest, against string
	strict                 bool
	format                 string // of the verdict: text or markdown
}

func newBreaking(a *app) *cobra.Command {
	var f breakingFlags
	cmd := &cobra.Command{
		Use:   "breaking --against REF [-C DIR] [--manifest FILE]",
		Short: "Say what breaks callers since an earlier catalog, and which semver bump it needs",
		Long: `Breaking builds the catalog and an earlier one to canonical form, in memory, and
compares them tool by tool (matched by ID), walking each pair of schemas together.
A change is breaking when the new input schema rejects arguments the old one
accepted, or the new output schema allows results the old one did not promise.

REF is a canonical bundle (a file), a folder holding the earlier catalog (its
manifest has the same name), or else a git revision: the manifest and sources as
they were at REF, read with git (no clone, no checkout).

It prints the semantic-version bump the changes need (major, minor, patch or
none) with the reasons, and compares it with [catalog] version: a breaking change
without a major bump is breaking.version (exit 1). A release whose version bump
is at least what the changes need passes: its breaking changes are printed as
warnings, what the release contains. With --strict every breaking change fails,
whatever the version, for teams that want each one acknowledged in the
manifest's policy. It exits 1 when an error remains after the manifest's policy,
which may ignore any breaking code.

Against a revision or folder without the manifest (the first release after
adopting toolc), every tool is added.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, err := a.output()
			if err != nil {
				return err
			}
			return runBreaking(cmd.Context(), f, out)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.against, "against", "", "the earlier catalog: a git `REF`, a folder or a canonical bundle")
	fl.StringVarP(&f.dir, "directory", "C", "", "change to `DIR` before doing anything")
	fl.StringVar(&f.manifest, "manifest", compiler.DefaultManifest, "the manifest `FILE`; paths in it are relative to its folder")
	fl.StringVar(&f.format, "format", "text", "the verdict as `text`, or as markdown release notes (added, changed, breaking, removed tools) for a changelog or $GITHUB_STEP_SUMMARY")
	fl.BoolVar(&f.strict, "strict", false, "fail on every breaking change, even in a release whose version says it breaks")
	_ = cmd.MarkFlagRequired("against")
	return cmd
}

// earlier is the catalog toolc breaking compares against.
type earlier struct {
	tools   []*canonical.Tool
	version string
	what    string // how the status line names it
}

// loadEarlier builds the catalog that ref names: a canonical bundle, a
// folder, or a git revision of the manifest's folder.
func loadEarlier(ctx context.Context, ref string, m *manifestRoot) (*earlier, error) {
	fsys, file, what, err := earlierFS(ctx, ref, m)
	switch {
	case err != nil:
		return nil, err
	case file != "":
		return loadBundle(file, ref)
	}
	return buildEarlier(ctx, fsys, m.file, what)
}

// earlierFS resolves --against REF: a file (returned as its path), a folder,
// or a git revision of the manifest's folder (returned as a file system),
// with how to name it.
func earlierFS(ctx context.Context, ref string, m *manifestRoot) (fsys fs.FS, file, what string, err error) {
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.cwd, path)
	}
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		return nil, path, "the file " + ref, nil
	} else if err == nil {
		return os.DirFS(path), "", "the folder " + ref, nil
	}
	g, err := gitfs.Open(ctx, m.root.Name(), ref)
	if err != nil {
		hint := ""
		if gitfs.Shallow(ctx, m.root.Name()) {
			hint = "; this is a shallow clone, which lacks the history: fetch it (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)"
		}
		return nil, "", "", fmt.Errorf("--against %s: not a file, a folder or a git revision of %s (%v)%s", ref, m.root.Name(), err, hint)
	}
	return g, "", fmt.Sprintf("%s (%s)", ref, g.Rev[:min(12, len(g.Rev))]), nil
}

func loadBundle(path, ref string) (*earlier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := adapters.Parse(data, path)
	if err != nil {
		return nil, fmt.Errorf("--against %s: %v", ref, adapters.ParseDiagnostic(ref, err))
	}
	reg := adapters.Default()
	if d := reg.Detect(doc); d.Format != "canonical" {
		return nil, fmt.Errorf("--against %s: a file must be a canonical bundle (format = \"canonical\" writes one); this one is %s", ref, cmp.Or(d.Format, "of no known format"))
	}
	a, _ := reg.Get("canonical")
	tools, ds := a.Decode(doc, ref)
	if diag.HasErrors(ds) {
		return nil, fmt.Errorf("--against %s: %s", ref, ds[slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error })])
	}
	version, _ := doc.Get("catalog").Get("version").StringValue()
	return &earlier{tools: tools, version: version, what: "the bundle " + ref}, nil
}

// buildEarlier builds the manifest in fsys; what decodes is compared even
// when the earlier catalog has errors of its own.
func buildEarlier(ctx context.Context, fsys fs.FS, manifest, what string) (*earlier, error) {
	if _, err := fs.Stat(fsys, manifest); errors.Is(err, fs.ErrNotExist) {
		// The first release after adopting toolc: nothing to break.
		return &earlier{what: what + ", which has no " + manifest + " (every tool is new)"}, nil
	}
	res, err := compiler.Build(ctx, fsys, compiler.Options{Manifest: manifest, CatalogOnly: true})
	if err != nil {
		return nil, fmt.Errorf("the catalog at %s: %w", what, err)
	}
	return &earlier{tools: res.Catalog, version: res.Manifest.Catalog.Version, what: what}, nil
}

func runBreaking(ctx context.Context, f breakingFlags, out *output) error {
	if f.format != "text" && f.format != "markdown" {
		return out.fail(exitUsage, "--format %q: want text or markdown", f.format)
	}
	m, err := openManifest(f.dir, f.manifest)
	if err != nil {
		return out.fail(exitUsage, "%v", err)
	}
	defer m.root.Close()
	out.relativeTo(m.cwd, m.root.Name())

	res, err := m.build(ctx, compiler.Options{}, out)
	if err != nil {
		return err
	}
	if res.Failed {
		out.diagnostics(res.Diagnostics, false)
		return out.fail(exitFailed, "the catalog does not build; fix it before comparing")
	}
	old, err := loadEarlier(ctx, f.against, m)
	if err != nil {
		var ce *compiler.ConfigError
		if errors.As(err, &ce) { // each diagnostic once, then what it is about
			out.diagnostics(ce.Diagnostics, false)
			return out.fail(exitUsage, "--against %s: the earlier catalog's manifest cannot be used", f.against)
		}
		return out.fail(exitUsage, "%v", err)
	}

	ds, need := compareCatalogs(old, res, m.file)
	newVersion := res.Manifest.Catalog.Version
	shown, released := ds, 0
	if !f.strict && need == breaking.Major && breaking.Covers(old.version, newVersion, need) {
		shown, released = acknowledge(ds, newVersion)
	}
	out.diagnostics(shown, false)

	w := out.stdout
	if out.machine() {
		w = out.stderr
	}
	if f.format == "markdown" {
		writeChangelog(out.stdout, res.Manifest.Catalog.Name, need, ds, old.version, newVersion)
	} else {
		writeVerdict(w, need, ds, old.version, newVersion)
	}
	if out.format == report.JSON { // the verdict as a record, after the findings
		writeVerdictJSON(out.stdout, need, ds, old.version, newVersion, released)
	}
	errs, _, _ := diag.Count(shown)
	summary := fmt.Sprintf("%s against %d in %s", plural(len(res.Catalog), "tool"), len(old.tools), old.what)
	if errs > 0 {
		return out.fail(exitFailed, "breaking: %s: %s", plural(errs, "error"), summary)
	}
	if released > 0 {
		out.status("%s is a major release and says so: %s that break callers, printed above: %s", newVersion, plural(released, "change"), summary)
		return nil
	}
	out.status("nothing breaks: %s", summary)
	return nil
}

// compareCatalogs compares the earlier catalog with the new build, applies
// the new manifest's policy, checks its version, and returns the findings,
// located, and the bump they need.
func compareCatalogs(old *earlier, res *compiler.Result, manifestFile string) (ds []diag.Diagnostic, need breaking.Bump) {
	var strict []string
	for _, t := range res.Manifest.Targets {
		// Only a strict mode that makes optional properties required (OpenAI's)
		// turns an added optional property into a required one.
		if a, ok := adapters.Default().Get(t.Format); ok && t.Strict != nil && t.Strict.On && a.Profile.StrictRequiresAll() {
			strict = append(strict, t.Name)
		}
	}
	ds = breaking.Compare(old.tools, res.Catalog, breaking.Options{Strict: strict})
	ds = res.Apply(ds)
	need = breaking.Needed(ds)
	if d, ok := breaking.CheckVersion(old.version, res.Manifest.Catalog.Version, need); ok {
		line, col := res.Manifest.Pos("catalog.version")
		d.File, d.Line, d.Column = manifestFile, line, col
		ds = append(ds, res.Apply([]diag.Diagnostic{d})...)
	}
	res.Locate(ds)
	return diag.Sort(ds), need
}

// acknowledge returns the findings as a release whose version says it
// breaks callers prints them: each breaking error a warning, what the
// release contains; and how many it changed.
func acknowledge(ds []diag.Diagnostic, version string) ([]diag.Diagnostic, int) {
	out := slices.Clone(ds)
	n := 0
	for i := range out {
		if out[i].Severity == diag.Error && strings.HasPrefix(out[i].Code, "breaking.") {
			out[i].Severity = diag.Warning
			out[i].Message += fmt.Sprintf(" (in %s, which says it breaks callers)", version)
			n++
		}
	}
	return out, n
}

// bumpFor returns the bump one finding needs.
func bumpFor(d diag.Diagnostic) breaking.Bump { return breaking.Needed([]diag.Diagnostic{d}) }

// lifecycleCodes have sections of their own in the release notes.
var lifecycleCodes = []string{"breaking.tool-added", "breaking.tool-removed", "breaking.tool-sunset", "breaking.tool-deprecated", "breaking.tool-renamed"}

// writeChangelog prints release notes in Markdown: the bump, then the tools
// that break callers, were added, changed or removed, each change once.
func writeChangelog(w io.Writer, name string, need breaking.Bump, ds []diag.Diagnostic, oldVersion, newVersion string) {
	title := cmp.Or(strings.TrimSpace(name+" "+newVersion), "Tool catalog")
	fmt.Fprintf(w, "## %s\n\n", title)
	switch {
	case need == breaking.None:
		fmt.Fprintf(w, "No change that callers can see.\n")
		return
	case oldVersion != "":
		fmt.Fprintf(w, "A **%s** release: from %s, at least %s", need, oldVersion, breaking.Next(oldVersion, need))
		if newVersion != "" {
			fmt.Fprintf(w, " (this is %s)", newVersion)
		}
		fmt.Fprint(w, ".\n")
	default:
		fmt.Fprintf(w, "A **%s** release.\n", need)
	}
	sections := []struct {
		title string
		keep  func(diag.Diagnostic) bool
	}{
		{"Breaking", func(d diag.Diagnostic) bool { return bumpFor(d) == breaking.Major && d.Code != "breaking.tool-removed" }},
		{"Removed", func(d diag.Diagnostic) bool {
			return d.Code == "breaking.tool-removed" || d.Code == "breaking.tool-sunset"
		}},
		{"Deprecated", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-deprecated" }},
		{"Renamed", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-renamed" }},
		{"Added", func(d diag.Diagnostic) bool { return d.Code == "breaking.tool-added" }},
		{"Changed", func(d diag.Diagnostic) bool {
			b := bumpFor(d)
			return (b == breaking.Minor || b == breaking.Patch) && !slices.Contains(lifecycleCodes, d.Code)
		}},
		{"To check by hand", func(d diag.Diagnostic) bool { return d.Code == "breaking.unverified" }},
	}
	for _, sec := range sections {
		var lines []string
		for _, d := range ds {
			if d.Code == "breaking.version" || d.Code == "breaking.version-minor" || !sec.keep(d) {
				continue
			}
			line := "- " + d.Message
			switch {
			case d.Tool != "" && (d.Code == "breaking.tool-added" || d.Code == "breaking.tool-removed" || d.Code == "breaking.tool-deprecated"):
				line = fmt.Sprintf("- `%s`", d.Tool)
			case d.Tool != "":
				line = fmt.Sprintf("- `%s`: %s", d.Tool, d.Message)
			}
			if !slices.Contains(lines, line) {
				lines = append(lines, line)
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "\n### %s\n\n%s\n", sec.title, strings.Join(lines, "\n"))
		}
	}
}

// verdictRecord is the json format's last line from breaking:
// {"breaking": {...}}, beside the findings' lines, which have "code".
type verdictRecord struct {
	Breaking struct {
		Bump         string                    `json:"bump"`                   // none, patch, minor or major
		From         string                    `json:"from,omitempty"`         // the earlier catalog's version
		Needs        string                    `json:"needs,omitempty"`        // the least version that covers the bump
		Version      string                    `json:"version,omitempty"`      // the version the manifest says
		Covered      bool                      `json:"covered"`                // the manifest's version covers the bump
		Acknowledged int                       `json:"acknowledged,omitempty"` // breaking changes a major release printed as warnings
		Counts       map[string]map[string]int `json:"counts"`                 // bump → code (without "breaking.") → findings
	} `json:"breaking"`
}

func writeVerdictJSON(w io.Writer, need breaking.Bump, ds []diag.Diagnostic, oldVersion, newVersion string, acknowledged int) {
	var r verdictRecord
	v := &r.Breaking
	v.Bump, v.From, v.Version, v.Acknowledged = need.String(), oldVersion, newVersion, acknowledged
	if oldVersion != "" && need != breaking.None {
		v.Needs = breaking.Next(oldVersion, need)
	}
	v.Covered = need == breaking.None || breaking.Covers(oldVersion, newVersion, need)
	v.Counts = map[string]map[string]int{}
	for _, d := range ds {
		bump := bumpFor(d)
		if bump == breaking.None {
			continue
		}
		b := bump.String()
		if v.Counts[b] == nil {
			v.Counts[b] = map[string]int{}
		}
		v.Counts[b][strings.TrimPrefix(d.Code, "breaking.")]++
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r)
}

// writeVerdict prints the bump the changes need, and why.
func writeVerdict(w io.Writer, need breaking.Bump, ds []diag.Diagnostic, oldVersion, newVersion string) {
	count := map[breaking.Bump]map[string]int{}
	for _, d := range ds {
		b := bumpFor(d)
		if count[b] == nil {
			count[b] = map[string]int{}
		}
		count[b][d.Code]++
	}
	line := need.String()
	if oldVersion != "" && need != breaking.None {
		line += fmt.Sprintf(": %s needs at least %s", oldVersion, breaking.Next(oldVersion, need))
		if newVersion != "" {
			line += fmt.Sprintf(" (the manifest says %s)", newVersion)
		}
	}
	fmt.Fprintln(w, line)
	for _, b := range []breaking.Bump{breaking.Major, breaking.Minor, breaking.Patch} {
		codes := count[b]
		if len(codes) == 0 {
			continue
		}
		var parts []string
		for _, c := range slices.Sorted(maps.Keys(codes)) {
			parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(c, "breaking."), codes[c]))
		}
		fmt.Fprintf(w, "  %s: %s\n", b, strings.Join(parts, ", "))
	}
}
