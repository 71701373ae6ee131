package refs

import (
	"net/url"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// DocumentURI is the base URI of a schema document that has no $id of its
// own: an invented absolute URL, so that relative references resolve the
// way JSON Schema says without naming a path of this machine.
const DocumentURI = "toolc:///schema.json"

// Index answers "does this reference resolve, and to what?" for one schema
// document, as JSON Schema 2020-12 and draft-07 say: a $ref, $dynamicRef
// (statically) or $recursiveRef is resolved against the base URI in force
// where it is written ($id, itself resolved against its parent's), to the
// root of the resource it names, a JSON Pointer inside that resource, or
// an $anchor or $dynamicAnchor (a draft-07 "$id": "#name" too). An embedded
// resource (a subschema with an $id) is part of the same document.
//
// Validation, lowering, the acceptance check and lint all ask it, so
// "resolves" means one thing everywhere.
type Index struct {
	root      *canonical.Value
	bases     map[canonical.Pointer]*url.URL // each schema with an $id → its base URI
	resources map[string]canonical.Pointer   // a resource's URI, without fragment → its root
	anchors   map[string]canonical.Pointer   // a resource's URI + "#" + anchor → the schema
	list      []Ref
}

// Ref is one reference of a document, resolved.
type Ref struct {
	At      canonical.Pointer // the schema that holds the keyword
	Keyword string            // "$ref", "$dynamicRef" or "$recursiveRef"
	Value   string
	Result  Result
}

// Result is where one reference leads.
type Result struct {
	Target canonical.Pointer // the schema it names, in the document, when Local
	Local  bool              // it names a schema of this document
	// External is the URI of another document it names (without
	// fragment); "" for a local or dangling reference.
	External string
	// Invalid says the value is not a URI reference.
	Invalid bool
}

// refKeywords are the keywords whose value is a reference.
var refKeywords = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// IndexOf indexes the identifiers and references of the schema
// document root, walking it once.
func IndexOf(root *canonical.Value) *Index {
	x := &Index{root: root, bases: map[canonical.Pointer]*url.URL{}, resources: map[string]canonical.Pointer{}, anchors: map[string]canonical.Pointer{}}
	base, _ := url.Parse(DocumentURI)
	x.resources[DocumentURI] = ""
	x.bases[""] = base
	type pending struct {
		at      canonical.Pointer
		keyword string
		value   string
	}
	var refs []pending
	var path canonical.Path
	var walk func(s *canonical.Schema, base *url.URL)
	walk = func(s *canonical.Schema, base *url.URL) {
		if !s.IsObject() {
			return
		}
		var at canonical.Pointer
		built := false
		here := func() canonical.Pointer { // built only for a schema with an identifier or a reference
			if !built {
				at, built = path.Pointer(), true
			}
			return at
		}
		if id, ok := s.Keyword("$id").StringValue(); ok {
			if strings.HasPrefix(id, "#") { // draft-07 and earlier: a plain-name anchor
				x.anchors[withoutFragment(base)+id] = here()
			} else if u, err := base.Parse(id); err == nil {
				base = u
				x.bases[here()] = u
				x.resources[withoutFragment(u)] = here()
				if u.Fragment != "" {
					x.anchors[withoutFragment(u)+"#"+u.Fragment] = here()
				}
			}
		}
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a, ok := s.Keyword(k).StringValue(); ok {
				x.anchors[withoutFragment(base)+"#"+a] = here()
			}
		}
		for _, k := range refKeywords {
			if r, ok := s.Keyword(k).StringValue(); ok {
				refs = append(refs, pending{here(), k, r})
			}
		}
		s.EachSubschema(func(st canonical.Step, sub *canonical.Schema) bool {
			path = append(path, st)
			walk(sub, base)
			path = path[:len(path)-1]
			return true
		})
	}
	walk(canonical.AsSchema(root), base)
	x.list = make([]Ref, len(refs))
	for i, r := range refs {
		x.list[i] = Ref{At: r.at, Keyword: r.keyword, Value: r.value, Result: x.Resolve(r.at, r.value)}
	}
	return x
}

// All returns every reference of the document, in walk order, resolved.
func (x *Index) All() []Ref { return x.list }

// Base returns the base URI in force at the schema at: the $id of the
// nearest schema at or above it that has one, else DocumentURI.
func (x *Index) Base(at canonical.Pointer) *url.URL {
	for p := at; ; {
		if b, ok := x.bases[p]; ok {
			return b
		}
		i := strings.LastIndexByte(string(p), '/')
		if i < 0 {
			return x.bases[""]
		}
		p = p[:i]
	}
}

// Resolve resolves ref as written in the schema at.
func (x *Index) Resolve(at canonical.Pointer, ref string) Result {
	u, err := x.Base(at).Parse(ref)
	if err != nil {
		return Result{Invalid: true}
	}
	doc := withoutFragment(u)
	res, ok := x.resources[doc]
	if !ok {
		return Result{External: doc}
	}
	frag := u.Fragment
	var target canonical.Pointer
	switch {
	case frag == "":
		target = res
	case strings.HasPrefix(frag, "/"):
		target = res.Join(canonical.Pointer(frag))
	default:
		if target, ok = x.anchors[doc+"#"+frag]; !ok {
			return Result{}
		}
	}
	if v := x.root.Resolve(target); v == nil || v.Kind != canonical.Object && v.Kind != canonical.Bool {
		return Result{}
	}
	return Result{Target: target, Local: true}
}

// InResource reports whether the schema at lies in an embedded resource
// (it or a schema above it, below the root, has an $id): a "#/…" written
// there names a place in that resource, not in the document.
func (x *Index) InResource(at canonical.Pointer) bool { return x.Base(at) != x.Base("") }

// withoutFragment returns u's text without its fragment.
func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// UsedDefs returns the pointers of the $defs and definitions entries (and
// every pointer above them) that a local $ref points into, as IndexOf
// resolves it (through $id and relative URIs too), or that hold an anchor
// or $id, which a reference may use by name.
func UsedDefs(root *canonical.Schema) map[canonical.Pointer]bool {
	used := map[canonical.Pointer]bool{}
	canonical.WalkPath(root, func(path canonical.Path, s *canonical.Schema) bool {
		if s.IsObject() && (s.JSON().Has("$anchor") || s.JSON().Has("$dynamicAnchor") || s.JSON().Has("$id")) {
			markPrefixes(used, path.Pointer())
		}
		return true
	})
	for _, r := range IndexOf(root.JSON()).All() {
		if r.Result.Local {
			markPrefixes(used, r.Result.Target)
		}
	}
	return used
}

func markPrefixes(used map[canonical.Pointer]bool, p canonical.Pointer) {
	for q := p; q != ""; {
		used[q] = true
		i := strings.LastIndexByte(string(q), '/')
		q = q[:i]
	}
}
