// Package pipeline is toolc's compiler behind package compiler, the
// library's door: it reads a manifest, reads and decodes the source files
// it names in parallel, validates every schema, checks the catalog, lowers
// and encodes every tool for each target, and returns the bundles, the
// lock file and every diagnostic. Build writes nothing; Write and Check
// are separate steps, so a failed build never touches the disk. The
// command's other capabilities (--check's fast path, capture and verify,
// the baseline, comparing with an earlier release) are here too.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/security"
	"github.com/toolc-dev/toolc/internal/targets"
	"github.com/toolc-dev/toolc/internal/tokens"
	"github.com/toolc-dev/toolc/internal/validate"
)

// DefaultManifest is the manifest's file name.
const DefaultManifest = manifest.DefaultFile

// LockFile is the lock's file name, beside the manifest.
const LockFile = manifest.LockFile

// Options configure Build.
type Options struct {
	// Jobs limits how many files are read and decoded at once (default: the
	// number of CPUs). Outputs do not depend on it.
	Jobs int
	// CatalogOnly stops after the catalog is read and checked: nothing is
	// lowered or encoded, and Result.Outputs is empty. toolc breaking builds
	// the earlier catalog so.
	CatalogOnly bool
	// Baseline is the baseline file's name beside the manifest
	// (BaselineFile), or "" to use none. When the file exists, the
	// diagnostics it knows are left out of Result.Diagnostics.
	Baseline string
	// Flags, when set, says that the sources' settings come from a
	// command's flags, not the manifest: source key → flag ("format" →
	// "--from"), and advice names the flag ("pass --from mcp") instead of
	// the key ("set format = \"mcp\" on sources[0] in toolc.toml").
	Flags map[string]string
	// Version is toolc's version, recorded in the lock: a build --check
	// answers from the lock only for the version that wrote it.
	Version string
	// InputOrder keeps the tools in the order of their files and, inside
	// a file, of the file, instead of sorting them by ID: what convert,
	// which reads one file, owes its reader.
	InputOrder bool
	// Tokens counts every target's tokens, not only those of targets with
	// a token budget, for reports.
	Tokens bool
	// Validator, when set, checks every tool after toolc's own validation:
	// another dialect, format checks, a house rule. It is called from
	// several goroutines at once. Its findings take the tool's file, ID and
	// position; each one's Pointer is into the tool's canonical form
	// ("/input/properties/q"). Use the codes schema.custom (an error, which
	// fails the build and leaves the tool out of acceptance checks) and
	// lint.custom (a warning), or any of diag's codes.
	Validator func(t *canonical.Tool) []diag.Diagnostic
	// Memory, when set, is told what the build will hold: where the CLI
	// bounds its heap (internal/membound), which a library leaves to its
	// program. It is called before the sources are read, with the bytes
	// their files hold, and the function it returns is called once, when
	// they are read and decoded, before any target is built, with the
	// number of targets the build builds (0 for CatalogOnly), or with -1
	// when the build stops before.
	Memory func(size int64) (read func(targets int))
	// Now is the build's clock: every decision of a date (an
	// acknowledgment's until and its horizon, a sunset, the deprecation
	// window's days) is made against it. Zero is the time Build starts.
	Now time.Time

	// Unchanged, when set, tells Fresh that a file is what it was when it
	// was last hashed, by its size and modification time (a build cache's
	// record, as git's index and make trust them): Fresh does not hash it
	// again. Checked, when set, is told each file Fresh found as the lock
	// says, with its info from before it was hashed. Both are called from
	// several goroutines at once.
	Unchanged func(name string, info fs.FileInfo) bool
	Checked   func(name string, info fs.FileInfo)

	// Targets, when set, names the only targets to build (by name): the
	// others are neither built nor written, and there is no lock, which
	// records a whole build. The first step of a release whose server.json
	// waits for a packed file (docs/publish.md).
	Targets []string

	// lowerAlone has every target lower every schema itself: the test that
	// compares builds with and without a shared lower.Memo.
	lowerAlone bool
}

// Result is what Build produces.
type Result struct {
	// Outputs are the bundles in target order and then toolc.lock: the order
	// to write them in. Empty when the build failed.
	Outputs []Output
	// Diagnostics are sorted, de-duplicated, located and filtered by the
	// policy.
	Diagnostics []diag.Diagnostic
	// Failed is true when a diagnostic is an error.
	Failed bool
	// Tools, Files and Targets count the catalog's tools, its source files
	// and the targets.
	Tools, Files, Targets int
	// Catalog is the catalog's canonical tools, sorted by ID: what toolc
	// breaking compares. Lowering never changes them.
	Catalog []*canonical.Tool
	// Manifest is the manifest the build read.
	Manifest *manifest.Manifest
	// Now is the build's clock (Options.Now), which Compare reads too.
	Now time.Time
	// Bundles are what each target emitted, in the manifest's order, also
	// when the build failed (Outputs then is empty): for reports.
	Bundles []Bundle
	// Hidden counts the diagnostics the baseline knew and left out, and
	// Gone the baseline's entries that no longer occur.
	Hidden, Gone int

	docs         map[string]*canonical.Value // the parsed source files, for Locate
	grafts       map[string][]openapi.Graft  // source file → the files its $refs read into it
	sourcePolicy map[string]*diag.Policy     // source file → its source's policy
	sources      map[string]bool             // the source files, which Orphans never names
	inputs       []Input                     // every file the build read
	skipped      []string                    // the targets Options.Targets left out
	manifestFile string
}

// Bundle is one target's emitted bundle.
type Bundle struct {
	Target, Format string
	// Value is the bundle, which its output file holds indented; nil for a
	// typed target, whose file Text writes as it makes it.
	Value *canonical.Value
	// Text writes a typed target's file as it makes it; nil for the others.
	Text func(io.Writer) error
	// Names maps each tool ID the target took to its emitted name.
	Names map[string]string
	// Tokens is what the bundle costs, when it was counted (Options.Tokens,
	// or a token budget on the target); nil otherwise.
	Tokens *tokens.Count
	// Plan is what [load] decided for the target (nil where the manifest
	// has no [load]), and Deferred the IDs of the tools it defers.
	Plan     *profile.Plan
	Deferred map[string]bool
}

// OutputPaths are the files a build of m writes, by path relative to its
// folder, sorted: each target's out and toolc.lock; a target that writes a
// folder (skills) as its folder with a final '/', as its files are what
// the catalog makes. They are known from the manifest alone.
func OutputPaths(m *Manifest) []string {
	paths := []string{manifest.LockFile}
	writers := targets.Default()
	for _, t := range m.Targets {
		if w, ok := writers.Get(t.Format); ok && w.Folder {
			paths = append(paths, t.Out+"/")
			continue
		}
		paths = append(paths, t.Out)
	}
	slices.Sort(paths)
	return paths
}

// PlanLines say, per target that defers tools ([load]), what it loads
// and what it leaves to the tool search.
func (r *Result) PlanLines() []string {
	var lines []string
	for _, b := range r.Bundles {
		p := b.Plan
		if p == nil || !p.Defers || p.Deferrals() == 0 {
			continue
		}
		budget, search := "", ""
		if p.Budget > 0 {
			budget = fmt.Sprintf(" of a %s-token budget", diagfmt.Thousands(p.Budget))
		}
		if p.Search != "" {
			search = " to " + p.Search
		}
		loaded := len(p.Deferred) - p.Deferrals()
		tools := diagfmt.Thousands(loaded) + " tools"
		if loaded == 1 {
			tools = "1 tool"
		}
		lines = append(lines, fmt.Sprintf("%s loads %s (%s tokens%s) and defers %s%s; toolc report lists them",
			b.Target, tools, diagfmt.Thousands(p.Loaded), budget, diagfmt.Thousands(p.Deferrals()), search))
	}
	return lines
}

// Key is the key of a build's inputs for a build system's cache: the
// SHA-256 of toolc's version and of each input's path and hash. The same
// key, the same outputs.
func (r *Result) Key(version string) string {
	h := sha256.New()
	fmt.Fprintf(h, "toolc %s\n", version)
	for _, in := range r.inputs {
		fmt.Fprintf(h, "%s %s\n", in.Path, in.Hash)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Input is a file a build reads, and the SHA-256 of its bytes.
type Input struct {
	Path string `json:"path"`
	Hash string `json:"sha256"`
}

// Inputs are every file the build read, by path relative to the manifest's
// folder, sorted: the manifest, each source file, the files their $refs
// read, and the baseline where there is one. A build of the same inputs,
// with the same toolc, writes the same outputs.
func (r *Result) Inputs() []Input { return r.inputs }

// readFiles are the build's inputs.
func (b *build) readFiles() []Input {
	seen := map[string]string{b.manifestFile: b.manifestHash}
	if b.baselineHash != "" {
		seen[BaselineFile] = b.baselineHash
	}
	for i, in := range b.inputs {
		seen[in.path] = b.files[i].hash
		for _, ref := range b.files[i].refs {
			seen[ref.path] = ref.hash
		}
	}
	maps.Copy(seen, b.targetFiles)
	out := make([]Input, 0, len(seen))
	for _, p := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, Input{p, seen[p]})
	}
	return out
}

// Apply applies the manifest's policies to diagnostics found after the
// build (toolc breaking's): the policy of the source whose file each is in,
// then [policy].
func (r *Result) Apply(ds []diag.Diagnostic) []diag.Diagnostic {
	return diag.ApplyFirst(ds, policyOfFile(r.sourcePolicy), &r.Manifest.Policy)
}

// Unignored is ds less what the manifest's policies ignore, each finding
// at its own severity.
func (r *Result) Unignored(ds []diag.Diagnostic) []diag.Diagnostic {
	return diag.Unignored(ds, policyOfFile(r.sourcePolicy), &r.Manifest.Policy)
}

// Locate fills in the line and column of each diagnostic that has a file
// of this build and a JSON Pointer into it but no position yet.
func (r *Result) Locate(ds []diag.Diagnostic) {
	r.remap(ds)
	var loc canonical.Locator           // one index of each big object, for all the findings in it
	par.For(len(ds), 512, func(i int) { // each in its slot: the documents are only read
		d := &ds[i]
		if d.Line == 0 && (d.Pointer != "" || aboutContent(d.Code)) {
			if doc := r.docs[d.File]; doc != nil {
				pos := loc.PosOf(doc, canonical.Pointer(d.Pointer))
				d.Line, d.Column = int(pos.Line), int(pos.Column)
			}
		}
	})
}

// aboutContent reports whether a finding of code is about what a source
// file holds, so that one without a pointer is about its whole document
// and is placed where it starts (a file that is one tool with no name):
// those of the other categories without a pointer have no place in the
// file (a tool the live server added).
func aboutContent(code string) bool {
	cat, _, _ := strings.Cut(code, ".")
	return cat == "source" || cat == "schema" || cat == "lint" || cat == "repair"
}

// remap moves each diagnostic located in a part of a source that another
// file supplied (an OpenAPI description's $ref to common.yaml) to that
// file, at its own pointer.
func (r *Result) remap(ds []diag.Diagnostic) {
	for i := range ds {
		d := &ds[i]
		if gs := r.grafts[d.File]; gs != nil && d.Line == 0 {
			if file, at := openapi.Remap(gs, canonical.Pointer(d.Pointer)); file != "" {
				d.File, d.Pointer = file, string(at)
			}
		}
	}
}

// Sentinel errors.
var (
	// ErrConfig is wrapped by a *ConfigError.
	ErrConfig = errors.New("configuration error")
	// ErrNotRegular wraps the error of a file toolc would read that is not
	// a regular file (a named pipe, a device, a socket).
	ErrNotRegular = errors.New("not a regular file")
	// ErrUnknownFormat is wrapped by Convert's error for a format toolc
	// does not know.
	ErrUnknownFormat = formats.ErrUnknownFormat
	// ErrNotSupported is wrapped by Convert's error for an option the
	// target format does not take (strict mode, say).
	ErrNotSupported = formats.ErrNotSupported
)

// ConfigError is a manifest that cannot be used: the build did not start.
type ConfigError struct {
	Diagnostics []diag.Diagnostic
}

// Error lists the diagnostics, one a line.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("configuration error")
	for _, d := range e.Diagnostics {
		b.WriteString("\n")
		b.WriteString(d.String())
	}
	return b.String()
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// Build compiles the manifest m over fsys, in which every path of m is
// read: m's folder, when m was read by ReadManifest (fsys is rooted there),
// or fsys's root for a manifest built in code. It checks m as ReadManifest
// does and returns a *ConfigError when m cannot be used; otherwise a Result
// whose Failed field says whether the catalog built. It writes nothing,
// reads only the files m names, and does not change m.
func Build(ctx context.Context, fsys fs.FS, m *Manifest, opts Options) (*Result, error) {
	b, err := newBuild(fsys, m, opts)
	if err != nil {
		return nil, err
	}
	if opts.Baseline != "" {
		known, ds := readBaseline(b.fsys, opts.Baseline)
		if ds != nil {
			return nil, b.configError(ds...)
		}
		b.known = known
	}
	if err := b.expandSources(); err != nil {
		return nil, err
	}
	size := b.statInputs()
	read := func(int) {}
	if opts.Memory != nil {
		read = opts.Memory(size)
	}
	if err := b.readSources(ctx); err != nil {
		read(-1)
		return nil, err
	}
	b.hashTargetFiles()
	targets := len(m.Targets)
	if opts.CatalogOnly {
		targets = 0
	}
	read(targets)
	if err := b.selectTargets(); err != nil {
		return nil, err
	}
	b.collectTools()
	// The security lint reads the tools, as lowering does, and has a
	// serial part (the confusable names): it runs beside the targets,
	// its findings sorted in with theirs at the end.
	lint := make(chan []diag.Diagnostic, 1)
	go func() { lint <- security.Check(ctx, b.tools) }()
	b.checkCuration()
	b.checkTransforms()
	b.checkQuality()
	b.selectTools()
	if !opts.CatalogOnly {
		if err := b.buildTargets(ctx); err != nil {
			<-lint
			return nil, err
		}
	}
	b.lint = <-lint
	if err := ctx.Err(); err != nil { // every stage stops once it is done: what it made is partial
		return nil, err
	}
	return b.finish(), nil
}

// ErrUnknownTarget is Build's error when Options.Targets names a target
// the manifest does not have.
var ErrUnknownTarget = errors.New("no target")

// folder reports whether the target format writes a folder.
func (b *build) folder(format string) bool {
	w, ok := b.writers.Get(format)
	return ok && w.Folder
}

// skipped reports whether Options.Targets leaves the i-th target out.
func (b *build) skipped(i int) bool { return b.skip != nil && b.skip[i] }

// selectTargets marks the targets that Options.Targets leaves out.
func (b *build) selectTargets() error {
	if len(b.opts.Targets) == 0 {
		return nil
	}
	b.skip = make([]bool, len(b.m.Targets))
	var names []string
	for i, t := range b.m.Targets {
		names = append(names, t.Name)
		b.skip[i] = !slices.Contains(b.opts.Targets, t.Name)
	}
	for _, n := range b.opts.Targets {
		if !slices.Contains(names, n) {
			return fmt.Errorf("%w %q: %s has %s", ErrUnknownTarget, n, b.manifestFile, strings.Join(names, ", "))
		}
	}
	return nil
}

// newBuild checks a copy of m, roots fsys at its folder and gives opts
// their defaults.
func newBuild(fsys fs.FS, m *Manifest, opts Options) (*build, error) {
	if m == nil {
		return nil, errors.New("compiler: Build needs a manifest")
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if dir := m.Dir(); dir != "." {
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			return nil, err
		}
		fsys = sub
	}
	m = m.Clone()
	profiles, ds := checkManifest(m)
	ds = append(ds, checkAcknowledgments(m, opts.Now)...)
	if diag.HasErrors(ds) {
		return nil, configError(ds...)
	}
	b := &build{fsys: fsys, opts: opts, formats: formats.Default(), writers: targets.Default(), m: m, profiles: profiles, manifestFile: m.File(),
		manifestHash: m.Hash(), validator: validate.New(), diags: ds}
	if bl, err := readRegular(fsys, BaselineFile); err == nil {
		b.baselineHash = hashBytes(bl)
	}
	b.validator.Repair = b.setting("repair", "true", -1)
	b.validator.RepairFix = b.advise("repair", "true", -1)
	return b, nil
}

// build is the state of one Build call.
type build struct {
	fsys         fs.FS
	opts         Options
	formats      *formats.Registry // the formats it reads
	writers      *targets.Registry // and writes
	manifestFile string
	m            *manifest.Manifest
	profiles     []*profile.Profile  // per target, with the manifest's overrides
	validator    *validate.Validator // shared by the workers; caches by content

	inputs  []input             // source files, sorted by path
	files   []fileResult        // per input, same index
	tools   []*canonical.Tool   // the catalog, sorted by ID
	chosen  [][]*canonical.Tool // per manifest target, the tools it takes (selectTools)
	targets []targetResult      // per manifest target
	invalid map[string]bool     // IDs of tools with an error of their own
	diags   []diag.Diagnostic   // not tied to a target
	lint    []diag.Diagnostic   // the security lint's

	sourcePolicy map[string]*diag.Policy    // source file → its [[sources]] policy, where one is set
	known        baseline                   // what the baseline knows; nil without one
	toolHash     map[*canonical.Tool]string // each tool's hash, made by the file's worker
	manifestHash string                     // of the manifest's bytes, for the lock
	skip         []bool                     // per target, left out by Options.Targets
	targetFiles  map[string]string          // the files targets read (profile.FileReader) that exist → "sha256:…"
	baselineHash string                     // of toolc.baseline's, when there is one
	loading      *profile.Loading           // what [load] decides of each tool; nil when it decides nothing
}

// setting names a source's setting of key to value (a TOML value) where
// the settings come from: "format = \"mcp\" on sources[0] in toolc.toml",
// or a flag ("--from mcp"; a flag for true alone). source is -1 for
// whichever source a file is in.
func (b *build) setting(key, value string, source int) string {
	if flag, ok := b.opts.Flags[key]; ok {
		if value == "true" {
			return flag
		}
		if v, err := strconv.Unquote(value); err == nil {
			value = v
		}
		return flag + " " + value
	}
	if source < 0 {
		return fmt.Sprintf("%s = %s on the source", key, value)
	}
	return fmt.Sprintf("%s = %s on sources[%d] in %s", key, value, source, b.manifestFile)
}

// advise is the advice to make that setting: "set …" or "pass --flag …".
func (b *build) advise(key, value string, source int) string {
	if _, ok := b.opts.Flags[key]; ok {
		return "pass " + b.setting(key, value, source)
	}
	return "set " + b.setting(key, value, source)
}

// apply applies the policies to ds: for each diagnostic, the policy of the
// source whose file it is in, then the target's (target, when not nil),
// then the manifest's.
//
// It writes over ds: each part's diagnostics are the build's own, and
// not used again.
func (b *build) apply(ds []diag.Diagnostic, target *diag.Policy) []diag.Diagnostic {
	return diag.ApplyFirstInPlace(ds, policyOfFile(b.sourcePolicy), target, &b.m.Policy)
}

// policyOfFile is the policy of the source each diagnostic's file is in
// (nil for none), from the sources' policies by file.
func policyOfFile(bySource map[string]*diag.Policy) func(diag.Diagnostic) *diag.Policy {
	return func(d diag.Diagnostic) *diag.Policy { return bySource[d.File] }
}

func (b *build) configError(ds ...diag.Diagnostic) error { return configError(ds...) }

// selectTools sets the tools of the catalog that each target takes (all
// of them, or those its select chooses), and reports a source or target
// whose select chooses none of the tools it has: a preset that builds an
// empty bundle is a typo.
func (b *build) selectTools() {
	decoded := make([]int, len(b.m.Sources))
	kept := make([]int, len(b.m.Sources))
	for i, f := range b.files {
		decoded[b.inputs[i].source] += f.decoded
		kept[b.inputs[i].source] += len(f.tools)
	}
	for i, src := range b.m.Sources {
		if !src.Select.Empty() && decoded[i] > 0 && kept[i] == 0 {
			d := diag.New("catalog.select-empty", "sources[%d].select chooses none of the source's %d tools", i, decoded[i])
			d.File = b.manifestFile
			d.Line, d.Column = b.m.Pos(fmt.Sprintf("sources[%d].select", i))
			b.diags = append(b.diags, d.WithFix("check its tags, namespaces and tool ID globs against the source's tools (IDs are namespace:name)"))
		}
	}
	b.chosen = make([][]*canonical.Tool, len(b.m.Targets))
	for i, t := range b.m.Targets {
		if t.Select.Empty() {
			b.chosen[i] = b.tools
			continue
		}
		for _, tool := range b.tools {
			if t.Select.Match(tool) {
				b.chosen[i] = append(b.chosen[i], tool)
			}
		}
		if len(b.tools) > 0 && len(b.chosen[i]) == 0 {
			d := diag.New("catalog.select-empty", "targets[%d].select chooses none of the %d tools", i, len(b.tools))
			d.File = b.manifestFile
			d.Line, d.Column = b.m.Pos(fmt.Sprintf("targets[%d].select", i))
			b.diags = append(b.diags, d.WithFix("check its tags, namespaces and tool ID globs against the catalog's tools"))
		}
	}
}

// finish gathers, locates, filters and sorts the diagnostics, and produces
// the outputs and lock when nothing failed.
func (b *build) finish() *Result {
	n := len(b.diags) + len(b.lint) // the diagnostics gathered below, allocated for once
	for _, f := range b.files {
		n += len(f.diags)
	}
	for _, t := range b.targets {
		for _, part := range t.diags {
			n += len(part)
		}
		n += t.later.N
	}
	// Each part's diagnostics are let go once gathered: the lock, made
	// when the outputs are written, keeps the build.
	ds := append(make([]diag.Diagnostic, 0, n+1), b.apply(b.diags, nil)...)
	ds = append(ds, b.apply(b.lint, nil)...)
	b.diags, b.lint = nil, nil
	docs := map[string]*canonical.Value{}
	grafts := map[string][]openapi.Graft{}
	for i, f := range b.files {
		ds = append(ds, b.apply(f.diags, nil)...)
		b.files[i].diags = nil
		docs[b.inputs[i].path] = f.doc
		for _, ref := range f.refs {
			if ref.doc != nil {
				docs[ref.path] = ref.doc
			}
		}
		if f.openapi != nil && len(f.openapi.Grafts) > 0 {
			grafts[b.inputs[i].path] = f.openapi.Grafts
		}
	}
	for i, t := range b.targets {
		for _, part := range t.diags {
			ds = append(ds, part...)
		}
		if t.later.N > 0 { // made in their place, as the parts were: placed, then the target's policy applied
			start, place := len(ds), b.placeAtTarget(i)
			ds = t.later.AppendTo(ds)
			for j := start; j < len(ds); j++ {
				place(&ds[j])
			}
			ds = ds[:start+len(b.apply(ds[start:], b.m.Targets[i].Policy))]
		}
		b.targets[i].diags, b.targets[i].later = nil, profile.Later{}
	}
	if len(b.tools) == 0 && !diag.HasErrors(ds) { // an error says more than "empty"
		d := diag.New("catalog.empty", "no source file yielded a tool").At(b.manifestFile, "")
		d.Line, d.Column = b.m.Pos("sources[0]") // where the sources are
		ds = append(ds, diag.Apply([]diag.Diagnostic{d}, &b.m.Policy)...)
	}
	res := &Result{Tools: len(b.tools), Files: len(b.inputs), Targets: len(b.m.Targets), Catalog: b.tools, Manifest: b.m, Now: b.opts.Now, docs: docs, grafts: grafts, sourcePolicy: b.sourcePolicy, manifestFile: b.manifestFile,
		inputs: b.readFiles()}
	res.sources = make(map[string]bool, len(b.inputs))
	for i, in := range b.inputs {
		res.sources[in.path] = true
		for _, ref := range b.files[i].refs {
			res.sources[ref.path] = true
		}
	}
	for i, t := range b.targets {
		tgt := b.m.Targets[i]
		if b.skipped(i) {
			res.Targets--
			continue
		}
		res.Bundles = append(res.Bundles, Bundle{Target: tgt.Name, Format: tgt.Format, Value: t.bundle, Text: t.text, Names: t.names, Tokens: t.tokens, Plan: t.plan, Deferred: t.deferred})
	}
	res.remap(ds)
	ds, res.Hidden, res.Gone = hideKnown(ds, b.known)
	res.Locate(ds)
	// diag.Sort's order, the halves at once: a 100,000-tool build has
	// 460,000 diagnostics.
	par.SortFunc(ds, diag.Compare)
	res.Diagnostics = slices.Compact(ds)
	res.Failed = diag.HasErrors(res.Diagnostics)
	if res.Failed || b.opts.CatalogOnly {
		return res
	}
	for i, t := range b.m.Targets {
		switch {
		case b.skipped(i):
			res.skipped = append(res.skipped, t.Name)
		case b.folder(t.Format):
			// A folder's files, by path: the bundle is an object of their texts.
			v := b.targets[i].bundle
			for _, k := range slices.Sorted(slices.Values(v.Keys())) {
				res.Outputs = append(res.Outputs, bundleOutput(t.Name, t.Out+"/"+k, v.Get(k)))
			}
		case b.targets[i].text != nil:
			res.Outputs = append(res.Outputs, textOutput(t.Name, t.Out, b.targets[i].text))
		default:
			res.Outputs = append(res.Outputs, bundleOutput(t.Name, t.Out, b.targets[i].bundle))
		}
	}
	if b.skip != nil {
		return res // a lock records a whole build
	}
	bundles := slices.Clone(res.Outputs)
	// The lock's tools need none of the bundles: they are encoded while
	// the bundles are written (a 100,000-tool lock took 0.6 s after them).
	tools := sync.OnceValue(b.lockTools)
	res.Outputs = append(res.Outputs, lazyOutput(manifest.LockFile, func() [][]byte { return b.lock(bundles, tools()) }, func() { tools() }))
	return res
}
