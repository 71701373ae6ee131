package lower

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/namematch"
)

// The passes that give schemas the shapes a provider demands besides its
// keywords: a type on every node, items on every array, properties on every
// object, $ref without siblings, required naming only defined properties,
// property keys in the target's alphabet, and anyOf alone on its node.
var (
	shapeNodesPass = &Pass{
		Name: "shape",
		Doc:  "rewrites the root's combinators the target refuses there (allOf merged, lower.all-of-merged or loss.all-of; anyOf and oneOf merged or dropped, loss.any-of; enum and not dropped, loss.enum and loss.not); types untyped schemas from their enum, const or keywords (lower.type-inferred) or widens them to the JSON scalar types (loss.untyped); adds items to arrays (lower.items-added) and properties to objects (lower.properties-added); wraps $ref that has siblings in anyOf (lower.ref-wrapped); drops required names that properties lacks (loss.required)",
		When: func(r *Rules) bool {
			return r.Action("untyped") == Type || r.Action("items-missing") == Add || rootRules(r) || r.Action("properties-missing") == Add ||
				r.Action("ref-siblings") != Keep || r.Action("required-undefined") == Prune ||
				r.Action("enum-null") == Drop || r.Action("required-alone") == Add || r.Action("pattern") == Portable ||
				r.Action("pattern") == Grammar || r.Action("bool-schemas") == Object || r.Action("pattern-flavor") == Python ||
				r.Action("branch-types") == Type
		},
		Run:   runShape,
		Check: checkShape,
	}
	renameKeysPass = &Pass{
		Name:  "keys",
		Doc:   "renames property keys outside the target's key rule, every illegal character made '_' (name.property-renamed), recording the old key; a new key that is taken is name.property-collision",
		When:  func(r *Rules) bool { return r.Keys != nil },
		Run:   runKeys,
		Check: checkKeys,
	}
	anyOfAlonePass = &Pass{
		Name:     "alone",
		Doc:      "makes anyOf the only keyword of its schema, or moves only the type beside it, as the target's rows say: each keyword moved goes into the branches it applies to (lower.any-of-distributed)",
		Requires: []*Pass{dropUnsupportedPass},
		When: func(r *Rules) bool {
			return r.Action("anyOf") == Alone || r.Action("any-of-type") == Alone
		},
		Run: runAlone,
		Check: func(r *Rules, root *canonical.Value) bool {
			return r.Action("anyOf") == Alone || someNode(root, func(n *canonical.Value) bool { return n.Has("anyOf") && n.Has("type") })
		},
	}
)

// checkShape reports whether the shape pass could change root: a cheap
// walk for the targets that need only items, properties or $ref alone.
func checkShape(r *Rules, root *canonical.Value) bool {
	if rootWork(r, root) {
		return true
	}
	typed := r.Action("untyped") == Type
	items, props, prune := r.Action("items-missing") == Add, r.Action("properties-missing") == Add, r.Action("required-undefined") == Prune
	refs := r.Action("ref-siblings") != Keep
	enumNull, reqAlone, portable := r.Action("enum-null") == Drop, r.Action("required-alone") == Add, r.Action("pattern") == Portable
	boolObj, grammar := r.Action("bool-schemas") == Object, r.Action("pattern") == Grammar
	python, branches := r.Action("pattern-flavor") == Python, r.Action("branch-types") == Type
	found := false
	canonical.Visit(canonical.AsSchema(root), func(s *canonical.Schema) bool {
		if typed && s.IsBool() && s.JSON().Bool {
			found = true // true is written as a union of the scalar types
		}
		if found || !s.IsObject() {
			return false
		}
		n := s.JSON()
		switch {
		case typed && mayType(n),
			items && s.HasType("array") && !n.Has("items"),
			props && isObjectSchema(n) && !n.Has("properties"),
			refs && n.Has("$ref") && len(n.Members()) > 1,
			prune && n.Has("required"),
			enumNull && hasNull(n.Get("enum")),
			reqAlone && n.Has("required") && !n.Has("properties"),
			portable && unportable(n.Get("pattern")),
			boolObj && hasBoolSub(n),
			grammar && unGrammatical(n),
			python && unPythonic(n),
			branches && untypedBranch(n):
			found = true
		}
		return !found
	})
	return found
}

// checkKeys reports whether a property key of root breaks the key rule.
func checkKeys(r *Rules, root *canonical.Value) bool {
	found := false
	canonical.Visit(canonical.AsSchema(root), func(s *canonical.Schema) bool {
		if found || !s.IsObject() {
			return false
		}
		if p := s.Keyword("properties"); p != nil && p.Kind == canonical.Object {
			for _, m := range p.Members() {
				if !r.Keys.allows(m.Key) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// typeKeywords say which type a keyword implies on an untyped schema.
var typeKeywords = map[string]string{
	"properties": "object", "required": "object", "additionalProperties": "object", "patternProperties": "object",
	"minProperties": "object", "maxProperties": "object", "propertyNames": "object", "dependentRequired": "object",
	"items": "array", "prefixItems": "array", "minItems": "array", "maxItems": "array", "contains": "array", "uniqueItems": "array",
	"pattern": "string", "minLength": "string", "maxLength": "string",
	"minimum": "number", "maximum": "number", "exclusiveMinimum": "number", "exclusiveMaximum": "number", "multipleOf": "number",
}

// typing keywords make a schema typed without "type".
var typing = []string{"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"}

// scalars is what an untyped schema becomes where a type is needed.
func scalars() *canonical.Value {
	var bs []*canonical.Value
	for _, t := range []string{"string", "number", "boolean", "null"} {
		b := canonical.NewObject()
		b.Set("type", canonical.NewString(t))
		bs = append(bs, b)
	}
	return canonical.NewArray(bs...)
}

// valueTypes returns the JSON types of values, "integer" for integral
// numbers and "number" when integers and others mix.
func valueTypes(values []*canonical.Value) []string {
	var ts []string
	for _, v := range values {
		t := v.JSONType()
		switch {
		case t == "integer" && slices.Contains(ts, "number"):
			continue
		case t == "number" && slices.Contains(ts, "integer"):
			ts[slices.Index(ts, "integer")] = "number"
			continue
		}
		if !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// inferType returns the type a schema's other keywords imply, or nil.
func inferType(n *canonical.Value) []string {
	if e := n.Get("enum"); e != nil && e.Kind == canonical.Array && len(e.Items()) > 0 {
		return valueTypes(e.Items())
	}
	if c := n.Get("const"); c != nil {
		return valueTypes([]*canonical.Value{c})
	}
	var ts []string
	for _, m := range n.Members() {
		if t := typeKeywords[m.Key]; t != "" && !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	if len(ts) == 1 {
		return ts
	}
	return nil
}

// setType makes ts n's type, written first: one type as a string.
func setType(n *canonical.Value, ts []string) {
	v := canonical.NewString(ts[0])
	if len(ts) > 1 {
		v = canonical.NewStrings(ts)
	}
	n.Delete("type")
	n.SetMembers(slices.Insert(n.Members(), 0, canonical.Member{Key: "type", Value: v}))
}

// requiredOnly reports whether a branch says only which properties are
// required (annotations aside): a constraint on its parent's properties.
func requiredOnly(b *canonical.Value) bool {
	if b.Kind != canonical.Object || !b.Has("required") {
		return false
	}
	for _, m := range b.Members() {
		if m.Key != "required" && !annotation[m.Key] {
			return false
		}
	}
	return true
}

// held reports whether the subschemas under keyword k survive the target's
// rules, so that shaping them is not wasted.
func held(r *Rules, k string) bool {
	switch k {
	case "additionalProperties":
		a := r.Action("additionalProperties")
		return a != Drop && a != Close
	case "$defs", "definitions":
		return r.Action("$ref") != Inline
	}
	if f := keywordFeature(k); f != nil {
		return r.Action(f.Name) != Drop
	}
	return true
}

func runShape(u *Unit) {
	r := u.Rules
	typed := r.Action("untyped") == Type
	// The rules are asked once: each question is a search of the rows,
	// and the walk visits every node.
	addItems, enumNull, reqAlone := r.Action("items-missing") == Add, r.Action("enum-null") == Drop, r.Action("required-alone") == Add
	portable, addProps, prune := r.Action("pattern") == Portable, r.Action("properties-missing") == Add, r.Action("required-undefined") == Prune
	boolObj, grammar := r.Action("bool-schemas") == Object, r.Action("pattern") == Grammar
	python, branches := r.Action("pattern-flavor") == Python, r.Action("branch-types") == Type
	var res *resolver // made on the first $ref branch to type
	shapeRoot(u)
	// Shaping the root can make a union of it (an untyped root typed as
	// anyOf, a $ref beside siblings wrapped in anyOf): the root rules have
	// the last word.
	defer shapeRoot(u)
	var visit func(n *canonical.Value, at canonical.Pointer, inherit []string)
	visit = func(n *canonical.Value, at canonical.Pointer, inherit []string) {
		if n.Kind == canonical.Bool {
			if typed && n.Bool {
				n.Kind = canonical.Object
				n.SetMembers([]canonical.Member{{Key: "anyOf", Value: scalars()}})
				u.Report("loss.untyped", at, n, "", "the schema true (any value) written as anyOf of string, number, boolean and null: the target needs a type, so objects and arrays are no longer accepted here")
			}
			return
		}
		if n.Kind != canonical.Object {
			return
		}
		shapeRef(u, n, at)
		if branches {
			flattenAnyOf(u, n, at) // its branches are then typed one by one
		}
		if typed {
			shapeType(u, n, at, inherit)
		}
		ts := canonical.AsSchema(n).Types()
		if addItems && slices.Contains(ts, "array") && !n.Has("items") {
			// Beside prefixItems too: items: {} says what its absence says
			// (the elements after the tuple's may be anything), and a
			// client that wants items reads none there.
			n.Set("items", canonical.NewObject())
			u.Report("lower.items-added", at, n, "", "items: {} added to an array schema without items, as the target requires")
		}
		if enumNull && hasNull(n.Get("enum")) {
			dropEnumNull(u, n, at)
		}
		if reqAlone && n.Has("required") && !n.Has("properties") {
			n.Set("properties", canonical.NewObject())
			u.Report("lower.properties-added", at, n, "", "properties: {} added beside required, as the target refuses required without properties")
		}
		if portable && unportable(n.Get("pattern")) {
			portablePattern(u, n, at)
		}
		if grammar && n.Has("pattern") {
			grammarPattern(u, n, at)
		}
		if python && n.Has("pattern") {
			pythonPattern(u, n, at)
		}
		if isObjectSchema(n) {
			if addProps && !n.Has("properties") {
				n.Set("properties", canonical.NewObject())
				u.Report("lower.properties-added", at, n, "", "properties: {} added to an object schema without properties, as the target requires")
			}
			if prune {
				pruneRequired(u, n, at)
			}
		}
		for rel, sub := range canonical.AsSchema(n).Subschemas() {
			k := firstToken(rel)
			if !held(r, k) {
				continue
			}
			if boolObj && sub.IsBool() && !boolKept[k] {
				objectBool(u, sub.JSON(), at.Join(rel))
			}
			var in []string
			if k == "anyOf" || k == "oneOf" || k == "allOf" {
				in = canonical.AsSchema(n).Types()
			}
			if branches && (k == "anyOf" || k == "oneOf") {
				typeBranch(u, &res, sub.JSON(), at.Join(rel), in)
			}
			visit(sub.JSON(), at.Join(rel), in)
		}
	}
	visit(u.root, "", nil)
}

// shapeType gives an untyped schema a type: its parent's (for a branch of
// anyOf under a typed schema, which means the same), the one its keywords
// imply, or else the JSON scalar types.
func shapeType(u *Unit, n *canonical.Value, at canonical.Pointer, inherit []string) {
	if isObjectSchema(n) {
		for _, k := range []string{"anyOf", "oneOf"} {
			if b := n.Get(k); b != nil && b.Kind == canonical.Array && len(b.Items()) > 0 && !slices.ContainsFunc(b.Items(), func(x *canonical.Value) bool { return !requiredOnly(x) }) {
				n.Delete(k)
				u.Report("loss.any-of", at, n, k, "the %s of required lists dropped: each branch only says which properties are required together, and the target needs a type on every branch", k)
			}
		}
	}
	if slices.ContainsFunc(typing, n.Has) {
		// An enum or const says its type; anyOf, $ref and the rest type it.
		if !n.Has("type") && !n.Has("$ref") && (n.Has("enum") || n.Has("const")) {
			if ts := inferType(n); ts != nil {
				setType(n, ts)
				u.Report("lower.type-inferred", at, n, "", "type %s added, as the values of its enum or const say", canonical.NewStrings(ts).String())
			}
		}
		return
	}
	if inherit != nil {
		setType(n, inherit)
		u.Report("lower.type-inferred", at, n, "", "type %s added: the branch's parent has that type, so the branch means the same with it", canonical.NewStrings(inherit).String())
		return
	}
	if ts := inferType(n); ts != nil {
		setType(n, ts)
		u.Report("lower.type-inferred", at, n, "", "type %q added, as its keywords apply to that type only", ts[0])
		return
	}
	n.SetMembers(append(n.Members(), canonical.Member{Key: "anyOf", Value: scalars()}))
	u.Report("loss.untyped", at, n, "", "a schema without a type (any value) written as anyOf of string, number, boolean and null: the target needs a type, so objects and arrays are no longer accepted here")
}

// mayType reports whether shapeType could change the object schema n:
// when nothing types it, when an enum or a const alone does (a type may be
// added), and when an object schema has a union (of required lists, which
// goes). It errs towards yes.
func mayType(n *canonical.Value) bool {
	if !slices.ContainsFunc(typing, n.Has) {
		return true
	}
	if !n.Has("type") && !n.Has("$ref") && (n.Has("enum") || n.Has("const")) {
		return true
	}
	return isObjectSchema(n) && (n.Has("anyOf") || n.Has("oneOf"))
}

// rootRules reports whether rules rewrite anything at the root of a schema.
func rootRules(r *Rules) bool {
	return r.Action("root-any-of") == Merge || r.Action("root-all-of") == Merge || r.Action("root-enum") == Drop || r.Action("root-not") == Drop
}

// rootWork reports whether rules rewrite something at root.
func rootWork(r *Rules, root *canonical.Value) bool {
	if root.Kind != canonical.Object {
		return false
	}
	return r.Action("root-any-of") == Merge && (root.Has("anyOf") || root.Has("oneOf")) ||
		r.Action("root-all-of") == Merge && root.Has("allOf") ||
		r.Action("root-enum") == Drop && root.Has("enum") ||
		r.Action("root-not") == Drop && root.Has("not")
}

// noParameters reports whether root is the input schema of a tool without
// parameters: an object schema with no properties and nothing else that
// would describe some (patternProperties, a schema of additional
// properties, a combinator, a reference), only annotations beside it.
func noParameters(root *canonical.Value) bool {
	if root.Kind != canonical.Object || !canonical.AsSchema(root).HasType("object") {
		return false
	}
	for _, m := range root.Members() {
		switch m.Key {
		case "type", "$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		case "additionalProperties", "unevaluatedProperties":
			if m.Value.Kind != canonical.Bool {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// rootRef reports whether the root holds a $ref that the root rules inline:
// any, where the target takes none at the root (root-ref); one with sibling
// keywords where the target would wrap it in a union; or one to a place
// other than a top-level definition where the target takes no other.
func rootRef(r *Rules, root *canonical.Value) bool {
	ref, ok := refOf(root)
	if ok && r.Action("root-ref") == Inline {
		return true
	}
	if !ok || !rootRules(r) {
		return false
	}
	if len(root.Members()) > 1 && r.Action("ref-siblings") != Keep {
		return true
	}
	p, ok := canonical.RefPointer(ref)
	return r.Action("ref-targets") == Hoist && (!ok || !topLevel(p))
}

// shapeRoot rewrites the combinators at the root that the target takes
// none of there (OpenAI, Anthropic and Bedrock, in every mode): allOf is
// merged into the root where sound and its other members dropped, then
// anyOf and oneOf are merged or dropped (mergeRoot), and enum and not are
// dropped. Each is reported with what it loosens.
func shapeRoot(u *Unit) {
	r, n := u.Rules, u.root
	if !rootWork(r, n) {
		return
	}
	var res *resolver
	for range 16 { // a member may bring an allOf of its own (bounded, as inlining is)
		if r.Action("root-all-of") != Merge || !n.Has("allOf") {
			break
		}
		mergeAllOfAt(u, located{n, &schemaList{entries: []schemaEntry{{parent: -1}}}, 0}, &res)
	}
	if r.Action("root-any-of") == Merge {
		mergeRoot(u)
	}
	for _, k := range []string{"enum", "not"} {
		if r.Action("root-"+k) == Drop && n.Has(k) {
			n.Delete(k)
			u.Report("loss."+k, "", n, k, "%s at the root dropped, as the target takes none at the top level of an input schema: the root accepts what it excluded", k)
		}
	}
}

// mergeRoot makes a root that is a union of object schemas one object
// schema, where the target takes no anyOf at the root: the properties of
// every branch, required only what every branch requires.
func mergeRoot(u *Unit) {
	n := u.root
	var r *resolver
	if n.Kind != canonical.Object {
		return
	}
	// The root of an input schema is an object schema; the root rules
	// change nothing else's union beyond merging plain object branches.
	objectRoot := slices.Contains(canonical.AsSchema(n).Types(), "object") || n.Has("properties")
	for _, k := range []string{"anyOf", "oneOf"} {
		b := n.Get(k)
		if b == nil || b.Kind != canonical.Array || len(b.Items()) == 0 {
			continue
		}
		// A branch that is a local reference is judged by its target,
		// inlined; one that cannot be inlined leaves the union as it is.
		inlined := true
		for i, x := range b.Items() {
			if _, ok := refOf(x); ok && inlined && objectRoot {
				if r == nil {
					r = newResolver(u)
				}
				_, st := r.expand(x, canonical.Pointer("").Append(k).Index(i), nil)
				inlined = st == refInlined
			}
		}
		if !inlined {
			continue
		}
		objects := true
		for _, x := range b.Items() {
			ts := canonical.AsSchema(x).Types()
			if x.Kind != canonical.Object || ts != nil && !slices.Equal(ts, []string{"object"}) || x.Has("$ref") || x.Has("anyOf") || x.Has("oneOf") {
				objects = false
			}
		}
		if !objects {
			// Only an object root drops them: elsewhere the union may be
			// what the schema is.
			if !objectRoot || slices.ContainsFunc(b.Items(), func(x *canonical.Value) bool { return x.Has("$ref") }) {
				continue // a $ref branch is judged by what it points to: not here
			}
			n.Delete(k)
			if !n.Has("type") {
				setType(n, []string{"object"})
			}
			u.Report("loss.any-of", "", n, k, "the %s at the root dropped, as the target takes no %s at the root and its %d branches are not all object schemas that can be merged: the root no longer requires any one of them", k, k, len(b.Items()))
			continue
		}
		props := n.Get("properties")
		if props == nil || props.Kind != canonical.Object {
			props = canonical.NewObject()
		} else {
			props = canonical.NewObject(slices.Clone(props.Members())...).At(props.Pos)
		}
		var common []string
		for i, x := range b.Items() {
			if p := x.Get("properties"); p != nil && p.Kind == canonical.Object {
				for _, m := range p.Members() {
					if !props.Has(m.Key) {
						props.SetMembers(append(props.Members(), m))
					}
				}
			}
			req, _ := x.Get("required").Strings()
			if i == 0 {
				common = req
			} else {
				common = slices.DeleteFunc(common, func(r string) bool { return !slices.Contains(req, r) })
			}
		}
		own, _ := n.Get("required").Strings()
		for _, r := range common {
			if !slices.Contains(own, r) {
				own = append(own, r)
			}
		}
		n.Delete(k)
		if !n.Has("type") {
			setType(n, []string{"object"})
		}
		n.Set("properties", props)
		if len(own) > 0 {
			n.Set("required", canonical.NewStrings(own))
		}
		u.Report("loss.any-of", "", n, k, "the %s of %d object schemas at the root merged into one object with every branch's properties, as the target takes no %s at the root: which combinations were required is lost", k, len(b.Items()), k)
	}
}

// pruneRequired drops the names in required that properties lacks.
func pruneRequired(u *Unit, n *canonical.Value, at canonical.Pointer) {
	req, ok := n.Get("required").Strings()
	if !ok {
		return
	}
	props := n.Get("properties").Keys()
	var keep, lost []string
	for _, k := range req {
		if slices.Contains(props, k) {
			keep = append(keep, k)
		} else {
			lost = append(lost, k)
		}
	}
	if len(lost) == 0 {
		return
	}
	if len(keep) == 0 {
		n.Delete("required")
	} else {
		r := canonical.NewStrings(keep)
		r.Pos = n.Get("required").Pos
		n.Set("required", r)
	}
	u.Report("loss.required", at, n, "required", "required named %s, which properties does not define; dropped, as the target refuses it", strings.Join(quoteAll(lost), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// shapeRef wraps a $ref that has siblings the target refuses:
// {"$ref": X, "description": D} becomes {"description": D, "anyOf":
// [{"$ref": X}]}, which accepts the same values and leaves the shared
// definition shared.
func shapeRef(u *Unit, n *canonical.Value, at canonical.Pointer) {
	row := u.Rules.Row("ref-siblings")
	if row.Action == Keep {
		return
	}
	i := n.Index("$ref")
	if i < 0 || n.Has("anyOf") {
		return
	}
	var refused []string
	for _, m := range n.Members() {
		if m.Key != "$ref" && !(row.Action == Only && slices.Contains(row.Values, m.Key)) {
			refused = append(refused, m.Key)
		}
	}
	if len(refused) == 0 {
		return
	}
	inner := canonical.NewObject(n.Members()[i]).At(n.Pos)
	u.origins[inner] = u.origins[n]
	n.Members()[i] = canonical.Member{Key: "anyOf", Value: canonical.NewArray(inner), KeyPos: n.Members()[i].KeyPos}
	u.Report("lower.ref-wrapped", at, n, "", "$ref with the sibling keyword(s) %s written as anyOf: [{\"$ref\": …}] beside them, as the target refuses siblings of $ref", strings.Join(quoteAll(refused), ", "))
}

// ---- keys ----

var patterns sync.Map // expression → *regexp.Regexp

// regexpOf compiles expr once for the process.
func regexpOf(expr string) *regexp.Regexp {
	if re, ok := patterns.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(expr)
	patterns.Store(expr, re)
	return re
}

// Pattern is the rule as one regular expression; "" for the zero rule,
// which takes any non-empty name.
func (k *KeyRule) Pattern() string {
	if k.Max == 0 {
		return ""
	}
	if k.First == "" {
		return fmt.Sprintf("^[%s]{1,%d}$", k.Chars, k.Max)
	}
	return fmt.Sprintf("^[%s][%s]{0,%d}$", k.First, k.Chars, k.Max-1)
}

// Match reports whether s is legal under the rule: what Pattern matches.
func (k *KeyRule) Match(s string) bool {
	if k.Max == 0 {
		return s != ""
	}
	return k.matcher().MatchString(s)
}

// allows reports whether the keys pass leaves key as it is: the rule
// matches it, or the rule is the zero rule, which renames nothing.
func (k *KeyRule) allows(key string) bool { return k.Max == 0 || k.Match(key) }

type ruleKey struct {
	chars, first string
	max          int
}

var matchers sync.Map // ruleKey → *namematch.Matcher

// matcher returns the rule's matcher, without formatting its pattern again
// on each call.
func (k *KeyRule) matcher() *namematch.Matcher {
	key := ruleKey{k.Chars, k.First, k.Max}
	if m, ok := matchers.Load(key); ok {
		return m.(*namematch.Matcher)
	}
	m := namematch.Compile(k.Pattern())
	matchers.Store(key, m)
	return m
}

// legal renames key under the rule (Legal, seeded by the key).
func (k *KeyRule) legal(key string) string { return k.Legal(key, key) }

// Legal makes s legal under the rule: each character outside it becomes
// '_', a first character it forbids gets a '_' before it, and a result that
// is too long keeps its start and ends with '_' and 8 hex digits of the
// SHA-256 of seed. Tool names (seed: the ID) and property keys (seed: the
// key) are made legal so.
func (k *KeyRule) Legal(s, seed string) string {
	if k.Max == 0 || k.Match(s) {
		return s
	}
	out := regexpOf("[^"+k.Chars+"]").ReplaceAllString(s, "_")
	first := k.First
	if first == "" {
		first = k.Chars
	}
	if out != "" && !regexpOf("^["+first+"]").MatchString(out) {
		out = "_" + out
	}
	if len(out) > k.Max {
		sum := sha256.Sum256([]byte(seed))
		out = out[:k.Max-9] + "_" + hex.EncodeToString(sum[:4])
	}
	return out
}

func runKeys(u *Unit) {
	rule := u.Rules.Keys
	renamed := map[*canonical.Value]string{}
	for _, s := range allSchemas(u.root) {
		props := s.node.Get("properties")
		if props == nil || props.Kind != canonical.Object {
			continue
		}
		var bad []int
		for i, m := range props.Members() {
			if !rule.allows(m.Key) {
				bad = append(bad, i)
			}
		}
		if len(bad) == 0 {
			continue
		}
		req, _ := s.node.Get("required").Strings()
		changedReq := false
		for _, i := range bad {
			old := props.Members()[i].Key
			key := rule.legal(old)
			if props.Has(key) {
				u.Report("name.property-collision", s.at().Append("properties"), props, old, "property key %q is not legal for the target (%s), and its legal form %q is another property's key", old, rule.Pattern(), key)
				continue
			}
			props.Members()[i].Key = key
			renamed[props.Members()[i].Value] = old
			if j := slices.Index(req, old); j >= 0 {
				req[j] = key
				changedReq = true
			}
			u.Report("name.property-renamed", s.at().Append("properties"), props, old, "property key %q renamed %q, as the target takes keys matching %s; toolc.lock records the old key", old, key, rule.Pattern())
		}
		if changedReq {
			r := canonical.NewStrings(req)
			r.Pos = s.node.Get("required").Pos
			s.node.Set("required", r)
		}
	}
	if len(renamed) == 0 {
		return
	}
	u.renamedNodes = renamed
}

// recordRenamed sets the pointers of the renamed properties, as they are
// in the lowered schema when every pass has run.
func (u *Unit) recordRenamed() {
	if len(u.renamedNodes) == 0 {
		return
	}
	u.renamed = map[canonical.Pointer]string{}
	for _, s := range allSchemas(u.root) {
		props := s.node.Get("properties")
		if props == nil || props.Kind != canonical.Object {
			continue
		}
		for _, m := range props.Members() {
			if old, ok := u.renamedNodes[m.Value]; ok {
				u.renamed[s.at().Append("properties", m.Key)] = old
			}
		}
	}
}

// hasNull reports whether enum, an enum keyword's value, lists null.
func hasNull(enum *canonical.Value) bool {
	return enum != nil && enum.Kind == canonical.Array && slices.ContainsFunc(enum.Items(), isNull)
}

// dropEnumNull takes null out of n's enum, for a server that refuses it
// there (xAI): a nullable enum keeps null in its type only. An enum of null
// alone becomes "type": "null".
func dropEnumNull(u *Unit, n *canonical.Value, at canonical.Pointer) {
	enum := n.Get("enum")
	kept := slices.DeleteFunc(slices.Clone(enum.Items()), isNull)
	if len(kept) == 0 {
		n.Delete("enum")
		if ts := canonical.AsSchema(n).Types(); ts != nil && !slices.Contains(ts, "null") {
			// No value was valid here; without the enum, every value of
			// the type is.
			u.Report("loss.enum", at, n, "enum", "enum: [null] dropped, as the target refuses null inside enum; the type %s does not list null, so the schema, which accepted no value, now accepts any", canonical.NewStrings(ts).String())
			return
		}
		setType(n, []string{"null"})
		u.Report("lower.type-inferred", at, n, "enum", "enum: [null] written as type null, as the target refuses null inside enum")
		return
	}
	n.Set("enum", canonical.NewArray(kept...))
	how := "the type does not list null, so null is not accepted here"
	if slices.Contains(canonical.AsSchema(n).Types(), "null") {
		how = "the type keeps null, which the target reads as nullable"
	}
	u.Report("loss.enum", at, n, "enum", "null taken out of the enum, as the target refuses null inside enum; %s", how)
}

// ecmaOnly finds the escapes of ECMA-262 regular expressions that other
// engines (Python's re, Rust's regex) do not read: \0, \cX, \u{…}, and
// named backreferences \k<name>.
var ecmaOnly = regexp.MustCompile(`\\(?:0|c[A-Za-z]|u\{[0-9A-Fa-f]+\}|k<)`)

// unportable reports whether a pattern keyword's value has an escape that
// only ECMA-262 engines read. An escaped backslash is not an escape.
func unportable(p *canonical.Value) bool {
	if p == nil || p.Kind != canonical.String || !strings.Contains(p.Text(), `\`) {
		return false
	}
	return ecmaOnly.MatchString(strings.ReplaceAll(p.Text(), `\\`, ""))
}

// portablePattern rewrites the ECMA-262-only escapes of n's pattern as
// every engine reads them (\0 as \x00, \cJ as \x0A, \u{41} as \u0041),
// or drops the pattern where it cannot (a code point past \uFFFF, a named
// backreference), for a server that compiles patterns with an engine of its
// own (DeepSeek).
func portablePattern(u *Unit, n *canonical.Value, at canonical.Pointer) {
	old := n.Get("pattern").Text()
	var b strings.Builder
	for i := 0; i < len(old); i++ {
		c := old[i]
		if c != '\\' || i+1 == len(old) {
			b.WriteByte(c)
			continue
		}
		next := old[i+1]
		switch {
		case next == '0' && (i+2 == len(old) || old[i+2] < '0' || old[i+2] > '9'):
			b.WriteString(`\x00`)
			i++
		case next == 'c' && i+2 < len(old) && (old[i+2]|0x20) >= 'a' && (old[i+2]|0x20) <= 'z':
			fmt.Fprintf(&b, `\x%02X`, old[i+2]%32)
			i += 2
		case next == 'u' && i+2 < len(old) && old[i+2] == '{':
			end := strings.IndexByte(old[i:], '}')
			var r uint64
			err := strconv.ErrSyntax
			if end > 3 {
				r, err = strconv.ParseUint(old[i+3:i+end], 16, 32)
			}
			if err != nil || r > 0xFFFF {
				n.Delete("pattern")
				u.Report("loss.pattern", at, n, "pattern", "pattern %q dropped: its escape %s has no form that every engine reads", old, old[i:min(len(old), i+max(end+1, 3))])
				return
			}
			fmt.Fprintf(&b, `\u%04X`, r)
			i += end
		case next == 'k' && i+2 < len(old) && old[i+2] == '<':
			n.Delete("pattern")
			u.Report("loss.pattern", at, n, "pattern", "pattern %q dropped: a named backreference (\\k<…>) is ECMA-262's only, and the target's engine has none", old)
			return
		default:
			b.WriteByte(c)
			b.WriteByte(next)
			i++
		}
	}
	n.Set("pattern", canonical.NewString(b.String()))
	u.Report("lower.pattern-portable", at, n, "pattern", "pattern %q written as %q: its ECMA-262-only escapes spelled as every engine reads them", old, b.String())
}
