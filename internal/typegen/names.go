package typegen

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"
)

// The namers: every identifier the writers print comes from a scope,
// which makes it from any string (a tool ID, a property name, an enum
// value), keeps it within maxIdent and unique in its scope, and never
// hands out a reserved word. Nothing a catalog says is printed as an
// identifier without passing through one.

// maxIdent is the longest identifier made from a string: a longer one is
// cut and ends with a hash of the whole, so that two long names that
// share a beginning stay two, and stay the same from build to build.
const maxIdent = 64

// fit cuts an identifier to maxIdent: a longer one keeps its beginning
// and ends with X and a hash of the whole of from.
func fit(s string) string {
	if len(s) <= maxIdent {
		return s
	}
	return cut(s, s)
}

func cut(s, from string) string {
	h := fnv.New32a()
	h.Write([]byte(from))
	return fmt.Sprintf("%sX%08x", s[:maxIdent-9], h.Sum32())
}

// Pascal is s in PascalCase: its ASCII letters and digits, each run after
// another character capitalized ("github:create_issue" → GithubCreateIssue),
// with a T before a leading digit or for an empty result, and cut to
// maxIdent (fit) where longer.
func Pascal(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r > unicode.MaxASCII {
			up = true
			continue
		}
		if up {
			b.WriteRune(unicode.ToUpper(r))
			up = false
		} else {
			b.WriteRune(r)
		}
		if b.Len() > maxIdent {
			break // cut below, with a hash of the whole of s
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "T" + out
	}
	if len(out) > maxIdent {
		return cut(out, s)
	}
	return out
}

// scope is one namespace of identifiers: a package, a module, a struct's
// fields, a class's methods.
type scope struct {
	taken map[string]bool
}

func newScope(reserved ...[]string) *scope {
	s := &scope{taken: map[string]bool{}}
	for _, words := range reserved {
		for _, w := range words {
			s.taken[w] = true
		}
	}
	return s
}

// name returns want, fitted, or, where that is taken, want with suffix
// added until it is not; the name is then taken.
func (s *scope) name(want, suffix string) string {
	want = fit(want)
	for s.taken[want] {
		want += suffix
	}
	s.taken[want] = true
	return want
}

// reserve takes name as it is, and reports whether it was free.
func (s *scope) reserve(name string) bool {
	if s.taken[name] {
		return false
	}
	s.taken[name] = true
	return true
}

// reservedTypeNames are the names a declaration of the model may not take
// in any of the three languages: what each module declares besides the
// tools' types, the names the modules import, the words of each language
// that begin with a capital, and the global types TypeScript's Tools
// interface and a reader's code rely on.
var reservedTypeNames = []string{
	// the modules' own names
	"ToolName", "ToolCall", "Tools", "TOOLS", "Decode",
	// Python: typing's names the module imports, and its capitalized words
	"Any", "Literal", "NotRequired", "Protocol", "Required", "TypeAlias", "TypedDict", "Union", "None", "True", "False",
	// TypeScript: the global types a module may shadow
	"Array", "ArrayLike", "Awaited", "BigInt", "Boolean", "Date", "Error", "Exclude", "Extract", "Function", "Iterable",
	"JSON", "Map", "Math", "NonNullable", "Number", "Object", "Omit", "Partial", "Pick", "Promise", "PromiseLike",
	"Readonly", "ReadonlyArray", "Record", "RegExp", "ReturnType", "Set", "String", "Symbol", "Uint8Array",
}

// goKeywords are Go's keywords and predeclared identifiers.
var goKeywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
	"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
	"any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16",
	"int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "true", "false", "iota", "nil",
	"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new", "panic", "print",
	"println", "real", "recover"}

// GoPackage reports why name cannot be a go target's package name, or "".
func GoPackage(name string) string {
	switch {
	case !identRE(name, false) || strings.ToLower(name) != name:
		return "a Go package name is lower-case ASCII letters, digits and '_', beginning with a letter"
	case len(name) > maxIdent:
		return fmt.Sprintf("a package name of at most %d characters", maxIdent)
	case name == "main":
		return "package main is a program, not a package of types to import"
	}
	for _, k := range goKeywords {
		if name == k {
			return fmt.Sprintf("%s is a Go keyword or predeclared name", name)
		}
	}
	return ""
}

// TypeName reports why name cannot be a tool's type name in the types
// map of a typed target, or "": it must be an identifier of all three
// languages, exported in Go, and no name the modules declare themselves.
func TypeName(name string) string {
	switch {
	case !identRE(name, true):
		return "a type name is ASCII letters, digits and '_', beginning with an upper-case letter (an identifier of TypeScript, Go and Python, exported in Go)"
	case len(name) > maxIdent:
		return fmt.Sprintf("a type name of at most %d characters", maxIdent)
	}
	for _, r := range reservedTypeNames {
		if name == r {
			return fmt.Sprintf("%s is a name the typed modules use themselves", name)
		}
	}
	return ""
}

// identRE reports whether s is an ASCII identifier, beginning with an
// upper-case letter where upper says so.
func identRE(s string, upper bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
		case (r >= 'a' && r <= 'z') && !(upper && i == 0):
		case (r == '_' || r >= '0' && r <= '9') && i > 0:
		default:
			return false
		}
	}
	return true
}
