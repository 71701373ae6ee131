package typegen

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/profile"
)

// TestLossesAreSaid: what a type cannot say is a loss, never a silent
// widening: branches beside declared properties keep the properties, and
// the schema false is any value with a loss.
func TestLossesAreSaid(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "never": false},
		"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := Build([]*canonical.Tool{{Name: "pick", Input: in}}, nil, nil)
	root := m.Decls[0].Type
	if root.Kind != Object || len(root.Fields) != 3 {
		t.Fatalf("the input is %+v, want the object of its three properties", root)
	}
	var at []string
	for _, l := range m.Losses {
		at = append(at, l.Code+" "+string(l.At))
	}
	for _, want := range []string{"loss.type-one-of /input/anyOf", "loss.type-constraint /input/properties/never"} {
		if !slices.Contains(at, want) {
			t.Errorf("losses %q, want %q", at, want)
		}
	}
}

// TestNamesAreCut: a name made from a long string is cut to maxIdent and
// ends with a hash of the whole, so two long names with one beginning stay
// two, and the same string makes the same name.
func TestNamesAreCut(t *testing.T) {
	long := strings.Repeat("parameter_", 20)
	a, b := Pascal(long+"a"), Pascal(long+"b")
	if len(a) != maxIdent || len(b) != maxIdent || a == b || a != Pascal(long+"a") {
		t.Errorf("Pascal of two long names = %q, %q: want two names of %d characters", a, b, maxIdent)
	}
	for in, want := range map[string]string{"get_item": "GetItem", "": "T", "123": "T123", "名前": "T", "a-b.c": "ABC"} {
		if got := Pascal(in); got != want {
			t.Errorf("Pascal(%q) = %q, want %q", in, got, want)
		}
	}
	s := newScope([]string{"Taken"})
	if got := s.name("Taken", "Type"); got != "TakenType" {
		t.Errorf("scope.name(Taken) = %q, want TakenType", got)
	}
}

// TestIdentifierOptions: what the manifest's package and types may be.
func TestIdentifierOptions(t *testing.T) {
	for name, ok := range map[string]bool{"tools": true, "my_tools2": true, "my-tools": false, "Tools": false, "func": false, "main": false, "": false, "2x": false} {
		if got := GoPackage(name) == ""; got != ok {
			t.Errorf("GoPackage(%q) = %q, want ok %v", name, GoPackage(name), ok)
		}
	}
	for name, ok := range map[string]bool{"ReadFile": true, "Read_File2": true, "Read File": false, "readFile": false, "Tools": false, "None": false, "_X": false} {
		if got := TypeName(name) == ""; got != ok {
			t.Errorf("TypeName(%q) = %q, want ok %v", name, TypeName(name), ok)
		}
	}
}

// TestCodeErrorNamesTheTool: Go that go/format refuses is an error that
// names the tool whose declaration it is in. No catalog makes one (the
// namers see to it): a declaration named outside them does.
func TestCodeErrorNamesTheTool(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"a": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := Build([]*canonical.Tool{{Name: "fine", Input: in}, {Name: "broken", Input: in}}, nil, nil)
	for _, d := range m.Decls {
		if d.Tool.Name == "broken" {
			d.Name = "Broken Input" // a name no namer gives
		}
	}
	_, err = m.Go("header", "tools", false)
	var ce *CodeError
	if !errors.As(err, &ce) || ce.Tool == nil || ce.Tool.Name != "broken" {
		t.Fatalf("Go = %v, want a CodeError naming the tool broken", err)
	}
}

// TestCommentsCannotEnd: a comment's lines hold no line end of any of the
// three languages, no NUL and no byte order mark, whatever the text.
func TestCommentsCannotEnd(t *testing.T) {
	for _, text := range []string{"a\rb", "a\u2028b\u2029c", "a\x00b", "\ufeffx", "\x85", "ok\r\n", "\xff\xfe"} {
		for _, l := range commentLines(text) {
			if strings.ContainsAny(l, "\r\n\x00\u2028\u2029\ufeff\x85") || !utf8.ValidString(l) {
				t.Errorf("commentLines(%q) has the line %q", text, l)
			}
		}
	}
}

// TestGoUnionHelpers: a property of several types is raw JSON in Go, with
// one As method per type that reads it.
func TestGoUnionHelpers(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "when": {"type": ["string", "null"]}}, "required": ["id"]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := Build([]*canonical.Tool{{Name: "get", Input: in}}, nil, nil)
	src, err := m.Go("t", "tools", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func (v GetInput) IdAsString() (string, error) {", "func (v GetInput) IdAsInteger() (int64, error) {",
		"GetInputSchema = json.RawMessage(\"{\\\"type\\\":\\\"object\\\""} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the package has no %q:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), "WhenAs") {
		t.Errorf("a nullable string has As methods; it is a *string")
	}
}

// TestModelSharedByTargets: the typed targets of one build share one
// model when they name tools and types alike, and each gets its own when
// its types option or its emitted names differ; without a Shared, each
// builds its own.
func TestModelSharedByTargets(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"q": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	sources := []*canonical.Tool{{Namespace: "docs", Name: "search", Input: in}, {Namespace: "docs", Name: "fetch", Input: in}}
	emitted := []*canonical.Tool{{Name: "docs__search", Input: in}, {Name: "docs__fetch", Input: in}}
	renamed := []*canonical.Tool{{Name: "docs-search", Input: in}, {Name: "docs-fetch", Input: in}}
	opts := profile.Options{Shared: &profile.Shared{}}
	ts := model(sources, emitted, nil, opts)
	if goModel := model(sources, emitted, TypeNames{}, opts); goModel != ts {
		t.Error("two targets with the same tools, names and (no) types built two models")
	}
	if m := model(sources, emitted, TypeNames{"docs:search": "Find"}, opts); m == ts || m.Tools[0].TypeName != "Find" {
		t.Errorf("a target with its own types shares the model (type %q)", m.Tools[0].TypeName)
	}
	if m := model(sources, renamed, nil, opts); m == ts || m.Tools[0].Name != "docs-search" {
		t.Errorf("a target that names tools otherwise shares the model (name %q)", m.Tools[0].Name)
	}
	if m := model(sources[:1], emitted[:1], nil, opts); m == ts || len(m.Tools) != 1 {
		t.Errorf("a target of other tools shares the model (%d tools)", len(m.Tools))
	}
	if a, b := model(sources, emitted, nil, profile.Options{}), model(sources, emitted, nil, profile.Options{}); a == b {
		t.Error("without a Shared, two calls returned one model")
	}
}

// TestGoWrittenAsGofmtWrites: the Go file is gofmt's as written, where
// gofmt would change what a plain writer makes: doc comments that
// go/doc/comment reads as code blocks, lists and headings, blank lines it
// joins, doubled backquotes and apostrophes it prints as curly quotes;
// fields of several widths, in runs that comments part; enum constants; a
// struct of one field; Decode; a catalog of no tools.
func TestGoWrittenAsGofmtWrites(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object",
		"properties": {"q": {"type": "string"}, "longer_name": {"type": "integer", "description": "Has a doc."}, "after": {"type": "array", "items": {"type": "string"}},
		"x": {"type": "boolean"}, "mode": {"enum": ["fast", "slowest"]},
		"one": {"type": "object", "description": "# Heading\n\tTabbed.", "properties": {"only": {"type": "string"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := "Lists things.\n\n  indented, a code block\n- a line\n  - an item\n\nA Heading\n\nMore text.\n\n\n\nAfter blank lines."
	var src []byte
	say := &canonical.Tool{Name: "say", Description: "Says ``hello'' to a friend.", Input: in} // one line gofmt still changes
	for _, tools := range [][]*canonical.Tool{nil, {{Name: "list_things", Description: doc, Input: in}, say}} {
		src, err = Build(tools, nil, nil).Go("header", "tools", true)
		if err != nil {
			t.Fatal(err)
		}
		if err := gofmtChanges(src); err != nil {
			t.Errorf("%d tools: %v", len(tools), err)
		}
	}
	for _, want := range []string{"//\tindented, a code block\n", "// # A Heading\n", "// SayInput: Says “hello” to a friend.\n", "//\tTabbed.\n", "\tLongerName *int64               `json:\"longer_name,omitempty\"`\n",
		"\tListThingsInputModeSlowest ListThingsInputMode = \"slowest\"\n", "\tOnly *string `json:\"only,omitempty\"`\n"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the file has no %q:\n%s", want, src)
		}
	}
}
