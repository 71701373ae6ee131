package canonical

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON value. The zero Kind is Null.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String returns the JSON name of the kind ("null", "boolean", …).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Pos is a position in a source file: 1-based line and 1-based byte column.
// The zero Pos means "unknown", as for values built in code.
type Pos struct {
	Line, Column int32 // 1-based; int32 keeps every node of a parsed tree small
}

// IsValid reports whether p is a known position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Value is a JSON value that loses nothing of its source: object members keep
// their order, numbers keep their exact text (1.0 stays 1.0, integers beyond
// 2^53 stay exact), and every value and member key remembers where it was in
// the source file.
//
// The zero Value is JSON null. Positions take no part in equality or hashing.
//
// A value holds one of a text, items or members, whichever its kind has,
// as one pointer, a length and a byte for the capacity (capOf): a parsed
// catalog is most of a build's memory, and three fields (a string and two
// slices) made every value, two in three of them strings, 80 bytes where
// 24 do. Text, Items and Members read it; SetText, SetItems and
// SetMembers replace it.
type Value struct {
	Kind Kind
	Bool bool  // for Bool
	held Kind  // what p points at: String for a text, Array for items, Object for members
	c    uint8 // the slice's capacity, as capOf says it
	n    uint32
	p    unsafe.Pointer
	Pos  Pos // where the value starts in its source
}

// capOf says c, the capacity of a slice of n items, in a byte: up to 15
// as it is, and above as (8+m)<<e, three bits of m, the largest such at
// most c; or 0 when none is at least n (the capacity is then n). A
// slice's capacity may always be less than its array has (appending past
// it moves the items, as it would at their end), and this is never less
// than eight ninths of it: appending one at a time still grows an array by
// a part of its length. The capacity is said, not the room beyond the
// length, so that appending within it says the same again.
func capOf(c, n int) uint8 {
	k := uint8(c)
	if c >= 16 {
		e := bits.Len(uint(c)) - 4 // c is in [8<<e, 16<<e)
		m := c >> e
		if e > 30 {
			e, m = 30, 15
		}
		k = uint8(16 + (e-1)<<3 + m - 8)
	}
	if capLen(k) < n {
		return 0
	}
	return k
}

// capLen is the capacity that k says.
func capLen(k uint8) int {
	if k < 16 {
		return int(k)
	}
	k -= 16
	return (8 + int(k&7)) << (k>>3 + 1)
}

// Text returns the string of a String, the exact literal of a Number, and
// "" for any other kind.
func (v *Value) Text() string {
	if v.held != String || (v.Kind != String && v.Kind != Number) {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.n)
}

// Items returns the items of an Array, and nil for any other kind or no
// value (as Get gives for a key that is absent): the slice SetItems was
// given, its capacity included, so that setting an item sets it in the
// value and appending reuses the room it has.
func (v *Value) Items() []*Value {
	if v == nil || v.held != Array || v.Kind != Array || v.p == nil {
		return nil
	}
	return unsafe.Slice((**Value)(v.p), v.cap())[:v.n]
}

// Members returns the members of an Object, in order, and nil for any
// other kind or no value: the slice SetMembers was given, as Items's is.
func (v *Value) Members() []Member {
	if v == nil || v.held != Object || v.Kind != Object || v.p == nil {
		return nil
	}
	return unsafe.Slice((*Member)(v.p), v.cap())[:v.n]
}

// SetText makes s the text of v, a String or Number.
func (v *Value) SetText(s string) {
	v.hold(String, unsafe.Pointer(unsafe.StringData(s)), len(s), len(s))
}

// SetItems makes items the items of v, an Array; v keeps the slice, not a
// copy.
func (v *Value) SetItems(items []*Value) {
	v.hold(Array, unsafe.Pointer(unsafe.SliceData(items)), len(items), cap(items))
}

// SetMembers makes members the members of v, an Object; v keeps the
// slice, not a copy.
func (v *Value) SetMembers(members []Member) {
	v.hold(Object, unsafe.Pointer(unsafe.SliceData(members)), len(members), cap(members))
}

// cap is the capacity of the slice v holds.
func (v *Value) cap() int {
	if v.c == 0 {
		return int(v.n)
	}
	return capLen(v.c)
}

func (v *Value) hold(what Kind, p unsafe.Pointer, n, c int) {
	if n > math.MaxUint32 {
		panic("canonical: a value of more than 4 GiB")
	}
	v.held, v.p, v.n, v.c = what, p, uint32(n), capOf(c, n)
}

// Member is one "key": value pair of an object.
type Member struct {
	Key    string
	Value  *Value
	KeyPos Pos // where the key starts in its source
}

// NewString returns a JSON string.
func NewString(s string) *Value {
	v := &Value{Kind: String}
	v.SetText(s)
	return v
}

// NewNumber returns a JSON number with the literal text lit. The caller
// guarantees that lit is a valid JSON number.
func NewNumber(lit string) *Value {
	v := &Value{Kind: Number}
	v.SetText(lit)
	return v
}

// NewBool returns true or false.
func NewBool(b bool) *Value { return &Value{Kind: Bool, Bool: b} }

// NewNull returns JSON null.
func NewNull() *Value { return &Value{Kind: Null} }

// NewArray returns an array of items, which it keeps (not a copy).
func NewArray(items ...*Value) *Value {
	v := &Value{Kind: Array}
	v.SetItems(items)
	return v
}

// NewObject returns an object of members, which it keeps (not a copy).
func NewObject(members ...Member) *Value {
	v := &Value{Kind: Object}
	v.SetMembers(members)
	return v
}

// NewStrings returns an array of JSON strings.
func NewStrings(ss []string) *Value {
	items := make([]*Value, len(ss))
	for i, s := range ss {
		items[i] = NewString(s)
	}
	return NewArray(items...)
}

// Index returns the position of key in the object v, or -1. It returns -1
// when v is not an object.
func (v *Value) Index(key string) int {
	if v == nil || v.Kind != Object {
		return -1
	}
	for i, m := range v.Members() {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key in the object v, or nil when v is not an object
// or has no such key.
func (v *Value) Get(key string) *Value {
	if i := v.Index(key); i >= 0 {
		return v.Members()[i].Value
	}
	return nil
}

// Has reports whether the object v has key.
func (v *Value) Has(key string) bool { return v.Index(key) >= 0 }

// Set sets key to val in the object v, in place if the key exists and at the
// end otherwise. It panics if v is not an object.
func (v *Value) Set(key string, val *Value) {
	if v.Kind != Object {
		panic("canonical: Set on " + v.Kind.String())
	}
	if i := v.Index(key); i >= 0 {
		v.Members()[i].Value = val
		return
	}
	v.SetMembers(append(v.Members(), Member{Key: key, Value: val}))
}

// Delete removes key from the object v and reports whether it was there.
func (v *Value) Delete(key string) bool {
	i := v.Index(key)
	if i < 0 {
		return false
	}
	v.SetMembers(slices.Delete(v.Members(), i, i+1))
	return true
}

// Keys returns the keys of the object v in order.
func (v *Value) Keys() []string {
	if v == nil || v.Kind != Object {
		return nil
	}
	keys := make([]string, len(v.Members()))
	for i, m := range v.Members() {
		keys[i] = m.Key
	}
	return keys
}

// StringValue returns the string and true when v is a JSON string.
func (v *Value) StringValue() (string, bool) {
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Text(), true
}

// BoolValue returns the boolean and true when v is true or false.
func (v *Value) BoolValue() (b, ok bool) {
	if v == nil || v.Kind != Bool {
		return false, false
	}
	return v.Bool, true
}

// NumberValue returns the number and true when v is a JSON number that
// a float64 holds.
func (v *Value) NumberValue() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Text(), 64)
	return f, err == nil
}

// JSONType returns the JSON Schema type name of v as written: "integer"
// for a number written without a fraction or an exponent (1.0 is a
// "number"), else its kind's name ("null" for nil).
func (v *Value) JSONType() string {
	if v == nil {
		return Null.String()
	}
	if v.Kind == Number && !strings.ContainsAny(v.Text(), ".eE") {
		return "integer"
	}
	return v.Kind.String()
}

// Strings returns the elements of an array of strings, and false when v is not
// an array or an element is not a string.
func (v *Value) Strings() ([]string, bool) {
	if v == nil || v.Kind != Array {
		return nil, false
	}
	out := make([]string, len(v.Items()))
	for i, it := range v.Items() {
		s, ok := it.StringValue()
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// Size returns the number of JSON values in v, v included: a measure of how
// big a schema is that does not depend on its formatting.
func (v *Value) Size() int {
	n := 1
	for _, it := range v.Items() {
		n += it.Size()
	}
	for _, m := range v.Members() {
		n += m.Value.Size()
	}
	return n
}

// DeepCopy returns a copy of v that shares no memory with v, positions
// included. DeepCopy of nil is nil.
func (v *Value) DeepCopy() *Value {
	if v == nil {
		return nil
	}
	c := new(Value)
	*c = *v // its kind, text and position; its items or members below
	switch {
	case v.Items() != nil:
		c.SetItems(cloneValues(v.Items()))
	case v.Members() != nil:
		ms := make([]Member, len(v.Members()))
		for i, m := range v.Members() {
			ms[i] = Member{Key: m.Key, Value: m.Value.DeepCopy(), KeyPos: m.KeyPos}
		}
		c.SetMembers(ms)
	}
	return c
}

// cloneValues deep-copies vs; nil stays nil.
func cloneValues(vs []*Value) []*Value {
	if vs == nil {
		return nil
	}
	c := make([]*Value, len(vs))
	for i, v := range vs {
		c[i] = v.DeepCopy()
	}
	return c
}

// Equal reports whether v and w are the same JSON, member order and number
// text included; positions are ignored. nil equals JSON null.
func (v *Value) Equal(w *Value) bool {
	if v == nil {
		v = &Value{}
	}
	if w == nil {
		w = &Value{}
	}
	if v.Kind != w.Kind {
		return false
	}
	switch v.Kind {
	case Null:
		return true
	case Bool:
		return v.Bool == w.Bool
	case Number, String:
		return v.Text() == w.Text()
	case Array:
		return slices.EqualFunc(v.Items(), w.Items(), (*Value).Equal)
	case Object:
		return slices.EqualFunc(v.Members(), w.Members(), func(a, b Member) bool {
			return a.Key == b.Key && a.Value.Equal(b.Value)
		})
	}
	return false
}

// At sets where v starts in its source and returns v.
func (v *Value) At(p Pos) *Value {
	v.Pos = p
	return v
}
