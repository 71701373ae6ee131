package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// TestLazyOutputInParts: the lock's output, made in parts, is the same
// bytes however often it is hashed, written or read, and is made once.
func TestLazyOutputInParts(t *testing.T) {
	made := 0
	o := lazyOutput("toolc.lock", func() [][]byte { made++; return [][]byte{[]byte("a = 1\n"), {'\n'}, []byte("b = 2\n")} }, nil)
	const want = "a = 1\n\nb = 2\n"
	for range 2 {
		if hash, size := o.digest(); hash != hashBytes([]byte(want)) || size != int64(len(want)) {
			t.Errorf("digest = %s, %d; want the hash of %q", hash, size, want)
		}
		var b strings.Builder
		if n, err := o.WriteTo(&b); err != nil || n != int64(len(want)) || b.String() != want {
			t.Errorf("WriteTo wrote %q (%d, %v), want %q", b.String(), n, err, want)
		}
		if got := string(o.Bytes()); got != want {
			t.Errorf("Bytes = %q, want %q", got, want)
		}
	}
	if made != 1 {
		t.Errorf("made %d times, want once", made)
	}
}

// TestStreamOutput: a streamed output is written whole through Write's
// temporary file, over a file that holds the same bytes too (it is known
// only by writing it), and a failing stream leaves the old file.
func TestStreamOutput(t *testing.T) {
	dir := t.TempDir()
	root := openRoot(t, dir)
	calls := 0
	o := StreamOutput("report.md", func(w io.Writer) error { calls++; _, err := io.WriteString(w, "# report\n"); return err })
	for range 2 {
		if err := Write(context.Background(), root, []Output{o}); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "report.md")); string(data) != "# report\n" || calls != 2 || string(o.Bytes()) != "# report\n" {
		t.Errorf("wrote %q in %d calls", data, calls)
	}
	failing := StreamOutput("report.md", func(w io.Writer) error { io.WriteString(w, "# half"); return errors.New("disk full") })
	if err := Write(context.Background(), root, []Output{failing}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("a failing stream: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if data, _ := os.ReadFile(filepath.Join(dir, "report.md")); string(data) != "# report\n" || len(entries) != 1 {
		t.Errorf("after a failing stream: %q, %d files", data, len(entries))
	}
}

// TestLazyOutputBegunEarly: Write begins what of a lazy output needs no
// other output (the lock's tools) while the others are written: a stream
// that ends only once it has begun is written, then the lazy output, once.
func TestLazyOutputBegunEarly(t *testing.T) {
	root := openRoot(t, t.TempDir())
	begun := make(chan struct{})
	bundle := StreamOutput("dist/a.json", func(w io.Writer) error {
		select {
		case <-begun:
		case <-time.After(10 * time.Second):
			return errors.New("the lock's early part was not begun while the bundle was written")
		}
		_, err := io.WriteString(w, "{}\n")
		return err
	})
	made := 0
	lock := lazyOutput("toolc.lock", func() [][]byte { made++; return [][]byte{[]byte("a = 1\n")} }, func() { close(begun) })
	if err := Write(context.Background(), root, []Output{bundle, lock}); err != nil {
		t.Fatal(err)
	}
	if data, _ := root.ReadFile("toolc.lock"); string(data) != "a = 1\n" || made != 1 {
		t.Errorf("lock %q, made %d times", data, made)
	}
}

// onlyWriter is an io.Writer and nothing more (no WriteString).
type onlyWriter struct{ b []byte }

func (w *onlyWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// TestTextBundleWrittenInPieces: a typed target's text, longer than the
// buffer it goes through, reaches a writer without WriteString whole and
// in order, and its digest is the hash of those bytes.
func TestTextBundleWrittenInPieces(t *testing.T) {
	text := strings.Repeat("export type Tool = { name: string };\n", 5000) + "// end\n" // 190 KB: three buffers and a part
	o := bundleOutput("typescript", "gen/tools.ts", canonical.NewString(text))
	var w onlyWriter
	if n, err := o.WriteTo(&w); err != nil || n != int64(len(text)) || string(w.b) != text {
		t.Fatalf("WriteTo wrote %d bytes (%v), equal: %v; want %d", n, err, string(w.b) == text, len(text))
	}
	if hash, size := o.digest(); hash != hashBytes([]byte(text)) || size != int64(len(text)) {
		t.Errorf("digest = %s, %d; want the hash of the text", hash, size)
	}
}

// TestEqualFileEncodesToTheEnd: --check compares a bundle with the disk
// as it encodes it, tells a file that goes on past the bundle or stops
// short of it from the bundle, and learns the bundle's hash whatever it
// finds (the lock it makes next records it).
func TestEqualFileEncodesToTheEnd(t *testing.T) {
	tools := manyTools(5_000)
	want := tools.Indent()
	first := bytes.Clone(want)
	first[0] = '{'
	for _, c := range []struct {
		name string
		disk []byte
		same bool
	}{
		{"equal", want, true},
		{"longer", append(bytes.Clone(want), '\n'), false},
		{"shorter", want[:len(want)-1], false},
		{"first byte", first, false},
	} {
		fsys := fstest.MapFS{"b.json": {Data: c.disk}}
		o := bundleOutput("", "b.json", tools)
		same, err := equalFile(fsys, o)
		if same != c.same || err != nil {
			t.Errorf("%s: equalFile = %v, %v; want %v", c.name, same, err, c.same)
		}
		if o.sum.hash != hashBytes(want) {
			t.Errorf("%s: the bundle's hash is %q after the comparison, want its bytes'", c.name, o.sum.hash)
		}
	}
}

func manyTools(n int) *canonical.Value {
	tools := canonical.NewArray()
	items := make([]*canonical.Value, n)
	for i := range items {
		items[i] = canonical.NewString(fmt.Sprintf("tool %d", i))
	}
	tools.SetItems(items)
	return tools
}

// movingFS serves name's old content to the first Open and then other
// content: a file another program rewrites while a build compares it.
type movingFS struct {
	fstest.MapFS
	name  string
	then  []byte
	opens int
}

func (m *movingFS) Open(name string) (fs.File, error) {
	if name == m.name {
		m.opens++
		if m.opens > 1 {
			return fstest.MapFS{name: {Data: m.then}}.Open(name)
		}
	}
	return m.MapFS.Open(name)
}

// TestWriteIfChangedEncodesOnce: an output is compared with the disk as
// it is encoded and written from its first difference on after what
// matched, copied from the disk; whatever the old file, the temporary file
// holds exactly the output, the bundle's hash is known for the lock, and a
// file that changed between the comparison and the copy is not copied.
func TestWriteIfChangedEncodesOnce(t *testing.T) {
	tools := manyTools(20_000) // pieces of several buffers
	want := tools.Indent()
	middle := bytes.Clone(want)
	middle[len(middle)/2] = 'x'
	late := bytes.Clone(want)
	late[len(late)-10] = 'x'
	for _, c := range []struct {
		name  string
		disk  []byte // nil: no file
		then  []byte // what a second read of the file finds, if not disk
		wrote bool
	}{
		{"equal", want, nil, false},
		{"missing", nil, nil, true},
		{"middle", middle, nil, true},
		{"late", late, nil, true},
		{"longer", append(bytes.Clone(want), '\n'), nil, true},
		{"shorter", want[:len(want)-1], nil, true},
		{"rewritten meanwhile", middle, bytes.Repeat([]byte("z"), len(want)), true},
	} {
		dir := t.TempDir()
		if c.disk != nil {
			if err := os.WriteFile(filepath.Join(dir, "b.json"), c.disk, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		root := openRoot(t, dir)
		var fsys fs.FS = root.FS()
		if c.then != nil {
			fsys = &movingFS{MapFS: fstest.MapFS{"b.json": {Data: c.disk}}, name: "b.json", then: c.then}
		}
		o := bundleOutput("", "b.json", tools)
		tmp, err := writeIfChanged(context.Background(), root, fsys, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (tmp != "") != c.wrote {
			t.Errorf("%s: wrote %q, want a temporary file: %v", c.name, tmp, c.wrote)
		}
		if tmp != "" {
			got, err := os.ReadFile(filepath.Join(dir, tmp))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: the temporary file holds %d bytes (%v), not the bundle's %d", c.name, len(got), err, len(want))
			}
		}
		if o.sum.hash != hashBytes(want) {
			t.Errorf("%s: the bundle's hash is %q after writing, want its bytes'", c.name, o.sum.hash)
		}
	}
}

// TestTextOutputMadeAsWritten: a typed target's text is made as it is
// written, through any writer, and hashed on the way; a text whose
// writer fails part-way (code its language refused, found as the file is
// written) fails the write: no output is replaced, no temporary file is
// left, and the error is still the writer's, for the CLI to report as its
// diagnostic; --check reports it the same way.
func TestTextOutputMadeAsWritten(t *testing.T) {
	line := "export type Tool = { name: string };\n"
	text := func(w io.Writer) error {
		for range 5000 {
			if _, err := io.WriteString(w, line); err != nil {
				return err
			}
		}
		return nil
	}
	o := textOutput("typescript", "gen/tools.ts", text)
	var w onlyWriter
	want := strings.Repeat(line, 5000)
	if n, err := o.WriteTo(&w); err != nil || n != int64(len(want)) || string(w.b) != want {
		t.Fatalf("WriteTo wrote %d bytes (%v), equal: %v; want %d", n, err, string(w.b) == want, len(want))
	}
	if hash, size := o.digest(); hash != hashBytes([]byte(want)) || size != int64(len(want)) {
		t.Errorf("digest = %s, %d; want the hash of the text", hash, size)
	}

	refused := &typegen.CodeError{Language: "Go", Err: errors.New("expected ';'")}
	broken := textOutput("go", "gen/tools.go", func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("package tools\n", 10000))
		return refused
	})
	dir := t.TempDir()
	for name, data := range map[string]string{"gen/tools.ts": "old ts\n", "gen/tools.go": "old go\n"} {
		os.MkdirAll(filepath.Join(dir, "gen"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := openRoot(t, dir)
	err := Write(context.Background(), root, []Output{textOutput("typescript", "gen/tools.ts", text), broken})
	var ce *typegen.CodeError
	if !errors.As(err, &ce) || ce != refused {
		t.Fatalf("Write = %v, want the text's CodeError", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "gen"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"tools.go", "tools.ts"}) {
		t.Errorf("gen/ holds %q after the failed write, want only the old files", names)
	}
	for name, data := range map[string]string{"gen/tools.ts": "old ts\n", "gen/tools.go": "old go\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != data {
			t.Errorf("%s = %.20q after the failed write, want the old file", name, got)
		}
	}
	// --check: an output that cannot be made is the error, not a difference.
	if diffs, err := Check(root.FS(), []Output{broken}); !errors.As(err, &ce) || ce != refused {
		t.Errorf("Check = %d differences, %v; want the text's CodeError", len(diffs), err)
	}
	// A build's write and check say it as its diagnostic.
	res := &Result{Outputs: []Output{broken}}
	_, werr := res.WriteAll(context.Background(), root)
	_, serr := res.Stale(root.FS())
	for _, err := range []error{werr, serr} {
		var ue *UnmadeError
		if !errors.As(err, &ue) || len(ue.Diagnostics) != 1 || ue.Diagnostics[0].Code != "publish.code-invalid" || !errors.As(err, &ce) {
			t.Errorf("WriteAll, Stale = %v; want an UnmadeError with the publish.code-invalid diagnostic", err)
		}
	}
}

// TestRemoveStaleTemporaries: a build removes the temporary files a
// killed build left beside its outputs (".NAME.toolc-" and 12 hex digits,
// unwritten for staleAge), and nothing else: not a running build's, not
// another file's, not a folder.
func TestRemoveStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	long := time.Now().Add(-2 * staleAge)
	files := map[string]bool{ // name → removed
		"dist/.a.json.toolc-0123456789ab":            true,
		"dist/.a.json.toolc-0123456789AB":            true,
		"dist/skills/x/.SKILL.md.toolc-a1b2c3d4e5f6": true,
		"dist/.a.json.toolc-0123456789a":             false, // 11 digits
		"dist/.a.json.toolc-0123456789az":            false, // not hex
		"dist/.c.json.toolc-0123456789ab":            false, // no output c.json
		"dist/a.json.toolc-0123456789ab":             false, // no leading dot
		"dist/.toolc-0123456789ab":                   false,
		"dist/a.json":                                false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, long, long)
	}
	fresh := filepath.Join(dir, "dist/.b.json.toolc-00000000000f") // a running build's
	os.WriteFile(fresh, []byte("x"), 0o644)
	folder := filepath.Join(dir, "dist/.a.json.toolc-ffffffffffff")
	os.Mkdir(folder, 0o755)
	os.Chtimes(folder, long, long)
	root := openRoot(t, dir)
	removeStale(root, []Output{NewOutput("dist/a.json", nil), NewOutput("dist/b.json", nil), NewOutput("dist/skills/x/SKILL.md", nil)})
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if got := errors.Is(err, fs.ErrNotExist); got != removed {
			t.Errorf("%s: removed %v, want %v", name, got, removed)
		}
	}
	for _, p := range []string{fresh, folder} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

// TestSmallFileCompared: a file smaller than a sameWriter's buffer is read
// through one sized to it, and still told from an output that is the
// same, longer, shorter or different, written in one piece or several.
func TestSmallFileCompared(t *testing.T) {
	for _, c := range []struct {
		disk, out string
		same      bool
	}{
		{"abc\n", "abc\n", true},
		{"abc\n", "abc\nd", false},
		{"abc\n", "abc", false},
		{"abc\n", "abd\n", false},
		{"", "", true},
		{"", "a", false},
		{"a", "", false},
	} {
		for _, pieces := range []int{1, 2} {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(c.disk), 0o644); err != nil {
				t.Fatal(err)
			}
			root := openRoot(t, dir)
			o := textOutput("llms-txt", "f.txt", func(w io.Writer) error {
				half := len(c.out) / pieces
				io.WriteString(w, c.out[:half])
				_, err := io.WriteString(w, c.out[half:])
				return err
			})
			same, err := equalFile(root.FS(), o)
			if err != nil || same != c.same {
				t.Errorf("%q on disk, %q in %d pieces: equalFile = %v, %v; want %v", c.disk, c.out, pieces, same, err, c.same)
			}
			tmp, err := writeIfChanged(context.Background(), root, root.FS(), o)
			if err != nil || (tmp == "") != c.same {
				t.Errorf("%q on disk, %q in %d pieces: writeIfChanged = %q, %v; want a temporary file: %v", c.disk, c.out, pieces, tmp, err, !c.same)
			}
			if tmp != "" {
				if got, _ := os.ReadFile(filepath.Join(dir, tmp)); string(got) != c.out {
					t.Errorf("%q on disk, %q in %d pieces: wrote %q", c.disk, c.out, pieces, got)
				}
			}
			root.Close()
		}
	}
}
