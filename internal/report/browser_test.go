package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/report"
)

// browser returns the path of a Chromium, or skips the test.
func browser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TOOLC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found (Debian's chromium package, which .ci/run installs, or TOOLC_CHROMIUM): the report page is not tested in a browser")
	return ""
}

// exampleOverview builds the repository's example catalog with token
// counts.
func exampleOverview(t *testing.T) *report.Overview {
	t.Helper()
	res, err := pipeline.BuildFile(context.Background(), os.DirFS("../.."), pipeline.DefaultManifest, pipeline.Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	return report.Make(res, 2)
}

// TestReportInBrowser loads the example catalog's report in headless
// Chromium: the targets' table and the matrix show the counts the overview
// has, the filters narrow the matrix, and a tool's page shows its schemas
// with the changes marked. It leaves a screenshot of the tool's page in
// $TOOLC_SCREENSHOTS when that is set.
func TestReportInBrowser(t *testing.T) {
	exe := browser(t)
	ov := exampleOverview(t)
	// Issue 28, item 15: a bundle refused as a whole is said in the
	// targets' table, and a tool whose schema holds a long line stays
	// within the page.
	ov.Targets[0].Refusals = []string{"accept.tools: the bundle has too many tools"}
	const tool = "github:list_issues"
	long := strings.Repeat("averyveryverylongword", 40)
	for i := range ov.Tools {
		if ov.Tools[i].ID == tool {
			var in map[string]any
			if err := json.Unmarshal([]byte(ov.Tools[i].Input), &in); err != nil {
				t.Fatal(err)
			}
			in["description"] = long
			b, _ := json.MarshalIndent(in, "", "  ")
			ov.Tools[i].Input = string(b)
		}
	}
	var page bytes.Buffer
	if err := report.WriteHTML(&page, ov); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	eval := func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	count := func(expr string) int { return int(eval(expr).(float64)) }

	// The tables: one row per target with the overview's counts, and one
	// matrix row per tool.
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	rows := count(`document.querySelectorAll(".row.item").length`)
	shown := count(`+document.getElementById("shown").getAttribute("data-shown")`)
	if rows != len(ov.Tools) || shown != len(ov.Tools) {
		t.Errorf("the matrix shows %d rows (%d said), want %d tools", rows, shown, len(ov.Tools))
	}
	var want []int
	for _, tg := range ov.Targets {
		for _, s := range report.Statuses() {
			if s == report.Refused && len(tg.Refusals) > 0 {
				want = append(want, -1) // "the bundle"
				continue
			}
			want = append(want, tg.Status[s])
		}
	}
	got := eval(`[...document.querySelectorAll("#targets tbody td[data-status]")].map(td => td.textContent === "the bundle" ? -1 : +td.textContent.replace(/,/g, ""))`)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the targets' table counts %v, want %v", got, want)
	}
	for _, s := range report.Statuses() {
		total := 0
		for _, tg := range ov.Targets {
			total += tg.Status[s]
		}
		if n := count(`document.querySelectorAll('.row.item .st[data-status="` + s + `"]').length`); n != total {
			t.Errorf("the matrix has %d %s cells, want %d", n, s, total)
		}
	}

	// Each cell of a target that costs tokens shows them.
	tokenCells := 0
	for _, tg := range ov.Targets {
		if tg.Counted {
			tokenCells += tg.Tools
		}
	}
	if n := count(`document.querySelectorAll(".row.item .tok").length`); n != tokenCells || tokenCells == 0 {
		t.Errorf("the matrix shows tokens in %d cells, want %d", n, tokenCells)
	}

	// A filter: the tools that the gemini target makes lossy.
	gemini := -1
	for i, tg := range ov.Targets {
		if tg.Name == "gemini" {
			gemini = i
		}
	}
	if gemini < 0 {
		t.Fatal("the example catalog has no gemini target")
	}
	shown = count(`(() => { const f = document.getElementById("f-target"), s = document.getElementById("f-status");
		f.value = "gemini"; s.value = "x"; s.dispatchEvent(new Event("input"));
		return +document.getElementById("shown").getAttribute("data-shown") })()`)
	if want := ov.Targets[gemini].Status[report.Lossy]; shown != want {
		t.Errorf("filtered to gemini and lossy, the matrix shows %d tools, want %d", shown, want)
	}

	// A tool's page, opened by a click: its ID and description, a section
	// per target, the schemas side by side with what the strict target
	// changed marked, nothing past the right edge of a 1400 px window.
	eval(`(() => { const s = document.getElementById("f-status"); document.getElementById("f-target").value = ""; s.value = ""; s.dispatchEvent(new Event("input")); return 0 })()`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`.row.item[data-tool="`+tool+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tool h2`)),
	); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#tool h2`)))
	if err != nil {
		t.Fatal(err)
	}
	sections := count(`document.querySelectorAll("#tool h3[data-target]").length`)
	if title != tool || sections != len(ov.Targets) {
		t.Errorf("the tool's page is titled %q with %d target sections, want %q and %d", title, sections, tool, len(ov.Targets))
	}
	var desc string
	for _, tl := range ov.Tools {
		if tl.ID == tool {
			desc = tl.Description
		}
	}
	if got := eval(`(document.querySelector("#tool p.desc") || {}).textContent || ""`); desc == "" || got != desc {
		t.Errorf("the tool's page shows the description %q, want %q", got, desc)
	}
	if w := count(`document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the tool's page runs %d px past the right edge of the window", w)
	}
	added, marked := count(`document.querySelectorAll("#tool pre .add").length`), count(`document.querySelectorAll("#tool pre .find").length`)
	if added == 0 || marked == 0 {
		t.Errorf("the tool's page marks %d changed lines and %d lines with findings; want some of each (openai-strict changes it)", added, marked)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(shot, []byte("\x89PNG")) {
		t.Errorf("the screenshot is not a PNG (%d bytes)", len(shot))
	}
	if dir := os.Getenv("TOOLC_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "report-tool.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
