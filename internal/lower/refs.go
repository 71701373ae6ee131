package lower

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/refs"
)

// DefaultInlineSize is the most schema nodes (JSON values) that inlining
// may grow a schema to when the target's rules set no "inline-size" limit.
const DefaultInlineSize = 10000

// annotation keywords: a sibling of $ref with one of these overrides the
// definition's, as openai-python and Pydantic merge them.
var annotation = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// identifiers name a schema for references; an inlined copy drops them.
var identifiers = []string{"$id", "$anchor", "$dynamicAnchor"}

// resolver finds and copies the targets of local references.
type resolver struct {
	u      *Unit
	refs   *refs.Index // the original schema's identifiers and references
	size   int         // nodes in the schema, as it grows
	max    int
	capped bool // limit.inline-size was reported
	kepts  map[canonical.Pointer]bool
}

func newResolver(u *Unit) *resolver {
	r := &resolver{u: u, max: DefaultInlineSize}
	if n, ok := u.Rules.Limit("inline-size"); ok {
		r.max = n
	}
	r.size = u.orig.Size()
	return r
}

// resolve returns the pointer, in the original schema, of what the
// reference ref of node names, resolved as refs.Index says (the base
// URI in force where node came from: $id, $anchor, JSON Pointers), and
// whether it names a schema there; external says it names another
// document.
func (r *resolver) resolve(node *canonical.Value, ref string) (target canonical.Pointer, ok, external bool) {
	res := r.index().Resolve(r.u.Origin(node), ref)
	return res.Target, res.Local, res.External != ""
}

// index returns the original schema's identifiers and references, indexed
// on the first question: most schemas have no reference to ask about.
func (r *resolver) index() *refs.Index {
	if r.refs == nil {
		r.refs = refs.IndexOf(r.u.orig)
	}
	return r.refs
}

// within reports whether p is q or inside it.
func within(p, q canonical.Pointer) bool {
	return strings.HasPrefix(string(p), string(q)) && (len(p) == len(q) || p[len(q)] == '/')
}

func refOf(node *canonical.Value) (string, bool) {
	if node == nil || node.Kind != canonical.Object {
		return "", false
	}
	return node.Get("$ref").StringValue()
}

// refStatus says what became of one reference.
type refStatus int

const (
	refInlined refStatus = iota
	refExternal
	refDangling
	refRecursive
	refTooBig
)

var refWhy = map[refStatus]string{
	refExternal:  "the reference to another document",
	refDangling:  "the dangling reference",
	refRecursive: "the recursive reference",
	refTooBig:    "past the inline-size limit, the reference",
}

// expand replaces the $ref of node, at the lowered pointer at, by a copy of
// its target merged with node's other keywords. stack holds the targets
// being expanded around node. It says why when it cannot.
func (r *resolver) expand(node *canonical.Value, at canonical.Pointer, stack []canonical.Pointer) (canonical.Pointer, refStatus) {
	ref, _ := refOf(node)
	u := r.u
	target, ok, external := r.resolve(node, ref)
	switch origin := u.Origin(node); {
	case external:
		return "", refExternal
	case !ok:
		return "", refDangling
	case target == "" || slices.Contains(stack, target) || origin != "" && within(origin, target):
		return target, refRecursive
	}
	def := u.orig.Resolve(target)
	n := def.Size()
	if r.size+n > r.max {
		if !r.capped {
			r.capped = true
			u.Report("limit.inline-size", at, node, "$ref", "inlining %s would grow the schema past %d nodes (the inline-size limit); it and later references are not inlined", ref, r.max)
		}
		return target, refTooBig
	}
	r.size += n
	c := u.copyFrom(def)
	for _, k := range identifiers {
		c.Delete(k) // the copy is not the resource the identifier names
	}
	var lost []string
	for _, m := range node.Members() {
		if d := c.Get(m.Key); annotation[m.Key] && d != nil && !d.Equal(m.Value) {
			lost = append(lost, m.Key)
		}
	}
	node.SetMembers(mergeRef(node, c))
	u.Report("lower.ref-inlined", at, node, "$ref", "inlined %s%s", ref, keptOver(lost, "the definition's"))
	return target, refInlined
}

// mergeRef returns the members of node with its $ref replaced by def: the
// definition's keywords where the $ref was, each overridden by a sibling
// annotation of the same name. When a sibling assertion disagrees with the
// definition, the definition becomes a member of allOf instead, which is
// what a $ref with siblings means in 2020-12.
func mergeRef(node, def *canonical.Value) []canonical.Member {
	if def.Kind == canonical.Bool {
		if def.Bool {
			return without(node.Members(), "$ref")
		}
		def = canonical.NewObject()
		def.Set("not", canonical.NewObject())
	}
	for _, m := range node.Members() {
		if m.Key == "$ref" || annotation[m.Key] {
			continue
		}
		if d := def.Get(m.Key); d != nil && !d.Equal(m.Value) {
			out := without(node.Members(), "$ref")
			if all := node.Get("allOf"); all != nil && all.Kind == canonical.Array {
				all.SetItems(append([]*canonical.Value{def}, all.Items()...))
				return out
			}
			return append(out, canonical.Member{Key: "allOf", Value: canonical.NewArray(def)})
		}
	}
	var out []canonical.Member
	for _, m := range node.Members() {
		if m.Key != "$ref" {
			out = append(out, m)
			continue
		}
		for _, dm := range def.Members() {
			if !node.Has(dm.Key) {
				out = append(out, dm)
			}
		}
	}
	return out
}

func without(ms []canonical.Member, key string) []canonical.Member {
	var out []canonical.Member
	for _, m := range ms {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return out
}

// cut replaces the reference of node by what a target without it can still
// check: the type of its target, if it has one.
func (r *resolver) cut(node *canonical.Value, at canonical.Pointer, target canonical.Pointer, st refStatus) {
	ref, _ := refOf(node)
	u := r.u
	var typ *canonical.Value
	if st == refRecursive || st == refTooBig {
		if def := u.orig.Resolve(target); def != nil && def.Kind == canonical.Object && !node.Has("type") {
			typ = def.Get("type")
		}
	}
	i := node.Index("$ref")
	if typ != nil {
		node.Members()[i] = canonical.Member{Key: "type", Value: u.copyFrom(typ)}
		u.Report("loss.ref", at, node, "", "%s %s cannot be inlined; replaced by its type %s", refWhy[st], ref, typ.String())
		return
	}
	node.SetMembers(append(node.Members()[:i], node.Members()[i+1:]...))
	u.Report("loss.ref", at, node, "", "%s %s cannot be inlined; dropped", refWhy[st], ref)
}

// inline expands every reference in node and below, depth first.
func (r *resolver) inline(node *canonical.Value, at canonical.Pointer, stack []canonical.Pointer) {
	if node.Kind != canonical.Object {
		return
	}
	for {
		if _, ok := refOf(node); !ok {
			break
		}
		target, st := r.expand(node, at, stack)
		if st != refInlined {
			r.cut(node, at, target, st)
			break
		}
		stack = append(stack[:len(stack):len(stack)], target)
	}
	for rel, sub := range canonical.AsSchema(node).Subschemas() {
		if k := firstToken(rel); k == "$defs" || k == "definitions" {
			continue
		}
		r.inline(sub.JSON(), at.Join(rel), stack)
	}
}

func firstToken(p canonical.Pointer) string {
	s := strings.TrimPrefix(string(p), "/")
	s, _, _ = strings.Cut(s, "/")
	return s
}

// runRefs is the refs pass.
func runRefs(u *Unit) {
	r := newResolver(u)
	if rootRef(u.Rules, u.root) {
		// A $ref at the root with keywords beside it, or to a place the
		// target cannot point at: wrapping it would make a union at the
		// root, which the target refuses, so it is inlined first (merged
		// with its siblings, or their allOf member where they disagree,
		// which the root rules merge), before any pass sees the root.
		if target, st := r.expand(u.root, "", nil); st != refInlined {
			r.cut(u.root, "", target, st)
		}
	}
	switch u.Rules.Action("$ref") {
	case Inline:
		r.inline(u.root, "", nil)
		for _, s := range allSchemas(u.root) {
			s.node.Delete("$defs")
			s.node.Delete("definitions")
		}
	case Acyclic:
		r.normalize()
		r.cutCycles()
	case Keep:
		r.normalize()
	}
	if u.Rules.Action("ref-external") == Drop && u.Rules.Action("$ref") != Inline { // inlining cut them already
		r.dropExternal()
	}
	if u.Rules.Action("ref-targets") == Hoist && u.Rules.Action("$ref") != Inline {
		// Inlined, no reference is left to hoist; a dynamic one, which
		// inlining leaves, is dropped by the drop pass (loss.ref).
		r.hoist()
	}
}

// dropExternal removes the references to other documents, which a
// provider does not fetch: a dialect's meta-schema most often
// (JSON-Schema-Test-Suite 2020-12 0064, draft7 0067). The schema then takes
// any value there, as a validator without the document would.
func (r *resolver) dropExternal() {
	for _, s := range allSchemas(r.u.root) {
		ref, ok := s.node.Get("$ref").StringValue()
		if !ok {
			continue
		}
		if _, _, external := r.resolve(s.node, ref); external {
			s.node.Delete("$ref")
			r.u.Report("loss.ref", s.at(), s.node, "$ref", "the reference to another document %s dropped: the target resolves no reference outside the schema, so any value is taken here", ref)
		}
	}
}

// hoist makes every reference point at the root or at a top-level
// definition, for a target that takes no other (OpenAI: "reference can
// only point to definitions defined at the top level of the schema";
// dotnet/extensions issue 6918): each other target is copied into $defs
// once, under a name of its own, and the references to it point there.
// Embedded resources lose their $id, as every reference is then written
// from the document root. Each is reported; the schema accepts the same.
func (r *resolver) hoist() {
	u := r.u
	root := u.root
	if root.Kind != canonical.Object {
		return
	}
	names := map[canonical.Pointer]string{} // hoisted target → its name in $defs
	for range 16 {                          // a hoisted copy may hold references of its own (bounded)
		changed := false
		for _, s := range allSchemas(root) {
			if s.at() != "" {
				// Below the root, identifiers name what the references,
				// now written from the root, no longer use; kept, an
				// anchor of one resource would clash with another's.
				for _, k := range identifiers {
					if v := s.node.Get(k); v != nil {
						s.node.Delete(k)
						u.Report("lower.ref-hoisted", s.at(), s.node, k, "%s %s dropped: every reference is written from the document root, as the target takes no other", k, v.String())
					}
				}
			}
			if dyn, ok := s.node.Get("$dynamicRef").StringValue(); ok && !s.node.Has("$ref") {
				if target, ok, _ := r.resolve(s.node, dyn); ok {
					i := s.node.Index("$dynamicRef")
					s.node.Members()[i] = canonical.Member{Key: "$ref", Value: canonical.NewString("#" + (&url.URL{Fragment: string(target)}).EscapedFragment()), KeyPos: s.node.Members()[i].KeyPos}
					u.Report("lower.ref-hoisted", s.at(), s.node, "$ref", "$dynamicRef %q written as a $ref to its static target, as the target takes no dynamic references", dyn)
				}
			}
			ref, ok := refOf(s.node)
			if !ok || s.at() == "" {
				continue // the root's own is the shape pass's: inlined there
			}
			target, ok := canonical.RefPointer(ref)
			if !ok || topLevel(target) {
				continue
			}
			def := root.Resolve(target)
			if def == nil || def.Kind != canonical.Object && def.Kind != canonical.Bool {
				continue // not a place in the schema: validation says so
			}
			name, ok := names[target]
			if !ok {
				name = r.defName(target)
				names[target] = name
				defs := root.Get("$defs")
				if defs == nil || defs.Kind != canonical.Object {
					defs = canonical.NewObject()
					root.Set("$defs", defs)
				}
				defs.Set(name, u.copyLowered(def))
				changed = true
			}
			want := "#" + (&url.URL{Fragment: string(canonical.Pointer("/$defs").Append(name))}).EscapedFragment()
			s.node.Set("$ref", canonical.NewString(want))
			u.Report("lower.ref-hoisted", s.at(), s.node, "$ref", "$ref %s points into the schema, which the target refuses: its target copied into $defs as %q, and the reference points there", ref, name)
		}
		if !changed {
			return
		}
	}
}

// topLevel reports whether p is the root or a top-level definition.
func topLevel(p canonical.Pointer) bool {
	toks, err := p.Tokens()
	return err == nil && (len(toks) == 0 || len(toks) == 2 && (toks[0] == "$defs" || toks[0] == "definitions"))
}

// defName returns a name for the hoisted target that no top-level
// definition has: its last token, then with "_2", "_3" …
func (r *resolver) defName(target canonical.Pointer) string {
	toks, _ := target.Tokens()
	base := toks[len(toks)-1]
	if _, err := strconv.Atoi(base); err == nil && len(toks) > 1 { // an item: its array's keyword and index
		base = toks[len(toks)-2] + "_" + base
	}
	defs := r.u.root.Get("$defs")
	name := base
	for i := 2; defs != nil && defs.Has(name); i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	return name
}

// normalize makes every kept local reference survive the drop pass: a
// reference by anchor is written as the JSON Pointer of its target (the
// anchor may be dropped), and one whose target sits under a keyword the
// target drops is inlined (or cut when recursive). Writing the pointer for
// the anchor is a spelling and is not reported.
func (r *resolver) normalize() {
	u := r.u
	dropsIDs := u.Rules.Action("core") == Drop || u.Rules.Action("ref-targets") == Hoist
	for _, s := range allSchemas(u.root) {
		ref, ok := refOf(s.node)
		if !ok {
			continue
		}
		target, ok, _ := r.resolve(s.node, ref)
		if !ok {
			continue // dangling or another document's: reported by validation
		}
		if r.kept(target) {
			// Written as the document's JSON Pointer where that is what
			// "#/…" means there: outside an embedded resource, or
			// anywhere once the target drops $id and $anchor. Inside a
			// resource that keeps its $id, the reference stays as it is,
			// and resolves.
			in := r.index().InResource(u.Origin(s.node))
			if want := "#" + (&url.URL{Fragment: string(target)}).EscapedFragment(); want != ref && (target != "" || in || dropsIDs) && (!in || dropsIDs) {
				s.node.Set("$ref", canonical.NewString(want))
			}
			continue
		}
		if _, st := r.expand(s.node, s.at(), nil); st != refInlined {
			r.cut(s.node, s.at(), target, st)
		}
	}
}

// kept reports whether target is reached through schema keywords only, and
// none that the target's rules drop, so the drop pass leaves it in place.
func (r *resolver) kept(target canonical.Pointer) bool {
	if k, ok := r.kepts[target]; ok {
		return k // many references name one definition
	}
	if r.kepts == nil {
		r.kepts = map[canonical.Pointer]bool{}
	}
	k := r.reachedKept(target)
	r.kepts[target] = k
	return k
}

func (r *resolver) reachedKept(target canonical.Pointer) bool {
	cur := canonical.Pointer("")
	v := canonical.AsSchema(r.u.orig)
	for cur != target {
		found, dropped := false, false
		rest := target[len(cur):]
		v.EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
			n, ok := st.Leads(rest)
			if !ok {
				return true // another way: build no pointer for it
			}
			p := target[:len(cur)+n]
			if f := keywordFeature(st.Keyword); f != nil && r.u.Rules.Action(f.Name) == Drop {
				dropped = true
				return false
			}
			cur, v, found = p, sub, true
			return false
		})
		if dropped || !found {
			return false
		}
	}
	return true
}

// cutCycles breaks every cycle of references, and nothing else, by cutting
// the references that close them in a depth-first walk from the root.
func (r *resolver) cutCycles() {
	type refAt struct {
		at     canonical.Pointer
		node   *canonical.Value
		target canonical.Pointer
		local  bool
	}
	var refs []refAt
	for _, s := range allSchemas(r.u.root) {
		if ref, ok := refOf(s.node); ok {
			t, local, _ := r.resolve(s.node, ref)
			refs = append(refs, refAt{s.at(), s.node, t, local})
		}
	}
	state := map[canonical.Pointer]int{} // 1 on the walk's path, 2 done
	cut := map[int]bool{}
	seen := map[int]bool{}
	var visit func(t canonical.Pointer)
	visit = func(t canonical.Pointer) {
		state[t] = 1
		for i, ref := range refs {
			if seen[i] || !ref.local || !within(ref.at, t) {
				continue
			}
			seen[i] = true
			switch state[ref.target] {
			case 1:
				cut[i] = true
			case 0:
				visit(ref.target)
			}
		}
		state[t] = 2
	}
	visit("")
	// Cut from the deepest, so the pointers of the others stay right.
	for i := len(refs) - 1; i >= 0; i-- {
		if cut[i] {
			r.cut(refs[i].node, refs[i].at, refs[i].target, refRecursive)
		}
	}
}

// located is a schema node with its pointer.
type located struct {
	node *canonical.Value
	list *schemaList
	i    int // in list
}

// at is the schema's pointer from the root, built only when asked for (a
// walk visits every schema; a pass reports on few).
func (l located) at() canonical.Pointer { return l.list.pointer(l.i) }

// schemaList is one walk's schemas, each with its parent and step, and its
// pointer once built.
type schemaList struct {
	entries []schemaEntry
}

type schemaEntry struct {
	parent int // -1 for the root
	step   canonical.Step
	ptr    canonical.Pointer
	built  bool
}

func (l *schemaList) pointer(i int) canonical.Pointer {
	e := &l.entries[i]
	if !e.built {
		if e.parent >= 0 {
			e.ptr = e.step.AppendTo(l.pointer(e.parent))
		}
		e.built = true
	}
	return e.ptr
}

// allSchemas lists every object schema under root, depth first.
func allSchemas(root *canonical.Value) []located {
	// Counted first, so that both lists are allocated once at their size:
	// every pass walks every schema, and growing the lists by appending
	// was the largest allocation of a build.
	n, objects := countSchemas(canonical.AsSchema(root))
	list := &schemaList{entries: make([]schemaEntry, 0, n)}
	return listSchemas(root, list, make([]located, 0, objects))
}

// listSchemas appends every schema under root to list, and the object
// schemas to out, which it returns.
func listSchemas(root *canonical.Value, list *schemaList, out []located) []located {
	var walk func(s *canonical.Schema, parent int, st canonical.Step)
	walk = func(s *canonical.Schema, parent int, st canonical.Step) {
		i := len(list.entries)
		list.entries = append(list.entries, schemaEntry{parent: parent, step: st})
		if s.IsObject() {
			out = append(out, located{s.JSON(), list, i})
		}
		s.EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
			walk(sub, i, st)
			return true
		})
	}
	walk(canonical.AsSchema(root), -1, canonical.Step{})
	return out
}

// measured lists the schemas that Applies measures against the limits and
// then drops, in memory reused from one schema to the next: every schema
// of a target with a schema budget (Gemini's maxItems) is measured, and
// most need no lowering.
type measured struct {
	list schemaList
	out  []located
}

var measuredPool = sync.Pool{New: func() any { return new(measured) }}

// schemas lists the object schemas under root.
func (m *measured) schemas(root *canonical.Value) []located {
	m.list.entries = m.list.entries[:0]
	m.out = listSchemas(root, &m.list, m.out[:0])
	return m.out
}

// release clears m of the schemas and gives it back to the pool.
func (m *measured) release() {
	clear(m.list.entries)
	clear(m.out)
	measuredPool.Put(m)
}

// countSchemas counts s and its subschemas, and the objects among them.
func countSchemas(s *canonical.Schema) (n, objects int) {
	n = 1
	if s.IsObject() {
		objects = 1
	}
	s.EachSubschema(func(_ canonical.Step, sub *canonical.Schema) bool {
		dn, do := countSchemas(sub)
		n, objects = n+dn, objects+do
		return true
	})
	return n, objects
}

// quote renders a keyword value for a message or a description.
func quote(v *canonical.Value) string {
	if v.Kind == canonical.String {
		b, _ := json.Marshal(v.Text())
		return string(b)
	}
	return v.String()
}

// ---- defs ----

// defsKeywords are where a schema keeps its definitions.
var defsKeywords = []string{"$defs", "definitions"}

// unusedDefs lists the entries of root's $defs and definitions that
// nothing refers to (refs.UsedDefs, the one answer lint gives too),
// as keyword and name.
func unusedDefs(root *canonical.Value) [][2]string {
	if !root.Has("$defs") && !root.Has("definitions") {
		return nil
	}
	used := refs.UsedDefs(canonical.AsSchema(root))
	var out [][2]string
	for _, kw := range defsKeywords {
		if defs := root.Get(kw); defs != nil && defs.Kind == canonical.Object {
			for _, m := range defs.Members() {
				if !used[canonical.Pointer("").Append(kw, m.Key)] {
					out = append(out, [2]string{kw, m.Key})
				}
			}
		}
	}
	return out
}

// runPruneDefs removes the root's definitions that nothing refers to,
// again until none is left: a definition used only by an unused one is
// unused too. One change says which went.
func runPruneDefs(u *Unit) {
	var gone []string
	for unused := unusedDefs(u.root); len(unused) > 0; unused = unusedDefs(u.root) {
		for _, d := range unused {
			defs := u.root.Get(d[0])
			defs.Delete(d[1])
			if len(defs.Members()) == 0 {
				u.root.Delete(d[0])
			}
			gone = append(gone, d[0]+"/"+d[1])
		}
	}
	if len(gone) == 0 {
		return
	}
	slices.Sort(gone)
	list := strings.Join(gone, ", ")
	if len(gone) > 5 {
		list = strings.Join(gone[:5], ", ") + fmt.Sprintf(" and %d more", len(gone)-5)
	}
	what, them := "1 unused definition", "it"
	if len(gone) > 1 {
		what, them = fmt.Sprintf("%d unused definitions", len(gone)), "them"
	}
	u.Report("lower.defs-pruned", "", u.root, "", "%s removed (%s): nothing refers to %s, and each request would send %s", what, list, them, them)
}

// move is a subschema a pass moved, from one place in the schema to another.
type move struct{ from, to canonical.Pointer }

// moveRefs rewrites the references that point at or into a moved
// subschema, so that they point where it went: one mechanism for every
// pass that moves subschemas (JSON-Schema-Test-Suite draft7 0228: a $ref
// "#/items/0" into a tuple that becomes prefixItems). The moves apply in
// order, each to what the ones before made.
func moveRefs(root *canonical.Value, moves []move) {
	if len(moves) == 0 {
		return
	}
	for _, s := range allSchemas(root) {
		ref, ok := s.node.Get("$ref").StringValue()
		if !ok || !strings.HasPrefix(ref, "#/") {
			continue
		}
		p := canonical.Pointer(ref[1:])
		for _, m := range moves {
			if p == m.from || strings.HasPrefix(string(p), string(m.from)+"/") {
				p = m.to + p[len(m.from):]
			}
		}
		if string(p) != ref[1:] {
			s.node.Set("$ref", canonical.NewString("#"+string(p)))
		}
	}
}
