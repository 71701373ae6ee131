// Package transform curates a source's tools as the manifest says
// ([sources.transforms."GLOB"]): a tool renamed, redescribed, retagged,
// deprecated, its hints set; an argument renamed, redescribed, hidden
// behind a fixed value, given a default, narrowed. It runs after a source
// is read and before the catalog is validated and lowered, and records on
// each tool (canonical.Tool.Origin) how its source calls it, so that
// toolcall turns a call back to what the source takes.
//
// A transform only narrows: a fixed value, a default and each enum value
// must be valid against the source's own schema of the property, and a
// bound may only tighten. What is wrong is a Problem at the transform's
// key, for the caller to locate in the manifest.
package transform

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/decode"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/suggest"
	"github.com/toolc-dev/toolc/internal/validate"
)

// Problem is what is wrong with a transform, at Key under its table
// (["arguments", "state", "value"]): Unmatched when the tool lacks what it
// names (an argument), else a value or bound that does not fit.
type Problem struct {
	Key       []string
	Message   string
	Unmatched bool
}

func problem(key []string, format string, args ...any) Problem {
	return Problem{Key: key, Message: fmt.Sprintf(format, args...)}
}

// Apply applies tr to the tool t, in place.
func Apply(t *canonical.Tool, tr manifest.Transform, v *validate.Validator) []Problem {
	id := t.ID() // as the source gives it: what the problems name
	origin := t.Origin
	if origin == nil {
		origin = canonical.NewObject()
	}
	if tr.Name != nil && *tr.Name != t.Name {
		if !origin.Has("name") {
			origin.Set("name", canonical.NewString(t.Name))
		}
		t.Name = *tr.Name
	}
	if tr.Title != nil {
		t.Title = *tr.Title
	}
	if tr.Description != nil {
		t.Description = *tr.Description
	}
	if tr.AppendDescription != nil {
		t.Description = strings.TrimRight(t.Description, "\n") + "\n\n" + *tr.AppendDescription
		t.Description = strings.TrimLeft(t.Description, "\n")
	}
	if len(tr.Tags) > 0 {
		t.Tags, _ = canonical.CapTags(canonical.NormalizeTags(append(t.Tags, tr.Tags...)))
	}
	if tr.Deprecated != nil {
		t.Deprecated = *tr.Deprecated
	}
	if tr.Sunset != nil {
		t.Sunset = *tr.Sunset
	}
	if tr.Stability != nil {
		t.Stability = *tr.Stability
	}
	if len(tr.Annotations) > 0 {
		if t.Annotations == nil {
			t.Annotations = &canonical.Annotations{}
		}
		for k, b := range tr.Annotations {
			if h := t.Annotations.Hint(k); h != nil { // the manifest refused any other
				*h = &b
			}
		}
	}
	var ps []Problem
	if len(tr.Arguments) > 0 {
		ps = arguments(t, id, tr.Arguments, origin, v)
	}
	if len(origin.Members()) > 0 {
		t.Origin = origin
	}
	return ps
}

// arguments applies the transforms of the input's properties, each named
// as the source names it.
func arguments(t *canonical.Tool, id string, args map[string]manifest.ArgumentTransform, origin *canonical.Value, v *validate.Validator) []Problem {
	in := t.Input.JSON()
	props := in.Get("properties")
	if props == nil {
		props = canonical.NewObject()
	}
	have := props.Keys()         // the source's, before any is hidden or renamed
	source := t.Input.DeepCopy() // the values are checked against the source's schema
	var ps []Problem
	names := slices.Sorted(maps.Keys(args))
	for _, name := range names {
		at := args[name]
		key := []string{"arguments", name}
		s := props.Get(name)
		if s == nil {
			p := problem(key, "the tool %q has no input property %q (it has %s)%s", id, name, strings.Join(have, ", "), suggest.Hint(name, have))
			p.Unmatched = true
			ps = append(ps, p)
			continue
		}
		valid := func(field string, x any) (*canonical.Value, bool) {
			val, err := canonical.FromTOML(x)
			if err == nil {
				err = takes(v, source, name, val)
			}
			if err != nil {
				ps = append(ps, problem(append(key, field), "%v", err))
				return nil, false
			}
			return val, true
		}
		if at.Hide {
			if val, ok := valid("value", at.Value); ok {
				props.Delete(name)
				decode.DropRequired(in, name)
				delete(t.Source.Fields, canonical.Pointer("/input/properties").Append(name))
				decode.SetIn(origin, "fixed", name, val)
			}
			continue
		}
		if at.Description != nil {
			s.Set("description", canonical.NewString(*at.Description))
		}
		if at.Default != nil {
			if val, ok := valid("default", at.Default); ok {
				s.Set("default", val)
				decode.SetIn(origin, "defaults", name, val)
			}
		}
		if at.Enum != nil {
			values := canonical.NewArray()
			for _, x := range at.Enum {
				if val, ok := valid("enum", x); ok {
					values.SetItems(append(values.Items(), val))
				}
			}
			if len(values.Items()) == len(at.Enum) {
				s.Set("enum", values)
			}
		}
		ps = append(ps, narrow(s, key, at)...)
	}
	for _, name := range names {
		at := args[name]
		if at.Rename == "" || at.Hide || props.Get(name) == nil || at.Rename == name {
			continue
		}
		if props.Has(at.Rename) {
			ps = append(ps, problem([]string{"arguments", name, "rename"}, "the tool %q has an input property %q already", id, at.Rename))
			continue
		}
		props.Members()[props.Index(name)].Key = at.Rename
		if req := in.Get("required"); req != nil {
			for _, it := range req.Items() {
				if it.Text() == name {
					it.SetText(at.Rename)
				}
			}
		}
		from, to := canonical.Pointer("/input/properties").Append(name), canonical.Pointer("/input/properties").Append(at.Rename)
		for _, p := range slices.Sorted(maps.Keys(t.Source.Fields)) {
			if rest, ok := strings.CutPrefix(string(p), string(from)); ok && (rest == "" || rest[0] == '/') {
				t.Source.Fields[canonical.Pointer(string(to)+rest)] = t.Source.Fields[p]
				delete(t.Source.Fields, p)
			}
		}
		decode.SetIn(origin, "arguments", at.Rename, canonical.NewString(name))
	}
	return ps
}

// narrow sets the bounds of at on the property s, each at least as tight
// as the source's.
func narrow(s *canonical.Value, key []string, at manifest.ArgumentTransform) []Problem {
	var ps []Problem
	bound := func(kw, field string, x *float64, lower bool) {
		if x == nil {
			return
		}
		if old, ok := s.Get(kw).NumberValue(); ok && (lower && *x < old || !lower && *x > old) {
			ps = append(ps, problem(append(key, field), "%s = %v widens the source's %s of %v: a transform only narrows", field, *x, kw, old))
			return
		}
		s.Set(kw, numberValue(*x))
	}
	count := func(kw, field string, x *int, lower bool) {
		if x == nil {
			return
		}
		f := float64(*x)
		bound(kw, field, &f, lower)
	}
	bound("minimum", "minimum", at.Minimum, true)
	bound("maximum", "maximum", at.Maximum, false)
	count("minLength", "min_length", at.MinLength, true)
	count("maxLength", "max_length", at.MaxLength, false)
	count("minItems", "min_items", at.MinItems, true)
	count("maxItems", "max_items", at.MaxItems, false)
	return ps
}

func numberValue(f float64) *canonical.Value {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return canonical.NewNumber(fmt.Sprint(int64(f)))
	}
	return canonical.NewNumber(fmt.Sprint(f))
}

// takes checks that the source's input schema takes val as the property
// name: the property's schema, with the root's definitions.
func takes(v *validate.Validator, source *canonical.Schema, name string, val *canonical.Value) error {
	root := source.JSON().DeepCopy()
	props := canonical.NewObject()
	props.Set(name, source.JSON().Get("properties").Get(name))
	root.Set("properties", props)
	root.Set("required", canonical.NewStrings([]string{name}))
	for _, k := range []string{"additionalProperties", "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "minProperties", "maxProperties", "patternProperties", "propertyNames", "unevaluatedProperties"} {
		root.Delete(k)
	}
	c, err := v.Compile(canonical.AsSchema(root))
	if err != nil {
		return err
	}
	inst := canonical.NewObject()
	inst.Set(name, val)
	if problems := c.Check(inst); len(problems) > 0 {
		return fmt.Errorf("%s is not a value the source's schema of %q takes: %s", val, name, problems[0].Message)
	}
	return nil
}

// Matches reports whether the transform glob g names the tool ID id, as
// select's tool globs do.
func Matches(g, id string) bool {
	ok, _ := doublestar.Match(g, id)
	return ok
}
