package adapters

import "github.com/toolc-dev/toolc/target"

// The target profiles moved to package target: adapters keeps the formats.
// These names keep older callers compiling.

// Profile is what one target accepts.
//
// Deprecated: use target.Profile.
type Profile = target.Profile

// NameRule is a target's rule for tool names.
//
// Deprecated: use target.NameRule.
type NameRule = target.NameRule

// TargetOptions are the target options that shape a bundle.
//
// Deprecated: use target.Options.
type TargetOptions = target.Options

// Catalog identifies a catalog in a bundle.
//
// Deprecated: use target.Catalog.
type Catalog = target.Catalog

// Dialect is a server that speaks a target's format.
//
// Deprecated: use target.Dialect.
type Dialect = target.Dialect

// Lowered is a catalog lowered for one target.
//
// Deprecated: use target.Lowered.
type Lowered = target.Lowered

// DefaultNames is the default name template of a target.
//
// Deprecated: use target.DefaultNames.
const DefaultNames = target.DefaultNames

// CheckNames reports what is wrong with a name template, or nil.
//
// Deprecated: use target.CheckNames.
func CheckNames(tmpl string) error { return target.CheckNames(tmpl) }

// Dialects returns the dialects of a target format, the default first.
//
// Deprecated: use target.Dialects.
func Dialects(format string) []Dialect { return target.Dialects(format) }

// ProfileOf returns the built-in profile of a target format.
//
// Deprecated: use target.Of.
func ProfileOf(format string) (*Profile, bool) { return target.Of(format) }

// profileOf is the profile of a format this package registers.
func profileOf(format string) *Profile {
	p, ok := target.Of(format)
	if !ok {
		panic("adapters: no target profile for " + format) // a bug in this package's table
	}
	return p
}
