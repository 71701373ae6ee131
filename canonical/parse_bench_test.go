package canonical_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/corpus"
)

// BenchmarkParseJSON parses the GitHub MCP server's tools, one to a file
// and 100 to a file (the shapes of most catalogs). kept-B/op is the memory
// the parsed documents hold, which a build keeps to the end.
func BenchmarkParseJSON(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(b), "mcp/github-mcp-server/history/*.json"))
	if len(files) == 0 {
		b.Skip("no corpus")
	}
	var single [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		single = append(single, data)
	}
	var grouped [][]byte
	for i := 0; i < len(single); i += 100 {
		doc := []byte(`{"tools": [`)
		for j, d := range single[i:min(i+100, len(single))] {
			if j > 0 {
				doc = append(doc, ',')
			}
			doc = append(doc, d...)
		}
		grouped = append(grouped, append(doc, "]}"...))
	}
	for _, c := range []struct {
		name string
		docs [][]byte
	}{{"one-per-file", single}, {"100-per-file", grouped}} {
		b.Run(c.name, func(b *testing.B) {
			var size int64
			for _, d := range c.docs {
				size += int64(len(d))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			parsed := make([]*canonical.Value, len(c.docs))
			var kept uint64
			for b.Loop() {
				var before, after runtime.MemStats
				clear(parsed)
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i, d := range c.docs {
					v, err := canonical.ParseJSON(d)
					if err != nil {
						b.Fatal(err)
					}
					parsed[i] = v
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				kept = after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
			}
			runtime.KeepAlive(parsed)
			b.ReportMetric(float64(kept), "kept-B/op")
		})
	}
}
