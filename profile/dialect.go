package profile

import (
	"fmt"
	"slices"
	"strings"
)

// Dialect is a server that speaks a target's format but differs from the
// provider in what it takes: one row per server, with its evidence, so
// that a server is a line of this table rather than a branch in the code.
type Dialect struct {
	Name string
	// Strict says whether the server takes the "strict" flag, and so strict
	// mode; where it does not, the flag is never written.
	Strict bool
	Source string
}

// dialects lists, per target format, the servers that speak it; the first
// is the default.
var dialects = map[string][]Dialect{
	"openai": {
		{"openai", true, "OpenAI Chat Completions: FunctionDefinition.strict"},
		{"xai", false, "xAI rejects strict (PROVIDERS.md, corrections)"},
		{"compatible", false, "OpenAI-compatible servers differ; legacy functions reject strict (PROVIDERS.md, corrections)"},
	},
}

// Dialects returns the dialects of a target format, the default first; nil
// for a format that has none.
func Dialects(format string) []Dialect { return slices.Clone(dialects[format]) }

// dialect returns the dialect opts name, the default when none.
func (p *Profile) dialect(opts Options) (Dialect, bool) {
	ds := dialects[p.Format]
	if len(ds) == 0 {
		return Dialect{Name: p.Format, Strict: slices.Contains(p.Options, "strict")}, opts.Dialect == ""
	}
	if opts.Dialect == "" {
		return ds[0], true
	}
	i := slices.IndexFunc(ds, func(d Dialect) bool { return d.Name == opts.Dialect })
	if i < 0 {
		return Dialect{}, false
	}
	return ds[i], true
}

// CheckDialect says what is wrong with a target's dialect and strict
// options together, or nil.
func (p *Profile) CheckDialect(opts Options) error {
	d, ok := p.dialect(opts)
	if !ok {
		var names []string
		for _, d := range dialects[p.Format] {
			names = append(names, d.Name)
		}
		return fmt.Errorf("unknown dialect %q of %s (one of %s)", opts.Dialect, p.Format, strings.Join(names, ", "))
	}
	if !d.Strict && opts.Strict != nil && *opts.Strict {
		return fmt.Errorf("dialect %q takes no strict mode (%s)", d.Name, d.Source)
	}
	return nil
}
