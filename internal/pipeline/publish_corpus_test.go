package pipeline

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/npmtest"
)

// TestCorpusPublishesCardsAndSkills builds each server of the corpus (its
// MCP servers, the OpenAPI descriptions but OpenAI's, and with
// TOOLC_TYPES_FULL=1 BFCL's 2,000 functions in one namespace) to a server card and to Agent Skills: every
// card's tools pass the MCP TypeScript SDK's ToolSchema, every skill
// skills-ref validate; what does not fit (a description made too long) is
// a loss, never an invalid skill.
func TestCorpusPublishesCardsAndSkills(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole corpus, then Node on what it wrote")
	}
	t.Parallel()
	ref := npmtest.Bin(t, "skills-ref", "skills-ref")
	core := npmtest.Module(t, "@modelcontextprotocol/core")
	fsys, sources := wholeCorpus(t)
	sources = withoutFaults(sources)
	if os.Getenv("TOOLC_TYPES_FULL") != "1" {
		// BFCL's 2,000 functions and Stripe's are most of the time: in
		// go test ./... the other servers, all of them with
		// TOOLC_TYPES_FULL=1, which .ci/run's own step sets.
		sources = slices.DeleteFunc(sources, func(s string) bool {
			return strings.Contains(s, `include = ["bfcl/**"]`) || strings.Contains(s, `include = ["stripe/**"]`)
		})
	}
	// A card per server: one build each, as a server publishes its own.
	dir := t.TempDir()
	cards := 0
	for i, src := range sources {
		m := "version = 1\n[catalog]\nname = \"io.github.corpus/server\"\nversion = \"1.0.0\"\ndescription = \"A server of the corpus.\"\n" + src +
			"\n[[targets]]\nformat = \"server-card\"\nout = \"card.json\"\n\n[[targets]]\nformat = \"skills\"\nout = \"skills\"\n"
		files := maps.Clone(fsys)
		files[DefaultManifest] = &fstest.MapFile{Data: []byte(m)}
		res, err := BuildFile(context.Background(), files, DefaultManifest, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error {
				t.Errorf("sources[%d] (%s): %s", i, strings.Fields(src)[3], d)
			}
		}
		if res.Failed {
			continue
		}
		for _, o := range res.Outputs {
			p := filepath.Join(dir, fmt.Sprint(i), filepath.FromSlash(o.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, o.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if o.Path == "card.json" {
				cards++
			}
		}
	}
	// Node: every card's serverInfo and tools by the SDK's own schemas.
	script := `import { readFileSync } from "node:fs";
const core = await import(process.argv[1]);
let tools = 0;
for (const f of process.argv.slice(2)) {
  const card = JSON.parse(readFileSync(f, "utf8"));
  const info = core.ImplementationSchema.safeParse(card.serverInfo);
  if (!info.success) { console.log(f, JSON.stringify(info.error.issues.slice(0, 2))); process.exit(1); }
  for (const tool of card.tools) {
    const r = core.ToolSchema.safeParse(tool);
    if (!r.success) { console.log(f, tool.name, JSON.stringify(r.error.issues.slice(0, 2))); process.exit(1); }
    tools++;
  }
}
console.log(tools);`
	cardFiles, _ := filepath.Glob(filepath.Join(dir, "*", "card.json"))
	out, err := exec.Command("node", append([]string{"--input-type=module", "-e", script, "file://" + filepath.ToSlash(filepath.Join(core, "dist", "index.mjs"))}, cardFiles...)...).CombinedOutput()
	if err != nil {
		t.Errorf("the MCP SDK's schemas refuse a server card toolc wrote: %v\n%s", err, out)
	}
	skills, _ := filepath.Glob(filepath.Join(dir, "*", "skills", "*"))
	for _, s := range skills {
		if out, err := exec.Command(ref, "validate", s).CombinedOutput(); err != nil {
			t.Errorf("skills-ref validate %s: %v\n%s", path.Base(s), err, out)
		}
	}
	if cards < 5 || len(skills) < 5 {
		t.Fatalf("%d cards and %d skills: the corpus did not build", cards, len(skills))
	}
	t.Logf("%d server cards (%s tools) pass the SDK's ToolSchema; %d skills pass skills-ref validate", cards, strings.TrimSpace(string(out)), len(skills))
}
