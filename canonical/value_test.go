package canonical

import (
	"testing"
	"unsafe"
)

// A parsed catalog is most of a build's memory: a value holds its text,
// items or members in one place, and must stay that small.
func TestValueStaysSmall(t *testing.T) {
	if got := unsafe.Sizeof(Value{}); got > 24 {
		t.Errorf("a Value is %d bytes, want at most 24", got)
	}
}

// A value says a slice's capacity in a byte: never more than the slice
// has nor less than its length, never much less than it has, so that
// appending within it stays in the array and appending past it moves the
// items out.
func TestValueSaysItsCapacity(t *testing.T) {
	for c := 0; c <= 1<<16; c++ {
		for _, n := range []int{0, c / 2, c * 8 / 9, c - 1, c} {
			if n < 0 {
				continue
			}
			got := n
			if k := capOf(c, n); k != 0 {
				got = capLen(k)
			}
			if got > c || got < n || got < c*8/9 {
				t.Fatalf("capacity %d of %d items is said as %d", c, n, got)
			}
		}
	}
	for _, c := range []int{1 << 31, 1<<33 + 12345, 1 << 40} {
		// Beyond 15<<30 (a slice of 16 G items; a value holds at most 4 G)
		// the capacity is said as that.
		if got := capLen(capOf(c, 1)); got > c || got < min(c, 15<<30)*8/9 {
			t.Errorf("capacity %d is said as %d", c, got)
		}
	}
	items := make([]*Value, 1, 1000)
	a := NewArray(items...)
	if got := cap(a.Items()); got > 1000 || got < 1000*8/9 {
		t.Fatalf("cap(Items) = %d, want near 1000", got)
	}
	grown := append(a.Items(), NewNull())
	if &grown[0] != &items[0] {
		t.Error("an item appended within the capacity moved the items")
	}
	a.SetItems(items[:1:1])
	if got := cap(a.Items()); got != 1 {
		t.Errorf("cap(Items) of a full slice = %d, want 1", got)
	}
}

// Appending one item at a time to a large array moves it a few times, as
// append does to a slice: not every so many items (a Gemini bundle of
// 100,000 tools built so moved its items 392 times when a value kept at
// most 255 items of room, and took a fifth of a second).
func TestValueGrowsByParts(t *testing.T) {
	a := NewArray()
	moves := 0
	var first **Value
	for i := range 100_000 {
		a.SetItems(append(a.Items(), nil))
		if p := &a.Items()[0]; p != first {
			first = p
			if i > 0 {
				moves++
			}
		}
	}
	if moves > 60 {
		t.Errorf("100,000 appends moved the items %d times, want as few as append's", moves)
	}
}

func TestValueHoldsWhatItsKindHas(t *testing.T) {
	s := NewString("text")
	if s.Text() != "text" || s.Items() != nil || s.Members() != nil {
		t.Errorf("string: Text %q, Items %v, Members %v", s.Text(), s.Items(), s.Members())
	}
	if n := NewNumber("1.50"); n.Text() != "1.50" {
		t.Errorf("number: Text %q, want 1.50", n.Text())
	}
	a := NewArray(NewNull(), NewBool(true))
	if len(a.Items()) != 2 || a.Text() != "" || a.Members() != nil {
		t.Errorf("array: Items %v, Text %q, Members %v", a.Items(), a.Text(), a.Members())
	}
	o := NewObject(Member{Key: "k", Value: s})
	if len(o.Members()) != 1 || o.Items() != nil || o.Text() != "" {
		t.Errorf("object: Members %v, Items %v, Text %q", o.Members(), o.Items(), o.Text())
	}
	// A kind that does not hold what was set reads as empty, never as
	// the bytes of another kind.
	o.Kind = Array
	if o.Items() != nil || o.Members() != nil {
		t.Errorf("object made an array: Items %v, Members %v, want none", o.Items(), o.Members())
	}
	o.Kind = Object
	if len(o.Members()) != 1 {
		t.Errorf("object again: %d members, want 1", len(o.Members()))
	}
	s.Kind = Array
	if s.Items() != nil {
		t.Errorf("string made an array: Items %v, want none", s.Items())
	}
	var null Value
	if null.Kind != Null || null.Text() != "" || null.Items() != nil || null.Members() != nil {
		t.Errorf("the zero Value is not an empty null: %+v", null)
	}
}

func TestValueSlicesAreItsOwn(t *testing.T) {
	o := NewObject(make([]Member, 0, 4)...)
	if o.Members() == nil || len(o.Members()) != 0 {
		t.Fatalf("an empty object's members: %v, want empty and not nil", o.Members())
	}
	o.Set("a", NewNull())
	first := &o.Members()[0]
	o.Set("b", NewNull())
	if &o.Members()[0] != first {
		t.Error("a member appended within the capacity moved the members")
	}
	o.Members()[1].Value = NewBool(true)
	if !o.Get("b").Bool {
		t.Error("a member set through Members is not set in the object")
	}
	if NewObject().Members() != nil || NewArray().Items() != nil {
		t.Error("an object or array made of nothing has members or items, want nil")
	}
	if NewArray([]*Value{}...).Items() == nil {
		t.Error("an array of an empty slice has nil items, want empty")
	}
}

func TestDeepCopyCopiesWhatItHolds(t *testing.T) {
	v, err := ParseJSON([]byte(`{"a": [1, {"b": "x"}], "c": "y"}`))
	if err != nil {
		t.Fatal(err)
	}
	c := v.DeepCopy()
	if !c.Equal(v) {
		t.Fatalf("copy %s, want %s", c, v)
	}
	c.Get("a").Items()[1].Set("b", NewString("changed"))
	c.Members()[1].Value.SetText("changed")
	if got := v.String(); got != `{"a":[1,{"b":"x"}],"c":"y"}` {
		t.Errorf("changing the copy changed the original: %s", got)
	}
}

// TestNumberValue: a JSON number's value, and none for other kinds or no
// value.
func TestNumberValue(t *testing.T) {
	for _, c := range []struct {
		v    *Value
		want float64
		ok   bool
	}{
		{NewNumber("100"), 100, true}, {NewNumber("-1.5e3"), -1500, true}, {NewNumber("0.25"), 0.25, true},
		{NewString("100"), 0, false}, {NewBool(true), 0, false}, {nil, 0, false},
	} {
		if got, ok := c.v.NumberValue(); got != c.want || ok != c.ok {
			t.Errorf("NumberValue(%v) = %v, %v; want %v, %v", c.v, got, ok, c.want, c.ok)
		}
	}
}

// TestJSONType: the type name the checks of a value against a schema's
// "type" compare, a number written whole being an "integer".
func TestJSONType(t *testing.T) {
	for _, c := range []struct {
		v    *Value
		want string
	}{
		{NewNumber("100"), "integer"}, {NewNumber("-7"), "integer"}, {NewNumber("1.0"), "number"}, {NewNumber("1e3"), "number"}, {NewNumber("2E-1"), "number"},
		{NewString("1"), "string"}, {NewBool(false), "boolean"}, {NewNull(), "null"}, {NewArray(), "array"}, {NewObject(), "object"}, {nil, "null"},
	} {
		if got := c.v.JSONType(); got != c.want {
			t.Errorf("JSONType(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestNoValueHasNoItems: Items and Members of no value (what Get gives for
// an absent key) are none, as for a value of another kind.
func TestNoValueHasNoItems(t *testing.T) {
	var none *Value
	if none.Items() != nil || none.Members() != nil || NewObject().Get("absent").Members() != nil {
		t.Error("no value has items or members")
	}
}
