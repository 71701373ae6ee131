package targets_test

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/targets"
)

var update = flag.Bool("update", false, "rewrite docs/manifest.md's option tables")

const (
	manifestDoc = "../../docs/manifest.md"
	tablesBegin = "<!-- The option tables: generated from each format's declaration by go test ./internal/targets -update. -->\n"
	tablesEnd   = "<!-- End of the option tables. -->\n"
)

// optionTables are docs/manifest.md's tables of each format's options,
// made from the declarations the manifest's check reads.
func optionTables() string {
	var b strings.Builder
	for _, t := range targets.Default().List() {
		fmt.Fprintf(&b, "#### `%s`\n\n%s.", t.Name, t.Profile.Source)
		typ := reflect.TypeOf(t.Options())
		if len(option.Fields(typ)) == 0 {
			b.WriteString(" No options.\n\n")
			continue
		}
		b.WriteString("\n\n" + option.Markdown(typ) + "\n")
	}
	return b.String()
}

// TestOptionTablesInDocs keeps docs/manifest.md's option tables what the
// formats declare.
func TestOptionTablesInDocs(t *testing.T) {
	data, err := os.ReadFile(manifestDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	before, rest, ok1 := strings.Cut(doc, tablesBegin)
	_, after, ok2 := strings.Cut(rest, tablesEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q", manifestDoc, tablesBegin, tablesEnd)
	}
	want := before + tablesBegin + "\n" + optionTables() + tablesEnd + after
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(manifestDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's option tables are out of date; run go test ./internal/targets -update", manifestDoc)
}

// TestOptionsAgreeWithProfiles: a format declares strict exactly where its
// profile has a strict mode, and clients and protocol where MCP clients'
// rules apply; every declared key has a doc.
func TestOptionsAgreeWithProfiles(t *testing.T) {
	for _, a := range targets.Default().List() {
		typ := reflect.TypeOf(a.Options())
		keys := option.Keys(typ)
		if got := slices.Contains(keys, "strict"); got != a.Profile.HasStrict {
			t.Errorf("%s: declares strict %v, its profile has a strict mode %v", a.Name, got, a.Profile.HasStrict)
		}
		if got := slices.Contains(keys, "clients") && slices.Contains(keys, "protocol"); got != a.Profile.HasClients {
			t.Errorf("%s: declares clients and protocol %v, its profile is for MCP clients %v", a.Name, got, a.Profile.HasClients)
		}
		var undocumented func(prefix string, typ reflect.Type)
		undocumented = func(prefix string, typ reflect.Type) {
			for _, f := range option.Fields(typ) {
				if f.Doc == "" {
					t.Errorf("%s: option %s%s has no doc", a.Name, prefix, f.Key)
				}
				e := f.Type
				for e.Kind() == reflect.Pointer || e.Kind() == reflect.Slice || e.Kind() == reflect.Map {
					e = e.Elem()
				}
				if e.Kind() == reflect.Struct && e != typ && !strings.Contains(prefix, f.Key+".") {
					undocumented(prefix+f.Key+".", e)
				}
			}
		}
		undocumented("", typ)
	}
}
