package lower

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// The passes, in the order they run.
var (
	InlineRefs = &Pass{
		Name: "refs",
		Doc:  "inlines local $refs where the target has none (lower.ref-inlined), and cuts recursive ones that cannot be inlined or that the target forbids (loss.ref)",
		When: func(r *Rules) bool {
			switch r.Action("$ref") {
			case Inline, Acyclic:
				return true
			}
			return r.Action("core") == Drop || r.Action("other") == Drop // anchors and odd pointers must survive
		},
		Run: runRefs,
	}
	MergeAllOf = &Pass{
		Name: "all-of",
		Doc:  "merges allOf members into their schema where the result accepts exactly the same values (lower.all-of-merged) and drops the members that cannot be merged (loss.all-of)",
		When: needs("allOf", Merge),
		Run:  runAllOf,
	}
	OneOfToAnyOf = &Pass{
		Name: "one-of",
		Doc:  "writes oneOf as anyOf (lower.one-of-as-any-of): a value that matches two branches is then accepted too",
		When: needs("oneOf", AnyOf),
		Run:  runOneOf,
	}
	ConstToEnum = &Pass{
		Name: "const",
		Doc:  "writes const as a one-value enum (lower.const-as-enum)",
		When: needs("const", Enum),
		Run:  runConst,
	}
	NullableTypes = &Pass{
		Name:     "nullable",
		Doc:      `writes type arrays and null branches of anyOf as one type with "nullable": true, and other type arrays as anyOf (lower.type-as-nullable)`,
		Requires: []*Pass{OneOfToAnyOf},
		When:     needs("type-array", Nullable),
		Run:      runNullable,
	}
	TupleItems = &Pass{
		Name: "tuple",
		Doc:  "writes prefixItems (and draft-07 array items) as items: {anyOf: [...]}, pinning maxItems when the tuple is closed (loss.prefix-items: positions are lost)",
		When: needs("prefixItems", Tuple),
		Run:  runTuple,
	}
	StrictMode = &Pass{
		Name: "strict",
		Doc:  "the strict-mode transform: additionalProperties: false on every object (lower.strict-closed), every property required and each optional one made nullable (lower.strict-optional), recording which were optional",
		When: func(r *Rules) bool {
			return r.Action("additionalProperties") == Close || r.Action("optional") == Require
		},
		Run: runStrict,
	}
	DropUnsupported = &Pass{
		Name: "drop",
		Doc:  "drops every keyword the target cannot carry (loss.<feature>), or moves it into the description when the target's describe option is set",
		When: func(r *Rules) bool {
			for _, row := range r.Rows {
				switch row.Action {
				case Drop, Only, Simple, Inline:
					return true
				}
			}
			return false
		},
		Run: runDrop,
	}
	UpperTypes = &Pass{
		Name:     "upper",
		Doc:      `spells type names in upper case ("STRING"), as Gemini's OpenAPI schema does; a spelling, not reported`,
		Requires: []*Pass{DropUnsupported},
		When:     needs("type", Upper),
		Run:      runUpper,
	}
)

// Passes lists every pass in the fixed order they run in.
var Passes = []*Pass{InlineRefs, MergeAllOf, OneOfToAnyOf, ConstToEnum, TupleItems, ShapeNodes, NullableTypes, RenameKeys, StrictMode, DropUnsupported, AnyOfAlone, UpperTypes}

// plan returns the passes that rules need, in order. A pass's Requires
// are passes whose output it expects when they run; Passes orders every
// pass after them (TestPassOrder checks it).
func plan(rules *Rules) []*Pass {
	var out []*Pass
	for _, p := range Passes {
		if p.When(rules) {
			out = append(out, p)
		}
	}
	return out
}

// reversed lists the object schemas under root with every schema before
// the schemas that contain it, so a pass sees inner schemas first.
func reversed(root *canonical.Value) []located {
	s := allSchemas(root)
	slices.Reverse(s)
	return s
}

// ---- allOf ----

func runAllOf(u *Unit) {
	// Inlining a member's $ref can bring in definitions that have an allOf
	// of their own: walk again until none is left (bounded, as inlining is).
	for range 16 {
		if !mergeAllOf(u) {
			return
		}
	}
}

// mergeAllOf merges or drops every allOf present now, and reports whether
// it inlined a definition, which may have brought in another allOf.
func mergeAllOf(u *Unit) bool {
	var r *resolver
	inlined := false
	for _, s := range reversed(u.root) {
		all := s.node.Get("allOf")
		if all == nil || all.Kind != canonical.Array {
			continue
		}
		base := &canonical.Value{Kind: canonical.Object, Members: without(s.node.Members, "allOf")}
		merged := 0
		var lost []string
		for i, m := range all.Items {
			at := s.at().Append("allOf").Index(i)
			if _, ok := refOf(m); ok {
				if r == nil {
					r = newResolver(u)
				}
				if _, st := r.expand(m, at, nil); st != refInlined {
					u.Report("loss.all-of", at, m, "", "allOf member dropped: %s %s cannot be merged", refWhy[st], m.Get("$ref").Text)
					continue
				}
				inlined = true
			}
			if out, ok := mergeSchemas(base, m, func(k string) { lost = append(lost, k) }); ok {
				base = out
				merged++
				continue
			}
			u.Report("loss.all-of", at, m, "", "allOf member dropped: it cannot be merged into its schema without changing what is accepted")
		}
		s.node.Members = base.Members
		if merged > 0 {
			u.Report("lower.all-of-merged", s.at(), s.node, "allOf", "merged %d allOf member(s) into the schema%s", merged, keptOver(lost, "a member's"))
		}
	}
	return inlined
}

var (
	lowerBounds = map[string]bool{"minimum": true, "exclusiveMinimum": true, "minLength": true, "minItems": true, "minProperties": true, "minContains": true}
	upperBounds = map[string]bool{"maximum": true, "exclusiveMaximum": true, "maxLength": true, "maxItems": true, "maxProperties": true, "maxContains": true}
	// closers make the set of properties an object may have depend on its
	// own properties, so merging two with different properties is unsound.
	closers = []string{"additionalProperties", "patternProperties", "unevaluatedProperties"}
)

// keptOver says which annotations of the other side a merge left out.
func keptOver(lost []string, whose string) string {
	if len(lost) == 0 {
		return ""
	}
	slices.Sort(lost)
	return fmt.Sprintf("; %s %s differed and gave way", whose, strings.Join(slices.Compact(lost), ", "))
}

// mergeSchemas returns one schema that accepts exactly what both a and b
// accept, and false when it cannot make one. It shares b's values. Where
// both have an annotation (a description, a title …) with different values,
// a's is kept and lost is told b's keyword.
func mergeSchemas(a, b *canonical.Value, lost func(keyword string)) (*canonical.Value, bool) {
	if b.Kind == canonical.Bool {
		return a, b.Bool
	}
	if a.Kind != canonical.Object || b.Kind != canonical.Object {
		return nil, false
	}
	if !sameProperties(a, b) {
		return nil, false
	}
	out := &canonical.Value{Kind: canonical.Object, Members: slices.Clone(a.Members)}
	for _, m := range b.Members {
		av := out.Get(m.Key)
		switch {
		case av == nil:
			out.Members = append(out.Members, m)
		case av.Equal(m.Value):
		case annotation[m.Key]:
			lost(m.Key)
		case m.Key == "properties" && av.Kind == canonical.Object && m.Value.Kind == canonical.Object:
			props := &canonical.Value{Kind: canonical.Object, Members: slices.Clone(av.Members)}
			for _, pm := range m.Value.Members {
				prev := props.Get(pm.Key)
				if prev == nil {
					props.Members = append(props.Members, pm)
					continue
				}
				both, ok := mergeSchemas(prev, pm.Value, lost)
				if !ok {
					return nil, false
				}
				props.Set(pm.Key, both)
			}
			out.Set("properties", props)
		case m.Key == "items" && (av.Kind == canonical.Object || av.Kind == canonical.Bool):
			both, ok := mergeSchemas(av, m.Value, lost)
			if !ok {
				return nil, false
			}
			out.Set("items", both)
		case m.Key == "required":
			as, ok1 := av.Strings()
			bs, ok2 := m.Value.Strings()
			if !ok1 || !ok2 {
				return nil, false
			}
			for _, s := range bs {
				if !slices.Contains(as, s) {
					as = append(as, s)
				}
			}
			out.Set("required", canonical.NewStrings(as))
		case m.Key == "type":
			t := intersectTypes(av, m.Value)
			if t == nil {
				return nil, false
			}
			out.Set("type", t)
		case m.Key == "enum" && av.Kind == canonical.Array && m.Value.Kind == canonical.Array:
			var keep []*canonical.Value
			for _, x := range av.Items {
				if slices.ContainsFunc(m.Value.Items, x.Equal) {
					keep = append(keep, x)
				}
			}
			if len(keep) == 0 {
				return nil, false
			}
			out.Set("enum", canonical.NewArray(keep...))
		case lowerBounds[m.Key] || upperBounds[m.Key]:
			x, ok1 := number(av)
			y, ok2 := number(m.Value)
			if !ok1 || !ok2 {
				return nil, false
			}
			if c := x.Cmp(y); c < 0 && lowerBounds[m.Key] || c > 0 && upperBounds[m.Key] {
				out.Set(m.Key, m.Value)
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// sameProperties reports whether merging a and b keeps the properties each
// lets through: when one closes its object (additionalProperties and the
// like), the other may declare only properties it declares too; when both
// do, they must declare the same.
func sameProperties(a, b *canonical.Value) bool {
	closed := func(v *canonical.Value) bool {
		for _, k := range closers {
			if x := v.Get(k); x != nil && !(x.Kind == canonical.Bool && x.Bool) {
				return true
			}
		}
		return false
	}
	keys := func(v *canonical.Value) []string {
		var ks []string
		if p := v.Get("properties"); p != nil {
			ks = p.Keys()
		}
		slices.Sort(ks)
		return ks
	}
	subset := func(x, y []string) bool {
		for _, k := range x {
			if !slices.Contains(y, k) {
				return false
			}
		}
		return true
	}
	switch ca, cb := closed(a), closed(b); {
	case ca && cb:
		return slices.Equal(keys(a), keys(b))
	case ca:
		return subset(keys(b), keys(a))
	case cb:
		return subset(keys(a), keys(b))
	}
	return true
}

func number(v *canonical.Value) (*big.Float, bool) {
	if v == nil || v.Kind != canonical.Number {
		return nil, false
	}
	f, _, err := big.ParseFloat(v.Text, 10, 256, big.ToNearestEven)
	return f, err == nil
}

func typeSet(v *canonical.Value) ([]string, bool) {
	if s, ok := v.StringValue(); ok {
		return []string{s}, true
	}
	return v.Strings()
}

// intersectTypes returns the types both a and b allow ("integer" being a
// "number"), or nil when they share none.
func intersectTypes(a, b *canonical.Value) *canonical.Value {
	as, ok1 := typeSet(a)
	bs, ok2 := typeSet(b)
	if !ok1 || !ok2 {
		return nil
	}
	var out []string
	for _, t := range as {
		switch {
		case slices.Contains(bs, t):
			out = append(out, t)
		case t == "integer" && slices.Contains(bs, "number"):
			out = append(out, t)
		case t == "number" && slices.Contains(bs, "integer"):
			out = append(out, "integer")
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return canonical.NewString(out[0])
	}
	return canonical.NewStrings(out)
}

// ---- oneOf, const ----

func runOneOf(u *Unit) {
	for _, s := range allSchemas(u.root) {
		i := s.node.Index("oneOf")
		if i < 0 {
			continue
		}
		if s.node.Has("anyOf") {
			s.node.Members = append(s.node.Members[:i], s.node.Members[i+1:]...)
			u.Report("loss.one-of", s.at(), s.node, "oneOf", "oneOf dropped: the schema has an anyOf already, and the target has no oneOf")
			continue
		}
		s.node.Members[i].Key = "anyOf"
		u.Report("lower.one-of-as-any-of", s.at(), s.node, "oneOf", "oneOf written as anyOf: a value that matches more than one branch is accepted too")
	}
}

func runConst(u *Unit) {
	for _, s := range allSchemas(u.root) {
		i := s.node.Index("const")
		if i < 0 {
			continue
		}
		c := s.node.Members[i].Value
		if e := s.node.Get("enum"); e != nil {
			if e.Kind != canonical.Array || !slices.ContainsFunc(e.Items, c.Equal) {
				s.node.Members = append(s.node.Members[:i], s.node.Members[i+1:]...)
				u.Report("loss.const", s.at(), s.node, "const", "const %s dropped: it is not one of the enum's values, and the target has no const", quote(c))
				continue
			}
			s.node.Delete("enum")
			i = s.node.Index("const")
		}
		s.node.Members[i] = canonical.Member{Key: "enum", Value: canonical.NewArray(c), KeyPos: s.node.Members[i].KeyPos}
		u.Report("lower.const-as-enum", s.at(), s.node, "const", "const %s written as enum [%s]", quote(c), quote(c))
	}
}

// ---- nullable ----

// isNullSchema reports whether v is {"type": "null"} (annotations aside).
func isNullSchema(v *canonical.Value) bool {
	if v.Kind != canonical.Object {
		return false
	}
	for _, m := range v.Members {
		if m.Key != "type" && !annotation[m.Key] {
			return false
		}
	}
	return slices.Equal(canonical.AsSchema(v).Types(), []string{"null"})
}

// setNullable writes "nullable": true after node's type, or last.
func setNullable(node *canonical.Value) {
	if node.Has("nullable") {
		node.Set("nullable", canonical.NewBool(true))
		return
	}
	m := canonical.Member{Key: "nullable", Value: canonical.NewBool(true)}
	if i := node.Index("type"); i >= 0 {
		node.Members = slices.Insert(node.Members, i+1, m)
		return
	}
	node.Members = append(node.Members, m)
}

func runNullable(u *Unit) {
	for _, s := range reversed(u.root) {
		n := s.node
		if t := n.Get("type"); t != nil && t.Kind == canonical.Array {
			ts, _ := t.Strings()
			var types []string
			for _, x := range ts {
				if x != "null" {
					types = append(types, x)
				}
			}
			null := len(types) < len(ts)
			switch {
			case len(types) <= 1:
				name := "null"
				if len(types) == 1 {
					name = types[0]
				}
				n.Set("type", canonical.NewString(name))
				if null && len(types) == 1 {
					setNullable(n)
				}
				u.Report("lower.type-as-nullable", s.at(), n, "type", "type %s written as %q%s", t.String(), name, nullNote(null && len(types) == 1))
			case n.Has("anyOf"):
				n.Set("type", canonical.NewString(types[0]))
				if null {
					setNullable(n)
				}
				u.Report("loss.type-union", s.at(), n, "type", "type %s narrowed to %q: the schema has an anyOf already, and the target has no type arrays", t.String(), types[0])
			default:
				var branches []*canonical.Value
				for _, x := range types {
					b := canonical.NewObject()
					b.Set("type", canonical.NewString(x))
					branches = append(branches, b)
				}
				i := n.Index("type")
				n.Members[i] = canonical.Member{Key: "anyOf", Value: canonical.NewArray(branches...)}
				if null {
					setNullable(n)
				}
				u.Report("lower.type-as-nullable", s.at(), n, "type", "type %s written as anyOf of each type%s", t.String(), nullNote(null))
			}
		}
		if any := n.Get("anyOf"); any != nil && any.Kind == canonical.Array && slices.ContainsFunc(any.Items, isNullSchema) {
			rest := slices.DeleteFunc(slices.Clone(any.Items), isNullSchema)
			lifted := false
			var lost []string
			if len(rest) == 1 {
				if merged, ok := mergeSchemas(&canonical.Value{Kind: canonical.Object, Members: without(n.Members, "anyOf")}, rest[0], func(k string) { lost = append(lost, k) }); ok {
					n.Members = merged.Members
					lifted = true
				}
			}
			if !lifted {
				if len(rest) == 0 && !n.Has("type") {
					n.Delete("anyOf")
					n.Set("type", canonical.NewString("null"))
					u.Report("lower.type-as-nullable", s.at(), n, "anyOf", "an anyOf of only null written as type \"null\"")
					continue
				}
				if len(rest) == 0 {
					n.Delete("anyOf")
				} else {
					n.Set("anyOf", canonical.NewArray(rest...))
				}
			}
			setNullable(n)
			u.Report("lower.type-as-nullable", s.at(), n, "anyOf", "the null branch of anyOf written as \"nullable\": true%s", keptOver(lost, "the branch's"))
		}
		if e := n.Get("enum"); e != nil && e.Kind == canonical.Array && slices.ContainsFunc(e.Items, isNull) {
			n.Set("enum", canonical.NewArray(slices.DeleteFunc(slices.Clone(e.Items), isNull)...))
			setNullable(n)
			u.Report("lower.type-as-nullable", s.at(), n, "enum", "null in enum written as \"nullable\": true")
		}
	}
}

func isNull(v *canonical.Value) bool { return v.Kind == canonical.Null }

func nullNote(null bool) string {
	if null {
		return ` with "nullable": true`
	}
	return ""
}

// ---- tuples ----

func runTuple(u *Unit) {
	for _, s := range reversed(u.root) {
		n := s.node
		key, restKey := "prefixItems", "items"
		tuple := n.Get("prefixItems")
		if tuple == nil || tuple.Kind != canonical.Array {
			key, restKey = "items", "additionalItems"
			if tuple = n.Get("items"); tuple == nil || tuple.Kind != canonical.Array {
				continue
			}
		}
		rest := n.Get(restKey)
		if key == "items" && n.Has("prefixItems") {
			rest = nil
		}
		var branches []*canonical.Value
		for _, it := range tuple.Items {
			if !slices.ContainsFunc(branches, it.Equal) {
				branches = append(branches, it)
			}
		}
		open := rest == nil || rest.Kind == canonical.Bool && rest.Bool
		closed := rest != nil && rest.Kind == canonical.Bool && !rest.Bool
		if !open && !closed && !slices.ContainsFunc(branches, rest.Equal) {
			branches = append(branches, rest)
		}
		i := n.Index(key)
		pos := n.Members[i].KeyPos
		n.Members = slices.Delete(n.Members, i, i+1)
		if key != "items" {
			n.Delete(restKey)
		}
		n.Delete("additionalItems")
		var what string
		switch {
		case open:
			what = "dropped: items past the tuple may be anything, so no items schema can say more"
		case len(branches) == 1:
			n.Members = slices.Insert(n.Members, min(i, len(n.Members)), canonical.Member{Key: "items", Value: branches[0], KeyPos: pos})
			what = "written as one items schema"
		default:
			any := canonical.NewObject()
			any.Set("anyOf", canonical.NewArray(branches...))
			n.Members = slices.Insert(n.Members, min(i, len(n.Members)), canonical.Member{Key: "items", Value: any, KeyPos: pos})
			what = "written as items: {anyOf: [...]}"
		}
		if closed {
			limit := strconv.Itoa(len(tuple.Items))
			if old, ok := number(n.Get("maxItems")); !ok || old.Cmp(new(big.Float).SetInt64(int64(len(tuple.Items)))) > 0 {
				n.Set("maxItems", canonical.NewNumber(limit))
			}
			what += ", with maxItems " + limit
		}
		u.Report("loss.prefix-items", s.at(), n, key, "the tuple of %d positions %s; which item goes where is lost", len(tuple.Items), what)
	}
}

// ---- strict ----

func isObjectSchema(n *canonical.Value) bool {
	return canonical.AsSchema(n).HasType("object") || n.Has("properties") && !n.Has("type")
}

func runStrict(u *Unit) {
	closeAll := u.Rules.Action("additionalProperties") == Close
	require := u.Rules.Action("optional") == Require
	var optional []*canonical.Value
	for _, s := range reversed(u.root) { // inner objects first: a parent may wrap them
		n := s.node
		if !isObjectSchema(n) {
			continue
		}
		if closeAll {
			switch ap := n.Get("additionalProperties"); {
			case ap == nil && len(n.Get("properties").Keys()) == 0 && s.at() != "":
				// The root without properties is a tool that takes no
				// arguments, not a map: closing it narrows nothing a
				// caller means (the next case).
				n.Set("additionalProperties", canonical.NewBool(false))
				u.Report("loss.additional-properties", s.at(), n, "", "a free-form object (no properties declared) closed with additionalProperties: false, as strict mode requires: it now accepts only {}")
			case ap == nil:
				n.Set("additionalProperties", canonical.NewBool(false))
				u.Report("lower.strict-closed", s.at(), n, "", "additionalProperties: false added, as strict mode requires on every object")
			case ap.Kind != canonical.Bool || ap.Bool:
				u.Report("loss.additional-properties", s.at(), n, "additionalProperties", "additionalProperties %s replaced by false, as strict mode requires: properties not declared are no longer accepted", ap.String())
				n.Set("additionalProperties", canonical.NewBool(false))
			}
		}
		props := n.Get("properties")
		if !require || props == nil || props.Kind != canonical.Object {
			continue
		}
		req, _ := n.Get("required").Strings()
		changed := false
		for _, pm := range props.Members {
			if slices.Contains(req, pm.Key) {
				continue
			}
			req = append(req, pm.Key)
			changed = true
			optional = append(optional, pm.Value)
			if how := makeNullable(u, pm.Value); how != "" {
				u.Report("lower.strict-optional", s.at().Append("properties"), props, pm.Key, "optional property %q made required and %s, as strict mode requires; a null value means it was left out", pm.Key, how)
			} else {
				u.Report("lower.strict-optional", s.at().Append("properties"), props, pm.Key, "optional property %q made required, as strict mode requires; it accepts null already, so a null value now means null or left out", pm.Key)
			}
		}
		if changed {
			r := canonical.NewStrings(req)
			if old := n.Get("required"); old != nil {
				r.Pos = old.Pos
			}
			n.Set("required", r)
		}
	}
	// Record where the optional properties ended up, in document order.
	want := map[*canonical.Value]bool{}
	for _, v := range optional {
		want[v] = true
	}
	for _, s := range allSchemas(u.root) {
		if want[s.node] {
			u.optional = append(u.optional, s.at())
		}
	}
}

// makeNullable makes schema v also accept null, and says how.
func makeNullable(u *Unit, v *canonical.Value) string {
	if v.Kind != canonical.Object || len(v.Members) == 0 {
		return "" // accepts null already
	}
	addNullToEnum := func() {
		if e := v.Get("enum"); e != nil && e.Kind == canonical.Array && !slices.ContainsFunc(e.Items, isNull) {
			e.Items = append(e.Items, canonical.NewNull())
		}
	}
	if ts := canonical.AsSchema(v).Types(); ts != nil && !v.Has("const") {
		if slices.Contains(ts, "null") {
			return ""
		}
		v.Set("type", canonical.NewStrings(append(ts, "null")))
		addNullToEnum()
		return `nullable ("null" added to its type)`
	}
	if any := v.Get("anyOf"); any != nil && any.Kind == canonical.Array && len(v.Members) == 1+countAnnotations(v) {
		if !slices.ContainsFunc(any.Items, isNullSchema) {
			null := canonical.NewObject()
			null.Set("type", canonical.NewString("null"))
			any.Items = append(any.Items, null)
		}
		return `nullable ({"type": "null"} added to its anyOf)`
	}
	if v.Has("enum") && len(v.Members) == 1+countAnnotations(v) {
		addNullToEnum()
		return "nullable (null added to its enum)"
	}
	inner := &canonical.Value{Kind: canonical.Object, Pos: v.Pos}
	u.origins[inner] = u.origins[v]
	var outer []canonical.Member
	for _, m := range v.Members {
		if m.Key == "description" || m.Key == "title" {
			outer = append(outer, m)
			continue
		}
		inner.Members = append(inner.Members, m)
	}
	null := canonical.NewObject()
	null.Set("type", canonical.NewString("null"))
	v.Members = append(outer, canonical.Member{Key: "anyOf", Value: canonical.NewArray(inner, null)})
	return `nullable (wrapped in anyOf with {"type": "null"})`
}

func countAnnotations(v *canonical.Value) int {
	n := 0
	for _, m := range v.Members {
		if annotation[m.Key] {
			n++
		}
	}
	return n
}

// ---- drop ----

var lookaround = []string{"(?=", "(?!", "(?<=", "(?<!"}

// keeps reports whether the target keeps keyword k with value v under row.
func keeps(row Row, k string, v *canonical.Value) bool {
	switch row.Action {
	case Drop, Inline: // what inlining left: $dynamicRef, $recursiveRef
		return false
	case Only:
		switch row.Feature {
		case "enum":
			if v.Kind != canonical.Array {
				return false
			}
			for _, it := range v.Items {
				if !slices.Contains(row.Values, jsonType(it)) && !(jsonType(it) == "integer" && slices.Contains(row.Values, "number")) {
					return false
				}
			}
			return true
		case "format":
			s, _ := v.StringValue()
			return slices.Contains(row.Values, s)
		default:
			return slices.Contains(row.Values, v.Text) || slices.Contains(row.Values, v.String())
		}
	case Simple:
		s, _ := v.StringValue()
		for _, l := range lookaround {
			if strings.Contains(s, l) {
				return false
			}
		}
	}
	return true
}

func jsonType(v *canonical.Value) string {
	if v.Kind == canonical.Number && !strings.ContainsAny(v.Text, ".eE") {
		return "integer"
	}
	return v.Kind.String()
}

func runDrop(u *Unit) {
	canonical.WalkPath(canonical.AsSchema(u.root), func(path canonical.Path, s *canonical.Schema) bool {
		if s.IsObject() {
			dropNode(u, path, s.JSON())
		}
		return true
	})
}

// dropNode drops the keywords of one schema that the target cannot carry.
// Walk descends into what is left afterwards, so nothing under a dropped
// keyword is reported twice.
func dropNode(u *Unit, path canonical.Path, n *canonical.Value) {
	var at canonical.Pointer // built at the first report: most schemas have none
	loc := func() canonical.Pointer {
		if at == "" && len(path) > 0 {
			at = path.Pointer()
		}
		return at
	}
	nullable := u.Rules.Action("type-array") == Nullable
	var described []string
	for _, k := range n.Keys() {
		v := n.Get(k)
		f := keywordFeature(k)
		switch {
		case k == "items" && v.Kind == canonical.Array:
			f, _ = FeatureNamed("prefixItems")
		case k == "type" && v.Kind == canonical.Array:
			f, _ = FeatureNamed("type-array")
		case k == "nullable" && nullable:
			f = nil
		}
		if f == nil {
			continue
		}
		row := u.Rules.Row(f.Name)
		if f.Name == "enum" && row.Action == Only && v.Kind == canonical.Array && slices.ContainsFunc(v.Items, isNull) {
			rest := &canonical.Value{Kind: canonical.Array, Pos: v.Pos, Items: slices.DeleteFunc(slices.Clone(v.Items), isNull)}
			if len(rest.Items) > 0 && keeps(row, k, rest) {
				n.Set(k, rest)
				u.Report(f.Loss, loc(), n, k, "null removed from the enum, as the target takes enum values of the types %s only; the other values are kept", strings.Join(row.Values, ", "))
				continue
			}
		}
		dynamic := (k == "$dynamicRef" || k == "$recursiveRef") && u.Rules.Action("core") == Drop // its anchor goes
		if keeps(row, k, v) && !dynamic {
			continue
		}
		n.Delete(k)
		text := k + ": " + quoteRaw(v)
		if u.Options.Describe && describable[f.Name] && len(text) <= 200 {
			described = append(described, text)
			u.Report(f.Loss, loc(), n, k, "%s %s moved into the description: the target cannot carry it", k, quote(v))
			continue
		}
		u.Report(f.Loss, loc(), n, k, "%s %s dropped: the target cannot carry it", k, short(v))
	}
	if len(described) > 0 {
		text := strings.Join(described, "; ")
		if d, ok := n.Get("description").StringValue(); ok && d != "" {
			text = d + " (" + text + ")"
		}
		n.Set("description", canonical.NewString(text))
	}
}

// quoteRaw renders a value for a description: strings as they are.
func quoteRaw(v *canonical.Value) string {
	if v.Kind == canonical.String {
		return v.Text
	}
	return v.String()
}

// short renders a value for a message, cut to a readable length.
func short(v *canonical.Value) string {
	s := quote(v)
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// ---- upper ----

func runUpper(u *Unit) {
	for _, s := range allSchemas(u.root) {
		if t := s.node.Get("type"); t != nil && t.Kind == canonical.String {
			t.Text = strings.ToUpper(t.Text)
		}
	}
}
