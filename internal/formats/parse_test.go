package formats

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
)

func TestParseYAML(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a: 1\nb: [x, 2.50, true, null]\n", `{"a":1,"b":["x",2.50,true,null]}`},
		{"200:\n  description: ok\n", `{"200":{"description":"ok"}}`},
		{"n: 0x1F\nm: 1_000\nf: .5\ne: 1e3\np: +7\n", `{"n":31,"m":1000,"f":0.5,"e":1e3,"p":7}`},
		{"d: 2024-01-02\ns: '1'\nt: yes\n", `{"d":"2024-01-02","s":"1","t":"yes"}`},
		{"base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n", `{"base":{"x":1,"y":2},"derived":{"y":3,"x":1}}`},
		{"a: &x [1, 2]\nb: *x\n", `{"a":[1,2],"b":[1,2]}`},
		{"big: 123456789012345678901234567890\n", `{"big":123456789012345678901234567890}`},
	} {
		v, err := ParseYAML([]byte(c.in))
		if err != nil {
			t.Errorf("ParseYAML(%q): %v", c.in, err)
			continue
		}
		if got := string(v.AppendJSON(nil, "")); got != c.want {
			t.Errorf("ParseYAML(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseYAMLPositions(t *testing.T) {
	v, err := ParseYAML([]byte("paths:\n  /pets:\n    get:\n      operationId: listPets\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := v.PosOf("/paths/~1pets/get/operationId")
	if want := (canonical.Pos{Line: 4, Column: 7}); got != want {
		t.Errorf("PosOf(operationId) = %v, want %v", got, want)
	}
}

func TestParseYAMLErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		line int
	}{
		{"", 1},
		{"a: 1\na: 2\n", 2},
		{"a: [1\n", 1},
		{"? [1, 2]\n: x\n", 1},
		{"x: .inf\n", 1},
		{"a: 1\n---\nb: 2\n", 2},
		{"a: !!binary aGVsbG8=\n", 1},
	} {
		_, err := ParseYAML([]byte(c.in))
		var se *canonical.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseYAML(%q) = %v, want a SyntaxError", c.in, err)
			continue
		}
		if int(se.Pos.Line) != c.line {
			t.Errorf("ParseYAML(%q) error at line %d (%v), want line %d", c.in, se.Pos.Line, se, c.line)
		}
	}
}

// TestParseYAMLErrorColumns: a syntax error is at the token where it goes
// wrong, not at column 1 of the line where the construct began.
func TestParseYAMLErrorColumns(t *testing.T) {
	for _, c := range []struct {
		in   string
		want canonical.Pos
	}{
		{"a: 1\nb: \"unterminated\nc: 2\n", canonical.Pos{Line: 2, Column: 4}},
		{"a: [1, 2\nb: 3\n", canonical.Pos{Line: 2, Column: 1}},
		{"a: 1\n\tb: 2\n", canonical.Pos{Line: 2, Column: 1}},
		// One parser: the scan finds these where go.yaml.in/yaml names only
		// a line (or none), and the library's line is kept otherwise.
		{"# the team's API\na: [1, 2\n", canonical.Pos{Line: 2, Column: 4}},
		{"a: 'it''s\nb: 2\n", canonical.Pos{Line: 1, Column: 4}},
		{"a:\n  - 1\n - 2\n", canonical.Pos{Line: 2, Column: 3}},
	} {
		_, err := ParseYAML([]byte(c.in))
		var se *canonical.SyntaxError
		if !errors.As(err, &se) || se.Pos != c.want {
			t.Errorf("ParseYAML(%q) = %v, want a SyntaxError at %d:%d", c.in, err, c.want.Line, c.want.Column)
		}
	}
}

func TestParseYAMLAliasBomb(t *testing.T) {
	in := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		in += n + ": &" + n + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = n
	}
	if _, err := ParseYAML([]byte(in)); err == nil {
		t.Fatal("ParseYAML of an alias bomb succeeded, want an error")
	}
}

// allocated returns the bytes f allocates: a budget that does not depend
// on the machine's speed.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostileYAML are YAML files made to exhaust a parser (issue 27): nesting
// 50,000 deep (the second parser that placed the message took 3.8 GB), the
// classic alias bomb (850 MB before it was stopped), and aliases of one
// long string (a 1 MB file wrote a 100 MB bundle), each with the budget of
// bytes it may allocate before its error and a word of the error.
func hostileYAML() []struct {
	name, data, want string
	budget           uint64
} {
	bomb := "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		bomb += n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+", ", 9), ", ") + "]\n"
		prev = n
	}
	long := "s: &s \"" + strings.Repeat("x", 1<<20) + "\"\nt: &t [" + strings.TrimSuffix(strings.Repeat("*s, ", 10), ", ") + "]\nu: [" + strings.TrimSuffix(strings.Repeat("*t, ", 10), ", ") + "]\n"
	return []struct {
		name, data, want string
		budget           uint64
	}{
		{"deep", strings.Repeat("[", 50_000), "depth", 64 << 20},
		// Issue 38: an apostrophe in a comment opened a "quote" for the
		// pre-scan, which then saw none of the brackets (3.85 GB).
		{"deep after an apostrophe", "# the team's API\n" + strings.Repeat("[", 50_000), "depth", 64 << 20},
		{"deep after a plain it's", "note: it's here\nx: " + strings.Repeat("[", 9_000), "", 100 << 20},
		{"bomb", bomb, "values through aliases", 400 << 20},
		{"long aliases", long, "MB of text through aliases", 64 << 20},
	}
}

func TestParseYAMLBounded(t *testing.T) {
	for _, tc := range hostileYAML() {
		var err error
		n := allocated(func() { _, err = ParseYAML([]byte(tc.data)) })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseYAML = %v, want an error about %s", tc.name, err, tc.want)
		}
		if n > tc.budget {
			t.Errorf("%s: ParseYAML allocated %d MB before its error, want at most %d", tc.name, n>>20, tc.budget>>20)
		}
	}
}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{"a: 1", "- [x, {y: 2}]", "a: &x {b: 1}\nc: *x", "<<: {a: 1}", strings.Repeat("[", 300), strings.Repeat("- ", 300) + "x",
		"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b, *b]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseYAML(data)
		if err != nil {
			return
		}
		if _, err := canonical.ParseJSON(v.AppendJSON(nil, "")); err != nil {
			t.Fatalf("ParseYAML(%q) gives JSON that does not parse: %v", data, err)
		}
	})
}

func TestParseYAMLCycles(t *testing.T) {
	for _, in := range []string{"&a [*a, *a]", "&a {x: *a}", "a: &a\n  <<: *a\n", "a: &a\n  b:\n    <<: *a\n"} {
		if _, err := ParseYAML([]byte(in)); err == nil {
			t.Errorf("ParseYAML(%q) succeeded, want a cycle error", in)
		}
	}
}
