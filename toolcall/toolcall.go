// Package toolcall turns a model's tool call back into the catalog's
// terms: the way back through what lowering did for a target. A call names
// the tool by its emitted name and passes arguments shaped by the emitted
// schema: strict mode made optional properties required and nullable, and a
// target's key rule renamed property keys. Decode maps the name to the tool
// ID, drops each null that stands for a property left out (only where
// toolc.lock says the property was made nullable), restores every renamed
// key at every depth, leaves everything else as it was, and validates the
// result against the tool's source schema.
//
// A Catalog is loaded from a built catalog: toolc.lock, the canonical
// bundle (a target with format = "canonical") and the target's own bundle,
// all read through an fs.FS. It never guesses: what it undoes is what the
// lock recorded. A Catalog is safe for concurrent use; each tool's schema
// is compiled once, on first use.
package toolcall

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/bundle"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/validate"

	"github.com/toolc-dev/toolc/internal/suggest"
)

// The errors Load and Decode wrap.
var (
	ErrNoCatalog        = errors.New("no built catalog")
	ErrUnknownTarget    = errors.New("unknown target")
	ErrUnknownTool      = errors.New("unknown tool")
	ErrInvalidArguments = errors.New("invalid arguments")
)

// Catalog is a built catalog, ready to decode calls for its targets.
type Catalog struct {
	tools   map[string]*canonical.Tool // by ID, as the canonical bundle has them
	targets map[string]*target
	removed map[string]map[string]*RemovedError // target → the name a removed tool had → its tombstone
	v       *validate.Validator

	mu       sync.Mutex
	compiled map[string]*compiled // by tool ID
}

type target struct {
	name, format string
	byName       map[string]*entry // emitted name → entry
}

// entry is one tool as a target emitted it.
type entry struct {
	id        string
	namespace string           // the namespace group the target sends it in; "" for none
	input     *canonical.Value // the emitted input schema
	output    *canonical.Value // the emitted output schema, where the target has one
	optional  map[canonical.Pointer]bool
	renamed   map[canonical.Pointer]string
	// renamedOut are the output schema's renamed keys: a result gets them.
	renamedOut map[canonical.Pointer]string
}

type compiled struct {
	once sync.Once
	c    *validate.Compiled
	err  error
}

// Call is a tool call in the catalog's terms.
type Call struct {
	ID   string          // the tool's ID, namespace:name
	Tool *canonical.Tool // the tool as the catalog defines it
	// Arguments are the arguments as the tool's source schema expects them:
	// the bytes the model sent when nothing had to change.
	Arguments []byte
	// Unchecked says what could not be checked: a pattern of the schema
	// that ran out of its time on a value (Problem.Unchecked). The call is
	// neither refused nor shown valid there.
	Unchecked []Problem
	// SourceName and SourceArguments are the call as the tool's source
	// takes it, ready to forward to it unchanged: where the manifest's
	// transforms changed the tool, the source's name, the arguments under
	// the source's names, hidden values and defaults added; otherwise the
	// tool's name and Arguments.
	SourceName      string
	SourceArguments []byte
}

// Transformed reports whether the source calls the tool otherwise than
// the catalog does ([sources.transforms]).
func (c *Call) Transformed() bool { return c.Tool != nil && c.Tool.Origin != nil }

// forward sets the call as the tool's source takes it, from the catalog's
// arguments v.
func (c *Call) forward(v *canonical.Value) {
	c.SourceName, c.SourceArguments = c.Tool.Name, c.Arguments
	o := c.Tool.Origin
	if o == nil || v.Kind != canonical.Object {
		return
	}
	if n, ok := o.Get("name").StringValue(); ok {
		c.SourceName = n
	}
	out := canonical.NewObject()
	renamed := o.Get("arguments")
	for _, m := range v.Members() {
		key := m.Key
		if old, ok := renamed.Get(m.Key).StringValue(); ok {
			key = old
		}
		out.Set(key, m.Value)
	}
	for _, m := range o.Get("defaults").Members() {
		if !out.Has(m.Key) {
			out.Set(m.Key, m.Value)
		}
	}
	for _, m := range o.Get("fixed").Members() {
		out.Set(m.Key, m.Value)
	}
	c.SourceArguments = out.AppendJSON(nil, "")
}

// Problem is one reason arguments are not valid, at a JSON Pointer into
// the decoded arguments.
type Problem = validate.Problem

// ArgumentsError lists why a call's arguments are not valid against the
// tool's source schema, each problem located, so a caller can send them
// back to the model.
type ArgumentsError struct {
	ID       string
	Result   bool // the tool's result (Encode), not a call's arguments
	Problems []Problem
	// Sent maps the pointer of a problem, into the arguments in the
	// catalog's terms, to where the model sent that value, where the two
	// differ: a key the target renamed ("/page size" was sent as
	// "/page_size").
	Sent map[canonical.Pointer]canonical.Pointer
}

// Error says what is wrong, one problem after the other.
func (e *ArgumentsError) Error() string {
	var b strings.Builder
	if e.Result {
		fmt.Fprintf(&b, "the result of %s is not valid:", e.ID)
	} else {
		fmt.Fprintf(&b, "arguments of %s are not valid:", e.ID)
	}
	for _, p := range e.Problems {
		at := string(p.Pointer)
		if at == "" {
			at = "(the arguments)"
		}
		fmt.Fprintf(&b, " %s: %s;", at, p.Message)
	}
	return strings.TrimSuffix(b.String(), ";")
}

// Unwrap returns ErrInvalidArguments.
func (e *ArgumentsError) Unwrap() error { return ErrInvalidArguments }

// RemovedError is the answer to a call of a tool the catalog removed and
// left a tombstone for ([[removed]] in the manifest): the release that
// removed it and the tool to use instead. It wraps ErrUnknownTool.
type RemovedError struct {
	ID      string // the removed tool's ID
	In      string // the version that removed it
	Use     string // the ID of the tool to use instead; "" for none
	UseName string // its name in the target the call was made for
}

func (e *RemovedError) Error() string {
	s := fmt.Sprintf("tool %s was removed in %s", e.ID, e.In)
	switch {
	case e.Use != "" && e.UseName != "" && e.UseName != e.Use:
		s += fmt.Sprintf("; use %s (%s)", e.Use, e.UseName)
	case e.Use != "":
		s += "; use " + e.Use
	}
	return s
}

// Unwrap returns ErrUnknownTool: the tool is not in the catalog.
func (e *RemovedError) Unwrap() error { return ErrUnknownTool }

// Load reads the built catalog whose toolc.lock is at lockPath in fsys;
// every path in the lock is relative to the lock's folder. The lock must
// list a canonical bundle (the source tools) and, for each target to
// decode for, its bundle.
func Load(fsys fs.FS, lockPath string) (*Catalog, error) {
	data, err := fs.ReadFile(fsys, lockPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoCatalog, err)
	}
	l, err := lock.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lockPath, err)
	}
	read := func(o lock.Output) (*canonical.Value, string, error) { return readOutput(fsys, lockPath, o) }
	c := &Catalog{tools: map[string]*canonical.Tool{}, targets: map[string]*target{}, v: validate.New(), compiled: map[string]*compiled{}, removed: tombstones(l.Removed)}
	if len(l.Outputs) > 0 && !slices.ContainsFunc(l.Outputs, func(o lock.Output) bool { return o.Format != "" }) {
		return nil, fmt.Errorf("%w: %s names no format for its outputs: it was written by an older toolc; run toolc build", ErrNoCatalog, lockPath)
	}
	i := slices.IndexFunc(l.Outputs, func(o lock.Output) bool { return o.Format == "canonical" })
	if i < 0 {
		return nil, fmt.Errorf("%w: %s lists no canonical bundle; add a target with format = \"canonical\" to the manifest", ErrNoCatalog, lockPath)
	}
	doc, p, err := read(l.Outputs[i])
	if err != nil {
		return nil, err
	}
	tools, ds := bundle.DecodeCanonical(doc, p)
	for _, d := range ds {
		if d.Severity == diag.Error {
			return nil, fmt.Errorf("%s: not a canonical bundle toolc reads: %s", p, d.Message)
		}
	}
	for _, t := range tools {
		c.tools[t.ID()] = t
	}
	for _, o := range l.Outputs {
		if !bundle.Readable(o.Format) {
			continue // canonical, jsonschema, and formats no model calls through
		}
		doc, p, err := read(o)
		if err != nil {
			return nil, err
		}
		byEmitted, err := bundle.Tools(o.Format, doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		c.targets[o.Target] = newTarget(o, l.Tools, byEmitted)
	}
	return c, nil
}

// tombstones indexes the lock's removed tools by target and the name each
// had there.
func tombstones(removed []lock.Removed) map[string]map[string]*RemovedError {
	m := map[string]map[string]*RemovedError{}
	for _, r := range removed {
		for tg, name := range r.Names {
			if m[tg] == nil {
				m[tg] = map[string]*RemovedError{}
			}
			m[tg][name] = &RemovedError{ID: r.ID, In: r.In, Use: r.Use, UseName: r.UseNames[tg]}
		}
	}
	return m
}

// readOutput parses the bundle o of the lock at lockPath, and returns it
// with its path.
func readOutput(fsys fs.FS, lockPath string, o lock.Output) (*canonical.Value, string, error) {
	if o.Format == "" {
		return nil, "", fmt.Errorf("%s names no format for %s: it was written by an older toolc; run toolc build", lockPath, o.Path)
	}
	p := path.Join(path.Dir(lockPath), o.Path)
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, "", err
	}
	doc, err := canonical.ParseJSON(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	return doc, p, nil
}

// newTarget is what decoding a call for target o needs of each tool the
// lock lists: its emitted schemas, and what lowering changed in them.
func newTarget(o lock.Output, tools []lock.Tool, byEmitted map[string]bundle.Emitted) *target {
	tg := &target{name: o.Target, format: o.Format, byName: map[string]*entry{}}
	for _, lt := range tools {
		name, ok := lt.Names[o.Target]
		if !ok {
			continue
		}
		e := &entry{id: lt.ID, namespace: lt.Namespaces[o.Target], optional: map[canonical.Pointer]bool{}, renamed: map[canonical.Pointer]string{}, renamedOut: map[canonical.Pointer]string{}}
		if t, ok := byEmitted[name]; ok && t.Input != nil {
			e.input, e.output = t.Input, t.Output
		}
		for p, old := range lt.RenamedOutput[o.Target] {
			e.renamedOut[canonical.Pointer(p)] = old
		}
		for _, p := range lt.Optional[o.Target] {
			e.optional[canonical.Pointer(p)] = true
		}
		for p, old := range lt.Renamed[o.Target] {
			e.renamed[canonical.Pointer(p)] = old
		}
		tg.byName[name] = e
		if alias, ok := lt.Aliases[o.Target]; ok {
			tg.byName[alias] = e // the old name of a renamed tool
		}
	}
	return tg
}

// Tool returns the catalog's tool with the ID id ("namespace:name", or
// "name"). A malformed ID wraps canonical.ErrInvalidToolID, one the catalog
// lacks ErrUnknownTool.
func (c *Catalog) Tool(id string) (*canonical.Tool, error) {
	ns, name, err := canonical.ParseID(id)
	if err != nil {
		return nil, err
	}
	t := c.tools[(&canonical.Tool{Namespace: ns, Name: name}).ID()]
	if t == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownTool, id)
	}
	return t, nil
}

// Targets lists the targets the catalog can decode calls for, sorted.
func (c *Catalog) Targets() []string {
	var out []string
	for n := range c.targets {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// entry returns the tool that target emitted as name.
func (c *Catalog) entry(targetName, name string) (*entry, error) {
	tg, ok := c.targets[targetName]
	if !ok {
		return nil, fmt.Errorf("%w %q (the catalog has %s)%s", ErrUnknownTarget, targetName, strings.Join(c.Targets(), ", "), suggest.Hint(targetName, c.Targets()))
	}
	e, ok := tg.byName[name]
	if re := c.removed[targetName][name]; !ok && re != nil {
		return nil, re
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s has no tool named %q%s", ErrUnknownTool, targetName, name, suggest.Hint(name, slices.Sorted(maps.Keys(tg.byName))))
	}
	return e, nil
}

// Decode turns a call of the tool emitted as name for target, with the
// arguments args (a JSON object as the model sent it), into the catalog's
// terms, and validates the arguments against the tool's source schema.
// Invalid arguments are an *ArgumentsError (wrapping ErrInvalidArguments)
// with the Call filled in all the same.
//
// A call to a tool the target defers is decoded as any other: deferral
// changes when a model sees a tool, not how it calls it.
func (c *Catalog) Decode(targetName, name string, args []byte) (*Call, error) {
	return c.DecodeIn(targetName, "", name, args)
}

// DecodeIn is Decode for a call that names the namespace its tool was sent
// in (the namespace of an OpenAI Responses function call, where [load]
// groups tools): the tool must be in it. An empty namespace is any.
func (c *Catalog) DecodeIn(targetName, namespace, name string, args []byte) (*Call, error) {
	e, err := c.entry(targetName, name)
	if err != nil {
		return nil, err
	}
	if namespace != "" && e.namespace != namespace {
		where := "in no namespace"
		if e.namespace != "" {
			where = fmt.Sprintf("in namespace %q", e.namespace)
		}
		return nil, fmt.Errorf("%w: %s has no tool %q in namespace %q (it sends it %s)", ErrUnknownTool, targetName, name, namespace, where)
	}
	tool := c.tools[e.id]
	if tool == nil {
		return nil, fmt.Errorf("%w: %s is in the lock but not in the canonical bundle; rebuild the catalog", ErrUnknownTool, e.id)
	}
	if len(strings.TrimSpace(string(args))) == 0 {
		args = []byte("{}") // some providers send no arguments for a tool that takes none
	}
	v, err := canonical.ParseJSON(args)
	if err != nil {
		return nil, &ArgumentsError{ID: e.id, Problems: []Problem{{Message: "not JSON: " + err.Error()}}}
	}
	call := &Call{ID: e.id, Tool: tool, Arguments: args}
	if e.input != nil && (len(e.optional) > 0 || len(e.renamed) > 0) {
		changed, problems := undo(e, v)
		if len(problems) > 0 {
			return call, &ArgumentsError{ID: e.id, Problems: problems}
		}
		if changed {
			call.Arguments = v.AppendJSON(nil, "")
		}
	}
	problems, unchecked := splitUnchecked(c.check(tool, v))
	call.Unchecked = unchecked
	if len(problems) == 0 { // a valid call whose header no client can send
		_, problems = call.Headers()
	}
	if len(problems) > 0 {
		return call, &ArgumentsError{ID: e.id, Problems: problems, Sent: sentPointers(e, args, problems)}
	}
	call.forward(v)
	return call, nil
}

// splitUnchecked parts what a check found into problems and what it could
// not check (a pattern that ran out of its time), which is no problem.
func splitUnchecked(ps []Problem) (problems, unchecked []Problem) {
	for _, p := range ps {
		if p.Unchecked {
			unchecked = append(unchecked, p)
		} else {
			problems = append(problems, p)
		}
	}
	return problems, unchecked
}

// sentPointers maps each problem's pointer, in the catalog's terms, to
// where the model sent the value, for those that differ: at each object
// on the way, a key the catalog has that the model sent under the name the
// target gave it.
func sentPointers(e *entry, args []byte, problems []Problem) map[canonical.Pointer]canonical.Pointer {
	if len(e.renamed) == 0 {
		return nil
	}
	sentAs := map[string][]string{} // catalog key → the keys the target gave it
	for p, old := range e.renamed {
		tokens, err := p.Tokens()
		if err == nil && len(tokens) > 0 {
			sentAs[old] = append(sentAs[old], tokens[len(tokens)-1])
		}
	}
	doc, err := canonical.ParseJSON(args)
	if err != nil {
		return nil
	}
	out := map[canonical.Pointer]canonical.Pointer{}
	for _, pr := range problems {
		tokens, err := pr.Pointer.Tokens()
		if err != nil {
			continue
		}
		var sent canonical.Pointer
		v := doc
		for _, tok := range tokens {
			if v != nil && v.Kind == canonical.Object && !v.Has(tok) {
				for _, k := range sentAs[tok] {
					if v.Has(k) {
						tok = k
						break
					}
				}
			}
			sent = sent.Append(tok)
			v = v.Resolve(canonical.Pointer("").Append(tok))
		}
		if sent != pr.Pointer {
			out[pr.Pointer] = sent
		}
	}
	return out
}

// check validates args against the tool's source input schema, compiled
// once per tool.
func (c *Catalog) check(t *canonical.Tool, args *canonical.Value) []Problem {
	return c.checkSchema(t.ID(), t.Input, args)
}

// checkSchema validates v against s, compiled once under key.
func (c *Catalog) checkSchema(key string, s *canonical.Schema, v *canonical.Value) []Problem {
	c.mu.Lock()
	cs := c.compiled[key]
	if cs == nil {
		cs = &compiled{}
		c.compiled[key] = cs
	}
	c.mu.Unlock()
	cs.once.Do(func() { cs.c, cs.err = c.v.Compile(s) })
	if cs.err != nil {
		return []Problem{{Message: "the tool's input schema does not compile: " + cs.err.Error()}}
	}
	return cs.c.Check(v)
}

// Encode is the way out: it turns a tool's structured result, as the
// catalog's output schema says it, into what the target declared (where a
// target renamed property keys of the output schema, a result must use the
// new keys), after validating it against the source output schema. A
// result that is not valid is an *ArgumentsError. Without an output schema
// the result is returned as it is.
func (c *Catalog) Encode(targetName, name string, result []byte) ([]byte, error) {
	e, err := c.entry(targetName, name)
	if err != nil {
		return nil, err
	}
	tool := c.tools[e.id]
	if tool == nil || tool.Output == nil {
		return result, nil
	}
	v, err := canonical.ParseJSON(result)
	if err != nil {
		return nil, &ArgumentsError{ID: e.id, Result: true, Problems: []Problem{{Message: "not JSON: " + err.Error()}}}
	}
	if problems := c.checkSchema(e.id+" output", tool.Output, v); len(problems) > 0 {
		return nil, &ArgumentsError{ID: e.id, Result: true, Problems: problems}
	}
	if e.output == nil || len(e.renamedOut) == 0 {
		return result, nil
	}
	if !redo(e, v) {
		return result, nil
	}
	return v.AppendJSON(nil, ""), nil
}

// beside walks a value beside the emitted schema that describes it, through
// $ref, the anyOf or oneOf branch the value took, allOf and items, and
// hands each object value with its schema's properties to object, which
// handles the members and calls descend for those to walk into.
type beside struct {
	root   *canonical.Value
	object func(props *canonical.Value, at canonical.Pointer, v *canonical.Value, descend func(s *canonical.Value, at canonical.Pointer, v *canonical.Value))
	depth  int
}

func (b *beside) walk(s *canonical.Value, at canonical.Pointer, v *canonical.Value) {
	if s == nil || s.Kind != canonical.Object || v == nil || b.depth > 64 {
		return
	}
	b.depth++
	defer func() { b.depth-- }()
	for _, sub := range also(b.root, s, at, v) {
		b.walk(sub.s, sub.at, v)
	}
	switch v.Kind {
	case canonical.Object:
		if props := s.Get("properties"); props != nil && props.Kind == canonical.Object {
			b.object(props, at, v, b.walk)
		}
	case canonical.Array:
		if items := s.Get("items"); items != nil && items.Kind == canonical.Object {
			for _, it := range v.Items() {
				b.walk(items, at.Append("items"), it)
			}
		}
	}
}

// undo undoes in arguments what lowering recorded for e: it drops the
// nulls of properties strict mode made nullable and restores renamed keys.
// It reports whether it changed anything, and a problem for each key sent
// both under the target's name and under its own, which cannot both be
// restored.
func undo(e *entry, args *canonical.Value) (changed bool, problems []Problem) {
	b := &beside{root: e.input}
	b.object = func(props *canonical.Value, at canonical.Pointer, v *canonical.Value, descend func(*canonical.Value, canonical.Pointer, *canonical.Value)) {
		kept := v.Members()[:0:0]
		for _, m := range v.Members() {
			ps := props.Get(m.Key)
			if ps == nil {
				kept = append(kept, m)
				continue
			}
			p := at.Append("properties", m.Key)
			if m.Value.Kind == canonical.Null && e.optional[p] {
				changed = true // left out: the property was optional
				continue
			}
			descend(ps, p, m.Value)
			if old, ok := e.renamed[p]; ok {
				if v.Has(old) {
					problems = append(problems, Problem{Message: fmt.Sprintf("%q is sent twice: as itself and as %q, the name the target gave it", old, m.Key)})
					continue
				}
				m.Key = old
				changed = true
			}
			kept = append(kept, m)
		}
		v.SetMembers(kept)
	}
	b.walk(e.input, "", args)
	return changed, problems
}

// redo writes each key of a result under the name the target gave it in
// e's output schema, and reports whether it changed anything.
func redo(e *entry, result *canonical.Value) bool {
	changed := false
	b := &beside{root: e.output}
	b.object = func(props *canonical.Value, at canonical.Pointer, v *canonical.Value, descend func(*canonical.Value, canonical.Pointer, *canonical.Value)) {
		for _, pm := range props.Members() {
			p := at.Append("properties", pm.Key)
			old, renamed := e.renamedOut[p]
			key := pm.Key
			if renamed {
				key = old
			}
			i := v.Index(key)
			if i < 0 {
				continue
			}
			descend(pm.Value, p, v.Members()[i].Value)
			if renamed {
				v.Members()[i].Key = pm.Key
				changed = true
			}
		}
	}
	b.walk(e.output, "", result)
	return changed
}

// located is a subschema and its pointer in the emitted schema.
type located struct {
	s  *canonical.Value
	at canonical.Pointer
}

// also returns the other schemas that describe value v besides s at at:
// the target of s's $ref, the anyOf or oneOf branch v took, every allOf
// member.
func also(root, s *canonical.Value, at canonical.Pointer, v *canonical.Value) []located {
	var out []located
	if ref, ok := s.Get("$ref").StringValue(); ok {
		if target, ok := canonical.RefPointer(ref); ok {
			out = append(out, located{root.Resolve(target), target})
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if bs := s.Get(k); bs != nil && bs.Kind == canonical.Array {
			for i, b := range bs.Items() {
				if fits(b, v, root) {
					out = append(out, located{b, at.Append(k).Index(i)})
					break
				}
			}
		}
	}
	if all := s.Get("allOf"); all != nil && all.Kind == canonical.Array {
		for i, b := range all.Items() {
			out = append(out, located{b, at.Append("allOf").Index(i)})
		}
	}
	return out
}

// fits reports whether value v can be an instance of branch b, by its
// type: how a decoder picks the anyOf branch a model's value took.
func fits(b, v, root *canonical.Value) bool {
	for depth := 0; b != nil && b.Kind == canonical.Object && depth < 16; depth++ {
		ref, ok := b.Get("$ref").StringValue()
		target, local := canonical.RefPointer(ref)
		if !ok || !local {
			break
		}
		b = root.Resolve(target)
	}
	if b == nil || b.Kind != canonical.Object {
		return b != nil && b.Kind == canonical.Bool && b.Bool
	}
	ts := canonical.AsSchema(b).Types()
	for i, t := range ts {
		ts[i] = strings.ToLower(t) // Gemini's OpenAPI schema mode writes "OBJECT"
	}
	if n, _ := b.Get("nullable").BoolValue(); n && ts != nil {
		ts = append(ts, "null")
	}
	if ts == nil {
		if b.Has("properties") {
			ts = []string{"object"}
		} else {
			return true
		}
	}
	want := v.Kind.String()
	if v.Kind == canonical.Number {
		want = "number"
		if !strings.ContainsAny(v.Text(), ".eE") && slices.Contains(ts, "integer") {
			return true
		}
	}
	return slices.Contains(ts, want)
}

// Diagnostics are the problems as call.invalid-arguments diagnostics on
// file, which holds the arguments as the model sent them (sent): each at
// the line and column of its place there, a key the target renamed named
// both ways.
func (ae *ArgumentsError) Diagnostics(file string, sent []byte) []diag.Diagnostic {
	doc, _ := canonical.ParseJSON(sent)
	var ds []diag.Diagnostic
	for _, p := range ae.Problems {
		where := string(p.Pointer)
		if where == "" {
			where = "the arguments"
		}
		sent, renamed := ae.Sent[p.Pointer]
		if renamed {
			where += " (sent as " + string(sent) + ")" // the key the target gave it
		} else {
			sent = p.Pointer
		}
		d := diag.New("call.invalid-arguments", "%s: %s", where, p.Message).At(file, string(sent)).About(ae.ID)
		if doc != nil && doc.Resolve(sent) != nil {
			pos := doc.PosOf(sent)
			d.Line, d.Column = int(pos.Line), int(pos.Column)
		}
		ds = append(ds, d.WithFix("send the problems back to the model, or fix the call"))
	}
	return diag.Sort(ds)
}
