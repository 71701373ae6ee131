package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/report"
)

// TestSummaryIsMakeWithoutSchemas: the Markdown report's overview is the
// whole one less the schemas' texts, every status and count the same.
func TestSummaryIsMakeWithoutSchemas(t *testing.T) {
	res, err := pipeline.BuildFile(context.Background(), os.DirFS("../.."), pipeline.DefaultManifest, pipeline.Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	whole, summary := report.Make(res, 2), report.Summary(res, 2)
	lowered := 0
	for i := range whole.Tools {
		if whole.Tools[i].Input == "" {
			t.Errorf("Make: tool %s has no input schema text", whole.Tools[i].ID)
		}
		whole.Tools[i].Input = ""
		for j := range whole.Tools[i].Cells {
			if whole.Tools[i].Cells[j].Schema != "" {
				lowered++
			}
			whole.Tools[i].Cells[j].Schema = ""
		}
	}
	if lowered == 0 {
		t.Fatal("the example catalog has no lowered schema: the test shows nothing")
	}
	if !reflect.DeepEqual(whole, summary) {
		t.Errorf("Summary differs from Make beyond the schemas' texts")
	}
}

// TestWriteJSONIsTheEncoders: the streamed JSON report is byte for byte
// what encoding/json's Encoder writes, with tools, with none and with nil.
func TestWriteJSONIsTheEncoders(t *testing.T) {
	res, err := pipeline.BuildFile(context.Background(), os.DirFS("../.."), pipeline.DefaultManifest, pipeline.Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	whole := report.Make(res, 2)
	none := *whole
	none.Tools = []report.Tool{}
	null := *whole
	null.Tools = nil
	for _, ov := range []*report.Overview{whole, &none, &null, {}} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ov); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteJSON(&got, ov); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d tools: WriteJSON differs from the Encoder at byte %d", len(ov.Tools), firstDifference(got.Bytes(), want.Bytes()))
		}
	}
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestHTMLDetailsIsland: the details written a tool at a time make one
// JSON array in their script element, a detail per tool; none make "[]".
func TestHTMLDetailsIsland(t *testing.T) {
	res, err := pipeline.BuildFile(context.Background(), os.DirFS("../.."), pipeline.DefaultManifest, pipeline.Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	whole := report.Make(res, 2)
	for _, ov := range []*report.Overview{whole, {}} {
		var page bytes.Buffer
		if err := report.WriteHTML(&page, ov); err != nil {
			t.Fatal(err)
		}
		_, island, ok := strings.Cut(page.String(), `<script type="application/json" id="detail">`)
		island, _, ok2 := strings.Cut(island, "</script>")
		var details []map[string]any
		if !ok || !ok2 || json.Unmarshal([]byte(island), &details) != nil || len(details) != len(ov.Tools) || details == nil {
			t.Errorf("%d tools: the details island is not an array of %d: %.80q", len(ov.Tools), len(ov.Tools), island)
		}
	}
}
