package explain

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/diag"
)

// TestEveryCodeHasAnExample builds the example of every code, as toolc
// explain does, and checks that it gives that code: an explanation's example
// cannot go stale. No example may be left without a code.
func TestEveryCodeHasAnExample(t *testing.T) {
	known := map[string]bool{}
	for _, c := range diag.Codes() {
		known[c.Code] = true
		t.Run(c.Code, func(t *testing.T) {
			ex, err := loadExample(c.Code)
			if err != nil {
				t.Fatalf("no example: %v; write explain/examples/%s.txtar", err, c.Code)
			}
			if ex.command == "library" {
				if len(ex.archive.Files) > 0 || ex.library == "" {
					t.Errorf("a library example has files or no text")
				}
				return
			}
			ds, err := ex.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				if d.Code == c.Code {
					return
				}
				got = append(got, d.String())
			}
			t.Errorf("the example gives no %s; it gives:\n%s", c.Code, strings.Join(got, "\n"))
		})
	}
	files, _ := fs.Glob(explanations, "examples/*")
	for _, f := range files {
		if code := strings.TrimSuffix(strings.TrimPrefix(f, "examples/"), ".txtar"); !known[code] {
			t.Errorf("%s is the example of no code", f)
		}
	}
}

// TestFormat: toolc explain FORMAT lists the format's options from its
// declaration; a misspelt format or code names the one it most likely is.
func TestFormat(t *testing.T) {
	write, err := For("mcpb")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := write(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mcpb: MCPB manifest.json, manifest_version 0.3 or 0.4\n", "  mcpb.author.name = a string\n", "  flavor = \"spec\" | \"smithery\" (default spec)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("explain mcpb lacks %q:\n%s", want, b.String())
		}
	}
	for arg, want := range map[string]string{
		"mpcb":       `unknown target format "mpcb"; did you mean "mcpb"?`,
		"loss.tilte": `unknown code "loss.tilte"; did you mean "loss.title"?`,
	} {
		if _, err := For(arg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("For(%q) = %v, want %q", arg, err, want)
		}
	}
}
