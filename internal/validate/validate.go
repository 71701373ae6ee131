// Package validate checks the JSON Schemas of canonical tools: each schema
// against its dialect's meta-schema (with github.com/santhosh-tekuri/jsonschema/v6),
// every $ref for what it points to, without reading or fetching anything.
//
// It works on canonical tools and returns diagnostics located by JSON Pointer;
// it does no I/O. A Validator is safe for concurrent use. It reuses the result
// for schemas it has seen before (by content hash), and proves most schemas
// valid node by node, reusing each node's proof for nodes of the same shape
// (quick.go), so that large catalogs stay fast whether their schemas repeat
// or not.
package validate

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/refs"
)

// baseURL is the invented absolute URL given to every schema that has no $id
// of its own: no working directory or machine path appears in messages.
const baseURL = "toolc:///schema.json"

// ErrRefused is what the loader answers to every URL: toolc never reads a
// file or fetches a URL because a schema says so.
var ErrRefused = errors.New("toolc does not load referenced schemas")

// Validator validates schemas. The zero value is not usable; call New.
type Validator struct {
	cache  sync.Map // [32]byte → []finding
	shapes shapes   // what quick proved, by shape

	// Loader, when set, replaces the loader that refuses every URL. It
	// exists for tests that prove no URL is ever loaded.
	Loader jsonschema.URLLoader

	// Repair names the setting that turns repair on, in the words of
	// where settings come from: "repair = true on the source" (the
	// default) or a command's flag ("--repair"); RepairFix is the fix that
	// turns it on. Hints about what repair would do use them.
	Repair, RepairFix string
}

// New returns a Validator that speaks of the manifest's repair setting.
func New() *Validator {
	return &Validator{Repair: "repair = true on the source", RepairFix: "set repair = true on the source"}
}

// finding is one problem in a schema, at a pointer relative to its root.
type finding struct {
	code string
	ptr  canonical.Pointer
	msg  string
	fix  string
}

type refuse struct{}

func (refuse) Load(string) (any, error) { return nil, ErrRefused }

// dialects maps the $schema URIs toolc knows (without a trailing '#', with
// http or https) to jsonschema drafts.
var dialects = map[string]*jsonschema.Draft{
	"json-schema.org/draft/2020-12/schema": jsonschema.Draft2020,
	"json-schema.org/draft/2019-09/schema": jsonschema.Draft2019,
	"json-schema.org/draft-07/schema":      jsonschema.Draft7,
	"json-schema.org/draft-06/schema":      jsonschema.Draft6,
	"json-schema.org/draft-04/schema":      jsonschema.Draft4,
}

// Dialect returns the draft that a schema's $schema declares, 2020-12 when it
// declares none (MCP's rule), and false when $schema names a dialect toolc
// does not know.
func Dialect(s *canonical.Schema) (*jsonschema.Draft, bool) {
	uri, ok := s.Keyword("$schema").StringValue()
	if !ok {
		return jsonschema.Draft2020, true
	}
	u := strings.TrimSuffix(uri, "#")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	d, ok := dialects[u]
	return d, ok
}

// Tool validates the input and output schemas of t, checks its input
// examples against the input schema, and applies the lint rules. Diagnostics
// are located in t's source file.
func (v *Validator) Tool(t *canonical.Tool) []diag.Diagnostic {
	var ds []diag.Diagnostic
	report := func(fd finding, field canonical.Pointer) {
		d := diag.NewText(fd.code, fd.msg).At(t.Source.Place(field.Join(fd.ptr))).About(t.ID())
		ds = append(ds, d.WithFix(fd.fix))
	}
	valid := true
	for _, f := range []struct {
		field canonical.Pointer
		s     *canonical.Schema
	}{{"/input", t.Input}, {"/output", t.Output}} {
		if f.s == nil {
			continue
		}
		for _, fd := range v.schema(f.s) {
			if c, _ := diag.Lookup(fd.code); c.Severity == diag.Error {
				valid = false // examples cannot be checked against a broken schema
			}
			report(fd, f.field)
		}
		for _, fd := range lintSchema(f.s, f.field == "/input") {
			report(fd, f.field)
		}
	}
	for _, fd := range lintTool(t) {
		report(fd, "")
	}
	if valid && len(t.Examples) > 0 && t.Input != nil {
		for _, fd := range v.examples(t.Input, t.Examples) {
			report(fd, "")
		}
	}
	return ds
}

// examples validates a tool's input examples against its input schema.
func (v *Validator) examples(input *canonical.Schema, examples []*canonical.Value) []finding {
	draft, _ := Dialect(input)
	_, external := checkRefs(input)
	c := v.newCompiler(draft, input, external)
	sch, err := c.Compile(baseURL)
	if err != nil {
		return nil // reported by schema()
	}
	var fs []finding
	for i, ex := range examples {
		if err := sch.Validate(ToAny(ex)); err != nil {
			fs = append(fs, finding{code: "lint.example-invalid", ptr: canonical.Pointer("/examples").Index(i),
				msg: fmt.Sprintf("input example %d is not valid against the input schema: %s", i, reason(err)),
				fix: "fix the example or the schema so they agree"})
		}
	}
	return fs
}

// lintTool applies the rules about a tool's own fields.
func lintTool(t *canonical.Tool) []finding {
	var fs []finding
	switch n := utf8.RuneCountInString(t.Description); {
	case n == 0:
		fs = append(fs, finding{code: "lint.description-missing", ptr: "/name",
			msg: "no description: the model has only its name to decide when to call it",
			fix: "add a description that says what the tool does and when to use it"})
	case n > MaxDescription:
		fs = append(fs, finding{code: "lint.description-too-long", ptr: "/description",
			msg: fmt.Sprintf("a description of %d characters; OpenAI has rejected more than %d", n, MaxDescription),
			fix: "move details into parameter descriptions or shorten it"})
	}
	if t.Meta == nil || t.Meta.Kind != canonical.Object {
		return fs
	}
	for _, m := range t.Meta.Members() {
		if why := MetaKey(m.Key); why != "" {
			fs = append(fs, finding{code: "lint.meta-key", ptr: canonical.Pointer("/meta").Append(m.Key), msg: fmt.Sprintf("_meta key %q: %s", m.Key, why),
				fix: "name the key under a prefix of your own, in reverse DNS: com.example/name"})
		}
	}
	return fs
}

// metaLabel and metaName are the parts of a _meta key: a prefix of dotted
// labels ending in "/", then a name (MCP schema.ts, MetaObject).
var (
	metaLabel = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$`)
	metaName  = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?$`)
)

// MetaKey says why key is not a _meta key a tool may use, or "": its
// prefix must be dot-separated labels (a letter first, a letter or digit
// last, hyphens inside), its name alphanumeric at both ends, and a prefix
// whose second label is modelcontextprotocol or mcp is reserved for the
// specification's own keys (MCP 2025-11-25 and 2026-07-28, _meta).
func MetaKey(key string) string {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		prefix, name = "", key
	}
	if !metaName.MatchString(name) {
		return "the name after the prefix must start and end with a letter or digit, with only letters, digits, '-', '_' and '.' inside"
	}
	if !hasPrefix {
		return ""
	}
	labels := strings.Split(prefix, ".")
	for _, l := range labels {
		if !metaLabel.MatchString(l) {
			return fmt.Sprintf("the prefix %q must be labels separated by dots, each starting with a letter and ending with a letter or digit", prefix+"/")
		}
	}
	if len(labels) > 1 && (labels[1] == "modelcontextprotocol" || labels[1] == "mcp") {
		return fmt.Sprintf("the prefix %q is reserved for the MCP specification's own keys (its second label is %s)", prefix+"/", labels[1])
	}
	return ""
}

// Schema validates one schema and returns its problems as diagnostics whose
// pointers are relative to the schema (no file).
func (v *Validator) Schema(s *canonical.Schema) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, fd := range v.schema(s) {
		ds = append(ds, diag.NewText(fd.code, fd.msg).At("", string(fd.ptr)).WithFix(fd.fix))
	}
	return ds
}

func (v *Validator) schema(s *canonical.Schema) []finding {
	key := s.JSON().SumJCS() // $schema, and so the dialect, is part of it
	if fs, ok := v.cache.Load(key); ok {
		return fs.([]finding)
	}
	fs := v.check(s)
	v.cache.Store(key, fs)
	return fs
}

var printer = message.NewPrinter(language.English)

func (v *Validator) check(s *canonical.Schema) []finding {
	if s.IsBool() {
		return nil
	}
	draft, ok := Dialect(s)
	if !ok {
		uri, _ := s.Keyword("$schema").StringValue()
		return []finding{{code: "schema.unknown-dialect", ptr: "/$schema",
			msg: fmt.Sprintf("unknown $schema %q: toolc validates 2020-12, 2019-09, draft-07, draft-06 and draft-04", uri),
			fix: "declare one of the known dialects, or remove $schema for 2020-12"}}
	}
	fs, external := checkRefs(s)
	if len(fs) == 0 && len(external) == 0 && v.quick(s, draft) {
		return nil
	}
	return v.full(s, draft, fs, external)
}

// full has jsonschema validate s against the meta-schema and compile it,
// then checks its values; fs and external are what checkRefs found.
func (v *Validator) full(s *canonical.Schema, draft *jsonschema.Draft, fs []finding, external []string) []finding {
	c := v.newCompiler(draft, s, external)
	_, err := c.Compile(baseURL)
	var sve *jsonschema.SchemaValidationError
	switch {
	case err == nil:
		noEnum := func(p canonical.Pointer) *jsonschema.Schema {
			cp := s.DeepCopy()
			cp.JSON().Resolve(p).Delete("enum")
			sch, err := v.newCompiler(draft, cp, external).Compile(baseURL + "#" + fragment(p))
			if err != nil {
				return nil
			}
			return sch
		}
		fs = append(fs, checkValues(c, s, noEnum)...)
	case errors.As(err, &sve):
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			fs = append(fs, v.leaves(ve, s)...)
		} else {
			fs = append(fs, finding{code: "schema.invalid", msg: sve.Err.Error()})
		}
	case len(fs) > 0 && isRefError(err):
		// Already reported, with a location, by checkRefs.
	default:
		fs = append(fs, finding{code: "schema.invalid", msg: compileMessage(err)})
	}
	return fs
}

// newCompiler returns a compiler that holds s at baseURL, refuses every URL,
// and knows the schema's external documents as stand-ins, so the loader is
// never even asked: those references are reported by checkRefs and never
// resolved.
func (v *Validator) newCompiler(draft *jsonschema.Draft, s *canonical.Schema, external []string) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseRegexpEngine(lenientRegexp)
	if v.Loader != nil {
		c.UseLoader(v.Loader)
	} else {
		c.UseLoader(refuse{})
	}
	for _, u := range external {
		_ = c.AddResource(u, true)
	}
	_ = c.AddResource(baseURL, ToAny(s.JSON())) // fails only for a duplicate URL, which cannot happen here
	return c
}

func isRefError(err error) bool {
	var le *jsonschema.LoadURLError
	var pe *jsonschema.JSONPointerNotFoundError
	var ae *jsonschema.AnchorNotFoundError
	return errors.As(err, &le) || errors.As(err, &pe) || errors.As(err, &ae)
}

// compileMessage shortens the library's message: it names our invented URL.
func compileMessage(err error) string {
	return strings.ReplaceAll(err.Error(), baseURL, "the schema")
}

// leaves turns the innermost causes of a meta-schema validation error into
// one finding per keyword. Where an anyOf of the meta-schema fails (a "type"
// that is neither a type name nor an array of them) the first alternative's
// reason is kept: it is the one written for the common case.
// Compiled is a schema compiled for validating values, such as a model's
// arguments. It is safe for concurrent use.
type Compiled struct {
	s *jsonschema.Schema
	// ecma are the patterns only an ECMA-262 engine runs, each counting
	// the matches that ran out of time.
	ecma []*ecmaRegexp
}

// Compile compiles s for validating values, in the dialect its $schema
// names (2020-12 without one). Nothing is read or fetched: a reference
// outside s is an error.
func (v *Validator) Compile(s *canonical.Schema) (*Compiled, error) {
	draft, ok := Dialect(s)
	if !ok {
		return nil, fmt.Errorf("unknown $schema dialect")
	}
	c := v.newCompiler(draft, s, nil)
	out := &Compiled{}
	c.UseRegexpEngine(func(pattern string) (jsonschema.Regexp, error) {
		re, err := lenientRegexp(pattern)
		if e, ok := re.(*ecmaRegexp); ok {
			out.ecma = append(out.ecma, e)
		}
		return re, err
	})
	sch, err := c.Compile(baseURL)
	if err != nil {
		return nil, err
	}
	out.s = sch
	return out, nil
}

// Problem is one reason a value is not valid: where in the value (a JSON
// Pointer) and why.
type Problem struct {
	Pointer canonical.Pointer
	Message string
	// Unchecked says that the value could not be checked, not that it is
	// invalid: a pattern ran out of its time on it.
	Unchecked bool
}

// Check validates value and returns its problems, one per place, in the
// order of the places in value; none when it is valid.
func (c *Compiled) Check(value *canonical.Value) []Problem {
	before := c.timeouts()
	err := c.s.Validate(ToAny(value))
	var unchecked []Problem
	if c.timeouts() > before {
		// Checks of one schema at once may count each other's timeouts:
		// what they say then is "unchecked", never "invalid".
		unchecked = []Problem{{Unchecked: true, Message: fmt.Sprintf("a pattern could not be checked within %s: it is left unchecked, neither accepted nor refused", ecmaTimeout)}}
	}
	if err == nil {
		return unchecked
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	out := problems(ve)
	// The validator walks properties in map order: sort by where each place
	// is in the value, so the same value always gives the same list.
	if len(out) > 1 {
		order := map[canonical.Pointer]int{}
		var walk func(v *canonical.Value, p canonical.Pointer)
		walk = func(v *canonical.Value, p canonical.Pointer) {
			order[p] = len(order)
			for i, it := range v.Items() {
				walk(it, p.Index(i))
			}
			for _, m := range v.Members() {
				walk(m.Value, p.Append(m.Key))
			}
		}
		walk(value, "")
		slices.SortStableFunc(out, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(order[a.Pointer], order[b.Pointer]), strings.Compare(string(a.Pointer), string(b.Pointer)))
		})
	}
	return append(out, unchecked...)
}

// timeouts counts the matches of c's ECMA-262 patterns that ran out of
// time.
func (c *Compiled) timeouts() int64 {
	var n int64
	for _, e := range c.ecma {
		n += e.timeouts.Load()
	}
	return n
}

// problems lists the places where validation failed, each once with its
// first message, in the order the validator met them.
func problems(ve *jsonschema.ValidationError) []Problem {
	var out []Problem
	seen := map[canonical.Pointer]bool{}
	var collect func(*jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		for _, c := range e.Causes {
			collect(c)
		}
		if len(e.Causes) > 0 {
			return
		}
		p := canonical.Pointer("").Append(e.InstanceLocation...)
		if !seen[p] {
			seen[p] = true
			out = append(out, Problem{Pointer: p, Message: e.ErrorKind.LocalizedString(printer)})
		}
	}
	collect(ve)
	return out
}

func (v *Validator) leaves(ve *jsonschema.ValidationError, root *canonical.Schema) []finding {
	var fs []finding
	for _, pr := range problems(ve) {
		p := pr.Pointer
		where := string(p)
		if where == "" {
			where = "the schema root"
		}
		fd := finding{code: "schema.invalid", ptr: p,
			msg: fmt.Sprintf("%s: %s (checked against the meta-schema)", where, pr.Message)}
		if hint := repairHint(root, p); hint != "" {
			fd.msg += "; " + v.Repair + " " + hint
			fd.fix = v.RepairFix
		}
		fs = append(fs, fd)
	}
	return fs
}

// RootTypeHint says, for a schema.not-object error about s, what repair
// would do: "" unless s is an object schema by its keywords.
func (v *Validator) RootTypeHint(s *canonical.Schema) (hint, fix string) {
	if s == nil {
		return "", ""
	}
	why, ok := RootNeedsType(s)
	if !ok {
		return "", ""
	}
	return v.Repair + " adds it, as the root is an object schema (" + why + ")", v.RepairFix
}

// repairHint says what repair would do about the invalid keyword at p
// ("rewrites …"), or "" when repair does not handle it.
func repairHint(root *canonical.Schema, p canonical.Pointer) string {
	v := root.JSON().Resolve(p)
	toks, _ := p.Tokens()
	if v == nil || len(toks) == 0 {
		return ""
	}
	last := toks[len(toks)-1]
	if len(toks) >= 2 && toks[len(toks)-2] == "type" { // an element of a type array
		last = "type"
	}
	switch {
	case last == "type" && v.Kind == canonical.String:
		if to, ok := repairType(v.Text()); ok {
			return fmt.Sprintf("rewrites %q as %q", v.Text(), cmp.Or(to, "any type"))
		}
	case (last == "exclusiveMinimum" || last == "exclusiveMaximum") && v.Kind == canonical.Bool:
		return "rewrites the boolean form as the numeric one"
	case last == "required" && v.Kind == canonical.Null:
		return "removes it (none is required)"
	}
	return ""
}

// ToAny converts a Value to the any form of encoding/json with UseNumber
// (map[string]any, []any, json.Number …), which jsonschema validates.
func ToAny(v *canonical.Value) any {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case canonical.Bool:
		return v.Bool
	case canonical.Number:
		return json.Number(v.Text())
	case canonical.String:
		return v.Text()
	case canonical.Array:
		a := make([]any, len(v.Items()))
		for i, it := range v.Items() {
			a[i] = ToAny(it)
		}
		return a
	case canonical.Object:
		m := make(map[string]any, len(v.Members()))
		for _, mb := range v.Members() {
			m[mb.Key] = ToAny(mb.Value)
		}
		return m
	}
	return nil
}

// checkRefs finds every $ref, $dynamicRef and $recursiveRef, resolves it
// against the base URI in force ($id) with canonical's resolver, the one
// lowering, acceptance and lint ask too, and reports what points outside
// the schema (schema.external-ref) or to nothing inside it
// (schema.dangling-ref).
func checkRefs(root *canonical.Schema) (fs []finding, external []string) {
	x := refs.IndexOf(root.JSON())
	refs := x.All()
	var local [][2]canonical.Pointer
	for _, r := range refs {
		if r.Result.Local {
			local = append(local, [2]canonical.Pointer{r.At.Append(r.Keyword), r.Result.Target})
		}
	}
	fs = append(fs, refCycles(root, local)...)
	for _, r := range refs {
		at := r.At.Append(r.Keyword)
		switch res := r.Result; {
		case res.Local:
		case res.Invalid:
			fs = append(fs, finding{code: "schema.invalid", ptr: at, msg: fmt.Sprintf("%q is not a valid URI reference", r.Value)})
		case res.External != "":
			if _, meta := dialects[strings.TrimPrefix(strings.TrimPrefix(res.External, "https://"), "http://")]; meta {
				continue // a dialect's meta-schema: built into the validator, nothing is read
			}
			if !slices.Contains(external, res.External) {
				external = append(external, res.External)
			}
			fs = append(fs, finding{code: "schema.external-ref", ptr: at,
				msg: fmt.Sprintf("%q refers to a schema outside this one; toolc never reads or fetches it", r.Value),
				fix: "copy the referenced schema into $defs and refer to it with #/$defs/…"})
		default:
			u, _ := x.Base(r.At).Parse(r.Value)
			if frag := u.Fragment; strings.HasPrefix(frag, "/") {
				fs = append(fs, finding{code: "schema.dangling-ref", ptr: at,
					msg: fmt.Sprintf("%q points to nothing: there is no %s in the schema", r.Value, frag)})
			} else {
				fs = append(fs, finding{code: "schema.dangling-ref", ptr: at,
					msg: fmt.Sprintf("%q points to nothing: no $anchor %q in the schema", r.Value, frag)})
			}
		}
	}
	return fs, external
}

// pureKeys are the keywords that assert nothing beside a $ref.
var pureKeys = []string{"$ref", "title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions"}

// refCycles finds chains of $refs whose every schema is a $ref and nothing
// else that asserts, and that lead back to themselves: such a schema
// validates nothing and loops validators. Each cycle is reported once, at
// the $ref of its first schema in document order.
func refCycles(root *canonical.Schema, refs [][2]canonical.Pointer) []finding {
	next := map[canonical.Pointer]canonical.Pointer{} // pure $ref schema → its target
	var order []canonical.Pointer
	for _, r := range refs {
		if !strings.HasSuffix(string(r[0]), "/$ref") {
			continue
		}
		at := canonical.Pointer(strings.TrimSuffix(string(r[0]), "/$ref"))
		node := root.JSON().Resolve(at)
		if node == nil || node.Kind != canonical.Object || slices.ContainsFunc(node.Members(), func(m canonical.Member) bool { return !slices.Contains(pureKeys, m.Key) }) {
			continue
		}
		next[at] = r[1]
		order = append(order, at)
	}
	var fs []finding
	reported := map[canonical.Pointer]bool{}
	for _, start := range order {
		var path []canonical.Pointer
		cur := start
		for {
			i := slices.Index(path, cur)
			if i >= 0 {
				cycle := slices.Clone(path[i:])
				first := slices.Index(cycle, slices.Min(cycle))
				cycle = append(cycle[first:], cycle[:first]...) // the chain, from its first schema
				if !reported[cycle[0]] {
					cycle = append(cycle, cycle[0])
					for _, c := range cycle {
						reported[c] = true
					}
					fs = append(fs, finding{code: "schema.ref-cycle", ptr: cycle[0].Append("$ref"),
						msg: fmt.Sprintf("the $refs of %s lead back to themselves with no keyword on the way: the schema validates nothing", strings.Join(pointers(cycle), " → "))})
				}
				break
			}
			t, ok := next[cur]
			if !ok {
				break
			}
			path = append(path, cur)
			cur = t
		}
	}
	return fs
}

func pointers(ps []canonical.Pointer) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if p == "" {
			out[i] = "#"
		} else {
			out[i] = "#" + string(p)
		}
	}
	return out
}

// lenientRegexp compiles "pattern" and "patternProperties" with Go's RE2,
// and what RE2 cannot express but ECMA-262, the dialect JSON Schema
// specifies, can (lookaround, backreferences, escapes such as \cC) with an
// ECMA-262 engine, so that decode enforces such a pattern too. A pattern
// that is broken in any dialect (an unclosed group, a dangling quantifier)
// is still an error.
func lenientRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err == nil {
		return re, nil
	}
	var se *syntax.Error
	if errors.As(err, &se) && (se.Code == syntax.ErrInvalidEscape || se.Code == syntax.ErrInvalidPerlOp || se.Code == syntax.ErrInvalidNamedCapture) {
		if e, err := regexp2.Compile(pattern, regexp2.ECMAScript); err == nil {
			e.MatchTimeout = ecmaTimeout
			return &ecmaRegexp{re: e}, nil
		}
		return ecmaUnchecked(pattern), nil
	}
	return nil, err
}

// ecmaTimeout bounds one match of an ECMA-262 pattern: backtracking can take
// exponential time on a value made for it.
const ecmaTimeout = 200 * time.Millisecond

// ecmaRegexp runs a pattern that needs an ECMA-262 engine. A match that
// runs out of time is counted and passes: the value could not be checked,
// which Compiled.Check says as its own verdict, never "does not match".
type ecmaRegexp struct {
	re       *regexp2.Regexp
	timeouts atomic.Int64
}

func (e *ecmaRegexp) MatchString(s string) bool {
	ok, err := e.re.MatchString(s)
	if err != nil {
		e.timeouts.Add(1)
		return true
	}
	return ok
}

func (e *ecmaRegexp) String() string { return e.re.String() }

// ecmaUnchecked is a pattern of ECMA-262's that neither engine compiles;
// it is kept as written and not enforced.
type ecmaUnchecked string

func (ecmaUnchecked) MatchString(string) bool { return true }
func (p ecmaUnchecked) String() string        { return string(p) }
