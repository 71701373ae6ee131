package lock

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestEncodeLockInParts: the lock encoded in parallel chunks is exactly the
// TOML encoding of the whole, for locks with and without each part, and
// the repository's lock reads back and encodes to itself.
func TestEncodeLockInParts(t *testing.T) {
	whole := func(l *Lock) []byte { return append([]byte(Header), encodeTOML(l)...) }
	tool := func(i int) Tool {
		lt := Tool{ID: fmt.Sprintf("ns:t%d", i), Source: "a.json", Hash: "sha256:x", Names: map[string]string{"mcp": fmt.Sprintf("ns__t%d", i)}}
		if i%7 == 0 {
			lt.Optional = map[string][]string{"openai": {"/properties/a"}}
			lt.Renamed = map[string]map[string]string{"anthropic": {"/properties/a_b": "a[b]"}}
			lt.Aliases = map[string]string{"openai": "old"}
		}
		if i%5 == 0 {
			lt.Deferred = []string{"anthropic", "openai-responses"}
			lt.Namespaces = map[string]string{"openai-responses": "ns"}
		}
		return lt
	}
	for _, n := range []int{0, 1, 511, 512, 513, 1300} {
		for _, outputs := range []bool{false, true} {
			l := &Lock{Version: 1, Toolc: "v1", Manifest: "sha256:m"}
			if n > 0 {
				l.Catalog = &Catalog{Name: "c"}
				l.Sources = []Source{{Path: "a.json", Format: "mcp", Hash: "sha256:s"}}
			}
			for i := range n {
				l.Tools = append(l.Tools, tool(i))
			}
			if outputs {
				l.Outputs = []Output{{Target: "mcp", Format: "mcp", Path: "dist/mcp.json", Hash: "sha256:o"}}
			}
			// The head holds the hash of the tools' text as the fast path
			// finds it in the
			got := Encode(l)
			c := *l
			if _, tools := Head(got); len(l.Tools) > 0 {
				c.ToolsHash = HashBytes(tools)
			}
			if want := whole(&c); !bytes.Equal(got, want) {
				t.Errorf("%d tools, outputs %v: Encode differs from the whole encoding:\n%s\nwant\n%s", n, outputs, got, want)
			}
		}
	}
	data, err := os.ReadFile("../../toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := Encode(l); !bytes.Equal(got, data) {
		t.Errorf("the repository's lock does not encode to itself:\n%s", got)
	}
}

// TestAppendLockTool: the lock's hand-written [[tools]] entries are
// exactly what the TOML encoder writes, for tools with every kind of
// string (quotes, backslashes, every control character, DEL, non-ASCII,
// invalid UTF-8) as values and as keys, and nil, empty and full maps.
func TestAppendLockTool(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tricky []string
	for c := range 0x80 {
		tricky = append(tricky, "a"+string(rune(c))+"b")
	}
	tricky = append(tricky, "", "plain", "with-dash_under", "dotted.key", "sp ace", "é", "日本", "\xff\xfe", "/properties/a~1b", `"quoted"`, `back\slash`)
	str := func() string { return tricky[rng.IntN(len(tricky))] }
	strMap := func() map[string]string {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return map[string]string{}
		}
		m := map[string]string{}
		for range 1 + rng.IntN(4) {
			m[str()] = str()
		}
		return m
	}
	for i := range 3000 {
		lt := Tool{ID: str(), Source: str(), Hash: str(), Names: strMap(), Aliases: strMap(), Namespaces: strMap()}
		for range rng.IntN(3) {
			lt.Deferred = append(lt.Deferred, str())
		}
		if rng.IntN(2) == 0 {
			lt.Optional = map[string][]string{}
			for range rng.IntN(3) {
				var ptrs []string
				if rng.IntN(4) > 0 {
					ptrs = []string{}
					for range rng.IntN(3) {
						ptrs = append(ptrs, str())
					}
				}
				lt.Optional[str()] = ptrs
			}
		}
		for _, m := range []*map[string]map[string]string{&lt.Renamed, &lt.RenamedOutput} {
			if rng.IntN(2) == 0 {
				*m = map[string]map[string]string{}
				for range rng.IntN(3) {
					(*m)[str()] = strMap()
				}
			}
		}
		want := encodeTOML(&struct {
			Tools []Tool `toml:"tools"`
		}{[]Tool{lt}})
		if got := appendTool(nil, &lt); !bytes.Equal(got, want) {
			t.Fatalf("tool %d %#v:\n%s\nwant\n%s", i, lt, got, want)
		}
	}
}
