package lower

import (
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// The passes, in the order they run.
var (
	inlineRefsPass = &Pass{
		Name: "refs",
		Doc:  "inlines local $refs where the target has none (lower.ref-inlined), and cuts recursive ones that cannot be inlined or that the target forbids (loss.ref)",
		When: func(r *Rules) bool {
			switch r.Action("$ref") {
			case Inline, Acyclic:
				return true
			}
			return r.Action("core") == Drop || r.Action("other") == Drop || // anchors and odd pointers must survive
				r.Action("ref-targets") == Hoist || r.Action("ref-external") == Drop || r.Action("root-ref") == Inline
		},
		Run: runRefs,
		// Only where a reference is, static or dynamic (what inlining,
		// cutting cycles, normalizing, dropping and hoisting act on), or,
		// for a target that inlines, definitions (which inlining removes).
		Node: func(r *Rules) func(*canonical.Value) bool {
			inline := r.Action("$ref") == Inline
			return func(n *canonical.Value) bool {
				return n.Has("$ref") || n.Has("$dynamicRef") || n.Has("$recursiveRef") || inline && (n.Has("$defs") || n.Has("definitions"))
			}
		},
	}
	modernizePass = &Pass{
		Name:  "2020-12",
		Doc:   "writes a schema of an older dialect in the forms of 2020-12, which says the same: items as an array → prefixItems (additionalItems → items), dependencies → dependentRequired and dependentSchemas (replacing those keywords, which the older dialect ignores), draft-04's boolean exclusiveMinimum/exclusiveMaximum → the number of minimum/maximum, the older $schema dropped (lower.legacy-form)",
		When:  needs("legacy-forms", Modern),
		Run:   runModernize,
		Check: func(_ *Rules, root *canonical.Value) bool { return olderDialect(root) },
	}
	mergeAllOfPass = &Pass{
		Name: "all-of",
		Doc:  "merges allOf members into their schema where the result accepts exactly the same values (lower.all-of-merged) and drops the members that cannot be merged (loss.all-of)",
		When: needs("allOf", Merge),
		Run:  runAllOf,
		// Every check below spares the schemas a pass cannot change the
		// copy: Gemini's rules have this pass, and without it every
		// schema of every Gemini bundle was copied and walked by each.
		Node: has("allOf"),
	}
	oneOfToAnyOfPass = &Pass{
		Name: "one-of",
		Doc:  "writes oneOf as anyOf (lower.one-of-as-any-of): a value that matches two branches is then accepted too",
		When: needs("oneOf", AnyOf),
		Run:  runOneOf,
		Node: has("oneOf"),
	}
	constToEnumPass = &Pass{
		Name: "const",
		Doc:  "writes const as a one-value enum (lower.const-as-enum)",
		When: needs("const", Enum),
		Run:  runConst,
		Node: has("const"),
	}
	nullableTypesPass = &Pass{
		Name:     "nullable",
		Doc:      `writes type arrays and null branches of anyOf as one type with "nullable": true, and other type arrays as anyOf (lower.type-as-nullable)`,
		Requires: []*Pass{oneOfToAnyOfPass},
		When:     needs("type-array", Nullable),
		Run:      runNullable,
	}
	tupleItemsPass = &Pass{
		Name: "tuple",
		Doc:  "writes prefixItems (and draft-07 array items) as items: {anyOf: [...]}, pinning maxItems when the tuple is closed (loss.prefix-items: positions are lost)",
		When: needs("prefixItems", Tuple),
		Run:  runTuple,
		// Only a schema with a tuple: OpenAI's default mode has this pass,
		// and without a check every schema would be copied for it.
		Node: func(*Rules) func(*canonical.Value) bool {
			return func(n *canonical.Value) bool {
				p, items := n.Get("prefixItems"), n.Get("items")
				return p != nil && p.Kind == canonical.Array || items != nil && items.Kind == canonical.Array
			}
		},
	}
	strictModePass = &Pass{
		Name: "strict",
		Doc:  "the strict-mode transform: additionalProperties: false on every object (lower.strict-closed), every property required and each optional one made nullable (lower.strict-optional), recording which were optional",
		When: func(r *Rules) bool {
			return r.Action("additionalProperties") == Close || r.Action("optional") == Require
		},
		Run: runStrict,
	}
	dropUnsupportedPass = &Pass{
		Name: "drop",
		Doc:  "drops every keyword the target cannot carry (loss.<feature>), or moves it into the description when the target's describe option is set",
		When: func(r *Rules) bool {
			for _, row := range r.Rows {
				switch row.Action {
				case Drop, Only, Simple, Inline:
					// The root rows (root-enum, root-not) are the shape
					// pass's, and a row of no keyword but "other"
					// (ref-external, enum-null) another pass's: they
					// alone must not send every schema through this one.
					if f, ok := FeatureNamed(row.Feature); ok && (f.Keywords != nil || f.Name == "other") && !strings.HasPrefix(row.Feature, "root-") {
						return true
					}
				}
			}
			return false
		},
		Run:  runDrop,
		Node: dropTest,
	}
	pruneDefsPass = &Pass{
		Name:  "defs",
		Doc:   "removes the entries of the root's $defs and definitions that nothing refers to, before every other pass, so none reports changes in them (lower.defs-pruned): they constrain nothing and are sent in every request",
		When:  needs("unused-defs", Prune),
		Run:   runPruneDefs,
		Check: func(_ *Rules, root *canonical.Value) bool { return len(unusedDefs(root)) > 0 },
	}
	// pruneDefsAfterPass removes what the other passes left unused (a root
	// $ref resolved in place, an anchor dropped), so lowering twice
	// changes nothing the second time.
	pruneDefsAfterPass = &Pass{
		Name: "defs-after",
		Doc:  "removes, after every other pass, the definitions those passes left unused (lower.defs-pruned)",
		When: needs("unused-defs", Prune),
		Run:  runPruneDefs,
		// Only what another pass changed can have become unused: a
		// schema that no other pass applies to needs no lowering for it.
		Check: func(*Rules, *canonical.Value) bool { return false },
	}
	// defaultDialectPass drops what a client refuses and says nothing.
	defaultDialectPass = &Pass{
		Name: "default-dialect",
		Doc:  "removes a root $schema that names 2020-12, which MCP reads a schema in without one, for a client that refuses it (lower.schema-dropped)",
		When: needs("dialect-default", Drop),
		Run: func(u *Unit) {
			if v, ok := u.root.Get("$schema").StringValue(); ok && Is2020(v) {
				u.root.Delete("$schema")
				u.Report("lower.schema-dropped", "", u.root, "$schema", "$schema %q removed: the client refuses it, and MCP reads a schema without $schema as 2020-12, so it says the same", v)
			}
		},
		Check: func(_ *Rules, root *canonical.Value) bool {
			v, ok := root.Get("$schema").StringValue()
			return ok && Is2020(v)
		},
	}
	// noParametersPass runs after every pass that may leave a root without
	// parameters (strict mode closing a map, a dropped combinator).
	noParametersPass = &Pass{
		Name: "no-parameters",
		Doc:  "writes the input schema of a tool without parameters with properties: {}, which says the same (lower.properties-added)",
		When: needs("root-properties", Add),
		Run: func(u *Unit) {
			if n := u.root; u.Options.Input && noParameters(n) {
				n.Set("properties", canonical.NewObject())
				u.Report("lower.properties-added", "", n, "", "properties: {} added to the root, which says the same: GitHub Copilot CLI and Azure AI Foundry refuse an input schema without properties")
			}
		},
		Check: func(_ *Rules, root *canonical.Value) bool { return noParameters(root) },
	}
	upperTypesPass = &Pass{
		Name:     "upper",
		Doc:      `spells type names in upper case ("STRING"), as Gemini's OpenAPI schema does; a spelling, not reported`,
		Requires: []*Pass{dropUnsupportedPass},
		When:     needs("type", Upper),
		Run:      runUpper,
	}
)

// passTable lists every pass in the fixed order they run in.
var passTable = []*Pass{pruneDefsPass, inlineRefsPass, modernizePass, defaultDialectPass, neverPass, mergeAllOfPass, oneOfToAnyOfPass, constToEnumPass, tupleItemsPass, shapeNodesPass, nullableTypesPass, propertyTypePass, renameKeysPass, strictModePass, dropUnsupportedPass, anyOfAlonePass, noParametersPass, upperTypesPass, pruneDefsAfterPass}

// Is2020 reports whether the $schema value id names JSON Schema 2020-12.
func Is2020(id string) bool {
	return strings.TrimSuffix(id, "#") == "https://json-schema.org/draft/2020-12/schema"
}

// plan returns the passes that rules need, in order. A pass's Requires
// are passes whose output it expects when they run; passTable orders every
// pass after them (TestPassOrder checks it).
func plan(rules *Rules) []*Pass {
	ix := rules.indexed()
	ix.planOnce.Do(func() {
		ix.plan = planOf(rules)
		for _, p := range ix.plan {
			if p.Node != nil {
				ix.tests = append(ix.tests, p.Node(rules))
			}
		}
	})
	return ix.plan
}

// planOf is the plan of rules, made.
func planOf(rules *Rules) []*Pass {
	out := []*Pass{}
	for _, p := range passTable {
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

// has is the Node test of a pass that acts only where keyword k is.
func has(k string) func(*Rules) func(*canonical.Value) bool {
	return func(*Rules) func(*canonical.Value) bool {
		return func(n *canonical.Value) bool { return n.Has(k) }
	}
}

// someNode reports whether f holds for one of the object schemas of root,
// stopping at the first: the passes' checks, which spare a schema the copy.
func someNode(root *canonical.Value, f func(n *canonical.Value) bool) bool {
	found := false
	canonical.Visit(canonical.AsSchema(root), func(s *canonical.Schema) bool {
		found = found || s.IsObject() && f(s.JSON())
		return !found
	})
	return found
}
