package diag

import (
	"fmt"
	"slices"
)

// Action is what a policy does with a diagnostic.
type Action int8

// The actions. Default leaves the diagnostic at its default severity.
const (
	Default Action = iota
	Deny           // the diagnostic becomes an error and fails the build
	Warn           // the diagnostic is reported as a warning and the build passes
	Ignore         // the diagnostic is dropped
)

// Policy lists codes or categories to deny, warn or ignore, as the manifest's
// [policy] table and a target's policy do.
type Policy struct {
	Deny   []string `toml:"deny"`
	Warn   []string `toml:"warn"`
	Ignore []string `toml:"ignore"`
}

// Lookup returns the action this policy sets for code, and how specific the
// entry that set it is: 2 for the code itself, 1 for its category, 0 when the
// policy does not mention it.
func (p *Policy) Lookup(code string) (Action, int) {
	if p == nil {
		return Default, 0
	}
	cat := Code{Code: code}.Category()
	best, spec := Default, 0
	for _, l := range []struct {
		a       Action
		entries []string
	}{{Deny, p.Deny}, {Warn, p.Warn}, {Ignore, p.Ignore}} {
		for _, e := range l.entries {
			switch {
			case e == code && spec < 2:
				best, spec = l.a, 2
			case e == cat && spec < 1:
				best, spec = l.a, 1
			}
		}
	}
	return best, spec
}

// PolicyError is an entry of a policy that is wrong.
type PolicyError struct {
	List    string // "deny", "warn" or "ignore"
	Entry   string
	Unknown bool   // the entry is not a known code or category
	Also    string // else: the other list the entry is in
}

// Error says which entry of which list is wrong.
func (e PolicyError) Error() string {
	if e.Unknown {
		return fmt.Sprintf("%s: unknown code or category %q", e.List, e.Entry)
	}
	return fmt.Sprintf("%s: %q is also listed in %s", e.List, e.Entry, e.Also)
}

// Check returns an error for each entry that is not a known code or category
// and for each entry listed under two actions.
func (p *Policy) Check() []PolicyError {
	if p == nil {
		return nil
	}
	var errs []PolicyError
	seen := map[string]string{}
	for _, l := range []struct {
		name    string
		entries []string
	}{{"deny", p.Deny}, {"warn", p.Warn}, {"ignore", p.Ignore}} {
		for _, e := range l.entries {
			if !Known(e) {
				errs = append(errs, PolicyError{List: l.name, Entry: e, Unknown: true})
				continue
			}
			if prev, ok := seen[e]; ok && prev != l.name {
				errs = append(errs, PolicyError{List: l.name, Entry: e, Also: prev})
			}
			seen[e] = l.name
		}
	}
	return errs
}

// Apply applies the policies to ds and returns the diagnostics that remain.
// The policies are given most specific first (a target's policy, then the
// manifest's [policy]): the first policy that mentions a code decides, and
// inside a policy an entry for the code beats an entry for its category.
// Errors are never changed, but for those of the categories in judgments.
func Apply(ds []Diagnostic, policies ...*Policy) []Diagnostic {
	return ApplyFirst(ds, nil, policies...)
}

// ApplyFirst is Apply with one more policy, chosen for each diagnostic
// (the policy of the source whose file it is in, say; nil for none),
// deciding before the others.
func ApplyFirst(ds []Diagnostic, first func(Diagnostic) *Policy, policies ...*Policy) []Diagnostic {
	if len(ds) == 0 {
		return ds[:0:0]
	}
	// once, not grown: a build has tens of thousands
	return applyTo(make([]Diagnostic, 0, len(ds)), ds, first, policies)
}

// ApplyFirstInPlace is ApplyFirst writing what remains over ds, which it
// returns shortened: for a caller that has no more use for ds, as a build
// has for each of its parts' diagnostics (a copy of each was 125 MB of a
// 100,000-tool build).
func ApplyFirstInPlace(ds []Diagnostic, first func(Diagnostic) *Policy, policies ...*Policy) []Diagnostic {
	return applyTo(ds[:0], ds, first, policies)
}

// applyTo appends to out what remains of ds; out may be ds[:0], as each
// diagnostic is read before its place is written.
func applyTo(out, ds []Diagnostic, first func(Diagnostic) *Policy, policies []*Policy) []Diagnostic {
	for _, d := range ds {
		switch decide(d, first, policies) {
		case Deny:
			d.Severity = Error
		case Warn:
			d.Severity = Warning
		case Ignore:
			continue
		}
		out = append(out, d)
	}
	return out
}

// decide is what the policies do with d: the first's most specific entry,
// or the first of the others that names it; Default for an error no
// policy may change.
func decide(d Diagnostic, first func(Diagnostic) *Policy, policies []*Policy) Action {
	if d.Severity == Error && !judgments[Code{Code: d.Code}.Category()] {
		return Default
	}
	a := action(d.Code, policies)
	if first != nil {
		if fa, spec := first(d).Lookup(d.Code); spec > 0 {
			a = fa
		}
	}
	return a
}

// Unignored returns the diagnostics of ds that the policies do not ignore,
// each at its own severity, as ApplyFirst would choose them: what a
// judgment of the change itself reads (the version a breaking change
// needs), which deny and warn leave alone.
func Unignored(ds []Diagnostic, first func(Diagnostic) *Policy, policies ...*Policy) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if decide(d, first, policies) != Ignore {
			out = append(out, d)
		}
	}
	return out
}

// judgments are the categories whose errors a policy may change too: they
// judge a change between two catalogs (a property removed breaks callers)
// instead of finding a fault that would make the output wrong, and a team
// may decide that a given judgment does not apply to it.
var judgments = map[string]bool{"breaking": true, "verify": true, "security": true}

// Silenceable reports whether a policy can change or ignore c: every
// warning and info, and the errors of a category of judgments (breaking,
// verify, security: a team may allow a server's additions, or a tool that
// manages ~/.ssh).
func (c Code) Silenceable() bool { return c.Severity != Error || judgments[c.Category()] }

func action(code string, policies []*Policy) Action {
	for _, p := range policies {
		if a, spec := p.Lookup(code); spec > 0 {
			return a
		}
	}
	return Default
}

// targetCategories are the categories of codes that lowering a tool for a
// target reports, each with the target it comes from: the only ones a
// target's policy sees.
var targetCategories = map[string]bool{"accept": true, "limit": true, "loss": true, "lower": true, "name": true, "publish": true}

// PerTarget reports whether the codes of c, a code or a category, come
// from a target, so that a target's policy can decide them.
func PerTarget(c string) bool {
	return targetCategories[Code{Code: c}.Category()]
}

// Categories returns the sorted list of categories of the table.
func Categories() []string {
	var cats []string
	for _, c := range codes {
		cats = append(cats, c.Category())
	}
	slices.Sort(cats)
	return slices.Compact(cats)
}
