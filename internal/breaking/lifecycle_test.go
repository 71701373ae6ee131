package breaking

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

var day = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)

func lifeTool(t *testing.T, name, input string, set func(*canonical.Tool)) *canonical.Tool {
	tl := &canonical.Tool{Namespace: "shop", Name: name, Input: schema(t, input)}
	if set != nil {
		set(tl)
	}
	return tl
}

const objQ = `{"type": "object", "properties": {"q": {"type": "string"}}}`

// TestLifecycleRules: a stability that goes down and a sunset that moves
// earlier are breaking; the other way they are not.
func TestLifecycleRules(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new func(*canonical.Tool)
		want     string
	}{
		{"stable to beta", nil, func(x *canonical.Tool) { x.Stability = "beta" }, "breaking.stability-decreased"},
		{"beta to stable", func(x *canonical.Tool) { x.Stability = "beta" }, func(x *canonical.Tool) { x.Stability = "stable" }, ""},
		{"alpha to draft", func(x *canonical.Tool) { x.Stability = "alpha" }, func(x *canonical.Tool) { x.Stability = "draft" }, "breaking.stability-decreased"},
		{"sunset earlier", func(x *canonical.Tool) { x.Deprecated, x.Sunset = true, "2027-06-30" }, func(x *canonical.Tool) { x.Deprecated, x.Sunset = true, "2027-01-31" }, "breaking.sunset-moved"},
		{"sunset later", func(x *canonical.Tool) { x.Deprecated, x.Sunset = true, "2027-01-31" }, func(x *canonical.Tool) { x.Deprecated, x.Sunset = true, "2027-06-30" }, ""},
	} {
		ds := Compare([]*canonical.Tool{lifeTool(t, "s", objQ, c.old)}, []*canonical.Tool{lifeTool(t, "s", objQ, c.new)}, Options{Today: day})
		if got := strings.Join(codes(ds), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestStabilize: a break of a beta tool is a warning that a minor release
// covers, of a draft one an info that needs none, of a stable one an error.
func TestStabilize(t *testing.T) {
	wide := `{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}`
	for _, c := range []struct {
		stability string
		want      diag.Severity
		bump      Bump
	}{{"", diag.Error, Major}, {"beta", diag.Warning, Minor}, {"draft", diag.Info, None}, {"alpha", diag.Info, None}} {
		set := func(x *canonical.Tool) { x.Stability = c.stability }
		ds := Compare([]*canonical.Tool{lifeTool(t, "s", wide, set)}, []*canonical.Tool{lifeTool(t, "s", objQ, set)}, Options{Today: day})
		ds = Stabilize(ds, []*canonical.Tool{lifeTool(t, "s", wide, set)})
		if len(ds) != 1 || ds[0].Severity != c.want || Needed(ds) != c.bump {
			t.Errorf("%q: %v, bump %s; want %s and %s", c.stability, ds, Needed(ds), c.want, c.bump)
		}
	}
}

// TestPropertyWindow: an input property deprecated in enough releases may
// go in a minor release; in too few it is breaking.removed-early; without
// the history the removal stays breaking.property-removed and says why.
func TestPropertyWindow(t *testing.T) {
	dep := `{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "deprecated": true}}}`
	release := func(v string, date time.Time, input string) Release {
		tools := []*canonical.Tool{lifeTool(t, "s", input, nil)}
		return Release{Version: v, Date: date, Tags: []string{"v" + v}, Tools: func() ([]*canonical.Tool, error) { return tools, nil }}
	}
	history := []Release{
		release("1.0.0", day.AddDate(0, -9, 0), `{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}`),
		release("1.1.0", day.AddDate(0, -6, 0), dep),
		release("1.2.0", day.AddDate(0, -3, 0), dep),
		release("2.1.0", day, dep), // after the new version: not counted
	}
	for _, c := range []struct {
		name     string
		releases int
		history  func() ([]Release, error)
		want     string
	}{
		{"two releases, two wanted", 2, func() ([]Release, error) { return history, nil }, "breaking.retired"},
		{"two releases, three wanted", 3, func() ([]Release, error) { return history, nil }, "breaking.removed-early"},
		{"no history", 2, func() ([]Release, error) { return nil, errors.New("not a git revision") }, "breaking.property-removed"},
	} {
		opts := Options{Today: day, Version: "2.0.0", Window: &Window{Releases: c.releases, Days: 60, History: c.history}}
		ds := Compare([]*canonical.Tool{lifeTool(t, "s", dep, nil)}, []*canonical.Tool{lifeTool(t, "s", objQ, nil)}, opts)
		if got := strings.Join(codes(ds), " "); got != c.want {
			t.Errorf("%s: %q, want %q: %v", c.name, got, c.want, ds)
		}
		if len(ds) == 1 && ds[0].Subject != "/input/properties/limit" {
			t.Errorf("%s: subject %q", c.name, ds[0].Subject)
		}
	}
}

// TestAcknowledgeEntries: an entry names its finding by text or by
// fingerprint; past its until (a version or a date) it is an error and
// lets nothing through; naming nothing it is stale.
func TestAcknowledgeEntries(t *testing.T) {
	wide := `{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}`
	ds := Compare([]*canonical.Tool{lifeTool(t, "s", wide, nil)}, []*canonical.Tool{lifeTool(t, "s", objQ, nil)}, Options{Today: day})
	text := FindingText(ds[0])
	if text != "breaking.property-removed tool=shop:s at=/input/properties/n" {
		t.Fatalf("FindingText = %q", text)
	}
	for _, c := range []struct {
		name  string
		ack   Ack
		want  diag.Severity
		codes []string
	}{
		{"by text, until a later version", Ack{Finding: text, Reason: "r", Until: "1.2.0", UntilVersion: "1.2.0"}, diag.Warning, nil},
		{"by fingerprint, until a later date", Ack{Finding: diag.Fingerprint(ds[0]), Reason: "r", Until: "2027-01-01", UntilDate: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}, diag.Warning, nil},
		{"past its version", Ack{Finding: text, Reason: "r", Until: "1.0.0", UntilVersion: "1.0.0"}, diag.Error, []string{"acknowledge.expired"}},
		{"past its date", Ack{Finding: text, Reason: "r", Until: "2026-11-25", UntilDate: day.AddDate(0, 0, -1)}, diag.Error, []string{"acknowledge.expired"}},
		{"another finding", Ack{Finding: "breaking.type-changed tool=shop:s at=/input/properties/q/type", Reason: "r", Until: "1.2.0", UntilVersion: "1.2.0"}, diag.Error, []string{"acknowledge.stale"}},
	} {
		out, reasons, own := Acknowledge(ds, []Ack{c.ack}, "1.1.0", day)
		var got []string
		for _, d := range own {
			got = append(got, d.Code)
		}
		if out[0].Severity != c.want || !slices.Equal(got, c.codes) || (c.want == diag.Warning) != (reasons[text] == "r") {
			t.Errorf("%s: %v, own %v, reasons %v", c.name, out[0], got, reasons)
		}
		if slices.Equal(c.codes, []string{"acknowledge.stale"}) && !strings.Contains(out[0].Fix, `finding = "`+text+`"`) {
			t.Errorf("%s: the fix does not give the entry to paste: %q", c.name, out[0].Fix)
		}
	}
	// Expired and naming nothing of the comparison: no major release to
	// advise, only the entry to remove.
	_, _, own := Acknowledge(ds, []Ack{{Finding: "breaking.type-changed tool=shop:s at=/input/properties/q/type", Reason: "r", Until: "1.0.0", UntilVersion: "1.0.0"}}, "1.1.0", day)
	if len(own) != 1 || own[0].Code != "acknowledge.expired" || strings.Contains(own[0].Message, "major") || own[0].Fix != "remove the entry" {
		t.Errorf("an expired entry of no finding: %v", own)
	}
}

// TestWindowReadsOnlyWhatItNeeds: the window is read from the newest
// release back, and stops where the decision is made (a release without
// the deprecation, or the window met); a release that cannot be read is
// passed over with a history.release-unreadable warning, and the window
// judged on the others.
func TestWindowReadsOnlyWhatItNeeds(t *testing.T) {
	dep := `{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "deprecated": true}}}`
	plain := `{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}`
	var read []string
	release := func(v string, months int, input string, broken bool) Release {
		return Release{Version: v, Date: day.AddDate(0, -months, 0), Tags: []string{v}, Tools: func() ([]*canonical.Tool, error) {
			read = append(read, v)
			if broken {
				return nil, errors.New("toolc.toml: unknown key \"nmae\"")
			}
			return []*canonical.Tool{lifeTool(t, "s", input, nil)}, nil
		}}
	}
	for _, c := range []struct {
		name     string
		history  []Release
		releases int
		want     string
		read     []string
	}{
		{"met by the two newest", []Release{release("1.0.0", 12, plain, false), release("1.1.0", 9, dep, false), release("1.2.0", 6, dep, false), release("1.3.0", 3, dep, false)}, 2, "breaking.retired", []string{"1.3.0", "1.2.0"}},
		{"ended by a release without it", []Release{release("1.0.0", 12, dep, false), release("1.1.0", 9, plain, false), release("1.2.0", 6, dep, false)}, 2, "breaking.removed-early", []string{"1.2.0", "1.1.0"}},
		{"a broken release passed over", []Release{release("1.1.0", 9, dep, false), release("1.2.0", 6, dep, true), release("1.3.0", 3, dep, false)}, 2, "breaking.retired history.release-unreadable", []string{"1.3.0", "1.2.0", "1.1.0"}},
	} {
		read = nil
		opts := Options{Today: day, Version: "2.0.0", Window: &Window{Releases: c.releases, Days: 60, History: func() ([]Release, error) { return c.history, nil }}}
		ds := Compare([]*canonical.Tool{lifeTool(t, "s", dep, nil)}, []*canonical.Tool{lifeTool(t, "s", objQ, nil)}, opts)
		if got := strings.Join(codes(ds), " "); got != c.want || !slices.Equal(read, c.read) {
			t.Errorf("%s: %q after reading %q; want %q after %q: %v", c.name, got, read, c.want, c.read, ds)
		}
	}
}

// TestBumpFromTheChange: the bump is what the change breaks, whatever the
// policy made of its findings: a description edit denied is still a patch,
// a removed property let through by warn still a major; an acknowledged
// break is a minor.
func TestBumpFromTheChange(t *testing.T) {
	old := []*canonical.Tool{lifeTool(t, "s", `{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}`, nil)}
	edited := []*canonical.Tool{lifeTool(t, "s", `{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}`, func(x *canonical.Tool) { x.Description = "Another text." })}
	removed := []*canonical.Tool{lifeTool(t, "s", objQ, nil)}
	ds := Compare(old, edited, Options{Today: day})
	if len(ds) != 1 || ds[0].Code != "breaking.description-changed" {
		t.Fatalf("the edit gives %v", ds)
	}
	if got := Required(ds, old, nil, "1.0.0", day); got != Patch {
		t.Errorf("a description edit needs %s, want patch", got)
	}
	rm := Compare(old, removed, Options{Today: day})
	if got := Required(rm, old, nil, "1.0.0", day); got != Major {
		t.Errorf("a removed property needs %s, want major", got)
	}
	ack := Ack{Finding: FindingText(rm[0]), Reason: "r", Until: "1.2.0", UntilVersion: "1.2.0"}
	if got := Required(rm, old, []Ack{ack}, "1.1.0", day); got != Minor {
		t.Errorf("an acknowledged removal needs %s, want minor", got)
	}
}

// TestHorizon: an acknowledgment ends within the horizon: a date within
// days of today, a version within majors of the catalog's.
func TestHorizon(t *testing.T) {
	for _, c := range []struct {
		until, version string
		ok             bool
	}{
		{"2027-06-01", "1.4.0", true}, {"9999-12-31", "1.4.0", false}, {"2027-11-27", "1.4.0", false},
		{"1.9.0", "1.4.0", true}, {"2.0.0", "1.4.0", true}, {"2.0.1", "1.4.0", false}, {"99999999999999999999999.0.0", "1.4.0", false},
		{"0.3.0", "0.2.5", true}, {"0.4.0", "0.2.5", false}, {"5.0.0", "", true},
	} {
		a := Ack{Until: c.until}
		if v, err := time.Parse(time.DateOnly, c.until); err == nil {
			a.UntilDate = v
		} else {
			a.UntilVersion = c.until
		}
		if why := a.Beyond(c.version, day, 365, 1); (why == "") != c.ok {
			t.Errorf("until %q, version %q: %q, want ok %v", c.until, c.version, why, c.ok)
		}
	}
}
