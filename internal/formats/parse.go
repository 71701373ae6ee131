package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Parse reads a source file into a canonical.Value: YAML when the file's name
// ends in .yaml or .yml, JSON otherwise. Both keep member order and the
// position of every value, so diagnostics point into YAML files as they do
// into JSON ones. A syntax error is a *canonical.SyntaxError.
func Parse(data []byte, file string) (*canonical.Value, error) {
	switch strings.ToLower(path.Ext(file)) {
	case ".yaml", ".yml":
		return ParseYAML(data)
	}
	return canonical.ParseJSON(data)
}

// ParseDiagnostic is the source.parse error for err, a failure of Parse on
// file, located at the syntax error's line and column.
func ParseDiagnostic(file string, err error) diag.Diagnostic {
	d := diag.New("source.parse", "%v", err).At(file, "")
	var se *canonical.SyntaxError
	if errors.As(err, &se) {
		d.Message, d.Line, d.Column = se.Msg, int(se.Pos.Line), int(se.Pos.Column)
	}
	return d
}

// The expansion of a YAML file through its aliases is bounded, so that a
// "billion laughs" file is an error rather than an exhausted machine: it
// may hold at most yamlExpansion times the values and the scalar bytes the
// file writes out (real files alias a few shared schemas), and never less
// than the floors below.
const (
	yamlExpansion = 20
	minYAMLValues = 1_000_000
	minYAMLBytes  = 64 << 20
)

// ParseYAML reads one YAML document (YAML 1.2 core schema as go.yaml.in/yaml
// resolves it) into a canonical.Value. Anchors and aliases are expanded, merge
// keys ("<<") are applied, and scalars become JSON values: integers and
// floats keep their text when it is a JSON number and are rewritten when it
// is not (0x1F, 1_000, .5), and timestamps stay strings. What JSON cannot hold
// is an error at its position: more than one document, a key that is not a
// scalar, a duplicate key, infinity or NaN.
func ParseYAML(data []byte) (*canonical.Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &canonical.SyntaxError{Pos: canonical.Pos{Line: 1, Column: 1}, Msg: "the YAML file holds no document"}
		}
		return nil, yamlError(data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &canonical.SyntaxError{Pos: canonical.Pos{Line: int32(extra.Line), Column: int32(extra.Column)}, Msg: "the YAML file holds more than one document"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(data, err)
	}
	nodes, bytes := yamlSize(&doc)
	c := &yamlConverter{maxValues: max(minYAMLValues, yamlExpansion*nodes), maxBytes: max(minYAMLBytes, yamlExpansion*bytes)}
	return c.value(&doc, 0)
}

// yamlSize counts the nodes of a YAML tree and the bytes of its scalars as
// the file writes them, each alias once.
func yamlSize(n *yaml.Node) (nodes, bytes int) {
	nodes, bytes = 1, len(n.Value)
	if n.Kind == yaml.AliasNode {
		return nodes, bytes
	}
	for _, c := range n.Content {
		cn, cb := yamlSize(c)
		nodes, bytes = nodes+cn, bytes+cb
	}
	return nodes, bytes
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns the library's "yaml: line N: msg" into a SyntaxError.
// go.yaml.in/yaml reports the line where the enclosing construct starts (an
// unclosed flow sequence: its first line) and no column, so where a scan of
// the file finds the token that goes wrong (locateYAML), that is the place;
// elsewhere it is the library's line, at its first character.
func yamlError(data []byte, err error) error {
	msg := err.Error()
	if pos, where, ok := locateYAML(data); ok {
		if strings.Contains(msg, "depth") { // the library's reason, at the place found
			where = strings.TrimPrefix(msg, "yaml: ")
		}
		return &canonical.SyntaxError{Pos: pos, Msg: where}
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &canonical.SyntaxError{Pos: canonical.Pos{Line: int32(line), Column: int32(firstColumn(data, line))}, Msg: m[2]}
	}
	return &canonical.SyntaxError{Pos: canonical.Pos{Line: 1, Column: 1}, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// firstColumn is the column of the first character of line that is no
// space, 1 for a blank line or one past the end.
func firstColumn(data []byte, line int) int {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return 1
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return len(data) - len(bytes.TrimLeft(data, " \t")) + 1
}

// locateYAML scans a file that go.yaml.in/yaml refused for the token where
// it goes wrong, in the faults whose place the library does not tell: a
// quoted scalar never closed (its opening quote), a flow collection not
// closed before the block goes on (the line where it does, or the opening
// bracket at the end of the file), a tab in the indentation (the tab). A
// quote opens a quoted scalar only where a scalar starts (after
// indentation, or after ":", "-", "?", ",", "[" or "{"), as in YAML: the
// apostrophe of "# the team's API" or "it's" opens nothing. One pass, no
// memory but the open brackets'.
func locateYAML(data []byte) (canonical.Pos, string, bool) {
	type opening struct {
		pos    canonical.Pos
		indent int // of the line it is on
	}
	var flows []opening
	var quote byte
	var quoted canonical.Pos
	line, lineStart := 1, 0
	indent, atStart, scalarStart := 0, true, true
	pos := func(i int) canonical.Pos { return canonical.Pos{Line: int32(line), Column: int32(i - lineStart + 1)} }
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line, lineStart, indent, atStart, scalarStart = line+1, i+1, 0, true, true
			continue
		case quote != 0:
			switch {
			case c == '\\' && quote == '"', c == '\'' && quote == '\'' && i+1 < len(data) && data[i+1] == '\'':
				i++ // an escape: \" in double quotes, '' in single ones
			case c == quote:
				quote = 0
			}
			continue
		case atStart && c == ' ':
			indent++
			continue
		case atStart && c == '\t':
			end := bytes.IndexByte(data[i:], '\n')
			if end < 0 {
				end = len(data) - i
			}
			if rest := bytes.TrimLeft(data[i:i+end], " \t"); len(flows) == 0 && len(rest) > 0 && rest[0] != '#' {
				return pos(i), "a tab in the indentation: YAML indents with spaces", true
			}
			continue
		case !atStart && (c == ' ' || c == '\t'):
			continue
		case c == '#' && (atStart || i > 0 && (data[i-1] == ' ' || data[i-1] == '\t')):
			for i+1 < len(data) && data[i+1] != '\n' { // a comment, to the end of its line
				i++
			}
			continue
		}
		if atStart && len(flows) > 0 && c != ']' && c != '}' && indent <= flows[len(flows)-1].indent {
			o := flows[len(flows)-1].pos
			return pos(i), fmt.Sprintf("the flow collection opened at %d:%d is not closed before the block goes on", o.Line, o.Column), true
		}
		atStart = false
		switch {
		case (c == '"' || c == '\'') && scalarStart:
			quote, quoted = c, pos(i)
		case c == '[' || c == '{':
			flows = append(flows, opening{pos(i), indent})
		case (c == ']' || c == '}') && len(flows) > 0:
			flows = flows[:len(flows)-1]
		}
		scalarStart = c == ':' || c == '-' || c == '?' || c == ',' || c == '[' || c == '{'
	}
	switch {
	case quote != 0:
		return quoted, "the quoted scalar that begins here is not closed", true
	case len(flows) > 0:
		o := flows[len(flows)-1].pos
		return o, "the flow collection that begins here is not closed", true
	}
	return canonical.Pos{}, "", false
}

type yamlConverter struct {
	values, maxValues int
	bytes, maxBytes   int                 // of the scalars written out, aliases expanded
	active            map[*yaml.Node]bool // anchors being expanded: an alias to one is a cycle
}

// enter marks the anchored node n as being expanded, or fails when it
// already is: the alias is inside what it names.
func (c *yamlConverter) enter(n *yaml.Node) error {
	if c.active[n] {
		return yamlErrorf(n, "alias *%s refers to a node that contains it; JSON cannot hold a cycle", n.Anchor)
	}
	if c.active == nil {
		c.active = map[*yaml.Node]bool{}
	}
	c.active[n] = true
	return nil
}

func yamlPos(n *yaml.Node) canonical.Pos {
	return canonical.Pos{Line: int32(n.Line), Column: int32(n.Column)}
}

func yamlErrorf(n *yaml.Node, format string, args ...any) error {
	return &canonical.SyntaxError{Pos: yamlPos(n), Msg: fmt.Sprintf(format, args...)}
}

func (c *yamlConverter) value(n *yaml.Node, depth int) (*canonical.Value, error) {
	if depth > canonical.MaxDepth {
		return nil, yamlErrorf(n, "nesting deeper than %d levels", canonical.MaxDepth)
	}
	if c.values++; c.values > c.maxValues {
		return nil, yamlErrorf(n, "the document expands to more than %d values through aliases", c.maxValues)
	}
	if c.bytes += len(n.Value); c.bytes > c.maxBytes {
		return nil, yamlErrorf(n, "the document expands to more than %d MB of text through aliases", c.maxBytes>>20)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, yamlErrorf(n, "the YAML document is empty")
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, yamlErrorf(n, "unknown alias %q", n.Value)
		}
		if err := c.enter(n.Alias); err != nil {
			return nil, err
		}
		v, err := c.value(n.Alias, depth+1)
		delete(c.active, n.Alias)
		if err != nil {
			return nil, err
		}
		v.Pos = yamlPos(n)
		return v, nil
	case yaml.SequenceNode:
		v := canonical.NewArray(make([]*canonical.Value, 0, len(n.Content))...).At(yamlPos(n))
		for _, it := range n.Content {
			item, err := c.value(it, depth+1)
			if err != nil {
				return nil, err
			}
			v.SetItems(append(v.Items(), item))
		}
		return v, nil
	case yaml.MappingNode:
		v := &canonical.Value{Kind: canonical.Object, Pos: yamlPos(n)}
		if err := c.mapping(v, n, depth, true); err != nil {
			return nil, err
		}
		return v, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, yamlErrorf(n, "unexpected YAML node")
}

// mapping adds the members of the mapping n to v. Explicit keys must be
// unique; keys from merge ("<<") mappings fill in only what is not there.
func (c *yamlConverter) mapping(v *canonical.Value, n *yaml.Node, depth int, explicit bool) error {
	if depth > canonical.MaxDepth {
		return yamlErrorf(n, "nesting deeper than %d levels", canonical.MaxDepth)
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, val)
			continue
		}
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return yamlErrorf(k, "a mapping key must be a scalar to be a JSON object key")
		}
		if v.Has(k.Value) {
			if explicit {
				return yamlErrorf(k, "duplicate key %q", k.Value)
			}
			continue
		}
		m, err := c.value(val, depth+1)
		if err != nil {
			return err
		}
		v.SetMembers(append(v.Members(), canonical.Member{Key: k.Value, Value: m, KeyPos: yamlPos(k)}))
	}
	for _, m := range merges {
		if m.Kind == yaml.AliasNode && m.Alias != nil {
			m = m.Alias
		}
		var sources []*yaml.Node
		switch m.Kind {
		case yaml.MappingNode:
			sources = []*yaml.Node{m}
		case yaml.SequenceNode:
			sources = m.Content
		default:
			return yamlErrorf(m, "a merge key (<<) takes a mapping or a list of mappings")
		}
		for _, s := range sources {
			if s.Kind == yaml.AliasNode && s.Alias != nil {
				s = s.Alias
			}
			if s.Kind != yaml.MappingNode {
				return yamlErrorf(s, "a merge key (<<) takes a mapping or a list of mappings")
			}
			if err := c.enter(s); err != nil {
				return err
			}
			err := c.mapping(v, s, depth+1, false)
			delete(c.active, s)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// scalar converts a YAML scalar by its resolved tag.
func scalar(n *yaml.Node) (*canonical.Value, error) {
	pos := yamlPos(n)
	switch n.ShortTag() {
	case "!!null":
		return &canonical.Value{Kind: canonical.Null, Pos: pos}, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, yamlErrorf(n, "%q is not a boolean", n.Value)
		}
		return &canonical.Value{Kind: canonical.Bool, Bool: b, Pos: pos}, nil
	case "!!int", "!!float":
		text := n.Value
		if !jsonNumber.MatchString(text) {
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, yamlErrorf(n, "%q is not a number", n.Value)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, yamlErrorf(n, "%s has no JSON form", n.Value)
			}
			var i int64
			if n.ShortTag() == "!!int" && n.Decode(&i) == nil {
				text = strconv.FormatInt(i, 10)
			} else {
				text = strconv.FormatFloat(f, 'g', -1, 64)
				if !jsonNumber.MatchString(text) { // 1e+06 is JSON; this guards odd spellings
					return nil, yamlErrorf(n, "%q has no JSON number form", n.Value)
				}
			}
		}
		return canonical.NewNumber(text).At(pos), nil
	case "!!binary":
		return nil, yamlErrorf(n, "binary data has no JSON form")
	}
	// !!str, !!timestamp and custom tags keep their text.
	return canonical.NewString(n.Value).At(pos), nil
}
