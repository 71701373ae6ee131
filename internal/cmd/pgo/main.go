// Command pgo writes cmd/toolc/default.pgo, the CPU profile that go build
// optimizes toolc with (profile-guided optimization, go.dev/doc/pgo; go
// build and go install use a main package's default.pgo by themselves).
// It profiles, in one process, builds such as toolc's users run: a
// catalog of 20,000 generated MCP tools (internal/catalogen, from the
// corpus's GitHub MCP server) to the provider targets, the same tools'
// first 5,000 to the typed targets, and the example catalog, each written
// to a temporary folder. From the repository's root, with the shared
// corpus beside it:
//
//	go run ./internal/cmd/pgo
//
// Run it again when the hot paths change much (docs/speed.md): a stale
// profile still builds, and only optimizes less.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/toolc-dev/toolc/internal/catalogen"
	"github.com/toolc-dev/toolc/internal/corpus"
	"github.com/toolc-dev/toolc/internal/membound"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// targets are the builds' targets besides catalogen's MCP, OpenAI and
// Anthropic: the providers the bench builds, and the typed code.
const (
	providers = "[[targets]]\nformat = \"gemini\"\nout = \"dist/gemini.json\"\n[[targets]]\nformat = \"bedrock\"\nout = \"dist/bedrock.json\"\n"
	typed     = "[[targets]]\nformat = \"go\"\nout = \"gen/tools.go\"\n[[targets]]\nformat = \"typescript\"\nout = \"gen/tools.ts\"\n[[targets]]\nformat = \"python\"\nout = \"gen/tools.py\"\n"
)

func main() {
	out := flag.String("o", filepath.Join("cmd", "toolc", "default.pgo"), "the profile to write")
	rounds := flag.Int("rounds", 3, "how many times to run the builds (more samples)")
	flag.Parse()
	if err := run(*out, *rounds); err != nil {
		fmt.Fprintf(os.Stderr, "pgo: %v\n", err)
		os.Exit(1)
	}
}

func run(out string, rounds int) error {
	if _, err := os.Stat("toolc.toml"); err != nil {
		return fmt.Errorf("run it from the repository's root (the example catalog's toolc.toml): %w", err)
	}
	dir, err := corpus.Find()
	if err != nil {
		return fmt.Errorf("the shared corpus: %w (set TOOLC_CORPUS)", err)
	}
	seeds, err := catalogen.Seeds(dir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "toolc-pgo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	large, small := filepath.Join(tmp, "large"), filepath.Join(tmp, "typed")
	for _, c := range []struct {
		dir, targets string
		tools        int
	}{{large, providers, 20_000}, {small, typed, 5_000}} {
		files := catalogen.Generate(seeds, catalogen.Options{Tools: c.tools, Distinct: true})
		files["toolc.toml"] = append(files["toolc.toml"], c.targets...)
		if err := catalogen.Write(c.dir, files); err != nil {
			return err
		}
	}
	example, err := exampleCopy(tmp)
	if err != nil {
		return err
	}

	f, err := os.Create(out + ".tmp")
	if err != nil {
		return err
	}
	defer os.Remove(out + ".tmp")
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	start := time.Now()
	for range rounds {
		for _, d := range []string{large, small, example} {
			if err := build(d); err != nil {
				pprof.StopCPUProfile()
				return fmt.Errorf("%s: %w", d, err)
			}
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "pgo: %d rounds of builds profiled in %s\n", rounds, time.Since(start).Round(time.Millisecond))
	return os.Rename(out+".tmp", out)
}

// exampleCopy copies the example catalog (toolc.toml and examples/catalog)
// under dir, so that building it writes nothing into the repository.
func exampleCopy(dir string) (string, error) {
	ex := filepath.Join(dir, "example")
	err := os.CopyFS(filepath.Join(ex, "examples", "catalog"), os.DirFS(filepath.Join("examples", "catalog")))
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile("toolc.toml")
	if err != nil {
		return "", err
	}
	return ex, os.WriteFile(filepath.Join(ex, "toolc.toml"), data, 0o644)
}

// build builds the catalog in dir and writes it, as toolc build does.
func build(dir string) error {
	w, err := pipeline.OpenWorkspace(dir, pipeline.DefaultManifest)
	if err != nil {
		return err
	}
	defer w.Close()
	res, err := w.Build(context.Background(), pipeline.Options{Version: "pgo", Memory: membound.Reading})
	if err != nil {
		return err
	}
	if res.Failed {
		return fmt.Errorf("the build failed (%d diagnostics)", len(res.Diagnostics))
	}
	_, err = res.WriteAll(context.Background(), w.Root)
	return err
}
