package canonical

import (
	"crypto/sha256"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// SumJCS returns the SHA-256 of v's JCS form, written into a reused
// buffer: hashing every tool and schema of a large catalog allocated a
// buffer per value, grown by doubling.
func (v *Value) SumJCS() [32]byte {
	buf := jcsBuffers.Get().(*[]byte)
	*buf = v.AppendJCS((*buf)[:0])
	sum := sha256.Sum256(*buf)
	if cap(*buf) <= 1<<20 { // a rare huge value is not kept
		jcsBuffers.Put(buf)
	}
	return sum
}

var jcsBuffers = sync.Pool{New: func() any { return new([]byte) }}

// AppendJCS appends the RFC 8785 (JSON Canonicalization Scheme) form of v to
// b: no white space, object members sorted by the UTF-16 code units of their
// keys, strings escaped minimally, numbers in the shortest form that
// ECMAScript gives the IEEE 754 double they denote (so 1.0 and 1 are the same,
// as JCS requires). A number outside the range of a double, which JCS cannot
// express, keeps its literal text.
func (v *Value) AppendJCS(b []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Number:
		return append(b, jcsNumber(v.Text())...)
	case String:
		return AppendString(b, v.Text())
	case Array:
		b = append(b, '[')
		for i, it := range v.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.AppendJCS(b)
		}
		return append(b, ']')
	case Object:
		// The members' order, sorted, on the stack for most objects:
		// cloning the members to sort them was a third of what hashing
		// the catalog allocated.
		members := v.Members()
		var small [16]int32
		order := small[:0]
		if len(members) > len(small) {
			order = make([]int32, 0, len(members))
		}
		for i := range members {
			order = append(order, int32(i))
		}
		slices.SortFunc(order, func(x, y int32) int { return compareUTF16(members[x].Key, members[y].Key) })
		b = append(b, '{')
		for i, j := range order {
			if i > 0 {
				b = append(b, ',')
			}
			m := &members[j]
			b = AppendString(b, m.Key)
			b = append(b, ':')
			b = m.Value.AppendJCS(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

func jcsNumber(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit
	}
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return lit
	}
	return s
}

// compareUTF16 compares two strings by their UTF-16 code units, as RFC 8785
// sorts keys. It differs from byte order only for characters above U+FFFF
// against characters in U+E000..U+FFFF.
func compareUTF16(a, b string) int {
	for i, j := 0, 0; ; {
		if i == len(a) || j == len(b) {
			return (len(a) - i) - (len(b) - j) // shorter first; 0 when both done
		}
		if a[i] < 0x80 && b[j] < 0x80 {
			if a[i] != b[j] {
				return int(a[i]) - int(b[j])
			}
			i++
			j++
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		ua, ub := utf16Units(ra), utf16Units(rb)
		for k := 0; k < len(ua) && k < len(ub); k++ {
			if ua[k] != ub[k] {
				return int(ua[k]) - int(ub[k])
			}
		}
		if len(ua) != len(ub) {
			return len(ua) - len(ub)
		}
		i += na
		j += nb
	}
}

func utf16Units(r rune) []uint16 {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		return []uint16{uint16(r1), uint16(r2)}
	}
	return []uint16{uint16(r)}
}
