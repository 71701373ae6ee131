package diagfmt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/sariftest"
)

// sample has a diagnostic of each severity, one with a fix and a target,
// one without a line and one with every character that needs escaping.
func sample() []diag.Diagnostic {
	return []diag.Diagnostic{
		diag.New("schema.dangling-ref", "$ref #/$defs/x points to nothing").At("tools/a.json", "/inputSchema/properties/x").WithFix("define x").About("a"),
		{Code: "loss.ref", Severity: diag.Warning, Message: "100% lost: a,b:c\r\nnext", File: "dir,1/b:c.json", Line: 3, Column: 7, Target: "gemini"},
		{Code: "name.rewritten", Severity: diag.Info, Message: "renamed", File: "toolc.toml"},
		{Code: "catalog.empty", Severity: diag.Warning, Message: "no source file yielded a tool"},
	}
}

func write(t *testing.T, f Format, ds []diag.Diagnostic) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Write(&b, f, ds, Options{Version: "v1.2.3"}); err != nil {
		t.Fatalf("Write(%s) = %v", f, err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	ds := sample()
	ds[0].Line, ds[0].Column = 4, 9
	got := write(t, Text, ds)
	want := `tools/a.json:4:9: error schema.dangling-ref: tool a: $ref #/$defs/x points to nothing
	fix: define x
dir,1/b:c.json:3:7: warning loss.ref: 100% lost: a,b:c` + "\r\nnext" + ` [target gemini]
toolc.toml: info name.rewritten: renamed
warning catalog.empty: no source file yielded a tool
`
	if got != want {
		t.Errorf("text =\n%s\nwant\n%s", got, want)
	}
	var b bytes.Buffer
	if _, err := Write(&b, Text, ds[2:3], Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if want := "toolc.toml: \x1b[1;36minfo\x1b[0m name.rewritten: renamed\n"; b.String() != want {
		t.Errorf("coloured text = %q, want %q", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(write(t, JSON, sample()), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("json gave %d lines, want 4:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	want := []string{
		`{"code":"schema.dangling-ref","severity":"error","message":"$ref #/$defs/x points to nothing","file":"tools/a.json","line":0,"column":0,"pointer":"/inputSchema/properties/x","tool":"a","fix":"define x","fingerprint":"1a0d33f41eea0a3a5f4fe357ad12d8ee"}`,
		`{"code":"loss.ref","severity":"warning","message":"100% lost: a,b:c\r\nnext","file":"dir,1/b:c.json","line":3,"column":7,"pointer":"","targets":["gemini"],"fingerprint":"2020c59ef793d9c9457c2b7caac2774b"}`,
		`{"code":"name.rewritten","severity":"info","message":"renamed","file":"toolc.toml","line":0,"column":0,"pointer":"","fingerprint":"494e3790aea025e66be0549cd5e8a73b"}`,
		`{"code":"catalog.empty","severity":"warning","message":"no source file yielded a tool","file":"","line":0,"column":0,"pointer":"","fingerprint":"bf7b23685a62eae769c60759f7e86c10"}`,
	}
	for i, line := range lines {
		if line != want[i] {
			t.Errorf("line %d = %s\nwant      %s", i+1, line, want[i])
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Errorf("line %d is not JSON: %v", i+1, err)
		}
	}
}

func TestGitHubActions(t *testing.T) {
	got := write(t, GitHubActions, sample())
	want := "::error file=tools/a.json,title=schema.dangling-ref::tool a: $ref #/$defs/x points to nothing%0Afix: define x\n" +
		"::warning file=dir%2C1/b%3Ac.json,line=3,col=7,title=loss.ref::100%25 lost: a,b:c%0D%0Anext [target gemini]\n" +
		"::notice file=toolc.toml,title=name.rewritten::renamed\n" +
		"::warning title=catalog.empty::no source file yielded a tool\n"
	if got != want {
		t.Errorf("github-actions =\n%s\nwant\n%s", got, want)
	}
}

func TestSARIF(t *testing.T) {
	ds := sample()
	ds[0].Line, ds[0].Column = 4, 9
	out := write(t, SARIF, ds)
	sariftest.Validate(t, []byte(out))
	// The validator can fail: a result needs a message, and a driver its
	// name.
	for _, bad := range []string{strings.Replace(out, `"message":`, `"note":`, 1), strings.Replace(out, `"name": "toolc"`, `"nom": "toolc"`, 1)} {
		if errs, ran := sariftest.Errors(t, []byte(bad)); ran && errs == "" {
			t.Errorf("the SARIF multitool accepts a broken log:\n%s", bad)
		}
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(diag.Codes()) {
		t.Errorf("%d rules, want one per code (%d)", len(run.Tool.Driver.Rules), len(diag.Codes()))
	}
	if run.Tool.Driver.Version != "v1.2.3" {
		t.Errorf("driver version = %q", run.Tool.Driver.Version)
	}
	for i, r := range run.Results {
		rule := run.Tool.Driver.Rules[r.RuleIndex]
		if rule.ID != r.RuleID || r.RuleID != ds[i].Code {
			t.Errorf("result %d: ruleId %s, ruleIndex %d names %s, want %s", i, r.RuleID, r.RuleIndex, rule.ID, ds[i].Code)
		}
	}
	first := run.Results[0]
	if loc := first.Locations[0].PhysicalLocation; loc.ArtifactLocation.URI != "tools/a.json" || loc.Region.StartLine != 4 || loc.Region.StartColumn != 9 {
		t.Errorf("first location = %+v", loc)
	}
	if first.Level != "error" || run.Results[2].Level != "note" {
		t.Errorf("levels = %s, %s; want error, note", first.Level, run.Results[2].Level)
	}
	if got := run.Results[1].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "dir%2C1/b:c.json" {
		t.Errorf("escaped URI = %q", got)
	}
	if run.Results[3].Locations != nil {
		t.Errorf("a diagnostic without a file has locations %v", run.Results[3].Locations)
	}

	// Code scanning tracks results by fingerprint: moving a finding to
	// another line keeps it, another pointer changes it.
	moved := sample()
	moved[0].Line = 40
	var again sarifLog
	if err := json.Unmarshal([]byte(write(t, SARIF, moved)), &again); err != nil {
		t.Fatal(err)
	}
	if a, b := first.PartialFingerprints[fingerprintKey], again.Runs[0].Results[0].PartialFingerprints[fingerprintKey]; a != b {
		t.Errorf("fingerprint changed with the line: %s, %s", a, b)
	}
	if a, b := run.Results[0].PartialFingerprints[fingerprintKey], run.Results[1].PartialFingerprints[fingerprintKey]; a == b {
		t.Errorf("two findings share the fingerprint %s", a)
	}
}

// TestSARIFWithoutResults checks that a clean run is a valid log with an
// empty results array, which code scanning reads as "everything fixed".
func TestSARIFWithoutResults(t *testing.T) {
	out := write(t, SARIF, nil)
	sariftest.Validate(t, []byte(out))
	if !strings.Contains(out, `"results": []`) {
		t.Errorf("no empty results array in\n%s", out)
	}
}

func TestParseFormat(t *testing.T) {
	for _, name := range Formats() {
		if f, err := ParseFormat(name); err != nil || string(f) != name {
			t.Errorf("ParseFormat(%q) = %q, %v", name, f, err)
		}
	}
	if _, err := ParseFormat("xml"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("ParseFormat(xml) = %v, want ErrUnknownFormat", err)
	}
}

func TestWriteDigest(t *testing.T) {
	var ds []diag.Diagnostic
	add := func(code string, sev diag.Severity, file string, line int, target string) {
		ds = append(ds, diag.Diagnostic{Code: code, Severity: sev, Message: "m", File: file, Line: line, Column: 1, Target: target})
	}
	add("catalog.duplicate-id", diag.Error, "a.json", 1, "")
	add("catalog.duplicate-id", diag.Error, "a.json", 2, "")
	// One finding for two targets, and another one: ×2, not ×3.
	add("loss.title", diag.Warning, "a.json", 1, "openai")
	add("loss.title", diag.Warning, "a.json", 1, "anthropic")
	add("loss.title", diag.Warning, "a.json", 2, "openai")
	add("loss.meta", diag.Warning, "b.json", 1, "mcp")
	add("loss.meta", diag.Warning, "c.json", 1, "mcp")
	add("loss.icons", diag.Warning, "a.json", 1, "openai")
	add("lower.ref-inlined", diag.Info, "a.json", 1, "gemini")
	var b bytes.Buffer
	got, err := WriteDigest(&b, ds, DigestOptions{MaxCodes: 2, MaxErrors: 1, Warnings: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "warning loss.meta ×2 in 2 files [target mcp] — toolc explain loss.meta\n" +
		"warning loss.title ×2 in a.json [targets anthropic, openai] — toolc explain loss.title\n" +
		"a.json:1:1: error catalog.duplicate-id: m\n"
	if b.String() != want || got != (Digest{Codes: 1, Warnings: 1, Errors: 1, Infos: 1}) {
		t.Errorf("WriteDigest =\n%s%+v\nwant\n%s", b.String(), got, want)
	}
}

// TestGroupedTargets: the same finding for several targets is one line in
// text, JSON and GitHub Actions, with every target, and a result per target
// in SARIF.
func TestGroupedTargets(t *testing.T) {
	var ds []diag.Diagnostic
	for _, tg := range []string{"openai", "anthropic", "bedrock"} {
		d := diag.New("loss.output-schema", "the target has no place for its output schema; dropped").At("a.json", "/0/outputSchema").About("ns:t")
		d.Line, d.Column, d.Target = 3, 5, tg
		ds = append(ds, d)
	}
	other := ds[0]
	other.Line = 9
	ds = append(ds, other)
	text := write(t, Text, ds)
	want := "a.json:3:5: warning loss.output-schema: tool ns:t: the target has no place for its output schema; dropped [targets anthropic, bedrock, openai]\n" +
		"a.json:9:5: warning loss.output-schema: tool ns:t: the target has no place for its output schema; dropped [target openai]\n"
	if text != want {
		t.Errorf("text =\n%s\nwant\n%s", text, want)
	}
	lines := strings.Split(strings.TrimSpace(write(t, JSON, ds)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"tool":"ns:t","targets":["anthropic","bedrock","openai"]`) {
		t.Errorf("json =\n%s", strings.Join(lines, "\n"))
	}
	if n := strings.Count(write(t, GitHubActions, ds), "::warning "); n != 2 {
		t.Errorf("github-actions wrote %d annotations, want 2", n)
	}
	if n := strings.Count(write(t, SARIF, ds), `"ruleId"`); n != 4 {
		t.Errorf("sarif wrote %d results, want one per target: 4", n)
	}
	var b bytes.Buffer
	omitted, err := Write(&b, Text, ds, Options{Max: 1})
	if err != nil || omitted != 1 || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("Write(Max: 1) = %d, %v:\n%s", omitted, err, b.String())
	}
}

// TestSARIFFingerprintIgnoresPrefix: the prefix moves the shown path, not
// the fingerprint, so SARIF from the manifest's folder and from above it
// track the same alert, and toolc.baseline's keys match both.
func TestSARIFFingerprintIgnoresPrefix(t *testing.T) {
	ds := sample()[:1]
	fingerprints := func(prefix string) (string, string) {
		var b bytes.Buffer
		if _, err := Write(&b, SARIF, ds, Options{Prefix: prefix}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					PartialFingerprints map[string]string `json:"partialFingerprints"`
					Locations           []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		r := log.Runs[0].Results[0]
		return r.PartialFingerprints[fingerprintKey], r.Locations[0].PhysicalLocation.ArtifactLocation.URI
	}
	fp1, uri1 := fingerprints("")
	fp2, uri2 := fingerprints("project")
	if fp1 != fp2 || fp1 != diag.Fingerprint(ds[0]) {
		t.Errorf("fingerprints %s and %s, want both %s", fp1, fp2, diag.Fingerprint(ds[0]))
	}
	if uri1 != "tools/a.json" || uri2 != "project/tools/a.json" {
		t.Errorf("URIs %q and %q", uri1, uri2)
	}
}

// TestDigestUrgentFirst: what a provider refuses and what the manifest got
// wrong come first, and are always listed, whatever their count (issue
// 28: accept.tools sat under "--verbose shows 10 more codes" behind
// lint.parameter-description-missing ×656).
func TestDigestUrgentFirst(t *testing.T) {
	var ds []diag.Diagnostic
	for i := range 656 {
		ds = append(ds, diag.New("lint.parameter-description-missing", "parameter %d has no description", i).At("api.yaml", fmt.Sprintf("/p/%d", i)))
	}
	for i := range 3 {
		ds = append(ds, diag.New("loss.title", "title %d dropped", i).At("api.yaml", fmt.Sprintf("/t/%d", i)))
	}
	tools := diag.New("accept.tools", "the openai bundle has 184 tools; OpenAI takes at most 128 in one request")
	tools.File, tools.Target = "toolc.toml", "openai"
	ds = append(ds, tools, diag.New("source.openapi-unmatched", "include.tags: \"pets\" matches no operation").At("toolc.toml", ""))
	var b strings.Builder
	got, err := WriteDigest(&b, ds, DigestOptions{MaxCodes: 1, Warnings: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "warning accept.tools ×1") || !strings.HasPrefix(lines[1], "warning source.openapi-unmatched ×1") ||
		!strings.HasPrefix(lines[2], "warning lint.parameter-description-missing ×656") || got.Codes != 1 {
		t.Errorf("WriteDigest with one code to spare =\n%s\n%+v; want accept.tools and the unmatched selection, then the most frequent, and loss.title left out", b.String(), got)
	}
}

func TestElide(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"search", 6, "search"},
		{"search", 5, "sear…"},
		{"説明説明", 4, "説明説明"}, // 12 bytes, 4 characters
		{"説明説明", 3, "説明…"},
	} {
		if got := Elide(c.in, c.n); got != c.want {
			t.Errorf("Elide(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestGroupSortedAsHashed: grouping sorted diagnostics by runs finds the
// findings that hashing each whole finds, in the same order, and Count
// counts them by severity, whatever the runs' lengths (short ones
// searched, long ones hashed).
func TestGroupSortedAsHashed(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 200, 3000} {
		var ds []diag.Diagnostic
		for range n {
			d := diag.New([]string{"loss.enum", "schema.invalid", "lower.type-inferred"}[r.IntN(3)], "enum %d dropped", r.IntN(3)).At([]string{"a.json", "b.json"}[r.IntN(2)], fmt.Sprintf("/p/%d", r.IntN(40)))
			d.Line, d.Column, d.Tool = 1+r.IntN(3), 1, "s:t"
			d.Target = []string{"", "openai", "gemini", "anthropic"}[r.IntN(4)]
			ds = append(ds, d, d) // an exact duplicate, as Sort leaves none but callers may pass
		}
		ds = diag.Sort(ds)
		want := []finding{}
		at := map[diag.Diagnostic]int{}
		for _, d := range ds {
			tg := d.Target
			d.Target = ""
			i, ok := at[d]
			if !ok {
				i = len(want)
				at[d] = i
				want = append(want, finding{Diagnostic: d})
			}
			if tg != "" && !slices.Contains(want[i].targets, tg) {
				want[i].targets = append(want[i].targets, tg)
			}
		}
		for i := range want {
			slices.Sort(want[i].targets)
		}
		var e, w, i int
		for _, f := range want {
			switch f.Severity {
			case diag.Error:
				e++
			case diag.Warning:
				w++
			default:
				i++
			}
		}
		if ge, gw, gi := Count(ds); ge != e || gw != w || gi != i {
			t.Errorf("%d diagnostics: Count = %d, %d, %d; want %d, %d, %d", len(ds), ge, gw, gi, e, w, i)
		}
		got := group(ds)
		if len(got) != len(want) {
			t.Fatalf("%d diagnostics: %d findings, want %d", len(ds), len(got), len(want))
		}
		for i := range got {
			if got[i].Diagnostic != want[i].Diagnostic || !slices.Equal(got[i].targets, want[i].targets) {
				t.Fatalf("%d diagnostics: finding %d is %v %v, want %v %v", len(ds), i, got[i].Diagnostic, got[i].targets, want[i].Diagnostic, want[i].targets)
			}
		}
		checkCodeGroups(t, ds, want)
	}
}

// checkCodeGroups holds the digest's groups, which walk the findings
// without making them, to the groups of the findings made.
func checkCodeGroups(t *testing.T, ds []diag.Diagnostic, findings []finding) {
	t.Helper()
	var want []*codeGroup
	var wantErrs []finding
	infos := 0
	for _, f := range findings {
		switch f.Severity {
		case diag.Error:
			wantErrs = append(wantErrs, f)
			continue
		case diag.Info:
			infos++
			continue
		}
		k := slices.IndexFunc(want, func(g *codeGroup) bool { return g.code == f.Code })
		if k < 0 {
			k = len(want)
			want = append(want, &codeGroup{code: f.Code})
		}
		g := want[k]
		g.n++
		for _, tg := range f.targets {
			if !slices.Contains(g.targets, tg) {
				g.targets = append(g.targets, tg)
			}
		}
		if f.File != "" && !slices.Contains(g.files, f.File) {
			g.files = append(g.files, f.File)
		}
	}
	groups, errs, out := groupCodes(ds)
	if out.Infos != infos || len(groups) != len(want) || len(errs) != len(wantErrs) {
		t.Fatalf("%d diagnostics: %d groups, %d errors, %d infos; want %d, %d, %d", len(ds), len(groups), len(errs), out.Infos, len(want), len(wantErrs), infos)
	}
	for _, g := range groups {
		k := slices.IndexFunc(want, func(w *codeGroup) bool { return w.code == g.code })
		if k < 0 {
			t.Fatalf("group %s is not among the findings' codes", g.code)
		}
		w := want[k]
		slices.Sort(g.targets)
		slices.Sort(w.targets)
		if g.n != w.n || !slices.Equal(g.targets, w.targets) || !slices.Equal(g.files, w.files) {
			t.Errorf("%d diagnostics: group %s is %d %v %v, want %d %v %v", len(ds), g.code, g.n, g.targets, g.files, w.n, w.targets, w.files)
		}
	}
	for i := range errs {
		if errs[i].Diagnostic != wantErrs[i].Diagnostic || !slices.Equal(errs[i].targets, wantErrs[i].targets) {
			t.Errorf("%d diagnostics: error %d is %v %v, want %v %v", len(ds), i, errs[i].Diagnostic, errs[i].targets, wantErrs[i].Diagnostic, wantErrs[i].targets)
		}
	}
}

// TestVisible: what a source or a server wrote reaches a terminal or a CI
// log as text, never as a control sequence: escapes, a lone carriage
// return, C1 controls, bidirectional overrides and bytes that are not
// UTF-8 are written as Go escapes, in the text and GitHub Actions formats;
// toolc's own colours are still sent.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain, tab\tand\nline":             "plain, tab\tand\nline",
		"windows line\r\nnext":              "windows line\r\nnext",
		"key q\x1b[1m and \x1b]52;c;eA==\a": `key q\x1b[1m and \x1b]52;c;eA==\x07`,
		"progress\rspoofed":                 `progress\x0dspoofed`,
		"csi \u009b31m, del \x7f":           `csi \u009b31m, del \x7f`,
		"file \u202egnp.exe":                `file \u202egnp.exe`,
		"bad \xff byte, é kept":             `bad \xff byte, é kept`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	d := diag.Diagnostic{Code: "security.hidden-characters", Severity: diag.Error, Message: "key /properties/q\x1b[2J holds an escape", File: "servers/\x1b]0;x\a.json", Line: 1, Column: 2, Fix: "remove \x1b[31m"}
	for _, f := range []Format{Text, GitHubActions} {
		if got := write(t, f, []diag.Diagnostic{d}); strings.ContainsAny(got, "\x1b\a") {
			t.Errorf("%v writes a control character: %q", f, got)
		}
	}
	var b bytes.Buffer
	if _, err := Write(&b, Text, []diag.Diagnostic{d}, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if want := "servers/\\x1b]0;x\\x07.json:1:2: \x1b[1;31merror\x1b[0m security.hidden-characters: key /properties/q\\x1b[2J holds an escape\n\tfix: remove \\x1b[31m\n"; b.String() != want {
		t.Errorf("coloured = %q, want %q", b.String(), want)
	}
	var dg bytes.Buffer
	w := d
	w.Severity = diag.Warning
	if _, err := WriteDigest(&dg, []diag.Diagnostic{w}, DigestOptions{MaxCodes: 5, Warnings: true}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(dg.String(), "\x1b\a") {
		t.Errorf("the digest writes a control character: %q", dg.String())
	}
}

// FuzzVisible: whatever a source or a server wrote, Visible's text holds
// no control character but the tab and line ends, no bidirectional
// control and no byte that is not UTF-8; text that holds none is left as
// it is.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"plain", "a\r\nb", "\x1b[2J", "\r", "x\u202ey", "\xff\xfe", "é\u0085\u009b", "\r\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Visible(s)
		if !utf8.ValidString(v) {
			t.Fatalf("Visible(%q) = %q is not UTF-8", s, v)
		}
		for i, r := range v {
			if hidden(r) && !crlf(v, i) {
				t.Fatalf("Visible(%q) = %q holds %U at %d", s, v, r, i)
			}
		}
		clean := utf8.ValidString(s)
		for i, r := range s {
			clean = clean && (!hidden(r) || crlf(s, i))
		}
		if clean && v != s {
			t.Fatalf("Visible(%q) = %q changed clean text", s, v)
		}
	})
}
