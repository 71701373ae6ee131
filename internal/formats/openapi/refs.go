package openapi

import (
	"cmp"
	"net/url"
	"path"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/decode"
)

// Loader reads another file of a description: name is its path relative
// to the manifest's folder, cleaned, never outside it. It returns the parsed
// document, or diagnostics (located in that file) saying why it cannot.
type Loader func(name string) (*canonical.Value, []diag.Diagnostic)

// Graft says where Read put another file that the description refers to:
// its document is at Prefix in the description's own document, so a
// diagnostic at a pointer under Prefix is about File, at the rest of the
// pointer.
type Graft struct {
	Prefix canonical.Pointer
	File   string
}

// Remap returns where a pointer of the description's document really is:
// in a grafted file, or (file "") in the description itself.
func Remap(grafts []Graft, p canonical.Pointer) (file string, at canonical.Pointer) {
	for _, g := range grafts {
		if rest, ok := strings.CutPrefix(string(p), string(g.Prefix)); ok && (rest == "" || rest[0] == '/') {
			return g.File, canonical.Pointer(rest)
		}
	}
	return "", p
}

// graftKey is the member of the description's root that holds the other
// files it refers to, by their paths.
const graftKey = "x-toolc-files"

// maxFiles bounds how many other files one description reads.
const maxFiles = 64

// bundle reads the files that doc's $refs name ("common.yaml#/Pet",
// "schemas/pet.json"), and theirs in turn, each once, puts each document
// under /x-toolc-files/<path> in doc, and points every $ref that names a
// file at its place there, so that decoding follows references as it does
// inside one file. A $ref that leaves the manifest's folder, names the
// network, or names a file that cannot be read is left as it is, and
// decoding reports it.
func bundle(d *decode.Decoder, doc *canonical.Value, file string, load Loader) []Graft {
	if load == nil || doc.Kind != canonical.Object {
		return nil
	}
	held := canonical.NewObject()
	loaded := map[string]*canonical.Value{file: doc}
	var grafts []Graft
	type todo struct {
		file string
		v    *canonical.Value
	}
	queue := []todo{{file, doc}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		walkRefs(cur.v, "", func(at canonical.Pointer, rv *canonical.Value) {
			target, frag, ok := fileRef(rv.Text(), cur.file)
			switch {
			case !ok:
				return
			case target == "" && cur.file == file, target == file:
				rv.SetText("#" + frag) // a reference inside the description
				return
			case target == "":
				target = cur.file
			}
			if loaded[target] == nil {
				if len(loaded) > maxFiles {
					d.Diags = append(d.Diags, diag.New("source.invalid", "$ref %q: the description reads more than %d other files; toolc stops here", rv.Text(), maxFiles).At(cur.file, string(at)))
					return
				}
				v, ds := load(target)
				if v == nil {
					// One message for one fault, at the $ref: a reason
					// about the whole file (a link that leaves the
					// folder, a file that is not there) is said there.
					why := ""
					for _, x := range ds {
						if x.Code == "source.read" && x.Pointer == "" && x.Line == 0 && why == "" {
							why = ": " + x.Message
							continue
						}
						d.Diags = append(d.Diags, x)
					}
					d.Diags = append(d.Diags, diag.New("source.read", "$ref %q names %s, which cannot be read%s", rv.Text(), target, why).At(cur.file, string(at)))
					return
				}
				loaded[target] = v
				held.Set(target, v)
				grafts = append(grafts, Graft{Prefix: canonical.Pointer("").Append(graftKey, target), File: target})
				queue = append(queue, todo{target, v})
			}
			if p, ok := localRef("#" + frag); ok && loaded[target].Resolve(p) == nil {
				d.Diags = append(d.Diags, diag.New("source.invalid", "$ref %q: %s has nothing at %s", rv.Text(), target, cmp.Or(string(p), "its root")).At(cur.file, string(at)))
				return
			}
			rv.SetText("#" + fragmentEscape(string(canonical.Pointer("").Append(graftKey, target))) + frag)
		})
	}
	if len(grafts) > 0 {
		doc.Set(graftKey, held)
	}
	return grafts
}

// fileRef splits a $ref written in file into the file it names (relative
// to the manifest's folder; "" for file itself) and its fragment ("" or
// "/…", still escaped). ok is false for a reference toolc does not read:
// a URL, an absolute path, or a path that leaves the manifest's folder.
func fileRef(ref, file string) (target, frag string, ok bool) {
	p, frag, _ := strings.Cut(ref, "#")
	if frag != "" && frag[0] != '/' {
		return "", "", false // an anchor: not a JSON Pointer
	}
	if p == "" {
		return "", frag, true
	}
	if strings.Contains(p, ":") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") {
		return "", "", false // a URL, or an absolute path
	}
	if un, err := url.PathUnescape(p); err == nil {
		p = un
	}
	target = path.Join(path.Dir(file), p)
	if target == ".." || strings.HasPrefix(target, "../") {
		return "", "", false
	}
	return target, frag, true
}

// walkRefs calls fn with every "$ref" string member of v and where it is.
func walkRefs(v *canonical.Value, at canonical.Pointer, fn func(at canonical.Pointer, rv *canonical.Value)) {
	switch v.Kind {
	case canonical.Object:
		for _, m := range v.Members() {
			if m.Key == "$ref" && m.Value.Kind == canonical.String {
				fn(at.Append("$ref"), m.Value)
				continue
			}
			walkRefs(m.Value, at.Append(m.Key), fn)
		}
	case canonical.Array:
		for i, it := range v.Items() {
			walkRefs(it, at.Index(i), fn)
		}
	}
}
