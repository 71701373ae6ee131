// Package breaking compares two versions of a tool catalog and says what in
// the newer one breaks callers of the older one: stored prompts, queued tool
// calls, evals and the servers that validate arguments. It walks each tool's
// old and new schemas together. For input schemas, a change is breaking when
// the new schema rejects arguments the old one accepted; for output schemas
// it is the mirror image, a result the old schema promised and the new one
// does not. Every finding is a breaking.* diagnostic, and Needed says which
// semantic-version bump the findings call for.
//
// The package does no I/O: building the two catalogs is the caller's job.
package breaking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
)

// Options tune Compare.
type Options struct {
	// Strict names the new catalog's strict targets (OpenAI or Anthropic
	// with strict = true), which make every property required: there an
	// added optional property is a new required one.
	Strict []string
	// Today is the date against which sunset dates are read (default: the
	// current date): a tool removed after its sunset is a minor change.
	Today time.Time
	// Version is the new catalog's version: the window counts the
	// releases before it.
	Version string
	// Window, when set, is the deprecation window that removing a
	// deprecated tool or input property must wait out.
	Window *Window
	// Tombstones are the removed tools that the manifest says went
	// somewhere, by ID.
	Tombstones map[string]Tombstone
	// Deferred, when set, are the targets that defer each tool in the old
	// and the new catalog, by ID: a tool deferred where it was loaded is a
	// line (a model stops seeing it until it searches).
	Deferred *Deferred
}

// Deferred are the targets that defer each tool ([load]), by ID, in the
// old catalog and the new.
type Deferred struct{ Old, New map[string][]string }

// Compare compares the old and new catalogs tool by tool, matched by ID, and
// returns the findings sorted. A tool that was renamed is one removed and one
// added. Findings are located in the new tool's file where there is one (the
// pointer is into that file); a removed tool is located at its old file.
func Compare(old, new []*canonical.Tool, opts Options) []diag.Diagnostic {
	c := &comparer{opts: opts}
	if c.opts.Today.IsZero() {
		c.opts.Today = time.Now()
	}
	today := c.opts.Today.Format(time.DateOnly)
	byID := map[string]*canonical.Tool{}
	renamed := map[string]*canonical.Tool{} // old ID → the tool renamed from it
	for _, t := range new {
		byID[t.ID()] = t
		if t.RenamedFrom != "" {
			renamed[t.RenamedFrom] = t
		}
	}
	seen := map[string]bool{}
	for _, o := range old {
		id := o.ID()
		seen[id] = true
		n := byID[id]
		switch r := renamed[id]; {
		case n != nil:
			c.tool(o, n)
			c.lifecycle(o, n)
			c.deferral(n)
			if n.Deprecated && !o.Deprecated {
				sunset := ""
				if n.Sunset != "" {
					sunset = ", with the sunset " + n.Sunset
				}
				c.report(n, "breaking.tool-deprecated", "", "deprecated now%s", sunset)
			}
		case r != nil && !seen[r.ID()] && byID[id] == nil:
			seen[r.ID()] = true
			c.report(r, "breaking.tool-renamed", "/renamed_from", "renamed from %s; the build serves the old name as an alias while renamed_from says so", id)
			c.tool(o, r)
		default:
			c.removed(o, today)
		}
	}
	for _, n := range new {
		if !seen[n.ID()] {
			c.report(n, "breaking.tool-added", "", "added")
		}
	}
	return diag.Sort(c.out)
}

type comparer struct {
	opts Options
	out  []diag.Diagnostic
	// the window's history, read once
	read       bool
	history    []Release
	historyErr error
	said       map[string]bool // the releases said unreadable
}

// deferral reports the targets that defer the tool n now and did not.
func (c *comparer) deferral(n *canonical.Tool) {
	d := c.opts.Deferred
	if d == nil {
		return
	}
	var now []string
	for _, t := range d.New[n.ID()] {
		if !slices.Contains(d.Old[n.ID()], t) {
			now = append(now, t)
		}
	}
	if len(now) > 0 {
		c.report(n, "breaking.tool-deferred", "", "deferred now in %s: a model sees it only once its tool search finds it", strings.Join(now, ", "))
	}
}

// report adds a finding about the new tool t at the canonical pointer at.
func (c *comparer) report(t *canonical.Tool, code string, at canonical.Pointer, format string, args ...any) {
	d := diag.New(code, format, args...).At(t.Source.Place(at)).About(t.ID())
	d.Subject = string(at)
	c.out = append(c.out, d)
}

// removed reports the removal of the old tool o.
func (c *comparer) removed(o *canonical.Tool, today string) {
	id := o.ID()
	code, msg := "breaking.tool-removed", "removed (or renamed): a call to it fails"
	switch {
	case o.Deprecated && c.opts.Window != nil:
		if retired, why := c.retire(id, "", "the deprecated tool"); retired != "" {
			code, msg = retired, why
		} else {
			msg += "; " + why
		}
	case o.Sunset != "" && o.Sunset <= today:
		code, msg = "breaking.tool-sunset", fmt.Sprintf("removed after its sunset date %s", o.Sunset)
	case o.Sunset != "":
		msg += fmt.Sprintf("; its sunset date %s has not come", o.Sunset)
	}
	if ts, ok := c.opts.Tombstones[id]; ok {
		msg += fmt.Sprintf("; its tombstone says removed in %s", ts.In)
		if ts.Use != "" {
			msg += ", use " + ts.Use
		}
	}
	d := diag.NewText(code, msg).About(id)
	d.File = o.Source.File
	c.out = append(c.out, d)
}

func (c *comparer) tool(o, n *canonical.Tool) {
	if o.Description != n.Description {
		c.report(n, "breaking.description-changed", "/description", "the description changed")
	}
	if o.Title != n.Title {
		c.report(n, "breaking.description-changed", "/title", "the title changed")
	}
	c.walk(n, o.Input, n.Input, true).schema(o.Input.JSON(), n.Input.JSON(), "/input", "")
	switch {
	case o.Output != nil && n.Output == nil:
		c.report(n, "breaking.output-property-removed", "", "the output schema was removed: callers that read structured results get none")
	case o.Output != nil:
		c.walk(n, o.Output, n.Output, false).schema(o.Output.JSON(), n.Output.JSON(), "/output", "")
	}
}

// walk compares one pair of schemas of the new tool t.
type walk struct {
	c                *comparer
	tool             *canonical.Tool
	input            bool             // input schemas (else output)
	oldRoot, newRoot *canonical.Value // what local $refs resolve against
	seen             map[[2]*canonical.Value]bool
}

func (c *comparer) walk(t *canonical.Tool, old, new *canonical.Schema, input bool) *walk {
	return &walk{c: c, tool: t, input: input, oldRoot: old.JSON(), newRoot: new.JSON(), seen: map[[2]*canonical.Value]bool{}}
}

func (w *walk) report(code string, at canonical.Pointer, format string, args ...any) {
	w.c.report(w.tool, code, at, format, args...)
}

// where names a place in the schema for messages: the property path, or
// "the input"/"the output".
func (w *walk) where(path string) string {
	side := "output"
	if w.input {
		side = "input"
	}
	if path == "" {
		return "the " + side
	}
	return fmt.Sprintf("%s %q", side, path)
}

// resolve follows local $refs of v within root.
func resolve(root, v *canonical.Value) *canonical.Value {
	for range 32 {
		if v == nil || v.Kind != canonical.Object {
			return v
		}
		ref, _ := v.Get("$ref").StringValue()
		p, ok := canonical.RefPointer(ref)
		if !ok {
			return v
		}
		next := root.Resolve(p)
		if next == nil {
			return v
		}
		v = next
	}
	return v
}

// schema compares one node: old and new are the schemas at the same place,
// at is the new node's canonical pointer, path the property path for
// messages.
func (w *walk) schema(old, new *canonical.Value, at canonical.Pointer, path string) {
	old, new = resolve(w.oldRoot, old), resolve(w.newRoot, new)
	if old == nil || new == nil || old.Equal(new) {
		return
	}
	key := [2]*canonical.Value{old, new}
	if w.seen[key] { // recursive schemas
		return
	}
	w.seen[key] = true
	if old.Kind != canonical.Object || new.Kind != canonical.Object {
		if w.input && new.Kind == canonical.Bool && !new.Bool {
			w.report("breaking.type-changed", at, "%s accepts nothing now (false)", w.where(path))
		}
		return
	}
	composed := composite(old) || composite(new)
	typed := false
	if !composed { // with a composition on either side, inclusion decides the whole node
		typed = w.types(old, new, at, path)
		if w.input {
			w.values(old, new, at, path)
			w.bounds(old, new, at, path)
		}
	}
	decided := !composed || w.compositions(old, new, at, path, typed)
	for _, k := range unverified {
		if decided && slices.Contains(combinators, k) {
			continue
		}
		if o, n := old.Get(k), new.Get(k); (o != nil || n != nil) && !o.Equal(n) {
			w.report("breaking.unverified", at.Append(k), "%s: %s changed, which toolc does not compare; check by hand whether it breaks callers", w.where(path), k)
		}
	}
	if d := new.Get("description"); path != "" && !old.Get("description").Equal(d) && (d != nil || old.Has("description")) {
		w.report("breaking.description-changed", at+"/description", "the description of %s changed", w.where(path))
	}
	w.properties(old, new, at, path)
	if oi, ni := old.Get("items"), new.Get("items"); oi != nil && ni != nil {
		w.schema(oi, ni, at+"/items", path+"[]")
	}
	if op, np := old.Get("prefixItems"), new.Get("prefixItems"); op != nil && np != nil && op.Kind == canonical.Array && np.Kind == canonical.Array {
		for i := range min(len(op.Items()), len(np.Items())) {
			w.schema(op.Items()[i], np.Items()[i], at.Index(i).Append("prefixItems"), fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// accepts reports whether a "type" list accepts values of type t; nil is
// every type.
func accepts(types []string, t string) bool {
	return types == nil || slices.Contains(types, t) || (t == "integer" && slices.Contains(types, "number"))
}

func typesOf(v *canonical.Value) []string { return canonical.AsSchema(v).Types() }

func typeText(ts []string) string {
	if ts == nil {
		return "any type"
	}
	return strings.Join(ts, " or ")
}

// combinators are the keywords whose changes (*walk).compositions decides.
var combinators = []string{"anyOf", "oneOf", "allOf"}

// composite reports whether schema v combines subschemas.
func composite(v *canonical.Value) bool {
	return slices.ContainsFunc(combinators, v.Has)
}

// compositions decides a change to anyOf, oneOf or allOf by subschema
// inclusion: for an input, the new schema must accept every value the old
// one did (a branch removed or narrowed breaks callers; one added loosens);
// for an output, the old schema must have promised every value the new one
// allows. It reports whether it decided; when it cannot (a pattern, a
// format, not …), the caller reports breaking.unverified.
func (w *walk) compositions(old, new *canonical.Value, at canonical.Pointer, path string, typed bool) bool {
	k := "the schema"
	kat := at
	for _, c := range combinators {
		if o, n := old.Get(c), new.Get(c); (o != nil || n != nil) && !o.Equal(n) {
			k, kat = c, at.Append(c)
			break
		}
	}
	oldHasNew := func() verdict { return (&incl{aRoot: w.oldRoot, bRoot: w.newRoot}).includes(old, new) }
	if !w.input {
		switch oldHasNew() {
		case unknown:
			return false
		case no:
			if !typed {
				w.report("breaking.type-changed", kat, "%s may now be values it did not promise: its %s changed%s", w.where(path), k, w.which(new, old, w.newRoot, w.oldRoot))
			}
		}
		return true
	}
	switch (&incl{aRoot: w.newRoot, bRoot: w.oldRoot}).includes(new, old) {
	case unknown:
		return false
	case no:
		if !typed {
			w.report("breaking.type-changed", kat, "%s no longer accepts every value it did: its %s changed%s", w.where(path), k, w.which(old, new, w.oldRoot, w.newRoot))
		}
	case yes:
		if oldHasNew() != yes {
			w.report("breaking.constraint-loosened", at, "%s accepts more now: its %s changed", w.where(path), k)
		}
	}
	return true
}

// which names a branch of from's union that to no longer includes.
func (w *walk) which(from, to, fromRoot, toRoot *canonical.Value) string {
	for _, br := range union(from) {
		if (&incl{aRoot: toRoot, bRoot: fromRoot}).includes(to, br) == no {
			s := br.String()
			if len(s) > 80 {
				s = s[:77] + "..."
			}
			return " (the branch " + s + ")"
		}
	}
	return ""
}

func (w *walk) types(old, new *canonical.Value, at canonical.Pointer, path string) bool {
	ot, nt := typesOf(old), typesOf(new)
	from, to := ot, nt // input: every old type must still be accepted
	verb := "no longer accepts"
	if !w.input { // output: every new type must have been promised
		from, to = nt, ot
		verb = "may now be"
	}
	if from == nil && to != nil {
		if union(old) != nil || union(new) != nil {
			return false // a union without "type": the compositions decide
		}
		w.report("breaking.type-changed", at+"/type", "%s was %s and is %s now", w.where(path), typeText(ot), typeText(nt))
		return true
	}
	for _, t := range from {
		if !accepts(to, t) {
			w.report("breaking.type-changed", at+"/type", "%s %s %s (type %s, was %s)", w.where(path), verb, t, typeText(nt), typeText(ot))
			return true
		}
	}
	return false
}

// values compares enum, const and pattern of an input node.
func (w *walk) values(old, new *canonical.Value, at canonical.Pointer, path string) {
	oe, ne := old.Get("enum"), new.Get("enum")
	switch {
	case ne != nil && oe == nil:
		w.report("breaking.enum-value-removed", at+"/enum", "%s takes only the enum %s now", w.where(path), ne.String())
	case ne != nil && oe.Kind == canonical.Array && ne.Kind == canonical.Array:
		for _, v := range oe.Items() {
			if !slices.ContainsFunc(ne.Items(), v.Equal) {
				w.report("breaking.enum-value-removed", at+"/enum", "%s no longer takes %s", w.where(path), v.String())
			}
		}
		for _, v := range ne.Items() {
			if !slices.ContainsFunc(oe.Items(), v.Equal) {
				w.report("breaking.enum-value-added", at+"/enum", "%s takes %s too", w.where(path), v.String())
			}
		}
	case oe != nil && ne == nil:
		w.report("breaking.constraint-loosened", at, "%s has no enum any more", w.where(path))
	}
	for _, r := range []struct{ keyword, code, verb string }{
		{"const", "breaking.const-changed", "must be"},
		{"pattern", "breaking.pattern-changed", "must match"},
	} {
		o, n := old.Get(r.keyword), new.Get(r.keyword)
		switch {
		case n != nil && !n.Equal(o):
			was := "no " + r.keyword
			if o != nil {
				was = o.String()
			}
			w.report(r.code, at.Append(r.keyword), "%s %s %s now (was %s)", w.where(path), r.verb, n, was)
		case o != nil && n == nil:
			w.report("breaking.constraint-loosened", at, "%s has no %s any more", w.where(path), r.keyword)
		}
	}
}

// unverified are the assertion keywords that the walk does not compare: a
// change to one is reported as such, never passed over.
var unverified = []string{
	"anyOf", "oneOf", "allOf", "not", "if", "then", "else",
	"dependentRequired", "dependentSchemas", "dependencies",
	"patternProperties", "propertyNames", "contains", "minContains", "maxContains",
	"uniqueItems", "multipleOf", "format", "unevaluatedProperties", "unevaluatedItems",
	"$dynamicRef", "$recursiveRef",
}

// upper and lower bounds: a new or lower upper bound, or a new or higher
// lower bound, rejects values that were accepted.
var (
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
)

func (w *walk) bounds(old, new *canonical.Value, at canonical.Pointer, path string) {
	check := func(k string, tighter func(o, n float64) bool) {
		o, hadOld := old.Get(k).NumberValue()
		n, hasNew := new.Get(k).NumberValue()
		switch {
		case hasNew && (!hadOld || tighter(o, n)):
			was := "none"
			if hadOld {
				was = old.Get(k).Text()
			}
			w.report("breaking.bound-tightened", at.Append(k), "%s: %s is %s now (was %s)", w.where(path), k, new.Get(k).Text(), was)
		case hadOld && (!hasNew || tighter(n, o)):
			now := "none"
			if hasNew {
				now = new.Get(k).Text()
			}
			w.report("breaking.constraint-loosened", at, "%s: %s is %s now (was %s)", w.where(path), k, now, old.Get(k).Text())
		}
	}
	for _, k := range upperBounds {
		check(k, func(o, n float64) bool { return n < o })
	}
	for _, k := range lowerBounds {
		check(k, func(o, n float64) bool { return n > o })
	}
}

func isFalse(v *canonical.Value) bool { return v != nil && v.Kind == canonical.Bool && !v.Bool }

func requiredSet(v *canonical.Value) map[string]bool {
	names, _ := v.Get("required").Strings()
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// propertyRemoved reports the removal of the input property name, whose
// old schema is old, from the object at, path.
func (w *walk) propertyRemoved(old *canonical.Value, at canonical.Pointer, path, name string) {
	code, msg := "breaking.property-removed", fmt.Sprintf("property %q was removed from %s: a call that passes it is rejected or its value ignored", join(path, name), w.where(path))
	if dep, _ := old.Get("deprecated").BoolValue(); dep && w.c.opts.Window != nil {
		in := strings.TrimPrefix(string(at), "/input")
		if retired, why := w.c.retire(w.tool.ID(), canonical.Pointer(in).Append("properties", name), fmt.Sprintf("the deprecated property %q of %s", join(path, name), w.where(path))); retired != "" {
			code, msg = retired, why
		} else {
			msg += "; " + why
		}
	}
	w.report(code, at+"/properties", "%s", msg)
	w.c.out[len(w.c.out)-1].Subject = string(at.Append("properties", name))
}

// properties compares the properties, required lists and
// additionalProperties of two object schemas.
func (w *walk) properties(old, new *canonical.Value, at canonical.Pointer, path string) {
	op, np := old.Get("properties"), new.Get("properties")
	oreq, nreq := requiredSet(old), requiredSet(new)
	if op != nil && op.Kind == canonical.Object {
		for _, m := range op.Members() {
			name := m.Key
			if np.Get(name) != nil {
				continue
			}
			if w.input {
				w.propertyRemoved(m.Value, at, path, name)
			} else {
				w.report("breaking.output-property-removed", at+"/properties", "property %q was removed from %s: callers that read it get nothing", join(path, name), w.where(path))
			}
		}
	}
	if np != nil && np.Kind == canonical.Object {
		for _, m := range np.Members() {
			name, pat := m.Key, at.Append("properties").Append(m.Key)
			ov := op.Get(name)
			switch {
			case ov == nil && w.input && nreq[name]:
				w.report("breaking.required-added", pat, "required property %q was added to %s: a call without it is rejected", join(path, name), w.where(path))
			case ov == nil && w.input && len(w.c.opts.Strict) > 0:
				w.report("breaking.optional-added-strict", pat, "optional property %q was added to %s; the strict targets %s make it required (nullable), so a stored call without it is rejected there", join(path, name), w.where(path), strings.Join(w.c.opts.Strict, ", "))
			case ov == nil && w.input:
				w.report("breaking.optional-added", pat, "optional property %q was added to %s", join(path, name), w.where(path))
			case ov == nil:
			default:
				w.schema(ov, m.Value, pat, join(path, name))
			}
			if ov == nil {
				continue
			}
			switch {
			case w.input && !oreq[name] && nreq[name]:
				w.report("breaking.made-required", pat, "property %q of %s is required now: a call without it is rejected", join(path, name), w.where(path))
			case w.input && oreq[name] && !nreq[name]:
				w.report("breaking.constraint-loosened", pat, "property %q of %s is optional now", join(path, name), w.where(path))
			case !w.input && oreq[name] && !nreq[name]:
				w.report("breaking.output-made-optional", pat, "property %q of %s is optional now: callers that rely on it may get nothing", join(path, name), w.where(path))
			}
		}
	}
	oa, na := old.Get("additionalProperties"), new.Get("additionalProperties")
	switch {
	case !w.input:
	case isFalse(na) && !isFalse(oa):
		w.report("breaking.additional-properties-closed", at+"/additionalProperties", "%s takes no other properties now (additionalProperties: false)", w.where(path))
	case isFalse(oa) && !isFalse(na):
		w.report("breaking.constraint-loosened", at, "%s takes other properties now", w.where(path))
	case oa != nil && na != nil:
		w.schema(oa, na, at+"/additionalProperties", join(path, "*"))
	}
}
