package pipeline

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/npmtest"
)

// sdkTypes are, per target format, the type its provider's own
// TypeScript SDK declares for each tool of the bundle (the entries at list
// in the bundle), and the package that declares it: a check apart from
// toolc's acceptance tables. Each tool is its own declaration: one array
// literal of thousands is more than tsc will type.
//
// An entry that is not a function (a namespace, a tool search tool, which a
// deferral plan writes) is declared with the SDK's union of every tool,
// union; each function with the function's own type, elem.
var sdkTypes = map[string]struct{ pkg, imports, elem, list, union string }{
	"openai":           {"openai", `import type { ChatCompletionTool as T } from "openai/resources/chat/completions";`, "T", "", ""},
	"openai-responses": {"openai", `import type { FunctionTool as T, Tool as U } from "openai/resources/responses/responses";`, "T", "", "U"},
	"anthropic":        {"@anthropic-ai/sdk", `import type { Tool as T, ToolUnion as U } from "@anthropic-ai/sdk/resources/messages/messages";`, "T", "", "U"},
	"bedrock":          {"@aws-sdk/client-bedrock-runtime", `import type { Tool as T } from "@aws-sdk/client-bedrock-runtime";`, "T", "/tools", ""},
	// The Gemini SDK types a schema's type as its enum Type and an int64
	// (minLength, maxItems …) as a string; a JSON request holds the enum's
	// values, and proto3's JSON takes an int64 as a number too.
	"gemini": {"@google/genai", `import type { FunctionDeclaration, Type } from "@google/genai";
type Int64 = "minItems" | "maxItems" | "minLength" | "maxLength" | "minProperties" | "maxProperties";
type Wire<T> = T extends Type ? ` + "`${T}`" + ` : T extends (infer E)[] ? Wire<E>[] : T extends object ? { [K in keyof T]: K extends Int64 ? number | string : Wire<T[K]> } : T;
type T = Wire<FunctionDeclaration>;`, "T", "/functionDeclarations", ""},
}

// bigNamespace matches a bundle entry of the corpus's three biggest
// namespaces by its emitted name: "stripe__…" where a name has no ':'
// (OpenAI, Anthropic, Bedrock), "stripe:…" where it keeps it (Gemini).
var bigNamespace = regexp.MustCompile(`"name": ?"(bfcl|stripe|openai)(__|:)`)

// sdkFile is the TypeScript of a bundle of format: each tool declared with
// its SDK's type.
func sdkFile(format string, items []*canonical.Value) string {
	s := sdkTypes[format]
	var b strings.Builder
	b.WriteString(s.imports + "\n")
	for i, it := range items {
		elem := s.elem
		if typ, _ := it.Get("type").StringValue(); s.union != "" && typ != "function" && typ != "custom" && typ != "" {
			elem = s.union
		}
		fmt.Fprintf(&b, "export const t%d: %s = %s;\n", i, elem, it.AppendJSON(nil, ""))
	}
	return b.String()
}

// checkSDKTypes type-checks every bundle of res whose format a provider's
// SDK declares, with tsc --strict, and a bundle that breaks the OpenAI
// type, which it must refuse. tsc runs while the caller goes on: the
// returned func waits for it and reports.
func checkSDKTypes(t *testing.T, res *Result) (wait func()) {
	tsc := npmtest.Bin(t, "tsc", "typescript")
	for _, s := range sdkTypes {
		npmtest.Module(t, s.pkg)
	}
	dir := t.TempDir()
	if err := os.Symlink(npmtest.Modules(), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	config := `{"compilerOptions": {"strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": true}, "include": ["*.ts"]}`
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tsconfig.json", config)
	n, declared := 0, 0
	for _, b := range res.Bundles {
		s, ok := sdkTypes[b.Format]
		dialect := slices.ContainsFunc(modes["openai-dialects"], func(m string) bool { return strings.Contains(m, `name = "`+b.Target+`"`) })
		if !ok || dialect && b.Target != "compatible" {
			continue // a dialect's bundle is OpenAI's format for another server: compatible stands for them all
		}
		items := b.Value.Resolve(canonical.Pointer(s.list)).Items()
		if os.Getenv("TOOLC_TYPES_FULL") != "1" {
			// tsc on every bundle of the whole corpus is 15 s of CPU, a
			// quarter of go test ./...'s minute: here BFCL's, Stripe's
			// and OpenAI's tools are left out, and .ci/run's
			// TOOLC_TYPES_FULL=1 step checks them.
			items = slices.DeleteFunc(slices.Clone(items), func(it *canonical.Value) bool {
				return bigNamespace.Match(it.AppendJSON(nil, ""))
			})
		}
		write(b.Target+".ts", sdkFile(b.Format, items))
		n++
		declared += len(items)
	}
	// A deliberately wrong bundle: parameters that are no schema, a strict
	// flag that is no boolean.
	wrong, err := canonical.ParseJSON([]byte(`{"type": "function", "function": {"name": "t", "parameters": "{}", "strict": "yes"}}`))
	if err != nil {
		t.Fatal(err)
	}
	write("wrong.ts", sdkFile("openai", []*canonical.Value{wrong}))
	// tsc runs while the caller goes on; wait reports what it found.
	done := make(chan string, 1)
	go func() {
		out, _ := exec.Command(tsc, "-p", dir).CombinedOutput()
		done <- string(out)
	}()
	return func() {
		out := <-done
		var others []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.Contains(line, "wrong.ts") {
				others = append(others, line)
			}
		}
		if !strings.Contains(out, "wrong.ts") {
			t.Errorf("tsc took a bundle the OpenAI SDK's type refuses:\n%s", out)
		}
		if len(others) > 0 && others[0] != "" {
			t.Errorf("the providers' SDK types refuse bundles toolc wrote:\n%s", strings.Join(others, "\n"))
		}
		t.Logf("%d bundles (%d tools) type-checked against the providers' SDK types (openai, @anthropic-ai/sdk, @google/genai, @aws-sdk/client-bedrock-runtime), and one wrong bundle refused", n, declared)
	}
}
