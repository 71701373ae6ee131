package decode

import (
	"slices"

	"github.com/toolc-dev/toolc/canonical"
)

// SetIn sets obj[key][name] = v, making obj[key] an object when missing.
func SetIn(obj *canonical.Value, key, name string, v *canonical.Value) {
	m := obj.Get(key)
	if m == nil {
		m = canonical.NewObject()
		obj.Set(key, m)
	}
	m.Set(name, v)
}

// DropRequired takes name out of the object schema in's required, and
// the keyword out where it is left empty.
func DropRequired(in *canonical.Value, name string) {
	req := in.Get("required")
	if req == nil {
		return
	}
	req.SetItems(slices.DeleteFunc(req.Items(), func(it *canonical.Value) bool { return it.Text() == name }))
	if len(req.Items()) == 0 {
		in.Delete("required")
	}
}
