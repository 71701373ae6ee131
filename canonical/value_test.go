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

// A value keeps up to maxRoom of a slice's capacity beyond its length:
// appending within it stays in the array, and past it moves the items
// out, never over what the array holds beyond.
func TestValueKeepsRoomUpToMax(t *testing.T) {
	items := make([]*Value, 1, 1+maxRoom+10)
	a := NewArray(items...)
	if got := cap(a.Items()); got != 1+maxRoom {
		t.Fatalf("cap(Items) = %d, want %d", got, 1+maxRoom)
	}
	grown := append(a.Items(), NewNull())
	if &grown[0] != &items[0] {
		t.Error("an item appended within the room moved the items")
	}
	full := a.Items()[:1+maxRoom]
	if moved := append(full, NewNull()); &moved[0] == &items[0] {
		t.Error("an item appended past the room stayed in the array")
	}
	a.SetItems(items[:1:1])
	if got := cap(a.Items()); got != 1 {
		t.Errorf("cap(Items) of a full slice = %d, want 1", got)
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
