package validate

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/refs"
)

// MaxDescription is the tool description length past which
// lint.description-too-long warns: OpenAI has rejected longer function
// descriptions (PROVIDERS.md, unverified whether it still does).
const MaxDescription = 1024

// valueKeyword is a keyword whose values must be valid against the schema
// it sits in, with the code reported when one is not.
type valueKeyword struct {
	keyword, code string
	list          bool // the keyword holds a list of values
}

// valueKeywords are the value keywords.
var valueKeywords = [...]valueKeyword{
	{"default", "lint.default-invalid", false},
	{"const", "lint.const-invalid", false},
	{"enum", "lint.enum-invalid", true},
	{"examples", "lint.example-invalid", true},
}

// valueOf is s's value of the value keyword vk, nil when it has none (or,
// for a list keyword, one that is not an array).
func valueOf(s *canonical.Schema, vk valueKeyword) *canonical.Value {
	val := s.Keyword(vk.keyword)
	if val == nil || (vk.list && val.Kind != canonical.Array) {
		return nil
	}
	return val
}

// bigEnum is how many values make an enum's own values validated against
// its schema without the enum: each is in it, and checking membership
// against n values for each of n values is quadratic (an enum of 100,000
// strings took a minute).
const bigEnum = 64

// checkValues validates every default, const, enum value and examples entry
// against the (compiled) schema it sits in; the values of a big enum
// against the schema without its enum, which noEnum compiles.
func checkValues(c *jsonschema.Compiler, root *canonical.Schema, noEnum func(canonical.Pointer) *jsonschema.Schema) []finding {
	var fs []finding
	for p, s := range root.All() {
		if !s.IsObject() {
			continue
		}
		var sch *jsonschema.Schema
		for _, vk := range valueKeywords {
			v := valueOf(s, vk)
			if v == nil {
				continue
			}
			if sch == nil {
				var err error
				if sch, err = c.Compile(baseURL + "#" + fragment(p)); err != nil {
					return fs // the schema did not compile; that is reported elsewhere
				}
			}
			values, at := []*canonical.Value{v}, []canonical.Pointer{p.Append(vk.keyword)}
			if vk.list {
				values, at = v.Items(), nil
				for i := range v.Items() {
					at = append(at, p.Append(vk.keyword).Index(i))
				}
			}
			against := sch
			if vk.keyword == "enum" && len(values) > bigEnum {
				if ne := noEnum(p); ne != nil {
					against = ne
				}
			}
			for i, val := range values {
				if err := against.Validate(ToAny(val)); err != nil {
					fs = append(fs, finding{code: vk.code, ptr: at[i],
						msg: fmt.Sprintf("%s %s is not valid against its own schema: %s", vk.keyword, short(val), reason(err)),
						fix: fmt.Sprintf("change the %s value or the schema so they agree", vk.keyword)})
				}
			}
		}
	}
	return fs
}

// fragment writes a JSON Pointer as a URI fragment.
func fragment(p canonical.Pointer) string {
	return (&url.URL{Fragment: string(p)}).EscapedFragment()
}

// reason is the innermost messages of a validation error, joined.
func reason(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var msgs []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			at := strings.Join(e.InstanceLocation, "/")
			m := e.ErrorKind.LocalizedString(printer)
			if at != "" {
				m = "at /" + at + ": " + m
			}
			msgs = append(msgs, m)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(msgs) > 3 {
		msgs = append(msgs[:3], fmt.Sprintf("and %d more", len(msgs)-3))
	}
	return strings.Join(msgs, "; ")
}

// short is v as compact JSON, cut to a readable length.
func short(v *canonical.Value) string {
	s := v.String()
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:37]) + "..."
	}
	return s
}

// lintSchema applies the schema rules that do not need validation.
func lintSchema(root *canonical.Schema, input bool) []finding {
	var fs []finding
	// The definitions in use are found only for a schema that has some: a
	// schema without $defs pays for no reference index.
	var used map[canonical.Pointer]bool
	usedAt := func(p canonical.Pointer) bool {
		if used == nil {
			used = refs.UsedDefs(root)
		}
		return used[p]
	}
	canonical.WalkPath(root, func(path canonical.Path, s *canonical.Schema) bool {
		if s.IsObject() {
			fs = lintNode(fs, path, s, input, usedAt)
		}
		return true
	})
	return fs
}

// lintNode applies the schema rules to one schema, at path; its pointer is
// built only for a finding.
func lintNode(fs []finding, path canonical.Path, s *canonical.Schema, input bool, used func(canonical.Pointer) bool) []finding {
	var here canonical.Pointer
	p := func() canonical.Pointer {
		if here == "" && len(path) > 0 {
			here = path.Pointer()
		}
		return here
	}
	if input {
		for name, prop := range s.Properties() {
			if prop.IsObject() && prop.Description() == "" && !prop.JSON().Has("$ref") && !prop.JSON().Has("title") {
				fs = append(fs, finding{code: "lint.parameter-description-missing", ptr: p().Append("properties", name),
					msg: fmt.Sprintf("parameter %q has no description: the model has only its name to go on", name),
					fix: "add a description that says what the parameter is and which values make sense"})
			}
		}
	}
	if enum := s.Keyword("enum"); enum != nil && enum.Kind == canonical.Array && mayRepeat(enum.Items()) {
		seen := map[string]int{}
		for i, v := range enum.Items() {
			k := string(v.AppendJCS(nil))
			if j, dup := seen[k]; dup {
				fs = append(fs, finding{code: "lint.enum-duplicate", ptr: p().Append("enum").Index(i),
					msg: fmt.Sprintf("enum value %s repeats value %d", short(v), j), fix: "remove the repeated value"})
				continue
			}
			seen[k] = i
		}
	}
	if pat, ok := s.Keyword("pattern").StringValue(); ok {
		if needsECMA(pat) {
			fs = append(fs, finding{code: "lint.pattern-ecma", ptr: p().Append("pattern"),
				msg: fmt.Sprintf("pattern %q needs an ECMA-262 engine (lookaround, a backreference or an escape RE2 has not): toolc decode enforces it; a validator or provider built on RE2 does not", pat)})
		}
	}
	if s.HasType("array") && !s.JSON().Has("items") && !s.JSON().Has("prefixItems") && !s.JSON().Has("$ref") {
		fs = append(fs, finding{code: "lint.array-items-missing", ptr: p(),
			msg: "array without items: the model cannot know what goes in it, and strict modes and Gemini reject it",
			fix: `add "items" with the schema of the elements`})
	}
	if req := s.Keyword("required"); req != nil && s.JSON().Has("properties") {
		for i, name := range s.Required() {
			if !declares(s, name) {
				fs = append(fs, finding{code: "lint.required-unknown-property", ptr: p().Append("required").Index(i),
					msg: fmt.Sprintf("required property %q is not in properties", name),
					fix: fmt.Sprintf("add %q to properties or remove it from required", name)})
			}
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		defs := s.Keyword(k)
		if defs == nil || defs.Kind != canonical.Object {
			continue
		}
		for _, m := range defs.Members() {
			at := p().Append(k, m.Key)
			if !used(at) {
				fs = append(fs, finding{code: "lint.def-unused", ptr: at,
					msg: fmt.Sprintf("definition %q is never referenced", m.Key), fix: "remove it, or refer to it with $ref"})
			}
		}
	}
	return fs
}

// ecmaPatterns caches needsECMA: a catalog repeats its patterns (a date, an
// identifier) across thousands of tools, and compiling one is the dearest
// step of a lint.
var ecmaPatterns sync.Map // pattern string -> bool

// needsECMA reports whether pattern compiles only with the ECMA-262 engine.
func needsECMA(pattern string) bool {
	if v, ok := ecmaPatterns.Load(pattern); ok {
		return v.(bool)
	}
	re, err := lenientRegexp(pattern)
	_, ecma := re.(*ecmaRegexp)
	ecma = ecma && err == nil
	ecmaPatterns.Store(pattern, ecma)
	return ecma
}

// mayRepeat reports whether an enum's values may hold two equal ones: for
// strings alone that is decided here without allocating; other values
// (1 and 1.0 are equal) are left to the canonical comparison.
func mayRepeat(items []*canonical.Value) bool {
	if len(items) > 32 {
		return true
	}
	for i, a := range items {
		if a.Kind != canonical.String {
			return true
		}
		for _, b := range items[:i] {
			if b.Text() == a.Text() {
				return true
			}
		}
	}
	return false
}

// declares reports whether s, or a schema it is composed with (allOf, anyOf,
// oneOf, then/else), declares the property name.
func declares(s *canonical.Schema, name string) bool {
	if props := s.Keyword("properties"); props.Has(name) {
		return true
	}
	if pp := s.Keyword("patternProperties"); pp != nil && len(pp.Members()) > 0 {
		return true // a pattern may declare it; not worth a false warning
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list := s.Keyword(k); list != nil && list.Kind == canonical.Array {
			for _, sub := range list.Items() {
				if declares(canonical.AsSchema(sub), name) {
					return true
				}
			}
		}
	}
	for _, k := range []string{"then", "else"} {
		if sub := s.Sub(k); sub != nil && declares(sub, name) {
			return true
		}
	}
	return false
}
