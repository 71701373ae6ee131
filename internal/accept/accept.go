// Package accept says whether a provider would accept a bundle: an
// independent check of what lowering emits, in the manner of a compiler's
// verifier after its passes (LLVM's Verifier, Go's ssa.checkFunc).
//
// What each provider refuses is data, one Table per target and mode, each
// Rule citing its evidence (PROVIDERS.md, "Corrections and additions").
// The tables are kept apart from the lowering profiles of package profile
// on purpose: if both read one table, a wrong fact would pass both, while
// two tables that must agree catch it. Check reads the encoded bundle
// itself, the JSON that goes to the provider, so what the encoders do is
// checked too.
//
// A violation of a schema, name or description rule is an accept.* error:
// the provider would answer 400 for the whole request. A per-request count
// over its limit is a warning, since a caller may send a subset of the
// bundle. The package knows only canonical and diag; it changes nothing.
package accept

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/namematch"
	"github.com/toolc-dev/toolc/internal/par"
	"github.com/toolc-dev/toolc/internal/refs"
)

// Kind is what one rule checks.
type Kind string

// The kinds of rule. Values and Max mean what each kind's doc says.
const (
	// Schema rules, checked on every subschema of every input (and output)
	// schema, $defs included.
	Keywords        Kind = "keywords"         // only the keywords in Values
	NoKeywords      Kind = "no-keywords"      // none of the keywords in Values
	Formats         Kind = "formats"          // "format" is one of Values
	Typed           Kind = "typed"            // every subschema has one of the keywords in Values
	TypeNames       Kind = "type-names"       // "type" is one string of Values
	Properties      Kind = "properties"       // every object schema has "properties"
	Closed          Kind = "closed"           // every object schema has additionalProperties: false
	AllRequired     Kind = "all-required"     // "required" lists every property, and only those
	RequiredDefined Kind = "required-defined" // "required" names only properties of "properties"
	RefSiblings     Kind = "ref-siblings"     // beside "$ref" only the keywords in Values
	AnyOfAlone      Kind = "any-of-alone"     // beside "anyOf" only the keywords in Values
	AnyOfUntyped    Kind = "any-of-untyped"   // no "type" beside "anyOf": the branches carry it
	BranchTyped     Kind = "branch-typed"     // every object branch of anyOf and oneOf has "type"
	Items           Kind = "items"            // every array schema has "items" (a schema)
	RefsResolve     Kind = "refs-resolve"     // every "$ref" points into the emitted schema
	Acyclic         Kind = "acyclic"          // no "$ref" recursion
	PropertyKeys    Kind = "property-keys"    // every property name matches the pattern Values[0]
	EnumTypes       Kind = "enum-types"       // enum values are of the JSON types in Values
	MinItems        Kind = "min-items"        // "minItems" is one of Values
	NoLookaround    Kind = "no-lookaround"    // "pattern" has no lookaround
	Lookaround      Kind = "lookaround"       // "pattern" has no lookaround: a warning, where refusals are reported but not certain
	RootObject      Kind = "root-object"      // the root has "type": "object" (Values: spellings)
	RootKeywords    Kind = "root-keywords"    // the root has none of the keywords in Values
	OutputObject    Kind = "output-object"    // an output schema's root has "type": "object"
	OutputUnion     Kind = "output-union"     // an output schema with anyOf or oneOf at its root has "type": "object"
	Draft2020       Kind = "draft-2020-12"    // only 2020-12 forms: no items array, additionalItems, dependencies or older $schema
	EnumNoNull      Kind = "enum-no-null"     // enum lists no null
	RefTargets      Kind = "ref-targets"      // every "$ref" is "#", "#/$defs/X" or "#/definitions/X"
	RequiredProps   Kind = "required-props"   // a schema with "required" has "properties"
	PortablePattern Kind = "portable-pattern" // "pattern" has no ECMA-262-only escape (\0, \cX, \u{…}, \k<…>)
	NoBoolSchemas   Kind = "no-bool-schemas"  // no subschema is true or false, additionalProperties and unevaluated* aside
	PythonPattern   Kind = "python-pattern"   // "pattern" compiles with Python's re: no \p{…}, possessive quantifiers, (?<name>…) or \k<…>
	GrammarPattern  Kind = "grammar-pattern"  // "pattern" is anchored ^…$ and has no \d, \w, \s (or \D, \W, \S)
	MCPHeaders      Kind = "mcp-headers"      // every x-mcp-header of an input schema is as 2026-07-28 demands
	NoDialect2020   Kind = "no-dialect-2020"  // the root declares no $schema of 2020-12
	NotEmpty        Kind = "no-not-empty"     // no schema is {"not": {}}: a schema that accepts no value written with not
	PropertyType    Kind = "property-type"    // every property's schema has one type string
	MetaSchema      Kind = "meta-schema"      // every input schema is valid against the meta-schema of its dialect
	// Tool rules, checked on each tool entry.
	Name         Kind = "name"          // the name matches the pattern Values[0]
	Description  Kind = "description"   // the description has at most Max characters
	InputPresent Kind = "input-present" // every tool entry has an input schema
	// Request rules, checked on the whole bundle: warnings.
	Tools       Kind = "tools"        // at most Max tools in one request
	StrictTools Kind = "strict-tools" // at most Max strict tools
	SameStrict  Kind = "same-strict"  // every tool strict, or none
	Optional    Kind = "optional"     // at most Max optional parameters in strict tools, after $ref expansion
	Unions      Kind = "unions"       // at most Max anyOf or type-array parameters in strict tools, after $ref expansion
	// Deferral: a deferred tool needs a search tool (an entry whose type
	// starts with one of Values) that is not deferred itself, a request
	// keeps one entry loaded, and a namespace has a description.
	Deferral      Kind = "deferral"
	NamespaceSize Kind = "namespace-size" // at most Max functions in one namespace
)

// kinds gives each kind its diagnostic code and the rule it states.
var kinds = map[Kind]struct{ code, doc string }{
	Keywords:        {"accept.keyword", "only the keywords %s are accepted"},
	NoKeywords:      {"accept.keyword", "the keyword is not accepted"},
	Formats:         {"accept.format", "format must be one of %s"},
	Typed:           {"accept.untyped", "every schema needs one of %s"},
	TypeNames:       {"accept.type", "type must be one of %s"},
	Properties:      {"accept.properties-missing", "every object schema needs a properties key"},
	Closed:          {"accept.additional-properties", "every object schema needs additionalProperties: false"},
	AllRequired:     {"accept.required", "required must list every property, and only those"},
	RequiredDefined: {"accept.required", "required may name only properties that properties defines"},
	RefSiblings:     {"accept.ref-siblings", "$ref takes no sibling keywords but %s"},
	AnyOfAlone:      {"accept.any-of-siblings", "anyOf must be the only field of its schema (but %s)"},
	AnyOfUntyped:    {"accept.any-of-siblings", "type may not stand beside anyOf; each branch carries its own"},
	BranchTyped:     {"accept.untyped", "every branch of anyOf and oneOf needs a type"},
	Items:           {"accept.items-missing", "every array schema needs items"},
	RefsResolve:     {"accept.ref", "every $ref must point into the schema"},
	Acyclic:         {"accept.ref", "recursive $refs are not accepted"},
	PropertyKeys:    {"accept.property-key", "property keys must match %s"},
	EnumTypes:       {"accept.enum", "enum values must be of the types %s"},
	MinItems:        {"accept.keyword", "minItems must be one of %s"},
	NoLookaround:    {"accept.pattern", "patterns may not use lookaround"},
	Lookaround:      {"accept.lookaround", "lookaround in a pattern has been refused outside strict mode too"},
	RootObject:      {"accept.root", "the input schema must have type object"},
	RootKeywords:    {"accept.root", "the input schema takes no %s at its root"},
	OutputObject:    {"accept.root", "the output schema must have type object"},
	OutputUnion:     {"accept.root", "an output schema with anyOf or oneOf at its root must have type object"},
	Draft2020:       {"accept.draft", "the schema must be JSON Schema 2020-12"},
	EnumNoNull:      {"accept.enum", "enum may not list null"},
	RefTargets:      {"accept.ref", "a $ref may point only at the root or a top-level definition"},
	RequiredProps:   {"accept.properties-missing", "a schema with required needs a properties key"},
	PortablePattern: {"accept.pattern", "patterns may not use ECMA-262-only escapes"},
	NoBoolSchemas:   {"accept.bool-schema", "a subschema may not be the boolean schema true or false"},
	PythonPattern:   {"accept.pattern", "patterns must compile with Python's re"},
	GrammarPattern:  {"accept.pattern", "patterns must be anchored ^…$ and may not use \\d, \\w or \\s"},
	NoDialect2020:   {"accept.keyword", "an input schema may not declare $schema 2020-12"},
	NotEmpty:        {"accept.never", "a schema may not be {\"not\": {}}"},
	PropertyType:    {"accept.untyped", "every property needs one type string"},
	MetaSchema:      {"accept.meta-schema", "the input schema must be valid against its dialect's meta-schema"},
	InputPresent:    {"accept.root", "every declaration needs parameters, an object schema"},
	MCPHeaders:      {"accept.mcp-header", "x-mcp-header must be a non-empty header token, unique, on a string, integer or boolean property reached through properties alone"},
	Name:            {"accept.name", "tool names must match %s"},
	Description:     {"accept.description", "a description takes at most %d characters"},
	Tools:           {"accept.tools", "one request takes at most %d tools"},
	StrictTools:     {"accept.strict-tools", "one request takes at most %d strict tools"},
	SameStrict:      {"accept.strict-mixed", "one request takes one strict value for all its tools"},
	Optional:        {"accept.optional", "one request takes at most %d optional parameters in strict tools"},
	Unions:          {"accept.unions", "one request takes at most %d union-typed parameters in strict tools"},
	Deferral:        {"accept.defer", "deferred tools need a tool search tool (%s) that is not deferred, one tool loaded, and namespaces a description"},
	NamespaceSize:   {"accept.namespace", "a namespace should hold at most %d functions"},
}

// Rule is one thing a provider refuses, with its evidence.
type Rule struct {
	Kind     Kind
	Values   []string
	Max      int
	Evidence string
}

// Doc says what the rule demands, in a sentence fragment.
func (r Rule) Doc() string {
	k := kinds[r.Kind]
	switch {
	case strings.Contains(k.doc, "%d"):
		return fmt.Sprintf(k.doc, r.Max)
	case strings.Contains(k.doc, "%s"):
		return fmt.Sprintf(k.doc, strings.Join(r.Values, ", "))
	}
	return k.doc
}

// Code is the diagnostic code of a violation of the rule.
func (r Rule) Code() string { return kinds[r.Kind].code }

// Shape says where a bundle keeps its tools and, in each tool entry, the
// parts that the rules check, as JSON Pointers.
type Shape struct {
	List        canonical.Pointer // the array of tool entries
	Name        canonical.Pointer
	Description canonical.Pointer
	Input       canonical.Pointer
	Output      canonical.Pointer // "" when the format has no output schema
	Strict      canonical.Pointer // the entry's strict flag; "" when it has none
}

// Table is what one provider accepts in one target and mode.
type Table struct {
	Name     string // "openai", "gemini-openapi" …
	Provider string // how messages name the provider: "OpenAI"
	Shape    Shape
	Tool     []Rule // each tool entry
	Schema   []Rule // every schema of every tool
	Strict   []Rule // besides Schema, every schema of a tool whose strict flag is true
	Input    []Rule // besides Schema, every input schema
	Output   []Rule // besides Schema, every output schema
	Request  []Rule // the bundle as one request
	// StrictRequest are request rules counted over the strict tools only.
	StrictRequest []Rule
}

// with returns t with the Max of its rules overridden by max and the
// rules of the kinds in skip left out.
func (t *Table) with(max map[Kind]int, skip []Kind) *Table {
	if len(max) == 0 && len(skip) == 0 {
		return t
	}
	c := *t
	for _, rs := range []*[]Rule{&c.Tool, &c.Schema, &c.Strict, &c.Input, &c.Output, &c.Request, &c.StrictRequest} {
		*rs = slices.DeleteFunc(slices.Clone(*rs), func(r Rule) bool { return slices.Contains(skip, r.Kind) })
		for i := range *rs {
			if n, ok := max[(*rs)[i].Kind]; ok {
				(*rs)[i].Max = n
			}
		}
	}
	return &c
}

// Options change a check.
type Options struct {
	// Accepted are keywords that the manifest declares the provider accepts
	// (a profile override): no rule about a keyword is checked for them.
	Accepted []string
	// Max overrides the Max of the rules of a kind (a manifest's limits:
	// "description", "tools", "strict-tools", "optional", "unions").
	Max map[Kind]int
	// Skip are kinds of rule not checked: the manifest overrides the
	// lowering that they verify.
	Skip []Kind
	// Unchecked holds the IDs of tools whose entries are not checked (their
	// own schemas are in error); they still count in per-request budgets.
	Unchecked map[string]bool
}

// Check checks doc, a bundle encoded for target, against t. tools are the lowered
// tools in the bundle's order, whose sources locate each finding: the
// diagnostic points at the tool's input in its source file, at the line of
// the offending node where lowering kept it, and its message gives the JSON
// Pointer in the emitted schema.
func Check(t *Table, doc *canonical.Value, tools []*canonical.Tool, target string, opts Options) []diag.Diagnostic {
	list := doc.Resolve(t.Shape.List)
	if list == nil || list.Kind != canonical.Array {
		d := diag.New("accept.shape", "the %s bundle has no tool list at %q", target, t.Shape.List)
		d.Target = target
		return []diag.Diagnostic{d}
	}
	t = t.with(opts.Max, opts.Skip)
	e := bundle.EntriesOf(list.Items())
	deferred := 0
	for _, f := range e.Functions {
		if d, _ := f.Get("defer_loading").BoolValue(); d {
			deferred++
		}
	}
	// The tools are checked in parallel, by chunks, each with its own
	// checker; their findings and counts are joined in bundle order. Checked
	// one after the other, a bundle of 20,000 tools took 50 ms on one core.
	const chunk = 128
	parts := make([]tally, (len(e.Functions)+chunk-1)/chunk)
	par.For(len(parts), 1, func(p int) {
		c := &checker{t: t, target: target, opts: opts}
		for i := p * chunk; i < min(len(e.Functions), (p+1)*chunk); i++ {
			c.checkTool(e.Functions[i], tools, i, &parts[p])
		}
		parts[p].out = c.out
	})
	c := &checker{t: t, target: target, opts: opts}
	strictTools := 0
	var optional, unions []count
	for _, pt := range parts {
		c.out = append(c.out, pt.out...)
		strictTools += pt.strictTools
		optional = append(optional, pt.optional...)
		unions = append(unions, pt.unions...)
	}
	for _, r := range t.Request {
		// Deferred tools are the search's to load, not the request's.
		if loaded := len(e.Functions) - deferred; r.Kind == Tools && loaded > r.Max {
			c.request(r, loaded, "tools", nil)
		}
		if r.Kind == SameStrict && strictTools > 0 && strictTools < len(e.Functions) {
			d := diag.New(r.Code(), "the %s bundle has %d strict tools and %d others; %s takes %s (%s)",
				c.target, strictTools, len(e.Functions)-strictTools, c.t.Provider, r.Doc(), r.Evidence)
			d.Target = c.target
			c.out = append(c.out, d)
		}
		switch r.Kind {
		case Deferral:
			c.deferral(r, e, deferred)
		case NamespaceSize:
			for _, ns := range e.Namespaces {
				if n := len(ns.Get("tools").Items()); n > r.Max {
					d := diag.New(r.Code(), "the %s bundle's namespace %q has %d functions; %s advises at most %d (%s)",
						c.target, ns.Get("name").Text(), n, c.t.Provider, r.Max, r.Evidence)
					d.Target = c.target
					c.out = append(c.out, d)
				}
			}
		}
	}
	for _, r := range t.StrictRequest {
		switch r.Kind {
		case StrictTools:
			if strictTools > r.Max {
				c.request(r, strictTools, "strict tools", nil)
			}
		case Optional:
			if n := total(optional); n > r.Max {
				c.request(r, n, "optional parameters in its strict tools", optional)
			}
		case Unions:
			if n := total(unions); n > r.Max {
				c.request(r, n, "union-typed parameters (anyOf or a type array) in its strict tools", unions)
			}
		}
	}
	return c.out
}

// deferral checks the rules of deferred loading: a search tool, not
// deferred, where a function is; one entry loaded; a description on each
// namespace.
func (c *checker) deferral(r Rule, e bundle.Entries, deferred int) {
	report := func(format string, args ...any) {
		d := diag.New(r.Code(), "%s would refuse the %s bundle: %s (%s)", c.t.Provider, c.target, fmt.Sprintf(format, args...), r.Evidence)
		d.Target = c.target
		c.out = append(c.out, d)
	}
	search, loaded := 0, len(e.Functions)-deferred
	for _, p := range e.Provider {
		typ, _ := p.Get("type").StringValue()
		deferred, _ := p.Get("defer_loading").BoolValue()
		if !deferred {
			loaded++
		}
		if !slices.ContainsFunc(r.Values, func(v string) bool { return strings.HasPrefix(typ, v) }) {
			continue
		}
		search++
		if deferred {
			report("its tool search tool %s is deferred, and nothing could load it", typ)
		}
	}
	if deferred > 0 && search == 0 {
		what := fmt.Sprintf("%d tools are", deferred)
		if deferred == 1 {
			what = "1 tool is"
		}
		report("%s deferred and no tool search tool (%s) can load them", what, strings.Join(r.Values, ", "))
	}
	if len(e.Functions)+len(e.Provider) > 0 && loaded == 0 {
		report("every tool is deferred; at least one must be loaded")
	}
	for _, ns := range e.Namespaces {
		name, _ := ns.Get("name").StringValue()
		if d, _ := ns.Get("description").StringValue(); strings.TrimSpace(d) == "" {
			report("the namespace %q has no description", name)
		}
		for _, nr := range c.t.Tool {
			if nr.Kind == Name && !namematch.Compile(nr.Values[0]).MatchString(name) {
				report("the namespace name %q does not match %s", name, nr.Values[0])
			}
		}
	}
}

// tally is what the tools of one chunk add up to: their findings, and their
// shares of the per-request budgets of strict mode.
type tally struct {
	out              []diag.Diagnostic
	strictTools      int
	optional, unions []count
}

// checkTool checks the bundle's i-th entry, the catalog's tools[i] where
// there is one, adding its findings to c and its counts to the part.
func (c *checker) checkTool(entry *canonical.Value, tools []*canonical.Tool, i int, pt *tally) {
	var tool *canonical.Tool
	if i < len(tools) {
		tool = tools[i]
	}
	c.tool, c.entry = tool, entry
	if tool != nil && c.opts.Unchecked[tool.ID()] {
		return
	}
	for _, r := range c.t.Tool {
		c.toolRule(r)
	}
	strict := false
	if c.t.Shape.Strict != "" {
		strict, _ = entry.Resolve(c.t.Shape.Strict).BoolValue()
	}
	for _, part := range []struct {
		at    canonical.Pointer
		field canonical.Pointer
	}{{c.t.Shape.Input, "/input"}, {c.t.Shape.Output, "/output"}} {
		if part.at == "" {
			continue
		}
		s := entry.Resolve(part.at)
		if s == nil || s.Kind == canonical.Null {
			continue
		}
		c.field = part.field
		c.schema(s, c.partRules(part.field == "/input", strict), part.field == "/input")
	}
	if strict {
		pt.strictTools++
		if s := entry.Resolve(c.t.Shape.Input); s != nil {
			o, u := parameters(s)
			pt.optional = append(pt.optional, count{c.name(), o})
			pt.unions = append(pt.unions, count{c.name(), u})
		}
	}
}

// count is one tool's share of a per-request budget.
type count struct {
	tool string
	n    int
}

func total(cs []count) int {
	n := 0
	for _, c := range cs {
		n += c.n
	}
	return n
}

// biggest names the tools that spend the most of a budget.
func biggest(cs []count) string {
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, func(a, b count) int { return b.n - a.n })
	var parts []string
	for _, c := range cs {
		if c.n == 0 || len(parts) == 5 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", c.tool, c.n))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; the most: " + strings.Join(parts, ", ")
}

type checker struct {
	t      *Table
	target string
	opts   Options
	out    []diag.Diagnostic

	tool  *canonical.Tool
	entry *canonical.Value
	field canonical.Pointer // "/input" or "/output"
	// at is the node being checked, one for the checker: a check is
	// done with it when it returns, and one allocated per node and rule
	// was a fifth of the acceptance check's time.
	at        nodeAt
	nodeRules []nodeRule // of the schema being checked
	// steps is where the walk of a schema takes its steps from, begun
	// again for each schema: no step outlives its walk, and one allocated
	// per subschema was most of what the check allocated.
	steps []step
	// rules are the rules of an output, an input and a strict input
	// schema, made once per checker (partRules).
	rules [3][]Rule
}

// partRules are the rules of an input schema (strict or not) or an output
// schema: the table's rules of every schema and those of the part.
func (c *checker) partRules(input, strict bool) []Rule {
	i := 0
	if input {
		i = 1
		if strict {
			i = 2
		}
	}
	if c.rules[i] == nil {
		rules := slices.Clone(c.t.Schema)
		if i == 2 { // strict mode constrains the arguments the model writes
			rules = append(rules, c.t.Strict...)
		}
		if input {
			rules = append(rules, c.t.Input...)
		} else {
			rules = append(rules, c.t.Output...)
		}
		c.rules[i] = slices.Clip(rules)
	}
	return c.rules[i]
}

// newStep returns s, kept in the checker's steps.
func (c *checker) newStep(s step) *step {
	if len(c.steps) == cap(c.steps) {
		c.steps = make([]step, 0, max(64, 2*cap(c.steps))) // the full one stays with the steps in it
	}
	c.steps = append(c.steps, s)
	return &c.steps[len(c.steps)-1]
}

func (c *checker) name() string {
	if c.tool != nil {
		return c.tool.ID()
	}
	n, _ := c.entry.Resolve(c.t.Shape.Name).StringValue()
	return n
}

func pointerText(p canonical.Pointer) string {
	if p == "" {
		return "the root"
	}
	return string(p)
}

func (c *checker) request(r Rule, n int, what string, cs []count) {
	d := diag.New(r.Code(), "the %s bundle has %d %s; %s takes at most %d in one request%s (%s)",
		c.target, n, what, c.t.Provider, r.Max, biggest(cs), r.Evidence)
	d.Target = c.target
	c.out = append(c.out, d)
}

func (c *checker) toolRule(r Rule) {
	c.field = ""
	switch r.Kind {
	case Name:
		n, _ := c.entry.Resolve(c.t.Shape.Name).StringValue()
		if !namematch.Compile(r.Values[0]).MatchString(n) {
			c.report(r, "/name", "", canonical.Pos{}, "the name %q", n)
		}
	case InputPresent:
		if s := c.entry.Resolve(c.t.Shape.Input); s == nil || s.Kind == canonical.Null {
			c.report(r, "/input", "", canonical.Pos{}, "the tool has no input schema")
		}
	case Description:
		d, _ := c.entry.Resolve(c.t.Shape.Description).StringValue()
		if n := len([]rune(d)); n > r.Max {
			c.report(r, "/description", "", canonical.Pos{}, "the description has %d characters", n)
		}
	}
}

// accepted reports whether the manifest declared keyword k accepted.
func (c *checker) accepted(k string) bool { return slices.Contains(c.opts.Accepted, k) }

// schema checks one emitted schema.
func (c *checker) schema(root *canonical.Value, rules []Rule, input bool) {
	var found []ref // collected on the walk, for the reference rules
	c.steps = c.steps[:0]
	// The rules that look at each node, with their checks: looked up once
	// per schema, not per node and rule.
	c.nodeRules = c.nodeRules[:0]
	for _, r := range rules {
		if check := nodeChecks[r.Kind]; check != nil || r.Kind == Typed || r.Kind == NoBoolSchemas {
			c.nodeRules = append(c.nodeRules, nodeRule{r, check})
		}
	}
	var visit func(v *canonical.Value, at *step, key string, pos canonical.Pos)
	visit = func(v *canonical.Value, at *step, key string, pos canonical.Pos) {
		if v.Pos.IsValid() {
			pos = v.Pos
		}
		for _, nr := range c.nodeRules {
			c.node(nr, v, at, key, pos)
		}
		if v.Kind != canonical.Object {
			return
		}
		if r, ok := v.Get("$ref").StringValue(); ok {
			found = append(found, ref{at: at.pointer(), value: r, pos: pos})
		}
		var in *step // the keyword's step, shared by its subschemas
		canonical.AsSchema(v).EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
			if in == nil || in.tok != st.Keyword {
				in = c.newStep(step{parent: at, tok: st.Keyword})
			}
			here := in
			switch {
			case st.Named:
				here = c.newStep(step{parent: in, tok: st.Name})
			case st.Index >= 0:
				here = c.newStep(step{parent: in, index: st.Index + 1})
			}
			visit(sub.JSON(), here, st.Keyword, pos)
			return true
		})
	}
	visit(root, nil, "", root.Pos)
	if len(found) > 0 {
		// Resolved as validation and lowering resolve them: against the
		// base URI in force, through $id, $anchor and JSON Pointers.
		x := refs.IndexOf(root)
		for i := range found {
			res := x.Resolve(found[i].at, found[i].value)
			found[i].target, found[i].ok = res.Target, res.Local
		}
	}
	for _, r := range rules {
		switch r.Kind {
		case RootObject:
			if input && !slices.Contains(r.Values, typeString(root)) {
				c.report(r, c.field, "", root.Pos, "the root schema's type is %s", typeText(root))
			}
		case OutputObject, OutputUnion:
			union := root.Has("anyOf") || root.Has("oneOf")
			if !input && typeString(root) != "object" && (r.Kind == OutputObject || union) {
				c.report(r, c.field, "", root.Pos, "the output schema's root has type %s", typeText(root))
			}
		case RootKeywords:
			for _, k := range r.Values {
				if i := root.Index(k); input && i >= 0 {
					c.report(r, c.field, canonical.Pointer("").Append(k), root.Members()[i].KeyPos, "the root schema has %s", k)
				}
			}
		case RefsResolve, Acyclic:
			c.refs(root, found, r)
		case MCPHeaders:
			if input {
				c.mcpHeaders(root, r)
			}
		case MetaSchema:
			if input {
				c.metaSchema(root, r)
			}
		case NoDialect2020:
			if v, ok := root.Get("$schema").StringValue(); input && ok && strings.TrimSuffix(v, "#") == "https://json-schema.org/draft/2020-12/schema" {
				c.report(r, c.field, "/$schema", root.Pos, "the input schema declares $schema %q", v)
			}
		}
	}
}

// ref is one $ref of a schema: where it is and where it points.
type ref struct {
	at, target canonical.Pointer
	value      string
	pos        canonical.Pos
	ok         bool
}

// resolve resolves a local reference by JSON Pointer, for the counts of
// Anthropic's strict budgets, which follow references through schemas
// that strict lowering has written with pointers only (it drops $id and
// $anchor). The rules about references ask refs.Index.
func resolve(root *canonical.Value, r string) (canonical.Pointer, bool) {
	p, ok := canonical.RefPointer(r)
	if !ok {
		return "", false
	}
	v := root.Resolve(p)
	return p, v != nil && (v.Kind == canonical.Object || v.Kind == canonical.Bool)
}

// MetaSchemas, among a RefsResolve rule's values, lets a $ref name the
// meta-schema of a JSON Schema dialect: validators ship them
// (JSON-Schema-Test-Suite draft7 0067, 2020-12 0064).
const MetaSchemas = "meta-schemas"

var metaSchemas = map[string]bool{
	"http://json-schema.org/draft-04/schema":       true,
	"http://json-schema.org/draft-06/schema":       true,
	"http://json-schema.org/draft-07/schema":       true,
	"https://json-schema.org/draft/2019-09/schema": true,
	"https://json-schema.org/draft/2020-12/schema": true,
}

func within(p, q canonical.Pointer) bool {
	return p == q || strings.HasPrefix(string(p), string(q)+"/")
}

// refs checks the references of one schema: that they resolve, and, for
// Acyclic, that none leads back into itself.
func (c *checker) refs(root *canonical.Value, rs []ref, r Rule) {
	if r.Kind == RefsResolve {
		for _, x := range rs {
			if !x.ok && !(slices.Contains(r.Values, MetaSchemas) && metaSchemas[strings.TrimSuffix(x.value, "#")]) {
				c.report(r, c.field, x.at, x.pos, "$ref %q points to nothing in the emitted schema", x.value)
			}
		}
		return
	}
	// A reference recurses when following references from its target
	// comes back to it.
	state := make([]int, len(rs)) // 0 unseen, 1 on the path, 2 done
	var cyclic []int
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		for j, y := range rs {
			if !y.ok || !within(y.at, rs[i].target) {
				continue
			}
			if state[j] == 1 || state[j] == 0 && visit(j) {
				state[i] = 2
				if !slices.Contains(cyclic, j) {
					cyclic = append(cyclic, j)
				}
				return true
			}
		}
		state[i] = 2
		return false
	}
	for i, x := range rs {
		if x.ok && state[i] == 0 {
			visit(i)
		}
	}
	slices.Sort(cyclic)
	for _, i := range cyclic {
		c.report(r, c.field, rs[i].at, rs[i].pos, "$ref to %s is recursive", pointerText(rs[i].target))
	}
}

// parameters counts, in an input schema with its local $refs expanded, the
// optional properties (not in required) and the union-typed ones (anyOf,
// oneOf or a type array of two or more types), as Anthropic counts them.
func parameters(root *canonical.Value) (optional, unions int) {
	var walk func(v *canonical.Value, stack []canonical.Pointer)
	walk = func(v *canonical.Value, stack []canonical.Pointer) {
		if v.Kind != canonical.Object || len(stack) > 32 {
			return
		}
		if r, ok := v.Get("$ref").StringValue(); ok {
			if t, ok := resolve(root, r); ok && !slices.Contains(stack, t) {
				walk(root.Resolve(t), append(stack[:len(stack):len(stack)], t))
			}
		}
		if props := v.Get("properties"); props != nil && props.Kind == canonical.Object {
			req, _ := v.Get("required").Strings()
			for _, m := range props.Members() {
				if !slices.Contains(req, m.Key) {
					optional++
				}
				if union(m.Value, root) {
					unions++
				}
			}
		}
		for rel, sub := range canonical.AsSchema(v).Subschemas() {
			if k := lastKeyword(rel); k == "$defs" || k == "definitions" {
				continue
			}
			walk(sub.JSON(), stack)
		}
	}
	walk(root, nil)
	return optional, unions
}

func union(v, root *canonical.Value) bool {
	if v.Kind != canonical.Object {
		return false
	}
	if r, ok := v.Get("$ref").StringValue(); ok && len(v.Members()) == 1 {
		if t, ok := resolve(root, r); ok {
			if d := root.Resolve(t); d != nil && d != v {
				return d.Kind == canonical.Object && (d.Has("anyOf") || d.Has("oneOf") || len(types(d)) > 1)
			}
		}
	}
	return v.Has("anyOf") || v.Has("oneOf") || len(types(v)) > 1
}

// ecmaOnly matches the escapes that only ECMA-262 regular expressions
// read: \0, \cX, \u{…} and the named backreference \k<…>.
var ecmaOnly = regexp.MustCompile(`\\(?:0|c[A-Za-z]|u\{[0-9A-Fa-f]+\}|k<)`)

// topLevelRef reports whether ref is "#", "#/$defs/X" or "#/definitions/X".
func topLevelRef(ref string) bool {
	p, ok := canonical.RefPointer(ref)
	if !ok {
		return false
	}
	toks, err := p.Tokens()
	return err == nil && (len(toks) == 0 || len(toks) == 2 && (toks[0] == "$defs" || toks[0] == "definitions"))
}

// report records a violation of r by the current tool, at field of the
// canonical tool; node, when not nil, is the offending node and at its
// pointer in the emitted schema.
func (c *checker) report(r Rule, field canonical.Pointer, at canonical.Pointer, pos canonical.Pos, format string, args ...any) {
	where := ""
	if c.field != "" && field == c.field {
		where = fmt.Sprintf(" at %s of the emitted %s schema", pointerText(at), strings.TrimPrefix(string(c.field), "/"))
	}
	verb := "would refuse" // what an error says; a warning's refusal is reported, not certain
	if code, _ := diag.Lookup(r.Code()); code.Severity == diag.Warning {
		verb = "may refuse"
	}
	d := diag.New(r.Code(), "%s %s the bundle%s: %s (%s; %s)",
		c.t.Provider, verb, where, fmt.Sprintf(format, args...), r.Doc(), r.Evidence).About(c.name())
	d.Target = c.target
	if c.tool != nil {
		d = d.At(c.tool.Source.Place(field))
		if pos.IsValid() {
			d.Line, d.Column = int(pos.Line), int(pos.Column)
		}
	}
	c.out = append(c.out, d)
}
