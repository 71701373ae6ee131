package option

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type naming struct {
	Names string `toml:"names" doc:"the name template"`
}

type color string

func (color) Values() []string { return []string{"red", "blue"} }

type node struct {
	Name     string          `toml:"name" doc:"its name"`
	Children map[string]node `toml:"children" doc:"nodes below, by name"`
}

type declared struct {
	naming
	Flavor  string   `toml:"flavor" enum:"spec,smithery" default:"spec" doc:"which one"`
	Colors  []color  `toml:"colors" doc:"colors, each once"`
	Tree    *node    `toml:"tree" doc:"a tree"`
	Hidden  string   `toml:"-"`
	private string   // not a key: unexported
	Count   *float64 `toml:"count" doc:"a number"`
}

func TestFields(t *testing.T) {
	fs := Fields(reflect.TypeFor[*declared]())
	var keys []string
	for _, f := range fs {
		keys = append(keys, f.Key)
	}
	if want := []string{"names", "flavor", "colors", "tree", "count"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v (embedded fields in their place, untagged and private ones left out)", keys, want)
	}
	if f := fs[0]; !slices.Equal(f.Index, []int{0, 0}) || f.Doc != "the name template" {
		t.Errorf("an embedded field: %+v", f)
	}
	if f := fs[1]; !f.Static || !slices.Equal(f.Enum, []string{"spec", "smithery"}) || f.Default != "spec" {
		t.Errorf("a tag's enum: %+v", f)
	}
	if f := fs[2]; f.Static || !slices.Equal(f.Enum, []string{"red", "blue"}) {
		t.Errorf("a type's values: %+v", f)
	}
	v := reflect.ValueOf(declared{naming: naming{Names: "{name}"}})
	if got := v.FieldByIndex(fs[0].Index).String(); got != "{name}" {
		t.Errorf("FieldByIndex = %q", got)
	}
}

func TestSchema(t *testing.T) {
	data, err := json.Marshal(Schema(reflect.TypeFor[declared]()))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"names":{"type":"string","description":"the name template"}`,
		`"flavor":{"enum":["spec","smithery"],"default":"spec","description":"which one"}`,
		`"colors":{"type":"array","items":{"enum":["red","blue"]},"uniqueItems":true,"description":"colors, each once"}`,
		// A table of its own kind is any table, once inside it.
		`"children":{"type":"object","additionalProperties":{"type":"object"},"description":"nodes below, by name"}`,
		`"count":{"type":"number","description":"a number"}`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("schema lacks %s:\n%s", want, data)
		}
	}
}

func TestMarkdownAndText(t *testing.T) {
	md := Markdown(reflect.TypeFor[declared]())
	for _, want := range []string{
		"| `flavor` | \"spec\" \\| \"smithery\" | spec | which one |\n",
		"| `colors` | an array of \"red\" \\| \"blue\" |  | colors, each once |\n",
		"| `tree.children` | a table of tables |  | nodes below, by name |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "tree.children.NAME.children") {
		t.Errorf("Markdown describes a table of its own kind again:\n%s", md)
	}
	if text := Text(reflect.TypeFor[declared]()); !strings.Contains(text, "  flavor = \"spec\" | \"smithery\" (default spec)\n      which one\n") {
		t.Errorf("Text:\n%s", text)
	}
}

func TestWordOf(t *testing.T) {
	for v, want := range map[any]string{"x": "a string", int64(1): "an integer", 1.5: "a float", true: "a boolean"} {
		if got := WordOf(v); got != want {
			t.Errorf("WordOf(%v) = %q, want %q", v, got, want)
		}
	}
	if got := WordOf([]any{}); got != "an array" {
		t.Errorf("WordOf(array) = %q", got)
	}
	if got := WordOf(map[string]any{}); got != "a table" {
		t.Errorf("WordOf(table) = %q", got)
	}
}
