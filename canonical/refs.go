package canonical

import (
	"net/url"
	"strings"
)

// DocumentURI is the base URI of a schema document that has no $id of its
// own: an invented absolute URL, so that relative references resolve the
// way JSON Schema says without naming a path of this machine.
const DocumentURI = "toolc:///schema.json"

// Refs answers "does this reference resolve, and to what?" for one schema
// document, as JSON Schema 2020-12 and draft-07 say: a $ref, $dynamicRef
// (statically) or $recursiveRef is resolved against the base URI in force
// where it is written ($id, itself resolved against its parent's), to the
// root of the resource it names, a JSON Pointer inside that resource, or
// an $anchor or $dynamicAnchor (a draft-07 "$id": "#name" too). An embedded
// resource (a subschema with an $id) is part of the same document.
//
// Validation, lowering, the acceptance check and lint all ask it, so
// "resolves" means one thing everywhere.
type Refs struct {
	root      *Value
	bases     map[Pointer]*url.URL // each schema with an $id → its base URI
	resources map[string]Pointer   // a resource's URI, without fragment → its root
	anchors   map[string]Pointer   // a resource's URI + "#" + anchor → the schema
	list      []Ref
}

// Ref is one reference of a document, resolved.
type Ref struct {
	At      Pointer // the schema that holds the keyword
	Keyword string  // "$ref", "$dynamicRef" or "$recursiveRef"
	Value   string
	Result  RefResult
}

// RefResult is where one reference leads.
type RefResult struct {
	Target Pointer // the schema it names, in the document, when Local
	Local  bool    // it names a schema of this document
	// External is the URI of another document it names (without
	// fragment); "" for a local or dangling reference.
	External string
	// Invalid says the value is not a URI reference.
	Invalid bool
}

// refKeywords are the keywords whose value is a reference.
var refKeywords = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// IndexRefs indexes the identifiers and references of the schema
// document root, walking it once.
func IndexRefs(root *Value) *Refs {
	x := &Refs{root: root, bases: map[Pointer]*url.URL{}, resources: map[string]Pointer{}, anchors: map[string]Pointer{}}
	base, _ := url.Parse(DocumentURI)
	x.resources[DocumentURI] = ""
	x.bases[""] = base
	type pending struct {
		at      Pointer
		keyword string
		value   string
	}
	var refs []pending
	var path Path
	var walk func(s *Schema, base *url.URL)
	walk = func(s *Schema, base *url.URL) {
		if !s.IsObject() {
			return
		}
		var at Pointer
		built := false
		here := func() Pointer { // built only for a schema with an identifier or a reference
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
		s.EachSubschema(func(st Step, sub *Schema) bool {
			path = append(path, st)
			walk(sub, base)
			path = path[:len(path)-1]
			return true
		})
	}
	walk(AsSchema(root), base)
	x.list = make([]Ref, len(refs))
	for i, r := range refs {
		x.list[i] = Ref{At: r.at, Keyword: r.keyword, Value: r.value, Result: x.Resolve(r.at, r.value)}
	}
	return x
}

// All returns every reference of the document, in walk order, resolved.
func (x *Refs) All() []Ref { return x.list }

// Base returns the base URI in force at the schema at: the $id of the
// nearest schema at or above it that has one, else DocumentURI.
func (x *Refs) Base(at Pointer) *url.URL {
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
func (x *Refs) Resolve(at Pointer, ref string) RefResult {
	u, err := x.Base(at).Parse(ref)
	if err != nil {
		return RefResult{Invalid: true}
	}
	doc := withoutFragment(u)
	res, ok := x.resources[doc]
	if !ok {
		return RefResult{External: doc}
	}
	frag := u.Fragment
	var target Pointer
	switch {
	case frag == "":
		target = res
	case strings.HasPrefix(frag, "/"):
		target = res.Join(Pointer(frag))
	default:
		if target, ok = x.anchors[doc+"#"+frag]; !ok {
			return RefResult{}
		}
	}
	if v := x.root.Resolve(target); v == nil || v.Kind != Object && v.Kind != Bool {
		return RefResult{}
	}
	return RefResult{Target: target, Local: true}
}

// InResource reports whether the schema at lies in an embedded resource
// (it or a schema above it, below the root, has an $id): a "#/…" written
// there names a place in that resource, not in the document.
func (x *Refs) InResource(at Pointer) bool { return x.Base(at) != x.Base("") }

// withoutFragment returns u's text without its fragment.
func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// UsedDefs returns the pointers of the $defs and definitions entries (and
// every pointer above them) that a local $ref points into, as IndexRefs
// resolves it (through $id and relative URIs too), or that hold an anchor
// or $id, which a reference may use by name.
func UsedDefs(root *Schema) map[Pointer]bool {
	used := map[Pointer]bool{}
	WalkPath(root, func(path Path, s *Schema) bool {
		if s.IsObject() && (s.JSON().Has("$anchor") || s.JSON().Has("$dynamicAnchor") || s.JSON().Has("$id")) {
			markPrefixes(used, path.Pointer())
		}
		return true
	})
	for _, r := range IndexRefs(root.JSON()).All() {
		if r.Result.Local {
			markPrefixes(used, r.Result.Target)
		}
	}
	return used
}

func markPrefixes(used map[Pointer]bool, p Pointer) {
	for q := p; q != ""; {
		used[q] = true
		i := strings.LastIndexByte(string(q), '/')
		q = q[:i]
	}
}
