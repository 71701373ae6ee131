// Package lower rewrites a JSON Schema into what one target accepts: it
// inlines references, turns oneOf into anyOf and const into enum, merges
// allOf where that is sound, gives every schema the shape the target
// demands (a type, items, properties, $ref and anyOf without refused
// siblings, required naming only defined properties), spells nullable types
// the OpenAPI way, renames property keys the target refuses, applies the
// strict-mode transform, and last drops what the target cannot carry.
// Whether the result is what the provider accepts is checked apart, by
// package accept, from tables of its own.
//
// What a target accepts is data, a Rules value: one Row per schema feature
// (a keyword or a family of keywords) saying what the target does with it,
// and one Limit per size budget. The passes read the rows, so what is
// changed and what is reported cannot drift apart. Every change is a Change
// with a diagnostic code, the JSON Pointer where it happened in the lowered
// schema and the pointer of the node it came from in the original schema.
//
// Lowering never modifies its input, is deterministic, never adds a
// constraint that the input did not have but for what a target demands
// (closed objects in strict mode, a type on an untyped schema, a root anyOf
// merged), each reported, and is idempotent: lowering its
// own output again with the same rules changes nothing. The package does no
// I/O and knows no target by name; the per-target tables live in package
// profile.
package lower

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolc-dev/toolc/canonical"
)

// Action is what a target does with a schema feature.
type Action string

// The actions. Which ones a feature takes is in its Feature row.
const (
	Keep     Action = "keep"     // carried as written
	Drop     Action = "drop"     // removed, reported as loss.<feature>
	Inline   Action = "inline"   // $ref: every local reference inlined
	Acyclic  Action = "acyclic"  // $ref: kept, but a recursive one is cut
	AnyOf    Action = "any-of"   // oneOf written as anyOf
	Enum     Action = "enum"     // const written as a one-value enum
	Merge    Action = "merge"    // allOf merged into its schema where sound, dropped where not
	Nullable Action = "nullable" // type arrays and null branches written as "nullable": true
	Tuple    Action = "tuple"    // prefixItems written as items: {anyOf}
	Only     Action = "only"     // kept when its value is one of Row.Values
	Simple   Action = "simple"   // pattern: kept unless it uses lookaround
	Close    Action = "close"    // additionalProperties: false on every object (strict)
	Require  Action = "require"  // optional properties made required and nullable (strict)
	Upper    Action = "upper"    // type names in upper case (OpenAPI as Gemini spells it)
	Add      Action = "add"      // items / properties added where missing
	Type     Action = "type"     // untyped schemas given a type
	Wrap     Action = "wrap"     // $ref with siblings written as anyOf: [{"$ref": …}] with the siblings beside
	Alone    Action = "alone"    // anyOf the only keyword of its schema: the others moved into its branches
	Prune    Action = "prune"    // required names that properties lacks dropped
	Modern   Action = "2020-12"  // draft-07 and 2019-09 forms written as 2020-12
	Portable Action = "portable" // pattern: ECMA-262-only escapes written portably, the pattern dropped where they cannot be
	Hoist    Action = "hoist"    // $ref targets that are not top-level definitions copied into $defs
	Object   Action = "object"   // boolean subschemas written as the object schemas that say the same
	Python   Action = "python"   // pattern-flavor: patterns written as Python's re reads them, dropped where it cannot
	Grammar  Action = "grammar"  // pattern: portable, anchored ^…$ and without \d \w \s, as llama.cpp's grammar takes it
)

// Feature is one row of the table of schema features that targets differ on.
type Feature struct {
	// Name is the row's key in profiles and in a manifest's profile
	// override: the keyword itself where the feature is one keyword.
	Name string
	// Keywords are the schema keywords of the feature.
	Keywords []string
	// Loss is the code reported when the feature is dropped.
	Loss string
	// Actions are what a target may do with the feature; Keep is always one.
	Actions []Action
	// Doc says what the feature is, for listings.
	Doc string
}

// describable features are plain constraints whose value reads well in a
// description; the describe option moves only those.
var describable = map[string]bool{
	"const": true, "enum": true, "pattern": true, "format": true, "default": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true,
}

// featureTable is the table of schema features, in the order they are listed.
// A keyword in no row and not structural belongs to the "other" row.
var featureTable = []Feature{
	{"$ref", []string{"$ref", "$dynamicRef", "$recursiveRef"}, "loss.ref", []Action{Keep, Inline, Acyclic}, "local references and the $defs/definitions they point into; where they are inlined, the dynamic ones are dropped"},
	{"ref-external", nil, "loss.ref", []Action{Keep, Drop}, "a $ref to another document, such as a dialect's meta-schema; with drop, removed, so that any value is taken there"},
	{"ref-targets", nil, "", []Action{Keep, Hoist}, "where a $ref points; with hoist, every target that is not the root or a top-level definition copied into $defs, and every reference written from the document root"},
	{"anyOf", []string{"anyOf"}, "loss.any-of", []Action{Keep, Drop, Alone}, "anyOf; with alone, the only keyword of its schema (the others moved into its branches)"},
	{"any-of-type", nil, "", []Action{Keep, Alone}, "type beside anyOf; with alone, moved into its branches, which say the same"},
	{"branch-types", nil, "", []Action{Keep, Type}, "branches of anyOf and oneOf without type; with type, given their parent's type, the one their enum, const, keywords or $ref target imply, or every JSON type, which say the same"},
	{"oneOf", []string{"oneOf"}, "loss.one-of", []Action{Keep, Drop, AnyOf}, "oneOf"},
	{"allOf", []string{"allOf"}, "loss.all-of", []Action{Keep, Drop, Merge}, "allOf"},
	{"not", []string{"not"}, "loss.not", []Action{Keep, Drop}, "not"},
	{"conditional", []string{"if", "then", "else"}, "loss.conditional", []Action{Keep, Drop}, "if, then, else"},
	{"dependent", []string{"dependentRequired", "dependentSchemas", "dependencies"}, "loss.dependent", []Action{Keep, Drop}, "dependentRequired, dependentSchemas and draft-07 dependencies"},
	{"type-array", nil, "loss.type-union", []Action{Keep, Nullable}, `"type" written as an array, such as ["string", "null"]`},
	{"type", nil, "", []Action{Keep, Upper}, `the spelling of "type" names`},
	{"property-type", nil, "", []Action{Keep, Type}, "properties without one type string (none, a type array, a union); with type, given one: [T, \"null\"] and a union with null as T with nullable: true, a union of several types as its first branch, an untyped schema the type its keywords say, else string"},
	{"untyped", nil, "loss.untyped", []Action{Keep, Type}, "schemas without a type; with type, typed from their enum, const or keywords, else widened to anyOf of the JSON scalar types"},
	{"items-missing", nil, "", []Action{Keep, Add}, "array schemas without items; with add, items: {} added"},
	{"properties-missing", nil, "", []Action{Keep, Add}, "object schemas without properties; with add, properties: {} added"},
	{"root-properties", nil, "", []Action{Keep, Add}, "the input schema of a tool without parameters (an object schema with no properties, no other keyword that would describe some, and nothing but annotations); with add, properties: {} added, which says the same"},
	{"ref-siblings", nil, "", []Action{Keep, Wrap, Only}, "keywords beside $ref; with wrap, the $ref moved into anyOf: [{\"$ref\": …}]; with only, the siblings kept beside it (others wrapped)"},
	{"dialect-default", nil, "", []Action{Keep, Drop}, "a root $schema that names 2020-12, the dialect MCP reads a schema in without one; with drop, removed, which says the same"},
	{"legacy-forms", nil, "", []Action{Keep, Modern}, "the forms of draft-07 and 2019-09 that 2020-12 spells otherwise (items as an array, additionalItems, dependencies) and an older $schema; with 2020-12, written as 2020-12 says the same"},
	{"root-any-of", nil, "loss.any-of", []Action{Keep, Merge}, "anyOf (or oneOf) at the root of an input schema; with merge, its object branches merged into the root: every branch's properties, required only where all agree; branches that are not all object schemas are dropped"},
	{"root-all-of", nil, "loss.all-of", []Action{Keep, Merge}, "allOf at the root of an input schema; with merge, its members merged into the root where that accepts the same values, the others dropped"},
	{"root-ref", nil, "", []Action{Keep, Inline}, "a $ref at the root of an input schema; with inline, its target merged into the root with the keywords beside it, which says the same"},
	{"root-enum", nil, "loss.enum", []Action{Keep, Drop}, "enum at the root of an input schema"},
	{"root-not", nil, "loss.not", []Action{Keep, Drop}, "not at the root of an input schema"},
	{"required-undefined", nil, "loss.required", []Action{Keep, Prune}, "names in required that properties does not define; with prune, dropped"},
	{"unused-defs", nil, "", []Action{Keep, Prune}, "entries of the root's $defs and definitions that nothing refers to; with prune, removed: they constrain nothing and are sent in every request"},
	{"const", []string{"const"}, "loss.const", []Action{Keep, Drop, Enum}, "const"},
	{"enum", []string{"enum"}, "loss.enum", []Action{Keep, Drop, Only}, "enum; with only, the JSON types its values may have"},
	{"pattern", []string{"pattern"}, "loss.pattern", []Action{Keep, Drop, Simple, Portable, Grammar}, "pattern; with simple, kept unless it uses lookaround; with portable, ECMA-262-only escapes (\\0, \\cX, \\u{…}) written as every engine reads them, and a pattern with a named backreference dropped; with grammar, portable and besides \\d, \\w and \\s written as classes, and a pattern not anchored ^…$ dropped"},
	{"pattern-flavor", nil, "loss.pattern", []Action{Keep, Python}, "the regular-expression engine a target compiles patterns with; with python, named groups written (?P<name>…) and backreferences (?P=name), and a pattern with \\p{…} or a possessive quantifier dropped"},
	{"enum-null", nil, "loss.enum", []Action{Keep, Drop}, "null among the values of enum; with drop, taken out of the enum (the type keeps null)"},
	{"bool-schemas", nil, "", []Action{Keep, Object}, "the boolean schemas true and false as subschemas (additionalProperties and unevaluated* aside); with object, written as {} and {\"type\": \"string\", \"enum\": []}, which say the same"},
	{"never", nil, "", []Action{Keep, Prune}, "schemas that accept no value: false (additionalProperties and unevaluated* aside) and {\"not\": {}}; with prune, removed where the schema around them says the same without them (a branch of anyOf or oneOf, a property of a closed object, items as maxItems, propertyNames as maxProperties: 0), the others written as {\"type\": T, \"enum\": []}, which accepts none either"},
	{"required-alone", nil, "", []Action{Keep, Add}, "required in a schema without properties; with add, properties: {} added beside it"},
	{"format", []string{"format"}, "loss.format", []Action{Keep, Drop, Only}, "format; with only, the formats accepted"},
	{"minimum", []string{"minimum"}, "loss.minimum", []Action{Keep, Drop}, "minimum"},
	{"maximum", []string{"maximum"}, "loss.maximum", []Action{Keep, Drop}, "maximum"},
	{"exclusiveMinimum", []string{"exclusiveMinimum"}, "loss.exclusive-minimum", []Action{Keep, Drop}, "exclusiveMinimum"},
	{"exclusiveMaximum", []string{"exclusiveMaximum"}, "loss.exclusive-maximum", []Action{Keep, Drop}, "exclusiveMaximum"},
	{"multipleOf", []string{"multipleOf"}, "loss.multiple-of", []Action{Keep, Drop}, "multipleOf"},
	{"minLength", []string{"minLength"}, "loss.min-length", []Action{Keep, Drop}, "minLength"},
	{"maxLength", []string{"maxLength"}, "loss.max-length", []Action{Keep, Drop}, "maxLength"},
	{"minItems", []string{"minItems"}, "loss.min-items", []Action{Keep, Drop, Only}, "minItems; with only, the values accepted"},
	{"maxItems", []string{"maxItems"}, "loss.max-items", []Action{Keep, Drop}, "maxItems"},
	{"uniqueItems", []string{"uniqueItems"}, "loss.unique-items", []Action{Keep, Drop}, "uniqueItems"},
	{"contains", []string{"contains", "minContains", "maxContains"}, "loss.contains", []Action{Keep, Drop}, "contains, minContains, maxContains"},
	{"prefixItems", []string{"prefixItems", "additionalItems"}, "loss.prefix-items", []Action{Keep, Drop, Tuple}, "tuples: prefixItems, and items as an array (draft-07) with additionalItems"},
	{"patternProperties", []string{"patternProperties"}, "loss.pattern-properties", []Action{Keep, Drop}, "patternProperties"},
	{"propertyNames", []string{"propertyNames"}, "loss.property-names", []Action{Keep, Drop}, "propertyNames"},
	{"minProperties", []string{"minProperties"}, "loss.min-properties", []Action{Keep, Drop}, "minProperties"},
	{"maxProperties", []string{"maxProperties"}, "loss.max-properties", []Action{Keep, Drop}, "maxProperties"},
	{"unevaluated", []string{"unevaluatedItems", "unevaluatedProperties"}, "loss.unevaluated", []Action{Keep, Drop}, "unevaluatedItems, unevaluatedProperties"},
	{"additionalProperties", []string{"additionalProperties"}, "loss.additional-properties", []Action{Keep, Drop, Close}, "additionalProperties; with close, false on every object"},
	{"optional", nil, "", []Action{Keep, Require}, "optional properties; with require, every property required and the optional ones nullable"},
	{"default", []string{"default"}, "loss.default", []Action{Keep, Drop}, "default"},
	{"examples", []string{"examples"}, "loss.examples", []Action{Keep, Drop}, "examples"},
	{"title", []string{"title"}, "loss.title", []Action{Keep, Drop}, "title"},
	{"core", []string{"$schema", "$id", "$anchor", "$dynamicAnchor", "$comment", "$vocabulary"}, "loss.core", []Action{Keep, Drop}, "$schema, $id, $anchor, $comment and the like"},
	{"mcp-header", []string{"x-mcp-header"}, "loss.extension", []Action{Keep, Drop}, "x-mcp-header: the HTTP header MCP's Streamable HTTP transport mirrors a parameter into (2026-07-28); no provider API reads it"},
	{"other", nil, "loss.keyword", []Action{Keep, Drop}, "every keyword in no other row: x- extensions, readOnly, deprecated, contentMediaType …"},
}

// structural keywords are carried by every target; they are in no row.
var structural = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true, "description": true,
	"$defs": true, "definitions": true,
}

var featureOf = func() map[string]*Feature {
	m := map[string]*Feature{}
	for i := range featureTable {
		for _, k := range featureTable[i].Keywords {
			m[k] = &featureTable[i]
		}
	}
	return m
}()

// FeatureNamed returns the row of the feature name.
func FeatureNamed(name string) (*Feature, bool) {
	for i := range featureTable {
		if featureTable[i].Name == name {
			return &featureTable[i], true
		}
	}
	return nil, false
}

// keywordFeature returns the feature of keyword k, or nil for structural
// keywords.
func keywordFeature(k string) *Feature {
	if f := featureOf[k]; f != nil {
		return f
	}
	if structural[k] {
		return nil
	}
	return other
}

var other, _ = FeatureNamed("other")

// Row says what a target does with one feature.
type Row struct {
	Feature string
	Action  Action
	// Values are what Only accepts: formats for "format", JSON types of the
	// values for "enum", values for "minItems".
	Values []string
	// Source cites where the fact comes from.
	Source string
}

// Limit is one size budget of a target.
type Limit struct {
	Name   string // "depth", "properties" …: the key in a manifest's limits override
	Max    int
	Source string
}

// Rules is what one target, in one mode, accepts.
type Rules struct {
	Rows   []Row
	Limits []Limit
	// Keys is the rule for property keys; nil keeps every key.
	Keys *KeyRule

	// index is the rows by feature and the plan of passes, made on first
	// use: every schema of a build asks the same rules dozens of times.
	// Set clears it; rows appended since it was made are seen by their
	// count.
	index atomic.Pointer[rulesIndex]
}

type rulesIndex struct {
	rows     int
	at       map[string]int
	planOnce sync.Once
	plan     []*Pass
	// tests are the Node tests of the plan's passes, made with it.
	tests []func(n *canonical.Value) bool
}

// indexed returns r's index, made anew where the rows changed.
func (r *Rules) indexed() *rulesIndex {
	if ix := r.index.Load(); ix != nil && ix.rows == len(r.Rows) {
		return ix
	}
	ix := &rulesIndex{rows: len(r.Rows), at: make(map[string]int, len(r.Rows))}
	for i, row := range r.Rows {
		if _, ok := ix.at[row.Feature]; !ok {
			ix.at[row.Feature] = i
		}
	}
	r.index.Store(ix)
	return ix
}

// KeyRule is a target's rule for property keys: which characters, which
// may come first, and how many. Keys outside it are renamed.
type KeyRule struct {
	Chars  string // a regular-expression character class body: "a-zA-Z0-9_.-"
	First  string // the class of the first character; "" for Chars
	Max    int
	Source string
}

// Row returns the row of feature; a feature without a row is kept.
func (r *Rules) Row(feature string) Row {
	if i, ok := r.indexed().at[feature]; ok {
		return r.Rows[i]
	}
	return Row{Feature: feature, Action: Keep}
}

// Action returns what the target does with feature.
func (r *Rules) Action(feature string) Action { return r.Row(feature).Action }

// Limit returns the budget named name and whether the target has it.
func (r *Rules) Limit(name string) (int, bool) {
	for _, l := range r.Limits {
		if l.Name == name {
			return l.Max, true
		}
	}
	return 0, false
}

// Clone returns a copy of r that shares no slices with it.
func (r *Rules) Clone() *Rules {
	c := &Rules{Rows: slices.Clone(r.Rows), Limits: slices.Clone(r.Limits), Keys: r.Keys}
	for i := range c.Rows {
		c.Rows[i].Values = slices.Clone(c.Rows[i].Values)
	}
	return c
}

// Set replaces the row of feature, as a manifest override does: action is
// one of the feature's actions, and values (for Only) what it accepts.
func (r *Rules) Set(feature string, action Action, values []string, source string) error {
	defer r.index.Store(nil)
	f, ok := FeatureNamed(feature)
	if !ok {
		return fmt.Errorf("unknown schema feature %q (one of %s)", feature, featureNames())
	}
	if !slices.Contains(f.Actions, action) {
		return fmt.Errorf("feature %q cannot be %q (one of %s)", feature, action, joinActions(f.Actions))
	}
	if (action == Only) != (len(values) > 0) {
		if action == Only {
			return fmt.Errorf("feature %q: only needs the list of accepted values", feature)
		}
		return fmt.Errorf("feature %q: a list of values goes with only", feature)
	}
	row := Row{Feature: feature, Action: action, Values: values, Source: source}
	for i := range r.Rows {
		if r.Rows[i].Feature == feature {
			r.Rows[i] = row
			return nil
		}
	}
	r.Rows = append(r.Rows, row)
	return nil
}

// SetLimit replaces the budget name.
func (r *Rules) SetLimit(name string, max int, source string) error {
	if !slices.ContainsFunc(limitChecks, func(c LimitCheck) bool { return c.Name == name }) {
		var names []string
		for _, c := range limitChecks {
			names = append(names, c.Name)
		}
		return fmt.Errorf("unknown limit %q (one of %s)", name, strings.Join(names, ", "))
	}
	if max < 0 {
		return fmt.Errorf("limit %q: %d is negative", name, max)
	}
	for i := range r.Limits {
		if r.Limits[i].Name == name {
			r.Limits[i] = Limit{name, max, source}
			return nil
		}
	}
	r.Limits = append(r.Limits, Limit{name, max, source})
	return nil
}

func featureNames() string {
	var names []string
	for _, f := range featureTable {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func joinActions(as []Action) string {
	var s []string
	for _, a := range as {
		s = append(s, string(a))
	}
	return strings.Join(s, ", ")
}

// Options change how a schema is lowered, besides its rules.
type Options struct {
	// Describe moves each dropped constraint into the description of its
	// schema ("minLength: 3") instead of only dropping it.
	Describe bool
	// Input says the schema is a tool's input schema, whose root a tool
	// without parameters may be (root-properties).
	Input bool
}

// Change is one change that lowering made to a schema.
type Change struct {
	Code    string            // a diag code: lower.*, loss.*, limit.*
	Pointer canonical.Pointer // where, in the lowered schema
	Origin  canonical.Pointer // where the changed node came from, in the original schema
	Message string
}

// Result is a lowered schema and what was done to it.
type Result struct {
	Schema  *canonical.Schema
	Changes []Change
	// Optional lists, for the strict transform, the properties that were
	// optional and are now required and nullable, as pointers into the
	// lowered schema ("/properties/limit"): a null value there means the
	// caller left the argument out.
	Optional []canonical.Pointer
	// Renamed maps the pointer, in the lowered schema, of each property
	// whose key the target's key rule renamed to the key it had
	// ("/properties/filter_bundleId_" → "filter[bundleId]").
	Renamed map[canonical.Pointer]string
}

// narrowingCodes lists the codes of changes that make a schema accept less
// than it did: what strict mode cannot say without narrowing a tool.
var narrowingCodes = []string{"loss.additional-properties", "loss.untyped", "loss.ref"}

// Narrowed returns the first change of r that narrows the schema, if any.
func (r *Result) Narrowed() (Change, bool) {
	if r == nil {
		return Change{}, false
	}
	for _, c := range r.Changes {
		if slices.Contains(narrowingCodes, c.Code) {
			return c, true
		}
	}
	return Change{}, false
}

// Applies reports whether lowering s with rules can change or report
// anything. When it cannot, Schema would return a copy of s with no
// changes, and a caller may use s as it is: most schemas of most targets
// need nothing, and this spares copying them.
func Applies(s *canonical.Schema, rules *Rules) bool {
	for _, p := range plan(rules) {
		if p.Node == nil && (p.Check == nil || p.Check(rules, s.JSON())) {
			return true
		}
	}
	if tests := rules.indexed().tests; len(tests) > 0 && someNode(s.JSON(), func(n *canonical.Value) bool {
		return slices.ContainsFunc(tests, func(test func(*canonical.Value) bool) bool { return test(n) })
	}) {
		return true
	}
	var m *measured // listed once, and only when a limit needs it
	defer func() {
		if m != nil {
			m.release()
		}
	}()
	var all []located
	for _, l := range rules.Limits {
		if c, ok := LimitNamed(l.Name); ok && c.measure != nil {
			if m == nil {
				m = measuredPool.Get().(*measured)
				all = m.schemas(s.JSON())
			}
			if n, _ := c.measure(all); n > l.Max {
				return true
			}
		}
	}
	return false
}

// Schema lowers s for rules. s is not modified.
func Schema(s *canonical.Schema, rules *Rules, opts Options) *Result {
	u := newUnit(s, rules, opts)
	for _, p := range plan(rules) {
		p.Run(u)
	}
	checkLimits(u)
	u.recordRenamed()
	u.root = u.share(u.root, map[*canonical.Value]bool{})
	return &Result{Schema: canonical.AsSchema(u.root), Changes: u.changes, Optional: u.optional, Renamed: u.renamed}
}

// share gives back to the lowered tree the input's nodes that lowering did
// not change: where a copied node and all below it are as their input
// nodes were, the input node takes its place, so that a bundle holds only
// what its target changed and the copies are garbage as soon as a schema
// is lowered (on 20,000 real tools, most of three targets' copies). Each
// input node is given back once, so the result stays a tree. The input is
// never modified, so a shared node is as safe as a schema that needed no
// lowering.
func (u *Unit) share(c *canonical.Value, given map[*canonical.Value]bool) *canonical.Value {
	items, members := c.Items(), c.Members()
	for i, it := range items {
		items[i] = u.share(it, given)
	}
	for i, m := range members {
		members[i].Value = u.share(m.Value, given)
	}
	o := u.origins[c]
	if o == nil || given[o] || o.Kind != c.Kind || o.Bool != c.Bool || o.Text() != c.Text() || o.Pos != c.Pos {
		return c
	}
	oItems, oMembers := o.Items(), o.Members()
	if len(oItems) != len(items) || len(oMembers) != len(members) || (oItems == nil) != (items == nil) || (oMembers == nil) != (members == nil) {
		return c
	}
	for i, it := range items {
		if oItems[i] != it {
			return c
		}
	}
	for i, m := range members {
		if om := oMembers[i]; om.Key != m.Key || om.KeyPos != m.KeyPos || om.Value != m.Value {
			return c
		}
	}
	given[o] = true
	return o
}

// Unit is the state of lowering one schema, given to each pass.
type Unit struct {
	Rules   *Rules
	Options Options

	orig    *canonical.Value                      // the input, never modified
	root    *canonical.Value                      // the copy being lowered
	origins map[*canonical.Value]*canonical.Value // copied node → the input's node
	// origPtr is every input node's pointer, built once a unit has located
	// a few changes: building a pointer for each copied node up front was
	// much of lowering's memory, and most schemas have few changes.
	origPtr  map[*canonical.Value]canonical.Pointer
	searches int
	changes  []Change
	optional []canonical.Pointer
	renamed  map[canonical.Pointer]string
	// renamedNodes are the property schemas whose keys the keys pass
	// renamed, with their old keys; recordRenamed locates them.
	renamedNodes map[*canonical.Value]string
}

func newUnit(s *canonical.Schema, rules *Rules, opts Options) *Unit {
	u := &Unit{Rules: rules, Options: opts, orig: s.JSON(), origins: make(map[*canonical.Value]*canonical.Value, s.JSON().Size())}
	u.root = u.copyFrom(s.JSON())
	return u
}

// copyLowered deep-copies v, a node of the schema being lowered, and each
// copied node came from where its model did.
func (u *Unit) copyLowered(v *canonical.Value) *canonical.Value {
	return u.copyTree(v, func(n *canonical.Value) *canonical.Value { return u.origins[n] })
}

// copyFrom deep-copies v, a node of the original schema, remembering where
// each copied node came from.
func (u *Unit) copyFrom(v *canonical.Value) *canonical.Value {
	return u.copyTree(v, func(n *canonical.Value) *canonical.Value { return n })
}

// copyTree deep-copies v, recording for each copy the input node that
// origin names for its model (none when it names none).
func (u *Unit) copyTree(v *canonical.Value, origin func(*canonical.Value) *canonical.Value) *canonical.Value {
	c := new(canonical.Value)
	*c = *v // its kind, text and position; its items or members below
	if o := origin(v); o != nil {
		u.origins[c] = o
	}
	if items := v.Items(); items != nil {
		copies := make([]*canonical.Value, len(items))
		for i, it := range items {
			copies[i] = u.copyTree(it, origin)
		}
		c.SetItems(copies)
	}
	if members := v.Members(); members != nil {
		copies := make([]canonical.Member, len(members))
		for i, m := range members {
			copies[i] = canonical.Member{Key: m.Key, Value: u.copyTree(m.Value, origin), KeyPos: m.KeyPos}
		}
		c.SetMembers(copies)
	}
	return c
}

// originOf returns the pointer of the input's node o. It searches for o
// without building a pointer on the way; a unit asked often indexes every
// node once.
func (u *Unit) originOf(o *canonical.Value) canonical.Pointer {
	if o == nil {
		return ""
	}
	if u.origPtr != nil {
		return u.origPtr[o]
	}
	if u.searches++; u.searches > 8 {
		u.origPtr = map[*canonical.Value]canonical.Pointer{}
		var walk func(v *canonical.Value, p canonical.Pointer)
		walk = func(v *canonical.Value, p canonical.Pointer) {
			u.origPtr[v] = p
			for i, it := range v.Items() {
				walk(it, p.Index(i))
			}
			for _, m := range v.Members() {
				walk(m.Value, p.Append(m.Key))
			}
		}
		walk(u.orig, "")
		return u.origPtr[o]
	}
	type step struct {
		key   string
		index int // -1 for a member
	}
	var path []step
	var find func(v *canonical.Value) bool
	find = func(v *canonical.Value) bool {
		if v == o {
			return true
		}
		for i, it := range v.Items() {
			if path = append(path, step{index: i}); find(it) {
				return true
			}
			path = path[:len(path)-1]
		}
		for _, m := range v.Members() {
			if path = append(path, step{key: m.Key, index: -1}); find(m.Value) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if !find(u.orig) {
		return ""
	}
	var p canonical.Pointer
	for _, st := range path {
		if st.index >= 0 {
			p = p.Index(st.index)
		} else {
			p = p.Append(st.key)
		}
	}
	return p
}

// Root returns the schema being lowered.
func (u *Unit) Root() *canonical.Value { return u.root }

// Origin returns the pointer in the original schema that node came from, or
// "" for a node that lowering made.
func (u *Unit) Origin(node *canonical.Value) canonical.Pointer { return u.originOf(u.origins[node]) }

// Report records a change at the lowered pointer at, made to node (its
// keyword keyword, or the node itself when keyword is "").
func (u *Unit) Report(code string, at canonical.Pointer, node *canonical.Value, keyword string, format string, args ...any) {
	origin := u.Origin(node)
	if keyword != "" {
		at, origin = at.Append(keyword), origin.Append(keyword)
	}
	u.changes = append(u.changes, Change{Code: code, Pointer: at, Origin: origin, Message: fmt.Sprintf(format, args...)})
}

// Pass is one named lowering step, in the manner of a go/analysis Analyzer.
type Pass struct {
	Name string
	Doc  string
	// Requires lists passes whose output this one expects when the target
	// needs them too; they run first.
	Requires []*Pass
	// When reports whether the target's rules need the pass.
	When func(*Rules) bool
	// Run rewrites u's schema, reporting each change through u.Report.
	Run func(u *Unit)
	// Check, when set, reports cheaply whether Run could change or report
	// anything in the schema root; without it (and without Node), Run is
	// assumed to.
	Check func(r *Rules, root *canonical.Value) bool
	// Node, when set in place of Check, is that check as a test of each
	// object schema under rules r: Applies tests every such pass in one
	// walk of the schema, where each Check walks it alone.
	Node func(r *Rules) func(n *canonical.Value) bool
}

func (p *Pass) String() string { return p.Name }

func needs(feature string, actions ...Action) func(*Rules) bool {
	return func(r *Rules) bool { return slices.Contains(actions, r.Action(feature)) }
}

// Features returns the table of schema features, in the order they are
// listed (a copy: the table is lowering's own).
func Features() []Feature { return slices.Clone(featureTable) }

// LimitChecks returns the checks of a target's limits, in order (a copy).
func LimitChecks() []LimitCheck { return slices.Clone(limitChecks) }
