package openapi

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// override returns the override of the operation r and its key, and records
// that the key matched. Two keys for one operation (its operationId and its
// route) are a problem; the first, in key order, applies.
func (o *oasDoc) override(r operationRef) (Override, string) {
	var keys []string
	for _, k := range o.overrides {
		if r.named(k, false) {
			keys = append(keys, k)
			o.matched[Entry{"operations", k}] = true
		}
	}
	if len(keys) == 0 {
		return Override{}, ""
	}
	if len(keys) > 1 {
		o.problem([]string{"operations"}, "%s all name the operation %s %s; keep one", quoteKeys(keys), strings.ToUpper(r.method), r.path)
	}
	return o.opts.Operations[keys[0]], keys[0]
}

func (o *oasDoc) problem(key []string, format string, args ...any) {
	o.problems = append(o.problems, problemf(key, format, args...))
}

func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}

// stringAt returns the string member key of v, or "".
func stringAt(v *canonical.Value, key string) string {
	s, _ := v.Get(key).StringValue()
	return s
}

// methodHints are the annotations an HTTP method implies (RFC 9110's safe
// and idempotent methods): applied as defaults, under what the description
// and the manifest say.
var methodHints = map[string]Hints{
	"get":     {ReadOnly: ptr(true)},
	"head":    {ReadOnly: ptr(true)},
	"options": {ReadOnly: ptr(true)},
	"trace":   {ReadOnly: ptr(true)},
	"put":     {ReadOnly: ptr(false), Idempotent: ptr(true)},
	"delete":  {ReadOnly: ptr(false), Destructive: ptr(true), Idempotent: ptr(true)},
	"post":    {ReadOnly: ptr(false)},
	"patch":   {ReadOnly: ptr(false)},
}

func ptr[T any](v T) *T { return &v }

// hints makes a tool's annotations: the method's defaults, then
// x-openai-isConsequential (true: the call changes something that matters,
// so not read-only and destructive; false: it needs no confirmation, so
// not destructive), then x-speakeasy-mcp's annotations, then the
// manifest's override.
func (o *oasDoc) hints(method string, op *canonical.Value, opAt canonical.Pointer, sp *canonical.Value, ov Hints) *canonical.Annotations {
	h := methodHints[method]
	o.notes.add("hints-"+method, opAt)
	if c, ok := op.Get("x-openai-isConsequential").BoolValue(); ok {
		if c {
			h.ReadOnly, h.Destructive = ptr(false), ptr(true)
		} else {
			h.Destructive = ptr(false)
		}
	}
	a := &canonical.Annotations{}
	for _, m := range decode.Members(sp.Get("annotations")) {
		b, ok := m.Value.BoolValue()
		switch {
		case m.Key == "title":
			a.Title, _ = m.Value.StringValue()
		case !ok:
		case m.Key == "readOnlyHint":
			h.ReadOnly = &b
		case m.Key == "destructiveHint":
			h.Destructive = &b
		case m.Key == "idempotentHint":
			h.Idempotent = &b
		case m.Key == "openWorldHint":
			h.OpenWorld = &b
		}
	}
	a.ReadOnlyHint = cmpOr(ov.ReadOnly, h.ReadOnly)
	a.DestructiveHint = cmpOr(ov.Destructive, h.Destructive)
	a.IdempotentHint = cmpOr(ov.Idempotent, h.Idempotent)
	a.OpenWorldHint = cmpOr(ov.OpenWorld, h.OpenWorld)
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		// A read-only tool is neither destructive nor not: MCP reads
		// destructiveHint only when readOnlyHint is false.
		a.DestructiveHint = ov.Destructive
	}
	if a.Title == "" && a.ReadOnlyHint == nil && a.DestructiveHint == nil && a.IdempotentHint == nil && a.OpenWorldHint == nil {
		return nil
	}
	return a
}

func cmpOr(a, b *bool) *bool {
	if a != nil {
		return a
	}
	return b
}

// reshape applies an override's fixed and renamed properties to the input
// schema in and records them in the HTTP binding, so that a caller knows
// what to send and where each argument goes.
func (o *oasDoc) reshape(t *canonical.Tool, in, http *canonical.Value, ov Override, key string) {
	if len(ov.Fixed) == 0 && len(ov.Rename) == 0 {
		return
	}
	props := in.Get("properties")
	at := func(more ...string) []string { return append([]string{"operations", key}, more...) }
	for _, name := range sortedKeys(ov.Fixed) {
		s := props.Get(name)
		if s == nil {
			o.problem(at("fixed"), "the tool %q has no input property %q (it has %s)", t.Name, name, strings.Join(props.Keys(), ", "))
			continue
		}
		v, err := canonical.FromTOML(ov.Fixed[name])
		if err == nil {
			err = fits(v, s)
		}
		if err != nil {
			o.problem(at("fixed", name), "%v", err)
			continue
		}
		props.Delete(name)
		decode.DropRequired(in, name)
		delete(t.Source.Fields, canonical.Pointer("/input/properties").Append(name))
		bind(http, name, func(entry *canonical.Value) {
			entry.Delete("property")
			entry.Set("value", v)
		}, func(body *canonical.Value) { decode.SetIn(body, "fixed", name, v) })
	}
	for _, old := range sortedKeys(ov.Rename) {
		name := ov.Rename[old]
		switch {
		case props.Get(old) == nil:
			o.problem(at("rename"), "the tool %q has no input property %q (it has %s)%s", t.Name, old, strings.Join(props.Keys(), ", "), suggest.Hint(old, props.Keys()))
			continue
		case props.Has(name):
			o.problem(at("rename"), "the tool %q has an input property %q already", t.Name, name)
			continue
		}
		props.Members()[props.Index(old)].Key = name
		if req := in.Get("required"); req != nil {
			for _, it := range req.Items() {
				if it.Text() == old {
					it.SetText(name)
				}
			}
		}
		from, to := canonical.Pointer("/input/properties").Append(old), canonical.Pointer("/input/properties").Append(name)
		for _, p := range slices.Sorted(maps.Keys(t.Source.Fields)) {
			if rest, ok := strings.CutPrefix(string(p), string(from)); ok && (rest == "" || rest[0] == '/') {
				t.Source.Fields[canonical.Pointer(string(to)+rest)] = t.Source.Fields[p]
				delete(t.Source.Fields, p)
			}
		}
		bind(http, old, func(entry *canonical.Value) {
			entry.Set("property", canonical.NewString(name))
		}, func(body *canonical.Value) { decode.SetIn(body, "properties", name, canonical.NewString(old)) })
	}
}

// bind finds where the input property name goes in the HTTP binding: a
// parameter's entry (param is called with it), or the body, whole or one
// of its flattened fields (body is called with the body's binding).
func bind(http *canonical.Value, name string, param func(entry *canonical.Value), body func(b *canonical.Value)) {
	var entries []*canonical.Value
	if ps := http.Get("parameters"); ps != nil {
		entries = ps.Items()
	}
	for _, entry := range entries {
		if p, _ := entry.Get("property").StringValue(); p == name {
			param(entry)
			return
		}
	}
	b := http.Get("body")
	if b == nil {
		return
	}
	if p, _ := b.Get("property").StringValue(); p == name {
		param(b)
		return
	}
	body(b)
}

// fits checks v against the "type" and "enum" of the schema s: enough to
// catch a fixed value of the wrong kind, which the API would refuse.
func fits(v *canonical.Value, s *canonical.Value) error {
	if e := s.Get("enum"); e != nil && e.Kind == canonical.Array && !slices.ContainsFunc(e.Items(), v.Equal) {
		return fmt.Errorf("%s is not one of the property's enum", v)
	}
	typ := s.Get("type")
	if typ == nil {
		return nil
	}
	types, ok := typ.Strings()
	if !ok {
		if one, isString := typ.StringValue(); isString {
			types = []string{one}
		}
	}
	if len(types) == 0 {
		return nil
	}
	kind := v.JSONType()
	for _, t := range types {
		if t == kind || t == "number" && kind == "integer" {
			return nil
		}
	}
	return fmt.Errorf("%s is %s, and the property takes %s", v, article(kind), strings.Join(types, " or "))
}

func article(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}

// notes counts, per kind, what reading did by default to the operations
// of one file, to report each kind once with its count and first place.
type notes map[string]*note

type note struct {
	count int
	first canonical.Pointer
}

func (n *notes) add(kind string, at canonical.Pointer) {
	if *n == nil {
		*n = notes{}
	}
	if (*n)[kind] == nil {
		(*n)[kind] = &note{first: at}
	}
	(*n)[kind].count++
}

// hintText says, per method, what its default annotations say.
var hintText = map[string][2]string{
	"get":     {"read-only", "readOnlyHint true"},
	"head":    {"read-only", "readOnlyHint true"},
	"options": {"read-only", "readOnlyHint true"},
	"trace":   {"read-only", "readOnlyHint true"},
	"put":     {"idempotent and not read-only", "idempotentHint true, readOnlyHint false"},
	"delete":  {"destructive, idempotent and not read-only", "destructiveHint true, idempotentHint true, readOnlyHint false"},
	"post":    {"not read-only", "readOnlyHint false"},
	"patch":   {"not read-only", "readOnlyHint false"},
}

func (n notes) report(d *decode.Decoder) {
	for _, k := range sortedKeys(n) {
		c := n[k].count
		ops, are := "operations", "are"
		if c == 1 {
			ops, are = "operation", "is"
		}
		if k == "described" {
			d.Report("source.openapi-described", n[k].first, "%d %s without a summary or description %s described by method and path (the first here)", c, ops, are)
			continue
		}
		method, _ := strings.CutPrefix(k, "hints-")
		h := hintText[method]
		d.Report("source.openapi-hints", n[k].first, "%d %s %s %s %s by default (annotations %s; the first here)", c, strings.ToUpper(method), ops, are, h[0], h[1])
	}
}
