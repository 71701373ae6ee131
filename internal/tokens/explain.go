package tokens

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// Big says what makes a schema big, for a budget's message.
type Big struct {
	// Enum is the largest enum, by tokens: where, how many values, and
	// about how many tokens its values are.
	Enum       canonical.Pointer
	EnumValues int
	EnumTokens int
	// Repeated are the places of the subtree that the schema repeats at the
	// greatest cost, RepeatTokens about what one copy costs.
	Repeated     []canonical.Pointer
	RepeatTokens int
}

// refTokens is about what {"$ref": "#/$defs/Name"} costs in its place.
const refTokens = 8

// Save is about how many tokens hoisting the repeated subtree into $defs
// would save: every copy but one, less a reference for each.
func (b Big) Save() int {
	if len(b.Repeated) < 2 {
		return 0
	}
	return max(0, (len(b.Repeated)-1)*b.RepeatTokens-len(b.Repeated)*refTokens)
}

// minRepeat is the fewest JSON values a subtree has for its repetition to
// be worth reporting.
const minRepeat = 6

// Explain finds the largest enum and the most costly repeated subtree of
// schema. Tokens of parts are those of their compact JSON: about what they
// cost in any rendering.
func Explain(schema *canonical.Value) (Big, error) {
	var big Big
	seen := map[string][]canonical.Pointer{}
	var walk func(v *canonical.Value, at canonical.Pointer) error
	walk = func(v *canonical.Value, at canonical.Pointer) error {
		switch v.Kind {
		case canonical.Object:
			if e := v.Get("enum"); e != nil && e.Kind == canonical.Array {
				n, err := Tokens(e.String())
				if err != nil {
					return err
				}
				if n > big.EnumTokens {
					big.Enum, big.EnumValues, big.EnumTokens = at.Append("enum"), len(e.Items()), n
				}
			}
			if at != "" && v.Size() >= minRepeat {
				k := v.String()
				seen[k] = append(seen[k], at)
			}
			for _, m := range v.Members() {
				if err := walk(m.Value, at.Append(m.Key)); err != nil {
					return err
				}
			}
		case canonical.Array:
			for i, it := range v.Items() {
				if err := walk(it, at.Index(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(schema, ""); err != nil {
		return big, err
	}
	best := 0
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		at := seen[k]
		if len(at) < 2 || nested(at) {
			continue
		}
		n, err := Tokens(k)
		if err != nil {
			return big, err
		}
		if cost := (len(at) - 1) * n; cost > best {
			best, big.Repeated, big.RepeatTokens = cost, at, n
		}
	}
	return big, nil
}

// nested reports whether one place holds another: a subtree repeated
// inside itself is counted with its parent.
func nested(at []canonical.Pointer) bool {
	for i, a := range at {
		for j, b := range at {
			if i != j && strings.HasPrefix(string(b), string(a)+"/") {
				return true
			}
		}
	}
	return false
}

// Describe writes b as the phrases of a message ("its largest enum, at
// /properties/status, has 40 values (about 120 tokens)"); keepsRefs says
// whether the target carries $ref, so hoisting can be proposed.
func (b Big) Describe(keepsRefs bool) []string {
	var out []string
	if b.EnumValues > 0 {
		out = append(out, fmt.Sprintf("its largest enum, at %s, has %d values (about %d tokens)", b.Enum, b.EnumValues, b.EnumTokens))
	}
	if len(b.Repeated) >= 2 {
		places := b.Repeated
		more := ""
		if len(places) > 3 {
			places, more = places[:3], fmt.Sprintf(" and %d more", len(b.Repeated)-3)
		}
		var ps []string
		for _, p := range places {
			ps = append(ps, string(p))
		}
		s := fmt.Sprintf("one subtree of about %d tokens is written %d times (at %s%s)", b.RepeatTokens, len(b.Repeated), strings.Join(ps, ", "), more)
		if keepsRefs && b.Save() > 0 {
			s += fmt.Sprintf("; one definition in $defs would save about %d tokens", b.Save())
		}
		out = append(out, s)
	}
	return out
}
