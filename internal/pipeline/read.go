package pipeline

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/formats"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/suggest"
	"github.com/toolc-dev/toolc/internal/validate"
	"golang.org/x/sync/errgroup"
)

type input struct {
	path   string
	source int // index in m.Sources
	// size is the file's, and err why it cannot be read (not a regular
	// file, say): both stated before any file is read (statInputs).
	size int64
	err  error
}

type fileResult struct {
	format string
	hash   string
	doc    *canonical.Value
	tools  []*canonical.Tool
	// decoded is how many tools the file held before its source's select.
	decoded int
	hashes  []string // of each tool's canonical form, for the lock
	diags   []diag.Diagnostic
	// invalid are the tools with an error of their own (an invalid
	// schema): the build fails, and what the acceptance check would say of
	// their bundles adds nothing.
	invalid []string
	// openapi is what an OpenAPI description's curation selected and
	// matched, for checkCuration.
	openapi *openapi.Result
	// refs are the other files the description read through its $refs.
	refs []reference
	// transformed are the source's transform globs that matched a tool of
	// the file, and transformProblems what did not fit.
	transformed       map[string]bool
	transformProblems []transformProblem
}

// reference is a file that a source refers to, read as part of it.
type reference struct {
	path, hash string
	doc        *canonical.Value // nil when it could not be read
}

// readReference reads and parses a file that a source's $ref names (a path
// relative to the manifest's folder, already inside it), refusing one that
// leaves the folder through a symlink.
func (b *build) readReference(name string) (reference, *canonical.Value, []diag.Diagnostic) {
	ref := reference{path: name}
	fail := func(format string, args ...any) (reference, *canonical.Value, []diag.Diagnostic) {
		return ref, nil, []diag.Diagnostic{diag.New("source.read", format, args...).At(name, "")}
	}
	if rl, ok := b.fsys.(fs.ReadLinkFS); ok {
		if err := checkLinks(rl, name); err != nil {
			return fail("%v", err)
		}
	}
	data, err := readRegular(b.fsys, name)
	if err != nil {
		return fail("cannot read the file: %v", unwrapPath(err))
	}
	ref.hash = hashBytes(data)
	doc, err := formats.Parse(data, name)
	if err != nil {
		return ref, nil, []diag.Diagnostic{formats.ParseDiagnostic(name, err)}
	}
	ref.doc = doc
	return ref, doc, nil
}

// unwrapPath drops the *fs.PathError wrapper, whose path is already known.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func hashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hashText(sum[:])
}

// hashText is how the lock writes a SHA-256 sum.
func hashText(sum []byte) string { return "sha256:" + hex.EncodeToString(sum) }

// HashFile is the hash toolc.lock writes of the file at name, read in
// pieces: the fast path and the comparison of a bundle with the disk hash
// files of tens of megabytes that they never need whole.
func HashFile(fsys fs.FS, name string) (string, error) {
	if err := regular(fsys, name); err != nil {
		return "", err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(f)
}

// regular fails unless name in fsys is a regular file (symbolic links
// followed). Opening a named pipe waits for a writer, forever; a device
// never ends: toolc reads neither. It is checked before each open.
func regular(fsys fs.FS, name string) error {
	_, err := statRegular(fsys, name)
	return err
}

// statRegular is regular, with the file's size.
func statRegular(fsys fs.FS, name string) (int64, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return 0, err
	}
	if info.Mode().IsRegular() {
		return info.Size(), nil
	}
	return 0, fmt.Errorf("%s is %s: %w", name, what(info.Mode()), ErrNotRegular)
}

// what says what a file that is not a regular one is.
func what(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// ReadFile reads a file the command line names (toolc convert, toolc
// detect) as a build reads a source: only a regular file, opened without
// waiting (a named pipe would wait for a writer forever), its error
// without the path, which the caller says.
func ReadFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if err := opened(f, filepath.Base(name), false); err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// readRegular reads name in fsys if it is a regular file.
func readRegular(fsys fs.FS, name string) ([]byte, error) {
	if err := regular(fsys, name); err != nil {
		return nil, err
	}
	return fs.ReadFile(fsys, name)
}

// hashEncoding is the hash of what write writes, and its size: a bundle
// hashed as it is encoded, never whole in memory.
func hashEncoding(write func(io.Writer) (int64, error)) (string, int64) {
	h := sha256.New()
	n, _ := write(h) // a hash.Hash never fails to write
	return hashText(h.Sum(nil)), n
}

func hashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.CopyBuffer(h, r, make([]byte, 64<<10)); err != nil {
		return "", err
	}
	return hashText(h.Sum(nil)), nil
}

// statInputs states every file to read, in parallel, and returns the
// bytes they hold: what the build's memory is told before reading
// (Options.Memory). Reading checks each file by what it found, without
// stating it again: a catalog of 20,000 files, stated one after another,
// waited 50 to 100 ms.
func (b *build) statInputs() int64 {
	par.For(len(b.inputs), 64, func(i int) {
		in := &b.inputs[i]
		in.size, in.err = statRegular(b.fsys, in.path)
	})
	var n int64
	for _, in := range b.inputs {
		n += in.size
	}
	return n
}

// readSources reads, parses, detects and decodes every input in parallel,
// each into its own slot.
func (b *build) readSources(ctx context.Context) error {
	b.files = make([]fileResult, len(b.inputs))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(b.opts.Jobs)
	for i, in := range b.inputs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			b.files[i] = b.readSource(in)
			return nil
		})
	}
	return g.Wait()
}

func (b *build) readSource(in input) fileResult {
	src := b.m.Sources[in.source]
	r := fileResult{}
	err := in.err
	var data []byte
	if err == nil {
		data, err = fs.ReadFile(b.fsys, in.path)
	}
	if err != nil {
		r.report(in, "source.read", canonical.Pos{}, "cannot read the file: %v", unwrapPath(err))
		return r
	}
	r.hash = hashBytes(data)
	doc, err := formats.Parse(data, in.path)
	if err != nil {
		r.diags = append(r.diags, formats.ParseDiagnostic(in.path, err))
		return r
	}
	r.doc = doc
	if !b.detect(in, &r) {
		return r
	}
	tools, ds := b.decode(in, &r)
	r.decoded = len(tools)
	tools, ds = b.applySource(in, src, tools, ds)
	b.transformTools(src, &r, tools)
	tools, ds = refuseLongNames(tools, ds)
	for _, t := range tools {
		td, invalid := b.checkTool(t, ds)
		if invalid {
			r.invalid = append(r.invalid, t.ID())
		}
		ds = append(ds, td...)
	}
	r.tools = tools
	r.hashes = make([]string, len(tools)) // for the lock, here in parallel
	for i, t := range tools {
		r.hashes[i] = t.Hash()
	}
	r.diags = append(r.diags, ds...)
	return r
}

// report adds a finding about the file in at pos.
func (r *fileResult) report(in input, code string, pos canonical.Pos, format string, args ...any) {
	d := diag.New(code, format, args...).At(in.path, "")
	d.Line, d.Column = int(pos.Line), int(pos.Column)
	r.diags = append(r.diags, d)
}

// detect sets the file's format: its source's, or the one detection finds
// for auto. It reports whether the file can be decoded so: not when
// nothing fits, or when the source names a format the file is surely not
// (read as the wrong format, the file would become tools with empty
// schemas and a warning about dropped fields).
func (b *build) detect(in input, r *fileResult) bool {
	doc := r.doc
	r.format = b.m.Sources[in.source].Format
	if r.format != "auto" {
		d := b.formats.Detect(doc)
		if d.Format != "" && d.Format != r.format && d.Scores[0].Confidence >= formats.SureConfidence && d.Score(r.format) < formats.MinConfidence {
			r.report(in, "source.wrong-format", doc.Pos, "the file is %s (confidence %.2f), not %s (%.2f); %s",
				d.Format, d.Scores[0].Confidence, r.format, d.Score(r.format), b.advise("format", strconv.Quote(d.Format), in.source))
			return false
		}
		return true
	}
	d := b.formats.Detect(doc)
	if d.Err != nil {
		r.report(in, "source.unknown-format", doc.Pos, "%v; %s", d.Err, b.advise("format", `"..."`, in.source))
		return false
	}
	r.format = d.Format
	if c := d.Scores[0].Confidence; c < formats.SureConfidence {
		r.report(in, "source.guessed-format", doc.Pos, "read as %s, which it fits only with confidence %.2f: a file that is not a tool (a package.json) can look like one; %s if it is right, or exclude the file",
			r.format, c, b.advise("format", strconv.Quote(r.format), in.source))
	}
	return true
}

// decode reads the file's tools in its format.
func (b *build) decode(in input, r *fileResult) ([]*canonical.Tool, []diag.Diagnostic) {
	if r.format != "openapi" {
		a, _ := b.formats.Get(r.format)
		return a.Decode(r.doc, in.path)
	}
	// The one format a source curates, and reads other files of.
	read := openapi.Read(r.doc, in.path, b.m.Sources[in.source].OpenAPI, func(name string) (*canonical.Value, []diag.Diagnostic) {
		ref, v, ds := b.readReference(name)
		r.refs = append(r.refs, ref)
		return v, ds
	})
	r.openapi = read
	return read.Tools, read.Diags
}

// applySource gives the file's tools what their source sets (namespace,
// tags, backend, security), repairs them where it says so, and keeps
// those its select takes.
func (b *build) applySource(in input, src manifest.Source, tools []*canonical.Tool, ds []diag.Diagnostic) ([]*canonical.Tool, []diag.Diagnostic) {
	kept := tools[:0]
	for _, t := range tools {
		if src.Namespace != "" {
			t.Namespace = src.Namespace
		}
		var cut []string
		t.Tags, cut = canonical.CapTags(canonical.NormalizeTags(append(t.Tags, src.Tags...)))
		setBackend(t, src)
		if sec := src.Security; sec != nil {
			if t.Security == nil {
				t.Security = &canonical.Security{}
			}
			t.Security.Classification = cmp.Or(t.Security.Classification, sec.DataClassification)
			t.Security.PII = cmp.Or(t.Security.PII, sec.PIIHandling)
		}
		t.Stability = cmp.Or(t.Stability, src.Stability)
		if !src.Select.Match(t) {
			// Left out before validation: what is said of the tool's
			// own part of the file goes with it.
			ds = slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return within(d, in.path, t.Source.Pointer) })
			continue
		}
		kept = append(kept, t)
		if len(cut) > 0 {
			ds = append(ds, diag.New("catalog.tags-cut", "tags past %d, or longer than %d characters, were cut: %s",
				canonical.MaxTags, canonical.MaxTagLen, strings.Join(cut, ", ")).At(in.path, string(t.Source.Locate("/tags"))).About(t.ID()))
		}
		if src.Repair {
			ds = append(ds, validate.Repair(t)...)
		}
	}
	clear(tools[len(kept):])
	return kept, ds
}

// refuseLongNames refuses, and leaves out of the catalog, each tool whose
// name is longer than any target takes (MCP's 128 characters): no bundle
// could carry it, and every later step's work grows with it (a server can
// answer a capture with a name of megabytes).
func refuseLongNames(tools []*canonical.Tool, ds []diag.Diagnostic) ([]*canonical.Tool, []diag.Diagnostic) {
	longest := profile.LongestName()
	return slices.DeleteFunc(tools, func(t *canonical.Tool) bool {
		n := utf8.RuneCountInString(t.Name)
		if n <= longest {
			return false
		}
		d := diag.New("name.invalid", "the tool name %q is %d characters long: no target takes a name of more than %d",
			diagfmt.Elide(t.Name, 60), n, longest).At(t.Source.Place("/name"))
		ds = append(ds, d.WithFix(fmt.Sprintf("rename the tool to at most %d characters (repair does not shorten names)", longest)))
		return true
	}), ds
}

// checkTool validates one tool's schemas (and runs the caller's
// Validator), given what was said of its file so far, and reports whether
// the tool has an error of its own.
func (b *build) checkTool(t *canonical.Tool, ds []diag.Diagnostic) (td []diag.Diagnostic, invalid bool) {
	td = formats.CheckSchemas([]*canonical.Tool{t})
	if hint, fix := b.validator.RootTypeHint(t.Input); hint != "" {
		for i := range td {
			if td[i].Pointer == string(t.Source.Locate("/input")) {
				td[i].Message += "; " + hint
				td[i].Fix = fix
			}
		}
	}
	td = append(td, b.validator.Tool(t)...)
	if v := b.opts.Validator; v != nil {
		for _, d := range v(t) {
			td = append(td, d.At(t.Source.Place(canonical.Pointer(d.Pointer))).About(t.ID()))
		}
	}
	// A $ref to a file that could not be read is one fault, said at the
	// $ref by source.read: not also a schema.external-ref, nor the
	// acceptance check's unresolved reference.
	unread := false
	td = slices.DeleteFunc(td, func(d diag.Diagnostic) bool {
		if d.Code != "schema.external-ref" {
			return false
		}
		gone := slices.ContainsFunc(ds, func(x diag.Diagnostic) bool {
			return x.Code == "source.read" && x.File == d.File && x.Pointer == d.Pointer
		})
		unread = unread || gone
		return gone
	})
	return td, unread || diag.HasErrors(td)
}

// setBackend gives t the backend its source says: the server of a capture
// (its command, or its URL without credentials or query: secrets are
// never written), or the source's backend kind.
func setBackend(t *canonical.Tool, src manifest.Source) {
	switch {
	case src.Capture != nil:
		b := &canonical.Backend{Kind: canonical.BackendMCP, Command: slices.Clone(src.Capture.Command)}
		if u, err := url.Parse(src.Capture.URL); err == nil && src.Capture.URL != "" {
			u.User, u.RawQuery, u.Fragment = nil, "", ""
			b.URL = u.String()
		}
		t.Backend = b
	case src.Backend != nil:
		b := &canonical.Backend{Kind: src.Backend.Kind}
		if t.Backend != nil && b.Kind == canonical.BackendProvider {
			b.HTTP = t.Backend.HTTP // an operation's binding stays
		}
		t.Backend = b
	}
}

// within reports whether d is located in file at pointer p or under it.
func within(d diag.Diagnostic, file string, p canonical.Pointer) bool {
	return d.File == file && (p == "" || d.Pointer == string(p) || strings.HasPrefix(d.Pointer, string(p)+"/"))
}

// collectTools joins the per-file tools in input order, rejects duplicate
// IDs, and sorts the catalog by ID.
func (b *build) collectTools() {
	n := 0
	for _, f := range b.files {
		n += len(f.tools)
	}
	first := make(map[string]*canonical.Tool, n)
	sourceOf := make(map[string]int, n)
	b.toolHash = make(map[*canonical.Tool]string, n)
	if n > 0 {
		b.tools = make([]*canonical.Tool, 0, n)
	}
	for fi, f := range b.files {
		src := b.inputs[fi].source
		for i, t := range f.tools {
			b.toolHash[t] = f.hashes[i]
			id := t.ID()
			if prev, ok := first[id]; ok {
				d := diag.New("catalog.duplicate-id", "tool ID %q is defined twice: in %s and in %s", id, prev.Source.String(), t.Source.String()).
					At(t.Source.Place("/name"))
				fix := "give one source a namespace or rename one of the tools"
				switch {
				case prev.Source.File == t.Source.File:
					fix = "rename one of the tools, or remove one"
				case sourceOf[id] == src:
					// A namespace of the source would not part them.
					fix = fmt.Sprintf("both files are in sources[%d]: if they are different servers, give each a [[sources]] of its own with a namespace of its own (include = [\"%s\"]); else rename or remove one of the tools", src, t.Source.File)
				}
				b.diags = append(b.diags, d.WithFix(fix))
				continue
			}
			first[id], sourceOf[id] = t, src
			b.tools = append(b.tools, t)
		}
	}
	if !b.opts.InputOrder {
		slices.SortFunc(b.tools, func(x, y *canonical.Tool) int { return strings.Compare(x.ID(), y.ID()) })
	}
	b.loading = loadingOf(b.m, b.tools, sourceOf)
	for _, f := range b.files {
		for _, id := range f.invalid {
			if b.invalid == nil {
				b.invalid = map[string]bool{}
			}
			b.invalid[id] = true
		}
	}
	b.checkTombstones(first)
}

// checkTombstones reports each [[removed]] entry whose tool the catalog
// still has, or whose use names a tool it does not have.
func (b *build) checkTombstones(tools map[string]*canonical.Tool) {
	at := func(d diag.Diagnostic, key string) diag.Diagnostic {
		d.File = b.manifestFile
		d.Line, d.Column = b.m.Pos(key)
		return d
	}
	for i, ts := range b.m.Removed {
		if t, ok := tools[ts.ID]; ok {
			d := diag.New("manifest.invalid", "removed[%d].id: %s has a tombstone, but the catalog still has it (%s): a call to it would be answered \"removed\"", i, ts.ID, t.Source.String())
			b.diags = append(b.diags, at(d, fmt.Sprintf("removed[%d].id", i)).WithFix("remove the [[removed]] entry, or the tool"))
		}
		if _, ok := tools[ts.Use]; ts.Use != "" && !ok {
			d := diag.New("manifest.invalid", "removed[%d].use: %s is no tool of the catalog: a call to %s would be told to use a tool that does not exist", i, ts.Use, ts.ID)
			fix := "name a tool of the catalog (its ID, namespace:name), or leave use out"
			if near := suggest.Closest(ts.Use, slices.Sorted(maps.Keys(tools))); near != "" {
				fix = fmt.Sprintf("use = %q?", near)
			}
			b.diags = append(b.diags, at(d, fmt.Sprintf("removed[%d].use", i)).WithFix(fix))
		}
	}
}

// loadingOf is what the manifest's [load] decides of each tool of the
// catalog, by ID, or nil when it decides nothing; sourceOf gives each
// tool's [[sources]] index.
func loadingOf(m *manifest.Manifest, tools []*canonical.Tool, sourceOf map[string]int) *profile.Loading {
	if !m.HasLoad() {
		return nil
	}
	l := &profile.Loading{Tools: make(map[string]profile.Load, len(tools)), Groups: map[string]string{}}
	if m.Load != nil {
		for name, g := range m.Load.Namespaces {
			l.Groups[name] = g.Description
		}
	}
	for _, t := range tools {
		ml := m.LoadOf(t, sourceOf[t.ID()])
		tl := profile.Load{Defer: cmp.Or(string(ml.Defer), "false"), Callers: ml.Callers}
		if ml.AlwaysLoad != nil {
			tl.AlwaysLoad = *ml.AlwaysLoad
		}
		if ml.Priority != nil {
			tl.Priority = *ml.Priority
		}
		if ml.Namespace != nil {
			tl.Group = strings.ReplaceAll(*ml.Namespace, manifest.NamespaceTemplate, t.Namespace)
		}
		l.Tools[t.ID()] = tl
	}
	return l
}
