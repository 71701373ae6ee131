package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolc-dev/toolc/internal/corpus"
)

// FuzzConvert compiles arbitrary bytes, read as each source format, to
// each target, as toolc convert does: whatever a file holds, the build
// returns, without a panic, and the same bytes give the same outputs and
// findings (determinism holds for hostile input too). Every output is
// encoded, typed targets' code included, as a build writes it.
func FuzzConvert(f *testing.F) {
	to, from, strict := ConvertFormats()
	from = append([]string{"auto"}, from...)
	for _, seed := range []string{
		"mcp/reference-servers-py/server-git.tools_list.json",
		"openai/cookbook/How_to_call_functions_with_chat_models.tools.json",
		"anthropic/cookbook/extended_thinking__extended_thinking_with_tool_use__weather.json",
		"openapi/swagger-petstore/openapi.yaml",
	} {
		data, err := os.ReadFile(corpus.Path(f, filepath.FromSlash(seed)))
		if err != nil {
			f.Fatal(err)
		}
		for i := range to {
			f.Add(data, uint8(0), uint8(i), true, false)
		}
	}
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"$ref":"#"}}}}]}`), uint8(1), uint8(0), false, true)
	f.Add([]byte("tools:\n- name: b\n  inputSchema: {type: object, properties: {\"}\": {type: string}}}\n"), uint8(0), uint8(2), true, false)
	f.Fuzz(func(t *testing.T, data []byte, fromAt, toAt uint8, repair, strictMode bool) {
		if len(data) > 64<<10 {
			return
		}
		opts := ConvertOptions{From: from[int(fromAt)%len(from)], To: to[int(toAt)%len(to)], Repair: repair, Jobs: 2}
		opts.Strict = strictMode && slices.Contains(strict, opts.To)
		name := "input.json"
		if fromAt&0x80 != 0 {
			name = "input.yaml"
		}
		first := convertAll(t, name, data, opts)
		if second := convertAll(t, name, data, opts); !bytes.Equal(first, second) {
			t.Fatalf("%s to %s: two conversions of the same bytes differ:\n%s\n---\n%s", opts.From, opts.To, first, second)
		}
	})
}

// convertAll converts data and returns every output and finding, in order.
func convertAll(t *testing.T, name string, data []byte, opts ConvertOptions) []byte {
	t.Helper()
	res, err := Convert(context.Background(), name, data, opts)
	if err != nil {
		return []byte("error: " + err.Error())
	}
	var all bytes.Buffer
	for _, d := range res.Diagnostics {
		all.WriteString(d.String())
		all.WriteByte('\n')
	}
	for _, o := range res.Outputs {
		all.WriteString("== " + o.Path + "\n")
		if _, err := o.WriteTo(&all); err != nil {
			all.WriteString("write error: " + err.Error() + "\n")
		}
	}
	return all.Bytes()
}
