package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/catalogen"
	"github.com/toolc-dev/toolc/internal/corpus"
)

// corpusCatalog generates a catalog of n MCP tools from the corpus
// (internal/catalogen), with a manifest that builds the three targets.
// With distinct set, every schema's content is its own, so no cache keyed
// by content can reuse a result.
func corpusCatalog(b *testing.B, n int, distinct bool) fstest.MapFS {
	seeds, err := catalogen.Seeds(corpus.Dir(b))
	if err != nil {
		b.Skip(err)
	}
	fsys := fstest.MapFS{}
	for name, data := range catalogen.Generate(seeds, catalogen.Options{Tools: n, Distinct: distinct}) {
		fsys[name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// BenchmarkBuild builds generated catalogs to three targets. The 100k case
// runs only when asked for: go test -bench 'Build/100000' -run '^$' ./compiler.
// The generated catalogs repeat about 1,100 distinct schemas; the
// 20000-unique-schemas case makes every schema distinct, the worst case for
// validation, which caches by content.
func BenchmarkBuild(b *testing.B) {
	sizes := []int{1000, 10000, 20000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range append(sizes, 100000, -20000) {
		name, unique := fmt.Sprint(n), n < 0
		if unique {
			n, name = -n, fmt.Sprintf("%d-unique-schemas", -n)
		}
		b.Run(name, func(b *testing.B) {
			if n == 100000 && !bytes.Contains([]byte(benchFlag()), []byte("100000")) {
				b.Skip("run with -bench 'Build/100000'")
			}
			fsys := corpusCatalog(b, n, unique)
			var size int
			for _, f := range fsys {
				size += len(f.Data)
			}
			b.SetBytes(int64(size))
			b.ResetTimer()
			for b.Loop() {
				res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
				if err != nil || res.Failed || res.Tools != n {
					b.Fatalf("Build: %v, failed %v, %d tools: %v", err, res != nil && res.Failed, res.Tools, res.Diagnostics[:min(3, len(res.Diagnostics))])
				}
			}
		})
	}
}

func benchFlag() string {
	for i, a := range os.Args {
		if a == "-test.bench" && i+1 < len(os.Args) {
			return os.Args[i+1]
		}
		if len(a) > 12 && a[:12] == "-test.bench=" {
			return a[12:]
		}
	}
	return ""
}

// threeTargets are the targets of most benchmarks: MCP, OpenAI and
// Anthropic, without strict mode.
const threeTargets = catalogen.Targets

// allTargets is a manifest that builds every target, strict and OpenAPI
// modes included.
const allTargets = `version = 1
[[sources]]
include = ["tools/**/*.json"]
` + threeTargets + `[[targets]]
name = "openai-strict"
format = "openai"
strict = true
out = "dist/openai-strict.json"
[[targets]]
format = "openai-responses"
out = "dist/responses.json"
[[targets]]
name = "anthropic-strict"
format = "anthropic"
strict = true
out = "dist/anthropic-strict.json"
[[targets]]
format = "gemini"
out = "dist/gemini.json"
[[targets]]
name = "gemini-openapi"
format = "gemini"
schema = "openapi"
out = "dist/gemini-openapi.json"
[[targets]]
format = "bedrock"
out = "dist/bedrock.json"
[[targets]]
format = "canonical"
out = "dist/canonical.json"
[[targets]]
format = "jsonschema"
out = "dist/arguments.json"
[policy]
ignore = ["loss", "lower", "limit", "name"]
`

// BenchmarkBuildAllTargets builds the generated 20,000-tool catalog to all
// eleven target configurations; against Build/20000 (three targets without
// passes) it measures lowering.
func BenchmarkBuildAllTargets(b *testing.B) {
	fsys := corpusCatalog(b, 20000, false)
	fsys["toolc.toml"] = &fstest.MapFile{Data: []byte(allTargets)}
	b.ResetTimer()
	for b.Loop() {
		res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
		if err != nil || res.Failed || res.Targets != 11 {
			b.Fatalf("Build: %v, failed %v", err, res != nil && res.Failed)
		}
	}
}

// BenchmarkOpenAPI builds an OpenAPI description from the corpus to MCP,
// OpenAI and Anthropic: Stripe's (2.7 MB, 468 operations, OpenAPI 3.0),
// OpenAI's (3.4 MB, 288 operations, 3.1), and five copies of Stripe's in one
// description (13.6 MB, 2,340 operations), the size of GitHub's REST
// description, which the corpus does not hold.
func BenchmarkOpenAPI(b *testing.B) {
	for _, c := range []struct {
		name, file string
		copies     int
	}{
		{"stripe", "openapi/stripe/spec3.2023-09-12.json", 1},
		{"openai", "openapi/openai/openapi.json", 1},
		{"stripe-x5", "openapi/stripe/spec3.2023-09-12.json", 5},
	} {
		b.Run(c.name, func(b *testing.B) {
			data, err := os.ReadFile(corpus.Path(b, c.file))
			if err != nil {
				b.Fatal(err)
			}
			if c.copies > 1 {
				data = copyOperations(b, data, c.copies)
			}
			fsys := fstest.MapFS{"api.json": {Data: data}, "toolc.toml": {Data: []byte(`version = 1
[[sources]]
include = ["api.json"]
repair = true
` + threeTargets)}}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
				if err != nil || res.Tools == 0 {
					b.Fatalf("Build: %v, %d tools", err, res.Tools)
				}
			}
		})
	}
}

// copyOperations makes one description of n copies of an OpenAPI
// description's paths and component schemas, each copy under its own path
// prefix, operationId suffix and schema names.
func copyOperations(b *testing.B, data []byte, n int) []byte {
	doc, err := canonical.ParseJSON(data)
	if err != nil {
		b.Fatal(err)
	}
	paths, schemas := canonical.NewObject(), canonical.NewObject()
	for k := range n {
		c := doc.DeepCopy()
		suffix := fmt.Sprintf("_%d", k)
		var rename func(v *canonical.Value)
		rename = func(v *canonical.Value) {
			for i := range v.Members() {
				m := &v.Members()[i]
				if m.Key == "$ref" && m.Value.Kind == canonical.String && strings.HasPrefix(m.Value.Text(), "#/components/schemas/") {
					m.Value.SetText(m.Value.Text() + suffix)
				}
				if m.Key == "operationId" && m.Value.Kind == canonical.String {
					m.Value.SetText(m.Value.Text() + suffix)
				}
				rename(m.Value)
			}
			for _, it := range v.Items() {
				rename(it)
			}
		}
		rename(c)
		for _, m := range c.Get("paths").Members() {
			paths.Set(fmt.Sprintf("/copy%d%s", k, m.Key), m.Value)
		}
		for _, m := range c.Get("components").Get("schemas").Members() {
			schemas.Set(m.Key+suffix, m.Value)
		}
	}
	components := canonical.NewObject()
	components.Set("schemas", schemas)
	doc.Set("paths", paths)
	doc.Set("components", components)
	return doc.AppendJSON(nil, "")
}

// BenchmarkSharedBench builds the catalog on which the speed goals are
// judged: ../shared/bench/gen.py's 20,000 real MCP tools, to OpenAI,
// Anthropic and Gemini, and its 100,000 when asked for by name (-bench
// 'SharedBench/100000'). It skips, saying why, without ../shared/bench or
// python3. Compare two commits on it with benchstat:
//
//	go test -run '^$' -bench SharedBench -count 6 ./internal/pipeline > new.txt   # and old.txt at the other commit
//	go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt
//
// and where each size spends its CPU with -cpuprofile, one size a run.
func BenchmarkSharedBench(b *testing.B) {
	gen := filepath.Join(corpus.Dir(b), "..", "bench", "gen.py")
	if _, err := os.Stat(gen); err != nil {
		b.Skipf("no %s: the shared bench is beside the corpus", gen)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not installed: gen.py writes the catalog")
	}
	for _, n := range []int{20000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if n == 100000 && !strings.Contains(benchFlag(), "100000") {
				b.Skip("run with -bench 'SharedBench/100000'")
			}
			dir := b.TempDir()
			if out, err := exec.Command(python, gen, dir, fmt.Sprint(n)).CombinedOutput(); err != nil {
				b.Fatalf("gen.py: %v\n%s", err, out)
			}
			fsys := os.DirFS(dir)
			b.ResetTimer()
			for b.Loop() {
				res, err := BuildFile(context.Background(), fsys, DefaultManifest, Options{})
				if err != nil || res.Failed || res.Tools != n {
					b.Fatalf("Build: %v, failed %v, %d tools", err, res != nil && res.Failed, res.Tools)
				}
			}
		})
	}
}
