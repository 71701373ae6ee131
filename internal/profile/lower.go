package profile

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	Diagnostics   []diag.Diagnostic
	// Bundle is the encoded bundle; set by Emit.
	Bundle *canonical.Value
	// Sources are the catalog's tools in the order of Tools: a renamed
	// tool's alias has the tool's source.
	Sources []*canonical.Tool
	// Aliases maps the ID of each tool renamed (renamed_from) to the old
	// name the target also serves it under.
	Aliases map[string]string
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
	{"lifecycle", "lifecycle (deprecated, sunset, renamed_from)", "loss.metadata",
		func(t *canonical.Tool) bool { return t.Deprecated || t.Sunset != "" || t.RenamedFrom != "" },
		func(t *canonical.Tool) { t.Deprecated, t.Sunset, t.RenamedFrom = false, "", "" }},
}

// Lower prepares tools for the profile's target, named target in
// diagnostics. Each tool is copied (the input is never modified), given its
// emitted name, stripped of the fields and foreign extensions the target
// cannot carry, and its schemas lowered by the target's rules (package
// lower); every change is a diagnostic located in the tool's source. Two
// tools on one name are a name.collision error. Limits of a whole bundle
// are reported without a file, for the caller to place.
func (p *Profile) Lower(tools []*canonical.Tool, target string, opts Options) *Lowered {
	var aliases []pendingAlias
	out := &Lowered{Aliases: map[string]string{}, Names: make(map[string]string, len(tools)), Optional: map[string][]canonical.Pointer{}, Renamed: map[string]map[canonical.Pointer]string{}, RenamedOutput: map[string]map[canonical.Pointer]string{}}
	byName := make(map[string]*canonical.Tool, len(tools))
	tmpl := cmp.Or(opts.Names, p.Names, DefaultNames)
	dialect, rulesOf := p.rulesFor(opts)
	fingerprints := map[*lower.Rules]string{} // read by every worker: filled first
	if opts.Memo != nil {
		for _, mode := range []string{p.mode(opts), "strict"} {
			r := rulesOf(mode)
			fingerprints[r] = r.Fingerprint()
		}
	}
	nameRule := p.nameRule(opts)
	lowerOne := func(t *canonical.Tool) (o loweredTool) {
		at := func(code string, field canonical.Pointer, format string, args ...any) {
			d := diag.New(code, format, args...).At(t.Source.Place(field)).About(t.ID())
			d.Target = target
			o.diags = append(o.diags, d)
		}
		c := *t
		c.Extensions = maps.Clone(t.Extensions)
		id := t.ID()
		if nameRule.Max > 0 {
			want := render(tmpl, t)
			name := nameRule.Legal(want, id)
			if name != want {
				at("name.rewritten", "/name", "name %q is not legal for %s (%s); emitted as %q", want, p.Format, nameRule.Pattern(), name)
			}
			if !nameRule.Match(name) {
				at("name.invalid", "/name", "name %q is not legal for %s (want %s)", name, p.Format, nameRule.Pattern())
			}
			c.Namespace, c.Name = "", name
		}
		o.name = c.ID() // the emitted name; the ID itself where no rule renames
		for _, f := range toolFields {
			if f.has(&c) && !slices.Contains(p.Carries, f.name) {
				at(f.code, canonical.Pointer("").Append(f.name), "the target has no place for its %s; dropped", f.label)
				f.clear(&c)
			}
		}
		if !slices.Contains(p.Carries, "backend") {
			c.Backend = nil // how a caller runs the tool, not what the model reads: no loss
		}
		keepExt := p.extensionFormats()
		// Another format's strict flag is carried as the target's own,
		// where the target has a strict mode: not a loss.
		_, strictFrom, _ := p.sourceStrict(t)
		foreignStrict := strictFrom != "" && !slices.Contains(keepExt, strictFrom) && dialect.Strict
		for _, format := range slices.Sorted(maps.Keys(c.Extensions)) {
			if slices.Contains(keepExt, format) || slices.Contains(keepExt, "*") {
				continue
			}
			if !slices.Contains(sourceOnlyExtensions, format) { // those are left out by design
				for _, m := range c.Extensions[format].Members {
					if foreignStrict && format == strictFrom && m.Key == "strict" {
						continue
					}
					at("loss.extension", canonical.Pointer("").Append("extensions", format, m.Key),
						"the %s field %q has no place in the target; dropped", format, m.Key)
				}
			}
			delete(c.Extensions, format)
		}
		if !dialect.Strict {
			if ext := c.Extensions[p.Format]; ext.Get("strict") != nil {
				at("loss.extension", canonical.Pointer("").Append("extensions", p.Format, "strict"),
					"the %s dialect takes no \"strict\" flag (%s); dropped", dialect.Name, dialect.Source)
				e := canonical.NewObject()
				e.Members = slices.DeleteFunc(slices.Clone(ext.Members), func(m canonical.Member) bool { return m.Key == "strict" })
				c.Extensions[p.Format] = e
			}
		}
		strict := dialect.Strict && slices.Contains(p.Options, "strict") && p.strictOf(t, opts)
		mode := p.mode(opts)
		lowerSchema := func(s **canonical.Schema, base canonical.Pointer, r *lower.Rules) *lower.Result {
			if *s == nil || !lower.Applies(*s, r) {
				return nil
			}
			return opts.Memo.Schema(*s, r, fingerprints[r], lower.Options{Describe: opts.Describe})
		}
		report := func(res *lower.Result, base canonical.Pointer) {
			if res == nil {
				return
			}
			for _, ch := range res.Changes {
				msg := ch.Message
				if ch.Pointer != ch.Origin {
					msg += fmt.Sprintf(" (at %s of the emitted schema)", base.Join(ch.Pointer))
				}
				at(ch.Code, base.Join(ch.Origin), "%s", msg)
			}
		}
		rules := rulesOf(mode)
		res := (*lower.Result)(nil)
		if strict {
			res = lowerSchema(&c.Input, "/input", rulesOf("strict"))
			if ch, narrowed := res.Narrowed(); narrowed && opts.Auto {
				strict = false
				at("lower.strict-fallback", canonical.Pointer("/input").Join(ch.Origin), "left non-strict, as strict mode would narrow it (%s at %s: %s)", ch.Code, "/input"+ch.Pointer, ch.Message)
			} else {
				rules = rulesOf("strict")
			}
		}
		if !strict {
			res = lowerSchema(&c.Input, "/input", rules)
		}
		if foreignStrict && opts.Strict == nil && strict { // false is every target's default
			setExtension(&c, p.Format, "strict", canonical.NewBool(strict))
		}
		if dialect.Strict && slices.Contains(p.Options, "strict") && opts.Strict != nil {
			if was, f, ok := p.sourceStrict(t); ok && was != strict && !opts.Auto {
				at("lower.strict-overridden", canonical.Pointer("").Append("extensions", f, "strict"),
					"its source says \"strict\": %v; the target's strict = %v wins", was, strict)
			}
			setExtension(&c, p.Format, "strict", canonical.NewBool(strict))
		}
		report(res, "/input")
		if res != nil {
			c.Input = res.Schema
			o.optional, o.renamed = res.Optional, res.Renamed
		}
		if c.Output != nil {
			if ores := lowerSchema(&c.Output, "/output", rulesOf(mode)); ores != nil {
				if i := slices.IndexFunc(ores.Changes, func(ch lower.Change) bool { return ch.Code == "name.property-collision" }); i >= 0 {
					// Two keys of the result on one name: the output
					// schema cannot say the result, so it goes, and the
					// tool with it does not fail the bundle.
					ch := ores.Changes[i]
					at("loss.output-schema", canonical.Pointer("/output").Join(ch.Origin), "output schema dropped: %s, so it cannot describe the result for %s", ch.Message, p.Format)
					c.Output = nil
				} else {
					report(ores, "/output")
					c.Output = ores.Schema
					o.renamedOutput = ores.Renamed
				}
			}
		}
		if max, ok := rules.Limit("description"); ok && utf8.RuneCountInString(c.Description) > max {
			short := shorten(c.Description, max)
			at("loss.description", "/description", "the description has %d characters; %s takes at most %d, so it was cut to %d (the MCP and canonical bundles keep it whole)",
				utf8.RuneCountInString(c.Description), p.Format, max, utf8.RuneCountInString(short))
			c.Description = short
		}
		o.tool = &c
		if t.RenamedFrom != "" && nameRule.Max > 0 {
			ns, old, _ := canonical.ParseID(t.RenamedFrom)
			o.alias = nameRule.Legal(render(tmpl, &canonical.Tool{Namespace: ns, Name: old}), t.RenamedFrom)
		}
		return o
	}
	// Each tool is lowered on its own, in parallel; then, in catalog
	// order, names are checked against each other and the results joined,
	// so the outcome does not depend on the schedule.
	done := make([]loweredTool, len(tools))
	par.For(len(tools), 64, func(i int) { done[i] = lowerOne(tools[i]) })
	n := len(out.Diagnostics)
	for _, o := range done {
		n += len(o.diags)
	}
	out.Diagnostics = slices.Grow(out.Diagnostics, n-len(out.Diagnostics)) // once, not by doubling
	for i, t := range tools {
		o := done[i]
		id := t.ID()
		out.Diagnostics = append(out.Diagnostics, o.diags...)
		out.Names[id] = o.name
		if prev, ok := byName[o.name]; ok {
			d := diag.New("name.collision", "its name %q in %s is also the name of %s (%s)",
				o.name, target, prev.ID(), prev.Source.String()).At(t.Source.Place("/name")).About(id)
			d.Target = target
			out.Diagnostics = append(out.Diagnostics, d)
		} else {
			byName[o.name] = t
		}
		if len(o.optional) > 0 {
			out.Optional[id] = o.optional
		}
		if len(o.renamed) > 0 {
			out.Renamed[id] = o.renamed
		}
		if len(o.renamedOutput) > 0 {
			out.RenamedOutput[id] = o.renamedOutput
		}
		out.Tools = append(out.Tools, o.tool)
		out.Sources = append(out.Sources, t)
		if o.alias != "" {
			aliases = append(aliases, pendingAlias{name: o.alias, tool: o.tool, src: t})
		}
	}
	// A renamed tool is served under its old name too, while the catalog
	// says renamed_from, so calls made to the old name keep working.
	for _, a := range aliases {
		id := a.src.ID()
		if prev, ok := byName[a.name]; ok {
			d := diag.New("name.collision", "renamed from %s, it keeps the old name %q as an alias in %s, which is the name of %s (%s)",
				a.src.RenamedFrom, a.name, target, prev.ID(), prev.Source.String()).At(a.src.Source.Place("/renamed_from")).About(id)
			d.Target = target
			out.Diagnostics = append(out.Diagnostics, d)
			continue
		}
		byName[a.name] = a.src
		c := *a.tool
		c.Name, c.Deprecated, c.RenamedFrom, c.Sunset = a.name, true, "", ""
		c.Description = strings.TrimSpace(fmt.Sprintf("Deprecated: the old name of %s, kept while it was renamed; call %s instead. %s", a.tool.Name, a.tool.Name, a.tool.Description))
		out.Tools = append(out.Tools, &c)
		out.Sources = append(out.Sources, a.src)
		out.Aliases[id] = a.name
	}
	if len(out.Aliases) > 0 { // bundles list tools by ID: an alias by the ID it stands for
		sortKey := func(i int) string {
			if i >= len(tools) {
				return out.Sources[i].RenamedFrom
			}
			return out.Sources[i].ID()
		}
		order := make([]int, len(out.Tools))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(sortKey(a), sortKey(b)) })
		ts, ss := slices.Clone(out.Tools), slices.Clone(out.Sources)
		for i, j := range order {
			out.Tools[i], out.Sources[i] = ts[j], ss[j]
		}
	}
	return out
}

// loweredTool is what lowering one tool gives, before the tools' names
// are checked against each other.
type loweredTool struct {
	tool                   *canonical.Tool
	name, alias            string
	diags                  []diag.Diagnostic
	optional               []canonical.Pointer
	renamed, renamedOutput map[canonical.Pointer]string
}

// pendingAlias is the old name of a renamed tool, emitted once every tool
// has its name.
type pendingAlias struct {
	name string
	tool *canonical.Tool // the lowered tool
	src  *canonical.Tool
}

// shorten cuts s to at most max characters: at the end of the last
// sentence that fits when that keeps at least half, else at the last word
// boundary, with "…" after a cut inside a sentence.
func shorten(s string, max int) string {
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
	if dialect.Strict && slices.Contains(p.Options, "strict") {
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

// setExtension sets one field of t's extension map of format, copying the
// map first.
func setExtension(t *canonical.Tool, format, key string, v *canonical.Value) {
	ext := canonical.NewObject()
	if old := t.Extensions[format]; old != nil {
		ext.Members = slices.Clone(old.Members)
	}
	ext.Set(key, v)
	if t.Extensions == nil {
		t.Extensions = map[string]*canonical.Value{}
	}
	t.Extensions[format] = ext
}
