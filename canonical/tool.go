// Package canonical is toolc's intermediate representation: the lossless form
// that every source format decodes to and every target encodes from.
//
// It holds Tool (a tool with its input and output schemas and metadata),
// Schema (a JSON Schema that keeps every keyword, member order and exact
// numbers), Value (the ordered JSON value both are made of), JSON Pointers,
// one walker over every applicator keyword, and content hashing with RFC 8785
// (JCS). It imports nothing else of toolc and does no I/O: reading files,
// detecting formats and writing bundles belong to other packages.
package canonical

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tool is one tool of a catalog in canonical form.
type Tool struct {
	Namespace   string       // optional; with Name it makes the ID "namespace:name"
	Name        string       // required
	Title       string       // human-readable display name
	Version     string       // the tool's own version, if it has one
	Description string       // what the tool does, for the model
	Category    string       // a free-form grouping
	Tags        []string     // normalised with NormalizeTags
	Input       *Schema      // required; an object schema
	Output      *Schema      // optional; an object schema for structured results
	Annotations *Annotations // MCP tool annotations; nil when absent
	Examples    []*Value     // input examples: argument objects that the input schema accepts
	Timeout     time.Duration
	Scopes      []string // OAuth scopes the tool needs: its required permissions
	// Security says what data the tool handles; nil when nothing says.
	Security *Security
	// Backend says where the tool runs; nil when nothing says.
	Backend *Backend
	Icons   []Icon
	Meta    *Value // MCP _meta, an object

	// Lifecycle: a deprecated tool is still served; Sunset is the date
	// (YYYY-MM-DD) after which removing it is a minor change; RenamedFrom
	// is the ID the tool had, which the build keeps serving as an alias.
	Deprecated  bool
	Sunset      string
	RenamedFrom string
	// Origin is how the tool's source calls it where the manifest's
	// transforms changed it, an object: "name", the source's name of the
	// tool; "arguments", each renamed argument's catalog name → its source
	// name; "fixed", each argument the catalog hides → the value every call
	// sends; "defaults", each argument → what a call that leaves it out
	// sends. nil where nothing was transformed.
	Origin *Value
	// Stability is how far the tool's schema may still move: "draft",
	// "alpha", "beta" or "stable"; "" says nothing, which is stable.
	// Breaking changes to a draft or alpha tool are infos, to a beta one
	// warnings that a minor release covers.
	Stability string

	// Extensions keeps, per format name, the fields of that format that have
	// no canonical meaning (OpenAI strict, Anthropic cache_control, MCP
	// execution, unknown fields …) as an object in source order, so that a
	// round trip through the same format loses nothing.
	Extensions map[string]*Value

	// Source says where the tool was read from. It is provenance, not
	// content: it takes no part in Hash or Equal.
	Source Source
}

// Annotations are MCP tool annotations. The hints are pointers because absent
// and false differ: destructiveHint and openWorldHint default to true.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
	Extra           []Member // annotation keys that MCP does not define (yet), in order
}

// Security is a tool's security metadata, beside its Scopes (the
// permissions it needs). Empty fields are not said.
type Security struct {
	Classification string // data_classification: one of Classifications
	PII            string // pii_handling: one of PIIHandlings
}

// Classifications returns the values of Security.Classification.
func Classifications() []string { return []string{"public", "internal", "confidential", "restricted"} }

// Stabilities returns the values of Stability, least stable first.
func Stabilities() []string { return []string{"draft", "alpha", "beta", "stable"} }

// StabilityLevel is the place of s in Stabilities: 0 for draft … 3 for
// stable, which "" is too; -1 for anything else.
func StabilityLevel(s string) int {
	if s == "" {
		return 3
	}
	return slices.Index(Stabilities(), s)
}

// PIIHandlings returns the values of Security.PII.
func PIIHandlings() []string { return []string{"none", "processes", "stores", "anonymizes"} }

// The kinds of Backend.
const (
	BackendLocal    = "local"    // an in-process handler
	BackendProvider = "provider" // an external tool provider, such as an HTTP API
	BackendMCP      = "mcp"      // a remote MCP server
)

// BackendKinds returns the kinds of Backend.
func BackendKinds() []string { return []string{BackendLocal, BackendProvider, BackendMCP} }

// Backend is where a tool runs, so that a caller can dispatch a call: an
// in-process handler, an external provider (with its HTTP binding, for an
// OpenAPI operation), or an MCP server (its command or URL; its secrets
// are never written).
type Backend struct {
	Kind    string
	HTTP    *Value   // provider: the HTTP binding (method, path, parameters, body, servers …)
	Command []string // mcp over stdio
	URL     string   // mcp over streamable HTTP
}

// Icon is an MCP icon.
type Icon struct {
	Src      string
	MIMEType string
	Sizes    []string
	Theme    string // "light", "dark" or ""
}

// Source is where a tool came from.
type Source struct {
	File    string  // manifest-relative path with '/' separators
	Format  string  // format name, e.g. "mcp"
	Pointer Pointer // the tool inside the file

	// Fields maps a pointer into the tool's canonical JSON form (ToValue),
	// such as "/input" or "/extensions/anthropic/cache_control", to the
	// pointer of the same thing in the file. Locate uses it.
	Fields map[Pointer]Pointer
}

// String returns "file#pointer", or the file alone for a tool that is the
// whole file: how messages name where a tool is.
func (s *Source) String() string {
	if s.Pointer == "" {
		return s.File
	}
	return s.File + "#" + string(s.Pointer)
}

// Locate translates a pointer into the tool's canonical form into a pointer
// into the source file, using the longest matching entry of Fields. A pointer
// with no entry maps to the tool itself.
func (s *Source) Locate(p Pointer) Pointer {
	for q := p; ; {
		if fp, ok := s.Fields[q]; ok {
			return fp + p[len(q):]
		}
		i := strings.LastIndexByte(string(q), '/')
		if i < 0 {
			return s.Pointer
		}
		q = q[:i]
	}
}

// Place returns where a finding about p, a pointer into the tool's
// canonical form, is located: the file, and the pointer in it ("" for a
// tool that is the whole file, said as a whole).
func (s *Source) Place(p Pointer) (file, pointer string) {
	if p == "" && s.Pointer == "" {
		return s.File, ""
	}
	return s.File, string(s.Locate(p))
}

// ID returns "namespace:name", or the name when there is no namespace.
func (t *Tool) ID() string {
	if t.Namespace == "" {
		return t.Name
	}
	return t.Namespace + ":" + t.Name
}

// FieldError is a problem with one field of a tool, at a pointer into its
// canonical form.
type FieldError struct {
	Pointer Pointer
	Msg     string
	NotObj  bool // the problem is a schema that is not an object schema
	Missing bool // the schema is not there at all (NotObj is set too)
}

// Error returns "pointer: message".
func (e FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Pointer, e.Msg) }

// Validate checks what the canonical form requires of every tool: a name, a
// namespace without ':', an input schema that is an object schema, and an
// output schema, if any, that is a JSON object (a schema of any type: MCP
// 2026-07-28 takes any as outputSchema).
func (t *Tool) Validate() []FieldError {
	var errs []FieldError
	if t.Name == "" {
		errs = append(errs, FieldError{Pointer: "/name", Msg: "the tool has no name"})
	} else if strings.IndexFunc(t.Name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		errs = append(errs, FieldError{Pointer: "/name", Msg: fmt.Sprintf("tool name %q contains white space or control characters", t.Name)})
	}
	if StabilityLevel(t.Stability) < 0 {
		errs = append(errs, FieldError{Pointer: "/stability", Msg: fmt.Sprintf("stability %q is not one of %s", t.Stability, strings.Join(Stabilities(), ", "))})
	}
	if strings.Contains(t.Namespace, ":") {
		errs = append(errs, FieldError{Pointer: "/namespace", Msg: fmt.Sprintf("namespace %q contains ':', which separates namespace and name in IDs", t.Namespace)})
	}
	for _, f := range []struct {
		p        Pointer
		s        *Schema
		required bool
	}{{"/input", t.Input, true}, {"/output", t.Output, false}} {
		switch {
		case f.s == nil && f.required:
			errs = append(errs, FieldError{Pointer: f.p, Msg: "the tool has no input schema", NotObj: true, Missing: true})
		case f.s == nil:
		case !f.s.IsObject():
			errs = append(errs, FieldError{Pointer: f.p, Msg: fmt.Sprintf("%s schema is %s, not an object schema", f.p[1:], f.s.Kind), NotObj: true})
		case !f.required:
			// Any schema describes a result (MCP 2026-07-28); the targets
			// that take objects only lower the others.
		case f.s.Keyword("type") == nil:
			errs = append(errs, FieldError{Pointer: f.p, Msg: fmt.Sprintf(`%s schema has no "type": "object"`, f.p[1:]), NotObj: true})
		case !slices.Equal(f.s.Types(), []string{"object"}):
			errs = append(errs, FieldError{Pointer: f.p.Append("type"), Msg: fmt.Sprintf(`%s schema has "type" %s, want "object"`, f.p[1:], f.s.Keyword("type")), NotObj: true})
		}
	}
	return errs
}

// ErrInvalidToolID is wrapped by the error ParseID returns.
var ErrInvalidToolID = errors.New("invalid tool ID")

// ParseID splits a tool ID into its namespace and name: "namespace:name",
// or "name" for a tool without a namespace. An empty ID, an empty part or a
// second ':' is an error wrapping ErrInvalidToolID.
func ParseID(id string) (namespace, name string, err error) {
	switch ns, n, ok := strings.Cut(id, ":"); {
	case id == "":
		return "", "", fmt.Errorf("%w: empty", ErrInvalidToolID)
	case !ok:
		return "", id, nil
	case ns == "" || n == "":
		return "", "", fmt.Errorf("%w %q: the namespace and the name around ':' must not be empty", ErrInvalidToolID, id)
	case strings.Contains(n, ":"):
		return "", "", fmt.Errorf("%w %q: more than one ':'", ErrInvalidToolID, id)
	default:
		return ns, n, nil
	}
}

// The caps on a tool's tags.
const (
	MaxTags   = 20 // tags a tool keeps
	MaxTagLen = 64 // characters a tag keeps
)

// CapTags returns the first MaxTags of tags, each cut to MaxTagLen
// characters, and the tags it left out or cut, as they were.
func CapTags(tags []string) (kept, cut []string) {
	for i, t := range tags {
		if i >= MaxTags {
			cut = append(cut, t)
			continue
		}
		if r := []rune(t); len(r) > MaxTagLen {
			cut = append(cut, t)
			t = string(r[:MaxTagLen])
		}
		kept = append(kept, t)
	}
	return kept, cut
}

// NormalizeTags returns tags trimmed of white space, in Unicode NFC, in lower
// case, without empty or duplicate entries, first occurrence kept in order.
func NormalizeTags(tags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.ToLower(norm.NFC.String(strings.TrimSpace(t)))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// DeepCopy returns a copy of t that shares no memory with t.
func (t *Tool) DeepCopy() *Tool {
	c := *t
	c.Tags = slices.Clone(t.Tags)
	c.Scopes = slices.Clone(t.Scopes)
	if t.Security != nil {
		sec := *t.Security
		c.Security = &sec
	}
	if t.Backend != nil {
		b := *t.Backend
		b.HTTP = t.Backend.HTTP.DeepCopy()
		b.Command = slices.Clone(t.Backend.Command)
		c.Backend = &b
	}
	if t.Input != nil {
		c.Input = t.Input.DeepCopy()
	}
	if t.Output != nil {
		c.Output = t.Output.DeepCopy()
	}
	if t.Annotations != nil {
		a := *t.Annotations
		a.ReadOnlyHint = cloneBool(a.ReadOnlyHint)
		a.DestructiveHint = cloneBool(a.DestructiveHint)
		a.IdempotentHint = cloneBool(a.IdempotentHint)
		a.OpenWorldHint = cloneBool(a.OpenWorldHint)
		a.Extra = cloneMembers(a.Extra)
		c.Annotations = &a
	}
	c.Examples = cloneValues(t.Examples)
	if t.Icons != nil {
		c.Icons = make([]Icon, len(t.Icons))
		for i, ic := range t.Icons {
			ic.Sizes = slices.Clone(ic.Sizes)
			c.Icons[i] = ic
		}
	}
	c.Meta = t.Meta.DeepCopy()
	c.Origin = t.Origin.DeepCopy()
	if t.Extensions != nil {
		c.Extensions = make(map[string]*Value, len(t.Extensions))
		for k, v := range t.Extensions {
			c.Extensions[k] = v.DeepCopy()
		}
	}
	c.Source.Fields = maps.Clone(t.Source.Fields)
	return &c
}

func cloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

func cloneMembers(ms []Member) []Member {
	if ms == nil {
		return nil
	}
	out := make([]Member, len(ms))
	for i, m := range ms {
		out[i] = Member{Key: m.Key, Value: m.Value.DeepCopy(), KeyPos: m.KeyPos}
	}
	return out
}

// ToValue returns the canonical JSON form of t: the fields that are set, in
// the order of the Tool struct, with extensions sorted by format. Source is
// not part of it.
func (t *Tool) ToValue() *Value {
	// Room for 16 fields, more than a tool has but for the rarest: each
	// tool's hash makes one, and growing it field by field was most of
	// what hashing allocated.
	o := NewObject(make([]Member, 0, 16)...)
	str := func(k, s string) {
		if s != "" {
			o.Set(k, NewString(s))
		}
	}
	str("namespace", t.Namespace)
	str("name", t.Name)
	str("title", t.Title)
	str("version", t.Version)
	str("description", t.Description)
	str("category", t.Category)
	if len(t.Tags) > 0 {
		o.Set("tags", NewStrings(t.Tags))
	}
	if t.Input != nil {
		o.Set("input", t.Input.JSON())
	}
	if t.Output != nil {
		o.Set("output", t.Output.JSON())
	}
	if t.Annotations != nil {
		o.Set("annotations", t.Annotations.ToValue())
	}
	t.setMetadata(o)
	return o
}

// setMetadata sets the fields of t's canonical JSON that follow its
// schemas and annotations: examples, run-time and security metadata,
// icons, _meta, the lifecycle and the extensions.
func (t *Tool) setMetadata(o *Value) {
	str := func(k, s string) {
		if s != "" {
			o.Set(k, NewString(s))
		}
	}
	if len(t.Examples) > 0 {
		o.Set("examples", NewArray(t.Examples...))
	}
	if t.Timeout != 0 {
		o.Set("timeout", NewString(t.Timeout.String()))
	}
	if len(t.Scopes) > 0 {
		o.Set("scopes", NewStrings(t.Scopes))
	}
	if sec := t.Security.toValue(); sec != nil {
		o.Set("security", sec)
	}
	if b := t.Backend; b != nil {
		o.Set("backend", b.ToValue())
	}
	if len(t.Icons) > 0 {
		o.Set("icons", IconsValue(t.Icons))
	}
	if t.Meta != nil {
		o.Set("meta", t.Meta)
	}
	if t.Deprecated {
		o.Set("deprecated", NewBool(true))
	}
	str("sunset", t.Sunset)
	str("renamed_from", t.RenamedFrom)
	if t.Origin != nil {
		o.Set("origin", t.Origin)
	}
	str("stability", t.Stability)
	if len(t.Extensions) > 0 {
		ext := NewObject()
		for _, k := range slices.Sorted(maps.Keys(t.Extensions)) {
			ext.Set(k, t.Extensions[k])
		}
		o.Set("extensions", ext)
	}
}

// toValue is the security metadata's canonical JSON, nil when it says
// nothing.
func (sec *Security) toValue() *Value {
	if sec == nil || sec.Classification == "" && sec.PII == "" {
		return nil
	}
	v := NewObject()
	if sec.Classification != "" {
		v.Set("data_classification", NewString(sec.Classification))
	}
	if sec.PII != "" {
		v.Set("pii_handling", NewString(sec.PII))
	}
	return v
}

// Hints are the names of MCP's tool hints, in the specification's order.
var Hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// Hint is the field of the hint named name (one of Hints), or nil for a
// name that is no hint.
func (a *Annotations) Hint(name string) **bool {
	switch name {
	case "readOnlyHint":
		return &a.ReadOnlyHint
	case "destructiveHint":
		return &a.DestructiveHint
	case "idempotentHint":
		return &a.IdempotentHint
	case "openWorldHint":
		return &a.OpenWorldHint
	}
	return nil
}

// ToValue returns the annotations as an MCP annotations object: the set
// fields in the order of the MCP specification, then the extra keys.
func (a *Annotations) ToValue() *Value {
	o := NewObject()
	if a.Title != "" {
		o.Set("title", NewString(a.Title))
	}
	for _, k := range Hints {
		if b := *a.Hint(k); b != nil {
			o.Set(k, NewBool(*b))
		}
	}
	for _, m := range a.Extra {
		o.Set(m.Key, m.Value)
	}
	return o
}

// IconsValue returns icons as a JSON array of MCP Icon objects.
func IconsValue(icons []Icon) *Value {
	a := NewArray()
	for _, ic := range icons {
		a.SetItems(append(a.Items(), ic.ToValue()))
	}
	return a
}

// ToValue returns the icon as an MCP Icon object.
func (ic Icon) ToValue() *Value {
	o := NewObject()
	o.Set("src", NewString(ic.Src))
	if ic.MIMEType != "" {
		o.Set("mimeType", NewString(ic.MIMEType))
	}
	if len(ic.Sizes) > 0 {
		o.Set("sizes", NewStrings(ic.Sizes))
	}
	if ic.Theme != "" {
		o.Set("theme", NewString(ic.Theme))
	}
	return o
}

// Hash returns the content hash of t: "sha256:" and the hex SHA-256 of the
// RFC 8785 canonical JSON of ToValue. Formatting and key order in the source
// do not change it; Source does not take part.
func (t *Tool) Hash() string {
	sum := t.ToValue().SumJCS()
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Equal reports whether t and u have the same canonical form.
func (t *Tool) Equal(u *Tool) bool {
	return string(t.ToValue().AppendJCS(nil)) == string(u.ToValue().AppendJCS(nil))
}

// ToValue is the backend's canonical JSON: {"kind": ..., "http" | "command"
// | "url": ...}.
func (b *Backend) ToValue() *Value {
	v := NewObject()
	v.Set("kind", NewString(b.Kind))
	if b.HTTP != nil {
		v.Set("http", b.HTTP)
	}
	if len(b.Command) > 0 {
		v.Set("command", NewStrings(b.Command))
	}
	if b.URL != "" {
		v.Set("url", NewString(b.URL))
	}
	return v
}
