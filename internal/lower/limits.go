package lower

import (
	"math"
	"strconv"

	"github.com/toolc-dev/toolc/canonical"
)

// LimitCheck is one kind of budget that a target's Rules may set.
type LimitCheck struct {
	Name string // the key in Rules.Limits and in a manifest's limits override
	Code string // the diagnostic reported past the limit
	Doc  string
	// Scope is "schema" (checked on each lowered schema by Schema),
	// "tool" (applied by the caller, which sees tools) or "request"
	// (checked on the emitted bundle by package accept; a manifest's
	// limits override reaches it there) or "tokens" (counted on the emitted
	// bundle by package tokens, only when a manifest sets the budget).
	Scope string
	// measure returns the schema's size in the limit's unit and where the
	// largest part is; nil outside the schema scope.
	measure func(all []located) (int, canonical.Pointer)
}

// Limits is the table of budgets.
var limitChecks = []LimitCheck{
	{"inline-size", "limit.inline-size", "schema nodes (JSON values) that inlining $refs may grow a schema to", "schema", nil},
	{"properties", "limit.strict-properties", "object properties (all objects, $defs included)", "schema", countOf("properties", canonical.Object)},
	{"depth", "limit.strict-depth", "levels of nested objects", "schema", nestingDepth},
	{"enum-values", "limit.strict-enum-values", "enum values in all", "schema", countOf("enum", canonical.Array)},
	{"enum-chars", "limit.strict-enum-chars", "characters in a string enum of more than 250 values", "schema", longEnumChars},
	{"name-chars", "limit.strict-name-chars", "characters of property names, definition names and string enum and const values", "schema", nameChars},
	{"max-items-sum", "limit.max-items-sum", "as the sum of its maxItems values", "schema", sumMaxItems},
	{"description", "loss.description", "characters of a tool's description: longer ones are shortened", "tool", nil},
	{"tools", "accept.tools", "tools in one request (one bundle), checked by package accept", "request", nil},
	{"strict-tools", "accept.strict-tools", "strict tools in one request, checked by package accept", "request", nil},
	{"optional", "accept.optional", "optional parameters of strict tools in one request, counted after $ref expansion by package accept", "request", nil},
	{"tokens", "limit.tokens", "tokens of a whole bundle in one request (package tokens counts them; no target has a default)", "tokens", nil},
	{"tool-tokens", "limit.tokens", "tokens of one tool's definition (package tokens counts them; no target has a default)", "tokens", nil},
	{"unions", "accept.unions", "union-typed parameters (anyOf or a type array) of strict tools in one request, counted after $ref expansion by package accept", "request", nil},
}

// LimitNamed returns the check of the budget name.
func LimitNamed(name string) (LimitCheck, bool) {
	for _, c := range limitChecks {
		if c.Name == name {
			return c, true
		}
	}
	return LimitCheck{}, false
}

func checkLimits(u *Unit) {
	var all []located // every schema, listed once for all the measures
	for _, l := range u.Rules.Limits {
		c, ok := LimitNamed(l.Name)
		if !ok || c.measure == nil {
			continue
		}
		if all == nil {
			all = allSchemas(u.root)
		}
		if n, at := c.measure(all); n > l.Max {
			node := u.root.Resolve(at)
			u.Report(c.Code, at, node, "", "the schema has %d %s; the target takes at most %d", n, c.Doc, l.Max)
		}
	}
}

// countOf returns a measure that adds up, over every schema, how many
// members (an object) or items (an array) the value of keyword has when it
// is of kind: the properties of every object, the values of every enum.
func countOf(keyword string, kind canonical.Kind) func([]located) (int, canonical.Pointer) {
	return func(all []located) (int, canonical.Pointer) {
		n := 0
		for _, s := range all {
			if v := s.node.Get(keyword); v != nil && v.Kind == kind {
				n += len(v.Members()) + len(v.Items())
			}
		}
		return n, ""
	}
}

// nestingDepth is the most object schemas on one path from the root, and
// where the deepest is. all lists parents before their children, and a
// schema's parent is an object, so one pass over it gives every depth.
func nestingDepth(all []located) (int, canonical.Pointer) {
	if len(all) == 0 {
		return 0, ""
	}
	depth := make([]int, len(all[0].list.entries))
	best, deepest := 0, -1
	for k, s := range all {
		d := 0
		if p := s.list.entries[s.i].parent; p >= 0 {
			d = depth[p]
		}
		if isObjectSchema(s.node) {
			d++
		}
		depth[s.i] = d
		if d > best {
			best, deepest = d, k
		}
	}
	if deepest < 0 {
		return 0, ""
	}
	return best, all[deepest].at()
}

// longEnumChars returns the characters of the longest string enum that has
// more than 250 values.
func longEnumChars(all []located) (int, canonical.Pointer) {
	best, at := 0, canonical.Pointer("")
	for _, s := range all {
		e := s.node.Get("enum")
		if e == nil || e.Kind != canonical.Array || len(e.Items()) <= 250 {
			continue
		}
		n := 0
		for _, it := range e.Items() {
			n += len(it.Text())
		}
		if n > best {
			best, at = n, s.at().Append("enum")
		}
	}
	return best, at
}

func nameChars(all []located) (int, canonical.Pointer) {
	n := 0
	for _, s := range all {
		for _, k := range []string{"properties", "$defs", "definitions"} {
			if p := s.node.Get(k); p != nil && p.Kind == canonical.Object {
				for _, m := range p.Members() {
					n += len(m.Key)
				}
			}
		}
		if e := s.node.Get("enum"); e != nil && e.Kind == canonical.Array {
			for _, it := range e.Items() {
				if it.Kind == canonical.String {
					n += len(it.Text())
				}
			}
		}
		if c := s.node.Get("const"); c != nil && c.Kind == canonical.String {
			n += len(c.Text())
		}
	}
	return n, ""
}

// sumMaxItems adds up the maxItems of every schema, and says where the
// largest is: the budget Gemini keeps per declaration. A value past what an
// int holds counts as the largest int.
func sumMaxItems(all []located) (int, canonical.Pointer) {
	n, best, at := 0, -1, canonical.Pointer("")
	for _, s := range all {
		v := s.node.Get("maxItems")
		if v == nil || v.Kind != canonical.Number {
			continue
		}
		m, err := strconv.Atoi(v.Text())
		if err != nil {
			f, _ := strconv.ParseFloat(v.Text(), 64)
			m = int(min(f, math.MaxInt32))
		}
		n = min(n+max(m, 0), math.MaxInt32)
		if m > best {
			best, at = m, s.at().Append("maxItems")
		}
	}
	return n, at
}
