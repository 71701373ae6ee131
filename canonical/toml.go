package canonical

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// FromTOML converts a value decoded from TOML (a string, bool, int64,
// float64, time.Time, []any or map[string]any) to JSON, an object's keys
// sorted.
func FromTOML(x any) (*Value, error) {
	switch x := x.(type) {
	case string:
		return NewString(x), nil
	case bool:
		return NewBool(x), nil
	case int64:
		return NewNumber(fmt.Sprint(x)), nil
	case float64:
		v, err := ParseJSON([]byte(fmt.Sprint(x)))
		if err != nil || v.Kind != Number {
			return nil, fmt.Errorf("%v is not a JSON number", x)
		}
		return v, nil
	case time.Time:
		return NewString(x.Format(time.RFC3339Nano)), nil
	case []any:
		arr := NewArray()
		for _, it := range x {
			v, err := FromTOML(it)
			if err != nil {
				return nil, err
			}
			arr.SetItems(append(arr.Items(), v))
		}
		return arr, nil
	case map[string]any:
		obj := NewObject()
		for _, k := range slices.Sorted(maps.Keys(x)) {
			v, err := FromTOML(x[k])
			if err != nil {
				return nil, err
			}
			obj.Set(k, v)
		}
		return obj, nil
	}
	return nil, fmt.Errorf("a value of TOML type %T has no JSON form", x)
}
