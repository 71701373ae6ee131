package profile

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/words"
)

// Loading is what the manifest decides of when each tool loads into a
// model's context and who may call it ([load]), the same for every target.
type Loading struct {
	// Tools are each tool's decisions, by ID; a tool without one loads,
	// called directly.
	Tools map[string]Load
	// Groups are the descriptions of the namespace groups the manifest
	// describes ([load.namespaces]).
	Groups map[string]string
}

// Load is one tool's loading.
type Load struct {
	Defer      string // "true", "false" or "auto"
	AlwaysLoad bool
	Priority   int
	Group      string   // the namespace group; "" for none
	Callers    []string // "direct", "code"; nil is direct only
}

// fixed reports whether the tool loads whatever the budget: always_load,
// or defer = false (the default).
func (l Load) fixed() bool { return l.AlwaysLoad || l.Defer == "" || l.Defer == "false" }

// direct reports whether the callers are the model alone.
func (l Load) direct() bool {
	return len(l.Callers) == 0 || slices.Equal(l.Callers, []string{"direct"})
}

// Budget is a target's defer_budget: the tokens the loaded tools of a
// request may take, given outright or as a share of a context window.
type Budget struct {
	Tokens int     `toml:"tokens" doc:"the tokens the loaded tools may take"`
	Share  float64 `toml:"share" doc:"the share of the context window the loaded tools may take (0.1 is a tenth), with window"`
	Window int     `toml:"window" doc:"the model's context window in tokens, for share"`
}

// Max is the budget in tokens.
func (b *Budget) Max() int {
	if b.Tokens > 0 {
		return b.Tokens
	}
	return int(math.Floor(b.Share * float64(b.Window)))
}

// String says the budget as the manifest wrote it.
func (b *Budget) String() string {
	if b.Tokens > 0 {
		return fmt.Sprintf("defer_budget = { tokens = %d }", b.Tokens)
	}
	return fmt.Sprintf("defer_budget = { share = %g, window = %d } (%d tokens)", b.Share, b.Window, b.Max())
}

// check says what is wrong with the budget, or nil.
func (b *Budget) check() error {
	switch {
	case b == nil:
		return nil
	case b.Tokens < 0 || b.Window < 0 || b.Share < 0:
		return fmt.Errorf("defer_budget takes no negative value")
	case b.Tokens > 0 && (b.Share != 0 || b.Window != 0):
		return fmt.Errorf("defer_budget is tokens = N, or share = F with window = N, not both")
	case b.Tokens == 0 && (b.Share <= 0 || b.Share > 1 || b.Window <= 0):
		return fmt.Errorf("defer_budget needs tokens = N, or share = F (over 0, at most 1) with window = N (the context window's tokens)")
	}
	return nil
}

// Deferral is the defer_budget option of every target that lowers for a
// provider.
type Deferral struct {
	DeferBudget *Budget `toml:"defer_budget" doc:"what the loaded tools of a request may take, for tools with defer = \"auto\": { tokens = N }, or { share = F, window = N }"`
}

// Apply sets the budget.
func (d Deferral) Apply(o *Options) { o.DeferBudget = d.DeferBudget }

// Check checks the budget.
func (d Deferral) Check() []option.Problem {
	if err := d.DeferBudget.check(); err != nil {
		return []option.Problem{option.Problemf("defer_budget", "%v", err)}
	}
	return nil
}

// Plan is what a target does with a catalog's loading: which tools it
// defers, how it groups them, and what the first request then costs.
type Plan struct {
	// Deferred, Groups and Callers are per tool of Lowered.Tools: deferred
	// or not, its namespace group where the target writes groups, and who
	// may call it where the target says so.
	Deferred []bool
	Groups   []string
	Callers  [][]string
	// Order is the order the target writes the tools in: each group where
	// its first tool is, its tools together.
	Order []int
	// Loaded and All are the tokens of the tools loaded and of every tool,
	// as the target counts them; Budget is the target's, 0 for none.
	Loaded, All, Budget int
	// Defers says whether the target defers tools at all; Search is the
	// search tool it adds where it defers some ("" for none).
	Defers bool
	Search string
	// GroupDescriptions are the groups' descriptions, by name.
	GroupDescriptions map[string]string
}

// WriteOrder is the order a target writes the n tools of a plan in: the
// plan's, or theirs where there is no plan.
func (p *Plan) WriteOrder(n int) []int {
	if p != nil && p.Order != nil {
		return p.Order
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

// Group is the namespace group of the i-th tool, "" for none or without a
// plan.
func (p *Plan) Group(i int) string {
	if p == nil {
		return ""
	}
	return p.Groups[i]
}

// Deferrals counts the deferred tools.
func (p *Plan) Deferrals() int {
	n := 0
	for _, d := range p.Deferred {
		if d {
			n++
		}
	}
	return n
}

// Loads reports whether the plan changes anything a bundle says: a tool
// deferred, grouped, or called otherwise than directly.
func (p *Plan) Loads() bool {
	return p != nil && (p.Deferrals() > 0 || slices.ContainsFunc(p.Groups, func(g string) bool { return g != "" }) ||
		slices.ContainsFunc(p.Callers, func(c []string) bool { return c != nil }))
}

// Plan decides, for a lowered catalog whose tools cost costs[i] tokens in
// the target, which tools it defers. A tool with always_load or defer =
// false is loaded, one with defer = true deferred; the tools with defer =
// "auto" are taken in turn, highest priority first, then cheapest, then by
// ID, and each is loaded while it still fits in the budget with the tools
// loaded before it; the others are deferred. A target that cannot defer
// loads every tool, and says what the budget would have deferred. Found
// problems (loaded tools alone over the budget, a deferred tool a search
// would hardly find) are in the result's diagnostics, for the caller to
// place.
func (p *Profile) Plan(low *Lowered, costs []int, target string, opts Options) (*Plan, []diag.Diagnostic) {
	loading := opts.Loading
	n := len(low.Tools)
	plan := &Plan{Deferred: make([]bool, n), Groups: make([]string, n), Callers: make([][]string, n), Defers: p.Defers,
		GroupDescriptions: map[string]string{}}
	if opts.DeferBudget != nil {
		plan.Budget = opts.DeferBudget.Max()
	}
	var auto []int
	fixed := 0
	for i, t := range low.Sources {
		l := loading.Tools[t.ID()]
		plan.All += costs[i]
		switch {
		case l.fixed():
			fixed += costs[i]
		case l.Defer == "true":
			plan.Deferred[i] = true
		default:
			auto = append(auto, i)
		}
		if p.Groups && l.Group != "" {
			plan.Groups[i] = l.Group
			if _, ok := plan.GroupDescriptions[l.Group]; !ok {
				plan.GroupDescriptions[l.Group] = cmp.Or(loading.Groups[l.Group], groupDescription(l.Group, low, loading))
			}
		}
		if p.Callers && !l.direct() {
			plan.Callers[i] = l.Callers
		}
	}
	var ds []diag.Diagnostic
	if len(auto) > 0 && opts.DeferBudget == nil {
		// Without a budget, "auto" has nothing to decide by: loaded. A
		// target that carries the plan for a harness (MCP) leaves it
		// to the harness's own rule, and says nothing.
		if p.Search != "" {
			ds = append(ds, diag.New("defer.no-budget", "%d tools have defer = \"auto\", and the target sets no defer_budget: all of them are loaded", len(auto)))
		}
		for _, i := range auto {
			fixed += costs[i]
		}
		auto = nil
	}
	slices.SortStableFunc(auto, func(a, b int) int {
		la, lb := loading.Tools[low.Sources[a].ID()], loading.Tools[low.Sources[b].ID()]
		return cmp.Or(cmp.Compare(lb.Priority, la.Priority), cmp.Compare(costs[a], costs[b]), strings.Compare(low.Sources[a].ID(), low.Sources[b].ID()))
	})
	loaded := fixed
	for _, i := range auto {
		if loaded+costs[i] <= plan.Budget {
			loaded += costs[i]
			continue
		}
		plan.Deferred[i] = true
	}
	if plan.Budget > 0 && fixed > plan.Budget {
		ds = append(ds, overBudget(low, costs, loading, fixed, plan.Budget, opts.DeferBudget))
	}
	if !p.Defers {
		if d := plan.Deferrals(); d > 0 {
			ds = append(ds, diag.New("defer.unsupported", "the format has no deferred loading: all %d tools are sent in every request (%d tokens), where the plan would defer %d and send %d tokens", n, plan.All, d, loaded))
		}
		clear(plan.Deferred)
		loaded = plan.All
	}
	plan.Loaded = loaded
	if plan.Deferrals() > 0 {
		plan.Search = p.Search
		if opts.Search != "" {
			plan.Search = opts.Search
		}
	}
	for i, deferred := range plan.Deferred {
		if deferred {
			if d, ok := unfindable(low.Sources[i]); ok {
				ds = append(ds, d)
			}
		}
	}
	plan.Order = groupOrder(plan.Groups)
	return plan, ds
}

// overBudget is the warning that the tools loaded whatever the budget take
// more than it: the biggest of them named.
func overBudget(low *Lowered, costs []int, loading *Loading, fixed, budget int, b *Budget) diag.Diagnostic {
	var idx []int
	for i, t := range low.Sources {
		if loading.Tools[t.ID()].fixed() {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
	var names []string
	for _, i := range idx[:min(5, len(idx))] {
		names = append(names, fmt.Sprintf("%s (%d)", low.Sources[i].ID(), costs[i]))
	}
	return diag.New("defer.over-budget", "the %d tools loaded whatever the budget (always_load, or defer = false) take %d tokens, %d over %s; the most: %s",
		len(idx), fixed, fixed-budget, b, strings.Join(names, ", "))
}

// groupDescription is the description of a namespace group the manifest
// does not describe: its tools' names.
func groupDescription(group string, low *Lowered, loading *Loading) string {
	var names []string
	for i, t := range low.Sources {
		if loading.Tools[t.ID()].Group == group {
			names = append(names, low.Tools[i].Name)
		}
	}
	if len(names) > 6 {
		names = append(names[:6], fmt.Sprintf("and %d more", len(names)-6))
	}
	return fmt.Sprintf("The %s tools: %s.", group, strings.Join(names, ", "))
}

// groupOrder is the order tools are written in: each group at the place of
// its first tool, with all its tools, each in catalog order.
func groupOrder(groups []string) []int {
	order := make([]int, 0, len(groups))
	done := map[string]bool{}
	for i, g := range groups {
		switch {
		case g == "":
			order = append(order, i)
		case !done[g]:
			done[g] = true
			for j := i; j < len(groups); j++ {
				if groups[j] == g {
					order = append(order, j)
				}
			}
		}
	}
	return order
}

// unfindable is the warning that the deferred tool t gives a search little
// to find it by: a description of a few words or its name again, or
// parameters none of which is described.
func unfindable(t *canonical.Tool) (diag.Diagnostic, bool) {
	n := len(strings.Fields(t.Description))
	var why []string
	switch {
	case n == 0:
		why = append(why, "no description")
	case words.Restates(t.Description, t.Name):
		why = append(why, "a description that is its name again")
	case n < 4:
		why = append(why, fmt.Sprintf("a description of %d words", n))
	}
	if props := t.Input.Keyword("properties"); props != nil && len(props.Members()) > 0 &&
		!slices.ContainsFunc(props.Members(), func(m canonical.Member) bool { return m.Value.Has("description") }) {
		why = append(why, "no description on any of its parameters")
	}
	if len(why) == 0 {
		return diag.Diagnostic{}, false
	}
	d := diag.New("defer.unfindable", "the tool is deferred, and has %s: a tool search matches names and descriptions, so it may never load", strings.Join(why, " and ")).
		At(t.Source.Place("/description")).About(t.ID())
	return d.WithFix("describe what it does and when to use it, and its parameters, or set always_load = true on it"), true
}
