package adapters

import "github.com/toolc-dev/toolc/profile"

// The target profiles moved to package profile: adapters keeps the formats.
// These names keep older callers compiling.

// Profile is what one target accepts.
//
// Deprecated: use profile.Profile.
type Profile = profile.Profile

// NameRule is a target's rule for tool names.
//
// Deprecated: use profile.NameRule.
type NameRule = profile.NameRule

// TargetOptions are the target options that shape a bundle.
//
// Deprecated: use profile.Options.
type TargetOptions = profile.Options

// Catalog identifies a catalog in a bundle.
//
// Deprecated: use profile.Catalog.
type Catalog = profile.Catalog

// Dialect is a server that speaks a target's format.
//
// Deprecated: use profile.Dialect.
type Dialect = profile.Dialect

// Lowered is a catalog lowered for one target.
//
// Deprecated: use profile.Lowered.
type Lowered = profile.Lowered

// DefaultNames is the default name template of a target.
//
// Deprecated: use profile.DefaultNames.
const DefaultNames = profile.DefaultNames

// CheckNames reports what is wrong with a name template, or nil.
//
// Deprecated: use profile.CheckNames.
func CheckNames(tmpl string) error { return profile.CheckNames(tmpl) }

// Dialects returns the dialects of a target format, the default first.
//
// Deprecated: use profile.Dialects.
func Dialects(format string) []Dialect { return profile.Dialects(format) }

// ProfileOf returns the built-in profile of a target format.
//
// Deprecated: use profile.Of.
func ProfileOf(format string) (*Profile, bool) { return profile.Of(format) }

// profileOf is the profile of a format this package registers.
func profileOf(format string) *Profile {
	p, ok := profile.Of(format)
	if !ok {
		panic("adapters: no target profile for " + format) // a bug in this package's table
	}
	return p
}
