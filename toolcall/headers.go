package toolcall

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// Header is one HTTP header a call sends.
type Header struct {
	Name  string // "Mcp-Param-Region"
	Value string // the value's text form, or =?base64?…?= where it is not plain ASCII
}

// mcpHeaderKey marks a property whose value a call also sends as a header.
const mcpHeaderKey = "x-mcp-header"

// maxSafeInteger is the largest integer a header may carry: JavaScript's
// safe range, ±(2^53−1).
const maxSafeInteger = 1<<53 - 1

// Headers returns the headers the call sends besides its body on MCP's
// Streamable HTTP transport (2026-07-28, SEP-2243): for each property of
// the tool's input schema that carries x-mcp-header, reached from the root
// through properties alone, whose value the arguments hold, the header
// Mcp-Param-{name} with the value's text form (a string as it is, an
// integer in decimal, a boolean true or false), Base64-encoded as
// =?base64?…?= where it is not plain visible ASCII without leading or
// trailing space, or looks encoded already. They come in the order of the
// schema's properties; a gateway or a test checks a request's headers
// against them. A value that no header can carry (not a string, integer or
// boolean; an integer past ±(2^53−1)) is a problem; Decode refuses such a
// call.
func (c *Call) Headers() ([]Header, []Problem) {
	if c.Tool == nil || c.Tool.Input == nil {
		return nil, nil
	}
	args, err := canonical.ParseJSON(c.Arguments)
	if err != nil {
		return nil, []Problem{{Message: "not JSON: " + err.Error()}}
	}
	var hs []Header
	var ps []Problem
	var visit func(s, v *canonical.Value, at canonical.Pointer)
	visit = func(s, v *canonical.Value, at canonical.Pointer) {
		props := s.Get("properties")
		if props == nil || props.Kind != canonical.Object || v == nil || v.Kind != canonical.Object {
			return
		}
		for _, m := range props.Members() {
			val := v.Get(m.Key)
			if val == nil {
				continue // no value: no header
			}
			p := at.Append(m.Key)
			if name, ok := m.Value.Get(mcpHeaderKey).StringValue(); ok && name != "" {
				text, why := headerText(val)
				if why != "" {
					ps = append(ps, Problem{Pointer: p, Message: "the header Mcp-Param-" + name + " cannot carry " + why})
				} else {
					hs = append(hs, Header{Name: "Mcp-Param-" + name, Value: headerValue(text)})
				}
			}
			visit(m.Value, val, p)
		}
	}
	visit(c.Tool.Input.JSON(), args, "")
	return hs, ps
}

// headerText is the text form of a header's value, or why it has none.
func headerText(v *canonical.Value) (string, string) {
	switch v.Kind {
	case canonical.String:
		return v.Text(), ""
	case canonical.Bool:
		return strconv.FormatBool(v.Bool), ""
	case canonical.Number:
		f, ok := v.NumberValue()
		switch {
		case !ok || f != math.Trunc(f):
			return "", "the number " + v.Text() + ": only an integer, a string or a boolean"
		case math.Abs(f) > maxSafeInteger:
			return "", "the integer " + v.Text() + ", past ±(2^53−1), which a client may not send"
		}
		return strconv.FormatInt(int64(f), 10), ""
	}
	return "", "a value of type " + map[canonical.Kind]string{canonical.Null: "null", canonical.Array: "array", canonical.Object: "object"}[v.Kind] + ": only a string, an integer or a boolean"
}

// headerValue encodes a header's text as 2026-07-28 says: as it is where it
// is visible ASCII (and space or tab inside), else =?base64?…?= of its
// UTF-8, as for a text that looks encoded already.
func headerValue(s string) string {
	plain := s == strings.TrimSpace(s) && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?="))
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] == '\t' || s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}
