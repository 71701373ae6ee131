package adapters

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

	goccy "github.com/goccy/go-yaml"
	goccyparser "github.com/goccy/go-yaml/parser"
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
	yamlExpansion    = 20
	minYAMLValues    = 1_000_000
	minYAMLBytes     = 64 << 20
	maxLocateBytes   = 1 << 20 // the second parser, which only places a message, runs on files this small
	maxLocateNesting = 256     // and this shallow: its memory grows with the square of the depth
	maxLocateOpeners = 10_000  // and with no more brackets than this, whatever its quotes say
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
// unclosed flow sequence: its first line) and no column, so the position
// and message come from goccy/go-yaml's parser where it finds the error
// too: the token where it goes wrong (the opening quote of an unclosed
// string, the line that should have closed a sequence).
func yamlError(data []byte, err error) error {
	if len(data) <= maxLocateBytes && yamlNesting(data) <= maxLocateNesting {
		if pos, msg, ok := locateYAML(data); ok {
			return &canonical.SyntaxError{Pos: pos, Msg: msg}
		}
	}
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &canonical.SyntaxError{Pos: canonical.Pos{Line: int32(line), Column: 1}, Msg: m[2]}
	}
	return &canonical.SyntaxError{Pos: canonical.Pos{Line: 1, Column: 1}, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// yamlNesting bounds how deep data nests, as a YAML tokenizer reads it:
// the deepest flow collection ("[" and "{" outside quoted scalars and
// comments) plus the deepest indentation, in steps of two spaces. A quote
// opens a quoted scalar only where a scalar starts (after indentation, or
// after ":", "-", "?", ",", "[" or "{"), as in YAML: the apostrophe of
// "# the team's API" or "it's" opens nothing. So that no file talks the
// bound down, a file with more than maxLocateOpeners brackets counts as
// too deep whatever its quotes. It bounds the work of the second parser,
// whose memory grows with the square of the depth (a file of 50,000 "["
// took 4 GB).
func yamlNesting(data []byte) int {
	if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > maxLocateOpeners {
		return math.MaxInt
	}
	flow, deepest, indent, quote := 0, 0, 0, byte(0)
	lineStart, scalarStart := true, true
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		case c == '\n':
			lineStart, scalarStart, indent = true, true, 0
			continue
		case c == ' ' || c == '\t':
			if lineStart && c == ' ' {
				indent++
				deepest = max(deepest, flow+indent/2)
			}
			continue
		case c == '#' && (lineStart || i > 0 && (data[i-1] == ' ' || data[i-1] == '\t')):
			for i < len(data) && data[i] != '\n' { // a comment, to the end of its line
				i++
			}
			i--
			continue
		case (c == '"' || c == '\'') && scalarStart:
			quote = c
		case c == '[' || c == '{':
			flow++
			deepest = max(deepest, flow+indent/2)
		case c == ']' || c == '}':
			flow = max(flow-1, 0)
		}
		lineStart = false
		scalarStart = c == ':' || c == '-' || c == '?' || c == ',' || c == '[' || c == '{'
	}
	return deepest
}

// locateYAML parses data with goccy/go-yaml and returns the position and
// message of its syntax error, if it finds one.
func locateYAML(data []byte) (pos canonical.Pos, msg string, ok bool) {
	defer func() {
		if recover() != nil { // a second opinion must never crash the build
			ok = false
		}
	}()
	_, err := goccyparser.ParseBytes(data, 0)
	var ye goccy.Error
	if !errors.As(err, &ye) || ye.GetToken() == nil || ye.GetToken().Position == nil {
		return pos, "", false
	}
	p := ye.GetToken().Position
	if p.Line < 1 || p.Column < 1 {
		return pos, "", false
	}
	return canonical.Pos{Line: int32(p.Line), Column: int32(p.Column)}, ye.GetMessage(), true
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
