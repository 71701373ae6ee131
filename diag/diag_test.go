package diag

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCodeTable(t *testing.T) {
	re := regexp.MustCompile(`^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$`)
	for i, c := range codes {
		if !re.MatchString(c.Code) {
			t.Errorf("code %q is not category.kebab-name", c.Code)
		}
		if i > 0 && codes[i-1].Code >= c.Code {
			t.Errorf("table not sorted at %q", c.Code)
		}
		if c.Summary == "" || c.Explanation == "" || strings.HasSuffix(c.Summary, ".") {
			t.Errorf("code %q: summary %q / explanation missing", c.Code, c.Summary)
		}
		if got, ok := Lookup(c.Code); !ok || got.Code != c.Code {
			t.Errorf("Lookup(%q) = %v, %v", c.Code, got, ok)
		}
	}
	if _, ok := Lookup("loss.nope"); ok {
		t.Error("Lookup of an unknown code succeeded")
	}
	if !Known("loss") || !Known("loss.title") || Known("los") || Known("") {
		t.Error("Known")
	}
}

func TestPolicyPrecedence(t *testing.T) {
	ds := func() []Diagnostic {
		return []Diagnostic{
			{Code: "loss.title", Severity: Warning},
			{Code: "loss.icons", Severity: Warning},
			{Code: "name.invalid", Severity: Error},
			{Code: "source.ignored-field", Severity: Warning},
		}
	}
	for _, tc := range []struct {
		name     string
		policies []*Policy
		want     []string
	}{
		{"none", nil, []string{"warning loss.title", "warning loss.icons", "error name.invalid", "warning source.ignored-field"}},
		{"deny category", []*Policy{{Deny: []string{"loss"}}}, []string{"error loss.title", "error loss.icons", "error name.invalid", "warning source.ignored-field"}},
		{"code beats category", []*Policy{{Deny: []string{"loss"}, Ignore: []string{"loss.icons"}}}, []string{"error loss.title", "error name.invalid", "warning source.ignored-field"}},
		{"errors stay", []*Policy{{Ignore: []string{"name", "name.invalid"}}}, []string{"warning loss.title", "warning loss.icons", "error name.invalid", "warning source.ignored-field"}},
		{"target overrides global", []*Policy{{Warn: []string{"loss"}}, {Deny: []string{"loss.title"}, Ignore: []string{"source"}}}, []string{"warning loss.title", "warning loss.icons", "error name.invalid"}},
		{"nil target policy", []*Policy{nil, {Ignore: []string{"loss.title"}}}, []string{"warning loss.icons", "error name.invalid", "warning source.ignored-field"}},
	} {
		var got []string
		for _, d := range Apply(ds(), tc.policies...) {
			got = append(got, d.Severity.String()+" "+d.Code)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Apply = %q, want %q", tc.name, got, tc.want)
		}
		// In place, over a slice of its own, the same.
		own := ds()
		got = got[:0]
		for _, d := range ApplyFirstInPlace(own, nil, tc.policies...) {
			got = append(got, d.Severity.String()+" "+d.Code)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: ApplyFirstInPlace = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPolicyCheck(t *testing.T) {
	p := &Policy{Deny: []string{"loss", "nope"}, Warn: []string{"loss"}, Ignore: []string{"lint.x"}}
	var got []string
	for _, e := range p.Check() {
		got = append(got, e.Error())
	}
	want := []string{`deny: unknown code or category "nope"`, `warn: "loss" is also listed in deny`, `ignore: unknown code or category "lint.x"`}
	if !slices.Equal(got, want) {
		t.Errorf("Check = %q, want %q", got, want)
	}
}

func TestSortAndString(t *testing.T) {
	ds := []Diagnostic{
		{Code: "b", File: "b.json", Line: 1, Message: "m"},
		{Code: "a", File: "a.json", Line: 10, Column: 2, Message: "m"},
		{Code: "a", File: "a.json", Line: 2, Message: "m"},
		{Code: "a", File: "a.json", Line: 10, Column: 2, Message: "m"},
	}
	ds = Sort(ds)
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	want := []string{"a.json:2: info a: m", "a.json:10:2: info a: m", "b.json:1: info b: m"}
	if !slices.Equal(got, want) {
		t.Errorf("Sort/String = %q, want %q", got, want)
	}
	if s := (Diagnostic{Code: "x.y", Severity: Error, Message: "m", Target: "openai"}).String(); s != "error x.y: m [target openai]" {
		t.Errorf("String = %q", s)
	}
}

var update = flag.Bool("update", false, "rewrite the README's table of codes")

const (
	tableStart = "<!-- The table is made from diag/codes.go: go test ./diag -update rewrites it. -->\n"
	tableEnd   = "\n<!-- end of the table -->"
)

// TestREADMEListsEveryCode keeps the README's diagnostics table exactly what
// the code table says, so the README, toolc rules and SARIF cannot drift.
func TestREADMEListsEveryCode(t *testing.T) {
	data, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start, end := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("docs/diagnostics.md has no table of codes between %q and %q", tableStart, tableEnd)
	}
	var b strings.Builder
	b.WriteString("| code | severity | meaning |\n|---|---|---|")
	for _, c := range codes {
		fmt.Fprintf(&b, "\n| `%s` | %s | %s |", c.Code, c.Severity, c.Summary)
	}
	want := b.String()
	got := readme[start+len(tableStart) : end]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile("../docs/diagnostics.md", []byte(readme[:start+len(tableStart)]+want+readme[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/diagnostics.md's table of codes is not diag's table; run go test ./diag -update")
}

// TestCompareOrder: Compare orders by file, line, column, code, tool,
// message, target, pointer, severity and fix, each field deciding only when
// those before it tie, on diagnostics that tie often.
func TestCompareOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	var ds []Diagnostic
	for range 400 {
		ds = append(ds, Diagnostic{File: pick("", "a.json", "b.json"), Line: rng.IntN(3), Column: rng.IntN(2), Code: pick("loss.ref", "lint.x"),
			Tool: pick("", "t"), Message: pick("m", "n"), Target: pick("", "openai"), Pointer: pick("", "/a"), Severity: Severity(rng.IntN(3)), Fix: pick("", "f")})
	}
	key := func(d Diagnostic) []string {
		return []string{d.File, fmt.Sprintf("%09d", d.Line), fmt.Sprintf("%09d", d.Column), d.Code, d.Tool, d.Message, d.Target, d.Pointer, fmt.Sprintf("%d", int(d.Severity)), d.Fix}
	}
	for _, a := range ds {
		for _, b := range ds[:50] {
			want := slices.Compare(key(a), key(b))
			if got := Compare(a, b); (got < 0) != (want < 0) || (got == 0) != (want == 0) {
				t.Fatalf("Compare(%+v, %+v) = %d, want the sign of %d", a, b, got, want)
			}
		}
	}
}

// TestSortAsCompare: Sort gives the order of Compare, in place, without
// exact duplicates.
func TestSortAsCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Short and long lists, one of an odd length.
	for _, n := range []int{3000, 1 << 15, 1<<15 + 1} {
		var ds []Diagnostic
		for range n {
			ds = append(ds, Diagnostic{File: fmt.Sprint(rng.IntN(4)), Line: rng.IntN(5), Code: "loss.ref", Message: fmt.Sprint(rng.IntN(n))})
		}
		want := slices.Clone(ds)
		slices.SortFunc(want, Compare)
		want = slices.Compact(want)
		got := Sort(ds)
		if !slices.Equal(got, want) || &got[0] != &ds[0] {
			t.Errorf("Sort of %d gave %d diagnostics (want %d), or not in place", n, len(got), len(want))
		}
	}
}
