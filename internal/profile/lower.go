package profile

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/lower"
	"github.com/toolc-dev/toolc/internal/par"
)

// Lowered is a catalog lowered for one target.
type Lowered struct {
	Tools []*canonical.Tool
	// Names maps every tool ID to its emitted name.
	Names map[string]string
	// Optional maps the ID of each tool that the strict transform changed
	// to the pointers, in its emitted input schema, of the properties that
	// were optional: a null there means the argument was left out.
	Optional map[string][]canonical.Pointer
	// Renamed maps the ID of each tool whose property keys the target's key
	// rule renamed to, per renamed property, its pointer in the emitted
	// input schema and the key it had.
	Renamed map[string]map[canonical.Pointer]string
	// RenamedOutput is the same for output schemas: a tool's result must
	// use the renamed keys where the target declares its output schema.
	RenamedOutput map[string]map[canonical.Pointer]string
	// Diagnostics are what was found of the catalog as a whole (two tools
	// on one name) and, once Emit has run, of the bundle; each tool's own
	// findings are in ToolDiagnostics. All joins the two.
	Diagnostics []diag.Diagnostic
	// ToolDiagnostics are each tool's findings, in the order of the tools
	// given to Lower: kept apart, not copied into one list, as a large
	// catalog has hundreds of thousands and the build gathers them once.
	ToolDiagnostics [][]diag.Diagnostic
	// Bundle is the encoded bundle; set by Emit.
	Bundle *canonical.Value
	// Text, set by a typed target in place of Bundle, writes the target's
	// file as it makes it: typed code is never held whole.
	Text func(io.Writer) error
	// Later, set by a typed target, are the findings of what its types
	// cannot say, made when they are gathered (All; the build's finish):
	// a 20,000-tool catalog has 80,000 in its three typed targets, and
	// made while the target was built they stood beside the copy the build
	// gathers them into, where its heap peaks.
	Later Later
	// Err is why Emit could not do what the options ask (the tokens a
	// deferral plan is made from could not be counted): the build fails
	// with it rather than ship a bundle that ignores [load].
	Err error
	// Sources are the catalog's tools in the order of Tools: a renamed
	// tool's alias has the tool's source.
	Sources []*canonical.Tool
	// Aliases maps the ID of each tool renamed (renamed_from) to the old
	// name the target also serves it under.
	Aliases map[string]string
	// Strict holds the ID of each tool lowered for strict mode.
	Strict map[string]bool
	// Flags are the "strict" flag each tool of Tools is written with, in
	// its order: nil for none. The lowering decides it (the target's
	// strict option, else the source's flag where it is the target's
	// format or is carried as it); no encoder reads it from the tool's
	// extensions, which never hold it for a target with a strict mode.
	Flags []*bool
	// Plan is when each tool loads in the target, and who may call it,
	// where the manifest decides it ([load]); nil where it does not.
	Plan *Plan
}

// InOrder returns the catalog's tools in the order the target writes them.
func (l *Lowered) InOrder() []*canonical.Tool {
	if l.Plan == nil || l.Plan.Order == nil {
		return l.Sources
	}
	out := make([]*canonical.Tool, len(l.Plan.Order))
	for i, j := range l.Plan.Order {
		out[i] = l.Sources[j]
	}
	return out
}

// sourceOnlyExtensions are the formats whose extensions say how to call a
// tool or where it was defined (OpenAPI's HTTP binding, LangChain's module
// and export) rather than what the model sees. They are kept in canonical
// bundles and left out of provider bundles without a loss report.
var sourceOnlyExtensions = []string{"openapi", "langchain"}

// toolField is one optional canonical tool field that a target may not carry.
type toolField struct {
	name  string // member of the canonical JSON form
	label string // what it is called in messages
	code  string // the loss code when dropped
	has   func(*canonical.Tool) bool
	clear func(*canonical.Tool)
}

// toolFields is the table of droppable tool fields. Name, description and the
// input schema are carried by every target.
var toolFields = []toolField{
	{"title", "title", "loss.title", func(t *canonical.Tool) bool { return t.Title != "" }, func(t *canonical.Tool) { t.Title = "" }},
	{"version", "version", "loss.metadata", func(t *canonical.Tool) bool { return t.Version != "" }, func(t *canonical.Tool) { t.Version = "" }},
	{"category", "category", "loss.metadata", func(t *canonical.Tool) bool { return t.Category != "" }, func(t *canonical.Tool) { t.Category = "" }},
	{"output", "output schema", "loss.output-schema", func(t *canonical.Tool) bool { return t.Output != nil }, func(t *canonical.Tool) { t.Output = nil }},
	{"annotations", "annotations", "loss.annotations", func(t *canonical.Tool) bool { return t.Annotations != nil }, func(t *canonical.Tool) { t.Annotations = nil }},
	{"examples", "input examples", "loss.examples", func(t *canonical.Tool) bool { return len(t.Examples) > 0 }, func(t *canonical.Tool) { t.Examples = nil }},
	{"timeout", "timeout", "loss.metadata", func(t *canonical.Tool) bool { return t.Timeout != 0 }, func(t *canonical.Tool) { t.Timeout = 0 }},
	{"scopes", "scopes", "loss.metadata", func(t *canonical.Tool) bool { return len(t.Scopes) > 0 }, func(t *canonical.Tool) { t.Scopes = nil }},
	{"security", "security metadata (data_classification, pii_handling)", "loss.metadata", func(t *canonical.Tool) bool { return t.Security != nil }, func(t *canonical.Tool) { t.Security = nil }},
	{"icons", "icons", "loss.icons", func(t *canonical.Tool) bool { return len(t.Icons) > 0 }, func(t *canonical.Tool) { t.Icons = nil }},
	{"meta", "_meta", "loss.meta", func(t *canonical.Tool) bool { return t.Meta != nil }, func(t *canonical.Tool) { t.Meta = nil }},
	{"lifecycle", "lifecycle (deprecated, sunset, renamed_from, stability)", "loss.metadata",
		func(t *canonical.Tool) bool {
			return t.Deprecated || t.Sunset != "" || t.RenamedFrom != "" || t.Stability != ""
		},
		func(t *canonical.Tool) { t.Deprecated, t.Sunset, t.RenamedFrom, t.Stability = false, "", "", "" }},
}

// Lower prepares tools for the profile's target, named target in
// diagnostics. Each tool is copied (the input is never modified), given its
// emitted name, stripped of the fields and foreign extensions the target
// cannot carry, and its schemas lowered by the target's rules (package
// lower); every change is a diagnostic located in the tool's source. Two
// tools on one name are a name.collision error. Limits of a whole bundle
// are reported without a file, for the caller to place. Once ctx is done
// it stops, and returns nil.
func (p *Profile) Lower(ctx context.Context, tools []*canonical.Tool, target string, opts Options) *Lowered {
	l := p.lowering(target, opts)
	// Each tool is lowered on its own, in parallel; then, in catalog
	// order, names are checked against each other and the results joined,
	// so the outcome does not depend on the schedule.
	done := make([]loweredTool, len(tools))
	if par.ForContext(ctx, len(tools), 64, func(i int) { done[i] = l.tool(tools[i]) }) != nil {
		return nil
	}
	return l.join(tools, done)
}

// lowering is what every tool of one Lower call shares: read by the
// workers, written by none.
type lowering struct {
	p            *Profile
	target       string
	opts         Options
	tmpl         string
	dialect      Dialect
	rulesOf      func(mode string) *lower.Rules
	fingerprints map[*lower.Rules]string
	nameRule     NameRule
	keepExt      []string // the extension formats the target writes
	strictMode   bool     // the target has a strict mode in this dialect
}

func (p *Profile) lowering(target string, opts Options) *lowering {
	l := &lowering{p: p, target: target, opts: opts, tmpl: cmp.Or(opts.Names, p.Names, DefaultNames),
		fingerprints: map[*lower.Rules]string{}, nameRule: p.nameRule(opts), keepExt: p.extensionFormats()}
	l.dialect, l.rulesOf = p.rulesFor(opts)
	l.strictMode = l.dialect.Strict && p.HasStrict
	if opts.Memo != nil {
		for _, mode := range []string{p.mode(opts), "strict"} {
			r := l.rulesOf(mode)
			l.fingerprints[r] = r.Fingerprint()
		}
	}
	return l
}

// toolPass is one step of lowering a tool, as the schema passes of
// package lower are: each reads and changes the tool being made and
// reports what it changed.
type toolPass struct {
	name string
	doc  string
	run  func(*toolLowering)
}

// toolPasses are the steps of lowering a tool, in order.
var toolPasses = []toolPass{
	{"name", "gives the tool its emitted name by the target's name rule", (*toolLowering).rename},
	{"fields", "drops the tool fields the target has no place for", (*toolLowering).dropFields},
	{"extensions", "drops other formats' extensions; another format's strict flag is carried as the target's", (*toolLowering).dropExtensions},
	{"input", "decides strict mode (auto falls back where it would narrow) and lowers the input schema", (*toolLowering).lowerInput},
	{"strict", "decides the strict flag the target writes, and takes it out of the extensions", (*toolLowering).writeStrict},
	{"input-changes", "reports the input schema's changes and takes the lowered schema", (*toolLowering).takeInput},
	{"output", "lowers the output schema, or drops it where two result keys would share a name", (*toolLowering).lowerOutput},
	{"description", "cuts a description over the target's limit at a sentence", (*toolLowering).cutDescription},
	{"alias", "names the old name a renamed tool is also served under", (*toolLowering).alias},
}

// toolLowering is one tool being lowered: its source, the copy being made
// and what lowering it found.
type toolLowering struct {
	*lowering
	src           *canonical.Tool
	c             *canonical.Tool // the tool being made, its own allocation: it outlives the lowering
	o             loweredTool
	diags         []diag.Diagnostic // what was said, in a buffer kept from tool to tool
	strictFrom    string            // the format of the source's strict flag, if any
	foreignStrict bool              // that flag is another format's, carried as the target's
	rules         *lower.Rules      // the rules the input was lowered by
	input         *lower.Result
}

// toolLowerings are reused: no pass keeps its tool's state, and one made
// for each tool and target was 47 MB of a 100,000-tool build's garbage.
var toolLowerings = sync.Pool{New: func() any { return new(toolLowering) }}

// tool lowers one tool through every pass.
func (l *lowering) tool(t *canonical.Tool) loweredTool {
	c := *t
	tl := toolLowerings.Get().(*toolLowering)
	*tl = toolLowering{lowering: l, src: t, c: &c, diags: tl.diags}
	tl.c.Extensions = maps.Clone(t.Extensions)
	for _, pass := range toolPasses {
		pass.run(tl)
	}
	tl.o.tool = tl.c
	o := tl.o
	if len(tl.diags) > 0 { // at their number: grown a finding at a time, they were a third more
		o.diags = slices.Clone(tl.diags)
	}
	clear(tl.diags)
	*tl = toolLowering{diags: tl.diags[:0]} // the pool keeps nothing of this tool
	toolLowerings.Put(tl)
	return o
}

// at reports a change to the tool at field of its canonical form.
func (tl *toolLowering) at(code string, field canonical.Pointer, format string, args ...any) {
	tl.said(code, field, fmt.Sprintf(format, args...))
}

// said is at with its message made.
func (tl *toolLowering) said(code string, field canonical.Pointer, message string) {
	d := diag.NewText(code, message).At(tl.src.Source.Place(field)).About(tl.src.ID())
	d.Target = tl.target
	tl.diags = append(tl.diags, d)
}

// droppedFields are each tool field's place and message when a target
// drops it, made once: nearly every tool of a catalog loses its
// annotations in most targets.
var droppedFields = func() []struct {
	at      canonical.Pointer
	message string
} {
	out := make([]struct {
		at      canonical.Pointer
		message string
	}, len(toolFields))
	for i, f := range toolFields {
		out[i].at = canonical.Pointer("").Append(f.name)
		out[i].message = fmt.Sprintf("the target has no place for its %s; dropped", f.label)
	}
	return out
}()

func (tl *toolLowering) rename() {
	if rule := tl.nameRule; rule.Max > 0 {
		want := render(tl.tmpl, tl.src)
		name := rule.Legal(want, tl.src.ID())
		if name != want {
			tl.at("name.rewritten", "/name", "name %q is not legal for %s (%s); emitted as %q", want, tl.p.Format, rule.Pattern(), name)
		}
		if !rule.Match(name) {
			tl.at("name.invalid", "/name", "name %q is not legal for %s (want %s)", name, tl.p.Format, rule.Pattern())
		}
		tl.c.Namespace, tl.c.Name = "", name
	}
	tl.o.name = tl.c.ID() // the emitted name; the ID itself where no rule renames
}

func (tl *toolLowering) dropFields() {
	for i, f := range toolFields {
		if f.has(tl.c) && !slices.Contains(tl.p.Carries, f.name) {
			tl.said(f.code, droppedFields[i].at, droppedFields[i].message)
			f.clear(tl.c)
		}
	}
	if !slices.Contains(tl.p.Carries, "backend") {
		tl.c.Backend = nil // how a caller runs the tool, not what the model reads: no loss
	}
}

// dropExecution drops an MCP tool's execution (its task support, 2025-11-25)
// from an MCP bundle for a revision that has no place for it: 2025-06-18
// has no tasks, and 2026-07-28 moved them into the io.modelcontextprotocol/tasks
// extension, whose support the server declares (server/discover), not a
// tool (SEP-2663).
func (tl *toolLowering) dropExecution() {
	ext := tl.c.Extensions["mcp"]
	if !tl.p.HasClients || revision(tl.opts.Protocol).tasks || ext.Get("execution") == nil {
		return
	}
	why := "MCP " + tl.opts.Protocol + " has no tasks"
	if revision(tl.opts.Protocol).stateless {
		why = "MCP 2026-07-28 moved tasks into the io.modelcontextprotocol/tasks extension, whose support a server declares in server/discover, not a tool (SEP-2663)"
	}
	tl.at("loss.execution", canonical.Pointer("").Append("extensions", "mcp", "execution"), "the tool's execution (task support) dropped: %s", why)
	e := canonical.NewObject()
	e.SetMembers(slices.DeleteFunc(slices.Clone(ext.Members()), func(m canonical.Member) bool { return m.Key == "execution" }))
	tl.c.Extensions["mcp"] = e
	if len(e.Members()) == 0 {
		delete(tl.c.Extensions, "mcp")
	}
}

// dropNonAPIFields drops the fields of the extensions the target writes
// back that its provider's API has not (Profile.APIFields).
func (tl *toolLowering) dropNonAPIFields() {
	if tl.p.APIFields == nil {
		return
	}
	for _, format := range slices.Sorted(maps.Keys(tl.c.Extensions)) {
		ext := tl.c.Extensions[format]
		var kept []canonical.Member
		for _, m := range ext.Members() {
			if slices.Contains(tl.p.APIFields, m.Key) {
				kept = append(kept, m)
				continue
			}
			tl.at("loss.extension", canonical.Pointer("").Append("extensions", format, m.Key),
				"the %s field %q is not one %s's API takes (its SDK's request type has none), which refuses a request with it; dropped", format, m.Key, tl.p.Format)
		}
		if len(kept) == len(ext.Members()) {
			continue
		}
		if len(kept) == 0 {
			delete(tl.c.Extensions, format)
			continue
		}
		e := canonical.NewObject()
		e.SetMembers(kept)
		tl.c.Extensions[format] = e
	}
}

func (tl *toolLowering) dropExtensions() {
	c, keepExt := tl.c, tl.keepExt
	_, tl.strictFrom, _ = tl.p.sourceStrict(tl.src)
	tl.foreignStrict = tl.strictFrom != "" && !slices.Contains(keepExt, tl.strictFrom) && tl.dialect.Strict
	for _, format := range slices.Sorted(maps.Keys(c.Extensions)) {
		if slices.Contains(keepExt, format) || slices.Contains(keepExt, "*") {
			continue
		}
		if !slices.Contains(sourceOnlyExtensions, format) { // those are left out by design
			for _, m := range c.Extensions[format].Members() {
				if tl.foreignStrict && format == tl.strictFrom && m.Key == "strict" {
					continue
				}
				tl.at("loss.extension", canonical.Pointer("").Append("extensions", format, m.Key),
					"the %s field %q has no place in the target; dropped", format, m.Key)
			}
		}
		delete(c.Extensions, format)
	}
	tl.dropExecution()
	tl.dropNonAPIFields()
	if ext := c.Extensions[tl.p.Format]; !tl.dialect.Strict && ext.Get("strict") != nil {
		tl.at("loss.extension", canonical.Pointer("").Append("extensions", tl.p.Format, "strict"),
			"the %s dialect takes no \"strict\" flag (%s); dropped", tl.dialect.Name, tl.dialect.Source)
		e := canonical.NewObject()
		e.SetMembers(slices.DeleteFunc(slices.Clone(ext.Members()), func(m canonical.Member) bool { return m.Key == "strict" }))
		c.Extensions[tl.p.Format] = e
	}
}

// schema lowers the schema s by r, an input schema or an output schema, or
// returns nil when r changes nothing of it.
func (tl *toolLowering) schema(s *canonical.Schema, r *lower.Rules, input bool) *lower.Result {
	if s == nil || !lower.Applies(s, r) {
		return nil
	}
	return tl.opts.Memo.Schema(s, r, tl.fingerprints[r], lower.Options{Describe: tl.opts.Describe, Input: input})
}

// report reports a lowered schema's changes, at base in the tool.
func (tl *toolLowering) report(res *lower.Result, base canonical.Pointer) {
	if res == nil {
		return
	}
	for _, ch := range res.Changes {
		msg := ch.Message
		if ch.Pointer != ch.Origin {
			msg += fmt.Sprintf(" (at %s of the emitted schema)", base.Join(ch.Pointer))
		}
		tl.at(ch.Code, base.Join(ch.Origin), "%s", msg)
	}
}

func (tl *toolLowering) lowerInput() {
	tl.o.strict = tl.strictMode && tl.p.strictOf(tl.src, tl.opts)
	tl.rules = tl.rulesOf(tl.p.mode(tl.opts))
	if tl.o.strict {
		tl.input = tl.schema(tl.c.Input, tl.rulesOf("strict"), true)
		if ch, narrowed := tl.input.Narrowed(); narrowed && tl.opts.Auto {
			tl.o.strict = false
			tl.at("lower.strict-fallback", canonical.Pointer("/input").Join(ch.Origin), "left non-strict, as strict mode would narrow it (%s at %s: %s)", ch.Code, "/input"+ch.Pointer, ch.Message)
		} else {
			tl.rules = tl.rulesOf("strict")
		}
	}
	if !tl.o.strict {
		tl.input = tl.schema(tl.c.Input, tl.rules, true)
	}
}

// writeStrict decides the "strict" flag the target writes for the tool:
// the source's own, where it is in one of the formats the target writes
// (the first of them that has one); true where another format's flag is
// carried as the target's and the tool was lowered strict; none where the
// dialect makes every tool non-strict without the target's option; and
// the target's strict option over all of them. The flag leaves the
// extension maps the target writes: it is a typed value from here on.
func (tl *toolLowering) writeStrict() {
	if !tl.p.HasStrict {
		return // a target without strict mode writes a source's flag as the extension it is (canonical)
	}
	strict := tl.o.strict
	flag := tl.takeFlag()
	if tl.foreignStrict && tl.opts.Strict == nil && strict { // false is every target's default
		flag = &strict
	}
	if was, f, ok := tl.p.sourceStrict(tl.src); ok && was && tl.dialect.SameStrict && tl.opts.Strict == nil {
		tl.at("lower.strict-overridden", canonical.Pointer("").Append("extensions", f, "strict"),
			"its source says \"strict\": true; %s, so without strict on the target every tool is non-strict", tl.dialect.Source)
		if slices.Contains(tl.keepExt, f) {
			flag = nil
		}
	}
	if tl.strictMode && tl.opts.Strict != nil {
		if was, f, ok := tl.p.sourceStrict(tl.src); ok && was != strict && !tl.opts.Auto {
			tl.at("lower.strict-overridden", canonical.Pointer("").Append("extensions", f, "strict"),
				"its source says \"strict\": %v; the target's strict = %v wins", was, strict)
		}
		flag = &strict
	}
	tl.o.flag = flag
}

// takeFlag takes the source's "strict" flag out of the extension maps the
// target writes, and returns the first one's value (the target's own
// format first).
func (tl *toolLowering) takeFlag() *bool {
	var flag *bool
	for _, f := range append([]string{tl.p.Format}, tl.keepExt...) {
		ext := tl.c.Extensions[f]
		v := ext.Get("strict")
		if v == nil {
			continue
		}
		if b, ok := v.BoolValue(); ok && flag == nil {
			flag = &b
		}
		e := canonical.NewObject()
		e.SetMembers(slices.DeleteFunc(slices.Clone(ext.Members()), func(m canonical.Member) bool { return m.Key == "strict" }))
		tl.c.Extensions[f] = e
		if len(e.Members()) == 0 {
			delete(tl.c.Extensions, f)
		}
	}
	return flag
}

func (tl *toolLowering) takeInput() {
	tl.report(tl.input, "/input")
	if res := tl.input; res != nil {
		tl.c.Input = res.Schema
		tl.o.optional, tl.o.renamed = res.Optional, res.Renamed
	}
}

func (tl *toolLowering) lowerOutput() {
	if tl.c.Output == nil {
		return
	}
	out := tl.c.Output
	res := tl.schema(out, tl.rulesOf(tl.p.mode(tl.opts)), false)
	if res != nil {
		if i := slices.IndexFunc(res.Changes, func(ch lower.Change) bool { return ch.Code == "name.property-collision" }); i >= 0 {
			// Two keys of the result on one name: the output schema
			// cannot say the result, so it goes, and the tool with it
			// does not fail the bundle.
			ch := res.Changes[i]
			tl.at("loss.output-schema", canonical.Pointer("/output").Join(ch.Origin), "output schema dropped: %s, so it cannot describe the result for %s", ch.Message, tl.p.Format)
			tl.c.Output = nil
			return
		}
		tl.report(res, "/output")
		out = res.Schema
		tl.o.renamedOutput = res.Renamed
	}
	out, why := tl.outputRoot(out)
	if out == nil {
		tl.at("loss.output-schema", "/output", "output schema dropped: %s; the tool's results are then unstructured there", why)
		tl.o.renamedOutput = nil
	}
	tl.c.Output = out
}

func (tl *toolLowering) cutDescription() {
	d := tl.c.Description
	if max, ok := tl.rules.Limit("description"); ok && utf8.RuneCountInString(d) > max {
		short := Shorten(d, max)
		tl.at("loss.description", "/description", "the description has %d characters; %s takes at most %d, so it was cut to %d (the MCP and canonical bundles keep it whole)",
			utf8.RuneCountInString(d), tl.p.Format, max, utf8.RuneCountInString(short))
		tl.c.Description = short
	}
}

func (tl *toolLowering) alias() {
	if t := tl.src; t.RenamedFrom != "" && tl.nameRule.Max > 0 {
		ns, old, _ := canonical.ParseID(t.RenamedFrom)
		tl.o.alias = tl.nameRule.Legal(render(tl.tmpl, &canonical.Tool{Namespace: ns, Name: old}), t.RenamedFrom)
	}
}

// join checks the lowered tools' names against each other, in catalog
// order, and gathers them into the Lowered.
func (l *lowering) join(tools []*canonical.Tool, done []loweredTool) *Lowered {
	out := &Lowered{Aliases: map[string]string{}, Names: make(map[string]string, len(tools)), Optional: map[string][]canonical.Pointer{},
		Renamed: map[string]map[canonical.Pointer]string{}, RenamedOutput: map[string]map[canonical.Pointer]string{}, Strict: map[string]bool{}}
	byName := make(map[string]*canonical.Tool, len(tools))
	var aliases []pendingAlias
	if len(tools) > 0 {
		out.Tools, out.Sources = make([]*canonical.Tool, 0, len(tools)), make([]*canonical.Tool, 0, len(tools))
		out.ToolDiagnostics = make([][]diag.Diagnostic, len(tools))
	}
	for i, t := range tools {
		o := done[i]
		id := t.ID()
		out.ToolDiagnostics[i] = o.diags
		out.Names[id] = o.name
		if prev, ok := byName[o.name]; ok {
			out.Diagnostics = append(out.Diagnostics, l.collision(t, "/name", "its name %q in %s is also the name of %s (%s)",
				o.name, l.target, prev.ID(), prev.Source.String()))
		} else {
			byName[o.name] = t
		}
		out.record(id, &o)
		out.Tools = append(out.Tools, o.tool)
		out.Sources = append(out.Sources, t)
		out.Flags = append(out.Flags, o.flag)
		if o.alias != "" {
			aliases = append(aliases, pendingAlias{name: o.alias, tool: o.tool, flag: o.flag, src: t})
		}
	}
	l.addAliases(out, aliases, byName)
	if len(out.Aliases) > 0 {
		out.sortAliases(len(tools))
	}
	return out
}

// All is every diagnostic of the lowering: each tool's, in order, then
// those of the catalog and the bundle, then Later's.
func (out *Lowered) All() []diag.Diagnostic {
	return out.Later.AppendTo(slices.Concat(append(slices.Clip(out.ToolDiagnostics), out.Diagnostics)...))
}

// Later are findings made when they are needed: N of them, which Append
// appends to a list. The zero Later has none.
type Later struct {
	N      int
	Append func([]diag.Diagnostic) []diag.Diagnostic
}

// AppendTo appends the findings to ds.
func (l Later) AppendTo(ds []diag.Diagnostic) []diag.Diagnostic {
	if l.Append == nil {
		return ds
	}
	return l.Append(ds)
}

// record keeps what lowering tool id found that a caller turns back.
func (out *Lowered) record(id string, o *loweredTool) {
	if len(o.optional) > 0 {
		out.Optional[id] = o.optional
	}
	if len(o.renamed) > 0 {
		out.Renamed[id] = o.renamed
	}
	if len(o.renamedOutput) > 0 {
		out.RenamedOutput[id] = o.renamedOutput
	}
	if o.strict {
		out.Strict[id] = true
	}
}

// collision is a name.collision error about t at field.
func (l *lowering) collision(t *canonical.Tool, field canonical.Pointer, format string, args ...any) diag.Diagnostic {
	d := diag.New("name.collision", format, args...).At(t.Source.Place(field)).About(t.ID())
	d.Target = l.target
	return d
}

// addAliases serves a renamed tool under its old name too, while the
// catalog says renamed_from, so calls made to the old name keep working.
func (l *lowering) addAliases(out *Lowered, aliases []pendingAlias, byName map[string]*canonical.Tool) {
	for _, a := range aliases {
		if prev, ok := byName[a.name]; ok {
			out.Diagnostics = append(out.Diagnostics, l.collision(a.src, "/renamed_from", "renamed from %s, it keeps the old name %q as an alias in %s, which is the name of %s (%s)",
				a.src.RenamedFrom, a.name, l.target, prev.ID(), prev.Source.String()))
			continue
		}
		byName[a.name] = a.src
		c := *a.tool
		c.Name, c.Deprecated, c.RenamedFrom, c.Sunset = a.name, true, "", ""
		c.Description = strings.TrimSpace(fmt.Sprintf("Deprecated: the old name of %s, kept while it was renamed; call %s instead. %s", a.tool.Name, a.tool.Name, a.tool.Description))
		out.Tools = append(out.Tools, &c)
		out.Sources = append(out.Sources, a.src)
		out.Flags = append(out.Flags, a.flag)
		out.Aliases[a.src.ID()] = a.name
	}
}

// sortAliases puts each alias where its old ID sorts: bundles list tools
// by ID, an alias by the ID it stands for. The first n tools are the
// catalog's.
func (out *Lowered) sortAliases(n int) {
	sortKey := func(i int) string {
		if i >= n {
			return out.Sources[i].RenamedFrom
		}
		return out.Sources[i].ID()
	}
	order := make([]int, len(out.Tools))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(sortKey(a), sortKey(b)) })
	ts, ss, fs := slices.Clone(out.Tools), slices.Clone(out.Sources), slices.Clone(out.Flags)
	for i, j := range order {
		out.Tools[i], out.Sources[i], out.Flags[i] = ts[j], ss[j], fs[j]
	}
}

// loweredTool is what lowering one tool gives, before the tools' names
// are checked against each other.
type loweredTool struct {
	tool                   *canonical.Tool
	name, alias            string
	strict                 bool  // lowered for strict mode
	flag                   *bool // the strict flag written; nil for none
	diags                  []diag.Diagnostic
	optional               []canonical.Pointer
	renamed, renamedOutput map[canonical.Pointer]string
}

// pendingAlias is the old name of a renamed tool, emitted once every tool
// has its name.
type pendingAlias struct {
	name string
	tool *canonical.Tool // the lowered tool
	flag *bool           // its strict flag
	src  *canonical.Tool
}

// shorten cuts s to at most max characters: at the end of the last
// sentence that fits when that keeps at least half, else at the last word
// boundary, with "…" after a cut inside a sentence.
// Shorten cuts s to at most max characters, at the end of a sentence where
// one ends past the half, else at a word, with "…".
func Shorten(s string, max int) string {
	rs := []rune(s)
	if len(rs) <= max {
		return s
	}
	head := string(rs[:max])
	for _, end := range []string{". ", ".\n", "! ", "? "} {
		if i := strings.LastIndex(head, end); i >= 0 && utf8.RuneCountInString(head[:i+1]) >= max/2 {
			return head[:i+1]
		}
	}
	head = string(rs[:max-1])
	if next := rs[max-1]; next != ' ' && next != '\n' && next != '\t' { // inside a word: back to its start
		if i := strings.LastIndexAny(head, " \n\t"); i >= 0 && utf8.RuneCountInString(head[:i]) >= max/2 {
			head = head[:i]
		}
	}
	return strings.TrimRight(head, " \n\t,;:") + "…"
}

// rules returns the schema rules of a mode, those of the default mode for a
// mode the profile does not have.
func (p *Profile) rules(mode string) *lower.Rules {
	if r := p.Schema[mode]; r != nil {
		return r
	}
	if r := p.Schema[""]; r != nil {
		return r
	}
	return keepAll
}

// rulesFor returns the dialect of a target with opts and the rules of
// each of its modes: the profile's, the dialect's rows and its clients'
// on top.
func (p *Profile) rulesFor(opts Options) (Dialect, func(mode string) *lower.Rules) {
	dialect, _ := p.dialect(opts)
	return dialect, p.rulesWith(dialect.Name, append(slices.Clone(dialect.Rows), clientRows(opts.Clients)...))
}

// Fingerprints are the fingerprints of the rules a target with opts
// lowers under (its mode's, and strict mode's where it may be strict):
// targets that have one in common can share a lower.Memo.
func (p *Profile) Fingerprints(opts Options) []string {
	dialect, rulesOf := p.rulesFor(opts)
	out := []string{rulesOf(p.mode(opts)).Fingerprint()}
	if dialect.Strict && p.HasStrict {
		if f := rulesOf("strict").Fingerprint(); f != out[0] {
			out = append(out, f)
		}
	}
	return out
}

// rulesWith returns the rules of each mode with extra rows on top (a
// dialect's, the clients' of an MCP target), made once (the lowering of
// tools in parallel only reads them). A row of a
// feature that a manifest's profile override set is left out: the
// manifest's word wins.
func (p *Profile) rulesWith(who string, extra []lower.Row) func(mode string) *lower.Rules {
	if len(extra) == 0 {
		return p.rules
	}
	made := map[string]*lower.Rules{}
	for mode, r := range p.Schema {
		c := r.Clone()
		for _, row := range extra {
			if !slices.Contains(p.overridden, row.Feature) {
				if err := c.Set(row.Feature, row.Action, row.Values, row.Source); err != nil {
					panic("profile: " + who + ": " + err.Error()) // a bug in the dialect or client table
				}
			}
		}
		made[mode] = c
	}
	return func(mode string) *lower.Rules {
		if r := made[mode]; r != nil {
			return r
		}
		if r := made[""]; r != nil {
			return r
		}
		return keepAll
	}
}
