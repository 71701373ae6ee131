package accept

import (
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/namematch"
)

// nodeAt is one rule's check of one subschema: where it is, to report a
// finding.
type nodeAt struct {
	c   *checker
	r   Rule
	st  *step
	pos canonical.Pos
}

// reportKey reports a finding at member m of the subschema.
func (n *nodeAt) reportKey(m canonical.Member, format string, args ...any) {
	n.c.report(n.r, n.c.field, n.st.pointer(), keyPos(m, n.pos), format, args...)
}

// nodeChecks are the checks of a subschema, by the kind of rule: one small
// function each, as buf's rules are.
var nodeChecks = map[Kind]func(n *nodeAt, v *canonical.Value){
	Keywords:        func(n *nodeAt, v *canonical.Value) { n.keywords(v, true) },
	NoKeywords:      func(n *nodeAt, v *canonical.Value) { n.keywords(v, false) },
	RefTargets:      checkRefTarget,
	EnumNoNull:      checkEnumNoNull,
	RequiredProps:   checkRequiredProps,
	PortablePattern: checkPortablePattern,
	GrammarPattern:  checkGrammarPattern,
	PythonPattern:   checkPythonPattern,
	Draft2020:       checkDraft2020,
	Formats:         checkFormat,
	Typed:           checkTyped,
	TypeNames:       checkTypeNames,
	Properties:      checkProperties,
	Closed:          checkClosed,
	AllRequired:     checkRequired,
	RequiredDefined: checkRequired,
	RefSiblings:     func(n *nodeAt, v *canonical.Value) { n.alone(v, "$ref") },
	AnyOfAlone:      func(n *nodeAt, v *canonical.Value) { n.alone(v, "anyOf") },
	AnyOfUntyped:    checkAnyOfUntyped,
	BranchTyped:     checkBranchTyped,
	Items:           checkItems,
	PropertyKeys:    checkPropertyKeys,
	EnumTypes:       checkEnumTypes,
	MinItems:        checkMinItems,
	NotEmpty:        checkNotEmpty,
	PropertyType:    checkPropertyType,
	NoLookaround:    checkLookaround,
	Lookaround:      checkLookaround,
}

// keywords reports each keyword that is not in the rule's values (only),
// or that is (not only).
func (n *nodeAt) keywords(v *canonical.Value, only bool) {
	for _, m := range v.Members() {
		if slices.Contains(n.r.Values, m.Key) != only && !n.c.accepted(m.Key) {
			n.reportKey(m, "the keyword %q", m.Key)
		}
	}
}

// alone reports each sibling of key that the rule does not allow.
func (n *nodeAt) alone(v *canonical.Value, key string) {
	if !v.Has(key) {
		return
	}
	for _, m := range v.Members() {
		if m.Key != key && !slices.Contains(n.r.Values, m.Key) {
			n.reportKey(m, "%s has the sibling %q", key, m.Key)
		}
	}
}

func checkRefTarget(n *nodeAt, v *canonical.Value) {
	if ref, ok := v.Get("$ref").StringValue(); ok && !topLevelRef(ref) {
		n.report("$ref %q", ref)
	}
}

func checkEnumNoNull(n *nodeAt, v *canonical.Value) {
	if e := v.Get("enum"); e != nil && e.Kind == canonical.Array && slices.ContainsFunc(e.Items(), func(x *canonical.Value) bool { return x.Kind == canonical.Null }) {
		n.report("null in enum")
	}
}

func checkRequiredProps(n *nodeAt, v *canonical.Value) {
	if v.Has("required") && !v.Has("properties") {
		n.report("required without properties")
	}
}

var (
	// notInRe finds what Python's re does not read, in a pattern whose
	// escaped backslashes are taken out.
	notInRe = regexp.MustCompile(`\\[pP]\{|\\k<|\(\?<[^=!]`)
	// possessive finds a possessive quantifier, in a pattern whose escapes
	// and classes are taken out.
	possessive = regexp.MustCompile(`([*+}]|[^(]\?)\+`)
	escapes    = regexp.MustCompile(`\\.`)
	classes    = regexp.MustCompile(`\[[^\]]*\]`)
)

// checkPythonPattern holds a pattern to what Python's re compiles, as
// OpenAI's does in every mode.
func checkPythonPattern(n *nodeAt, v *canonical.Value) {
	p, ok := v.Get("pattern").StringValue()
	if !ok {
		return
	}
	if !PythonRE(p) {
		n.report("the pattern %q", p)
	}
}

// PythonRE reports whether Python's re reads the pattern p: no \p{…},
// \k<…>, (?<name>…) or possessive quantifier.
func PythonRE(p string) bool {
	return !notInRe.MatchString(strings.ReplaceAll(p, `\\`, "")) && !possessive.MatchString(classes.ReplaceAllString(escapes.ReplaceAllString(p, "e"), "c"))
}

// checkGrammarPattern holds a pattern to what llama.cpp's grammar
// conversion takes (common/json-schema-to-grammar.cpp, _visit_pattern, and
// the grammar parser's escapes): anchored at both ends, no class escapes,
// no group that starts (?, and no escape the grammar's parser does not
// read (only \t, \n, \r, \\, \", \x…, \u…, an escaped operator outside a
// class, \[ and \] inside one).
func checkGrammarPattern(n *nodeAt, v *canonical.Value) {
	p, ok := v.Get("pattern").StringValue()
	if !ok {
		return
	}
	escaped, endEscaped, inClass := false, false, false
	for i := 0; i < len(p); i++ {
		if i == len(p)-1 {
			endEscaped = escaped
		}
		c := p[i]
		switch {
		case escaped && strings.IndexByte("dwsDWS", c) >= 0:
			n.report("the pattern %q uses \\%c", p, c)
			return
		case escaped && !grammarReads(c, inClass):
			n.report("the pattern %q has the escape \\%c, which the grammar does not read", p, c)
			return
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '(' && !inClass && strings.HasPrefix(p[i:], "(?"):
			n.report("the pattern %q has a group that starts (?", p)
			return
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		}
	}
	if !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") || endEscaped {
		n.report("the pattern %q is not anchored ^…$", p)
	}
}

// grammarReads reports whether llama.cpp's grammar reads the escape \c
// that its converter copies, in a class or not.
func grammarReads(c byte, inClass bool) bool {
	if strings.IndexByte(`tnrxu\"`, c) >= 0 {
		return true
	}
	if inClass {
		return c == '[' || c == ']'
	}
	return strings.IndexByte("|.()[]{}*+?", c) >= 0 // the converter makes these literal
}

func checkPortablePattern(n *nodeAt, v *canonical.Value) {
	if p, ok := v.Get("pattern").StringValue(); ok && ecmaOnly.MatchString(strings.ReplaceAll(p, `\\`, "")) {
		n.report("pattern %q", p)
	}
}

func checkDraft2020(n *nodeAt, v *canonical.Value) {
	for _, m := range v.Members() {
		switch {
		case m.Key == "items" && m.Value.Kind == canonical.Array:
			n.reportKey(m, "the draft-07 tuple form items: [...]")
		case m.Key == "additionalItems" || m.Key == "dependencies":
			n.reportKey(m, "the draft-07 keyword %q", m.Key)
		case m.Key == "$schema" && m.Value.Kind == canonical.String && strings.TrimSuffix(m.Value.Text(), "#") != "https://json-schema.org/draft/2020-12/schema":
			n.reportKey(m, "$schema %q", m.Value.Text())
		}
	}
}

func checkFormat(n *nodeAt, v *canonical.Value) {
	if f, ok := v.Get("format").StringValue(); ok && !slices.Contains(n.r.Values, f) && !n.c.accepted("format") {
		n.report("format %q", f)
	}
}

func checkTyped(n *nodeAt, v *canonical.Value) {
	if !slices.ContainsFunc(n.r.Values, v.Has) {
		n.report("the schema has no type")
	}
}

func checkAnyOfUntyped(n *nodeAt, v *canonical.Value) {
	if v.Has("anyOf") {
		if i := v.Index("type"); i >= 0 {
			n.reportKey(v.Members()[i], "type %s beside anyOf", v.Members()[i].Value.String())
		}
	}
}

func checkBranchTyped(n *nodeAt, v *canonical.Value) {
	for _, k := range []string{"anyOf", "oneOf"} {
		if b := v.Get(k); b != nil && b.Kind == canonical.Array {
			for i, x := range b.Items() {
				if x.Kind == canonical.Object && !x.Has("type") {
					n.report("branch %d of %s has no type", i, k)
				}
			}
		}
	}
}

func checkTypeNames(n *nodeAt, v *canonical.Value) {
	t := v.Get("type")
	if t == nil {
		return
	}
	if s, ok := t.StringValue(); !ok || !slices.Contains(n.r.Values, s) {
		n.report("type %s", t.String())
	}
}

func checkProperties(n *nodeAt, v *canonical.Value) {
	if isObject(v) && !v.Has("properties") {
		n.report("an object schema without properties")
	}
}

func checkClosed(n *nodeAt, v *canonical.Value) {
	if isObject(v) && !n.c.accepted("additionalProperties") {
		if ap := v.Get("additionalProperties"); ap == nil || ap.Kind != canonical.Bool || ap.Bool {
			n.report("an object schema that is not closed")
		}
	}
}

// checkRequired checks that required names only defined properties and,
// for AllRequired, that it names every one.
func checkRequired(n *nodeAt, v *canonical.Value) {
	if !isObject(v) {
		return
	}
	props := v.Get("properties").Keys()
	req, _ := v.Get("required").Strings()
	for _, k := range req {
		if !slices.Contains(props, k) {
			n.report("required names %q, which properties does not define", k)
		}
	}
	if n.r.Kind == AllRequired {
		for _, k := range props {
			if !slices.Contains(req, k) {
				n.report("property %q is not in required", k)
			}
		}
	}
}

// checkItems reports an array schema without items: a schema, or, where
// the rule's Values say "list", a draft-07 list of item schemas too (VS
// Code checks that items is there, not what it is).
func checkItems(n *nodeAt, v *canonical.Value) {
	if !isArray(v) {
		return
	}
	switch it := v.Get("items"); {
	case it == nil:
		n.report("an array schema without items")
	case it.Kind == canonical.Array && slices.Contains(n.r.Values, "list"):
	case it.Kind != canonical.Object && it.Kind != canonical.Bool:
		n.report("an array schema whose items is a list (a draft-07 tuple), not a schema")
	}
}

func checkPropertyKeys(n *nodeAt, v *canonical.Value) {
	if p := v.Get("properties"); p != nil && p.Kind == canonical.Object {
		for _, m := range p.Members() {
			if !namematch.Compile(n.r.Values[0]).MatchString(m.Key) {
				n.c.report(n.r, n.c.field, n.st.pointer().Append("properties", m.Key), keyPos(m, n.pos), "the property key %q", m.Key)
			}
		}
	}
}

func checkEnumTypes(n *nodeAt, v *canonical.Value) {
	if e := v.Get("enum"); e != nil && e.Kind == canonical.Array && !n.c.accepted("enum") {
		for _, x := range e.Items() {
			if t := x.JSONType(); !slices.Contains(n.r.Values, t) && !(t == "integer" && slices.Contains(n.r.Values, "number")) {
				n.report("the enum value %s", x.String())
				break
			}
		}
	}
}

func checkMinItems(n *nodeAt, v *canonical.Value) {
	if m := v.Get("minItems"); m != nil && !slices.Contains(n.r.Values, m.Text()) && !n.c.accepted("minItems") {
		n.report("minItems %s", m.Text())
	}
}

func checkLookaround(n *nodeAt, v *canonical.Value) {
	if p, ok := v.Get("pattern").StringValue(); ok && hasLookaround(p) && !n.c.accepted("pattern") {
		n.report("the pattern %q", p)
	}
}

// report reports a finding at the subschema.
func (n *nodeAt) report(format string, args ...any) {
	n.c.report(n.r, n.c.field, n.st.pointer(), n.pos, format, args...)
}

// checkNotEmpty finds {"not": {}} (or not: true), which Fireworks refuses.
func checkNotEmpty(n *nodeAt, v *canonical.Value) {
	if i := v.Index("not"); i >= 0 {
		if m := v.Members()[i]; m.Value.Kind == canonical.Object && len(m.Value.Members()) == 0 || m.Value.Kind == canonical.Bool && m.Value.Bool {
			n.reportKey(m, "not: %s, a schema that accepts no value", m.Value.String())
		}
	}
}

// checkPropertyType finds a property whose schema has no one type string.
func checkPropertyType(n *nodeAt, v *canonical.Value) {
	props := v.Get("properties")
	if props == nil || props.Kind != canonical.Object {
		return
	}
	for _, m := range props.Members() {
		if _, ok := m.Value.Get("type").StringValue(); m.Value.Kind == canonical.Object && !ok {
			what := "no type"
			if t := m.Value.Get("type"); t != nil {
				what = "type " + t.String()
			}
			n.c.report(n.r, n.c.field, n.st.pointer().Append("properties", m.Key), keyPos(m, n.pos), "the property %q has %s", m.Key, what)
		}
	}
}

// step is one token of the JSON Pointer of a schema in a walk: built into
// a string only when a finding needs it.
type step struct {
	parent *step
	tok    string
	index  int // 1 + the array index, for an item of a list
}

func (s *step) pointer() canonical.Pointer {
	if s == nil {
		return ""
	}
	if s.index > 0 {
		return s.parent.pointer().Index(s.index - 1)
	}
	return s.parent.pointer().Append(s.tok)
}

// lastKeyword returns the keyword that holds the subschema at rel:
// "additionalProperties" for "/additionalProperties", "properties" for
// "/properties/a", "anyOf" for "/anyOf/0".
func lastKeyword(rel canonical.Pointer) string {
	s := strings.TrimPrefix(string(rel), "/")
	k, _, _ := strings.Cut(s, "/")
	return k
}

func typeString(v *canonical.Value) string {
	if v.Kind != canonical.Object {
		return ""
	}
	s, _ := v.Get("type").StringValue()
	return s
}

func typeText(v *canonical.Value) string {
	if v.Kind != canonical.Object || !v.Has("type") {
		return "missing"
	}
	return v.Get("type").String()
}

func types(v *canonical.Value) []string {
	t := v.Get("type")
	if s, ok := t.StringValue(); ok {
		return []string{strings.ToLower(s)}
	}
	ts, _ := t.Strings()
	for i := range ts {
		ts[i] = strings.ToLower(ts[i])
	}
	return ts
}

// isObject reports whether v is an object schema: typed object, or
// untyped with properties.
func isObject(v *canonical.Value) bool {
	ts := types(v)
	return slices.Contains(ts, "object") || ts == nil && v.Has("properties")
}

func isArray(v *canonical.Value) bool { return slices.Contains(types(v), "array") }

// node checks one rule on one subschema v at the emitted pointer at, held
// by keyword key of its parent: by the check of the rule's kind.
func (c *checker) node(nr nodeRule, v *canonical.Value, st *step, key string, pos canonical.Pos) {
	r := nr.rule
	n := &c.at
	*n = nodeAt{c: c, r: r, st: st, pos: pos}
	if v.Kind == canonical.Bool {
		// additionalProperties: false is how strict mode closes an object;
		// any other boolean schema has no type.
		if r.Kind == Typed && !(key == "additionalProperties" && !v.Bool) {
			n.report("the boolean schema %v has no type", v.Bool)
		}
		if r.Kind == NoBoolSchemas && key != "" && !boolTaken[key] {
			n.report("the boolean schema %v", v.Bool)
		}
		return
	}
	if nr.check != nil && v.Kind == canonical.Object {
		nr.check(n, v)
	}
}

// nodeRule is a rule that looks at each node of a schema, with its check.
type nodeRule struct {
	rule  Rule
	check func(n *nodeAt, v *canonical.Value)
}

// boolTaken are the keywords whose boolean value the servers that refuse
// boolean subschemas take: additionalProperties: false closes an object.
var boolTaken = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true}

func keyPos(m canonical.Member, pos canonical.Pos) canonical.Pos {
	if m.KeyPos.IsValid() {
		return m.KeyPos
	}
	return pos
}

func hasLookaround(p string) bool {
	for _, l := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.Contains(p, l) {
			return true
		}
	}
	return false
}
