// Package quality scores how well each tool's definition tells a model
// what the tool does and how to call it, with the dimensions of Glama's
// Tool Definition Quality Score (TDQS: purpose, usage guidelines, behavior,
// parameter semantics, conciseness, completeness; the methodology behind
// glama.ai's per-tool scores, published as an open specification) and of
// "MCP Tool Descriptions Are Smelly!" (arXiv 2602.14878: purpose, usage
// guidelines, limitations, parameter explanation, length). TDQS asks a
// model; this package asks rules over the text, the schema and the sibling
// tools, deterministically, with no network: each rule a named finding
// (quality.*) that says what to write.
//
// A tool's score is the mean of its six dimensions, each 1 to 5. The
// catalog's weighs its worst tool as TDQS weighs a server's: 60 % the mean
// of its tools, 40 % the lowest.
package quality

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/words"
)

// The dimensions, in the order the report writes them.
const (
	Purpose      = "purpose"
	Usage        = "usage"
	Behavior     = "behavior"
	Parameters   = "parameters"
	Conciseness  = "conciseness"
	Completeness = "completeness"
)

// Dimensions lists the dimensions in order.
func Dimensions() []string {
	return []string{Purpose, Usage, Behavior, Parameters, Conciseness, Completeness}
}

// Finding is one rule that fired on a tool: its code (quality.*), where in
// the tool's canonical form, why, and what to write instead.
type Finding struct {
	Code    string
	At      canonical.Pointer
	Message string
	Fix     string
}

// Tool is one tool's score.
type Tool struct {
	ID         string
	Dimensions map[string]int // 1 … 5
	Score      float64        // their mean
	Findings   []Finding
}

// Codes are the codes of the tool's findings, each once, sorted.
func (t Tool) Codes() []string {
	var out []string
	for _, f := range t.Findings {
		out = append(out, f.Code)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Catalog is the catalog's score: each tool's, and the aggregate.
type Catalog struct {
	Tools []Tool  // in the order of the tools given
	Score float64 // 0.6 × the tools' mean + 0.4 × the lowest
	Mean  float64
	Min   float64
}

// Worst returns the n tools of lowest score, lowest first, then by ID.
func (c *Catalog) Worst(n int) []Tool {
	ts := slices.Clone(c.Tools)
	slices.SortStableFunc(ts, func(a, b Tool) int { return cmp.Or(cmp.Compare(a.Score, b.Score), strings.Compare(a.ID, b.ID)) })
	return ts[:min(n, len(ts))]
}

// Score scores every tool of a catalog; siblings are the tools of one
// namespace (one server).
func Score(tools []*canonical.Tool) *Catalog {
	fams := families(tools)
	c := &Catalog{Tools: make([]Tool, len(tools))}
	if len(tools) == 0 {
		return c
	}
	sum, low := 0.0, 5.0
	for i, t := range tools {
		f := fams[t.Namespace]
		s := scoreTool(t, f.closeSiblings(f.index[t]))
		c.Tools[i] = s
		sum += s.Score
		low = min(low, s.Score)
	}
	c.Mean, c.Min = sum/float64(len(tools)), low
	c.Score = 0.6*c.Mean + 0.4*c.Min
	return c
}

// sentenceEnd ends a sentence: a full stop before a capital or a line
// end, or a line end ("U.S. president" goes on).
var sentenceEnd = regexp.MustCompile(`\.(\s+[A-Z]|\s*$)|\n`)

// FirstSentence is a description's first sentence, without its full
// stop: what the quality score judges a purpose by, and what an eval
// case asks.
func FirstSentence(d string) string {
	d = strings.TrimSpace(d)
	if loc := sentenceEnd.FindStringIndex(d); loc != nil {
		return d[:loc[0]]
	}
	return d
}

// determiners follow a verb at the start of a purpose: "Prepares a …",
// "Lists the …".
var determiners = map[string]bool{"a": true, "an": true, "the": true, "all": true, "one": true, "each": true, "every": true, "some": true, "any": true, "new": true, "your": true, "its": true, "their": true, "this": true, "that": true, "these": true, "those": true, "multiple": true, "up": true}

// actionVerb holds the verbs a purpose starts with, in either person
// ("Get …", "Gets …", "Returns …"), and the -ing form.
var actionVerb = regexp.MustCompile(`^(get|list|create|update|delete|remove|add|set|search|find|fetch|read|write|send|run|execute|start|stop|open|close|check|validate|convert|generate|upload|download|retrieve|return|show|query|calculate|compute|book|cancel|schedule|move|copy|rename|merge|assign|post|publish|edit|modify|replace|insert|lookup|look|count|parse|translate|summari[sz]e|analy[sz]e|extract|resolve|submit|approve|reject|enable|disable|trigger|invoke|call|navigate|click|type|take|capture|fill|select|sort|filter|export|import|sync|subscribe|unsubscribe|mark|star|fork|archive|restore|install|deploy|build|test|compare|estimate|predict|recommend|suggest|track|monitor|notify|login|log|register|verify|transfer|pay|charge|refund|order|reserve|play|pause|record|display|render|draw|plot|save|load|clear|reset|lock|unlock|tag|label|comment|reply|react|review|request|invite|join|leave|ban|kick|mute|fetch|pull|push|commit|checkout|clone|diff|patch|explain|describe|detect|identify|classify|score|rank|match|map|scan|ping|echo|sleep|wait|retry|poll|watch|browse|visit|crawl|scrape|index|embed|store|cache|dispatch|route|forward|redirect|dismiss|prioritize|manage|apply|provide|generate|handle|perform|attach|detach|link|unlink|grant|share|view|inspect|audit|evaluate|measure|format|lint|tokenize|encode|decode|encrypt|decrypt|sign|hash|compress|resize|crop|convert|split|join|append|prepend|truncate|batch|queue|enqueue|transcribe|speak|search)(s|es|ies|ing|ed)?$`)

// startsWithVerb reports whether the sentence of the tool named name
// starts with an action verb: a common one, or the word its name starts
// with (dismiss_notification: "Dismiss …").
func startsWithVerb(s, name string) bool {
	w := words.Text(s)
	if len(w) == 0 {
		return false
	}
	if actionVerb.MatchString(w[0]) || strings.HasPrefix(w[0], "un") && actionVerb.MatchString(w[0][2:]) || strings.HasPrefix(w[0], "re") && actionVerb.MatchString(w[0][2:]) {
		return true
	}
	if len(w) > 1 && determiners[w[1]] && !determiners[w[0]] {
		return true
	}
	nw := words.Name(name)
	return len(nw) > 1 && len(nw[0]) > 2 && strings.HasPrefix(w[0], nw[0])
}

// usageCue finds words that say when to use a tool, and disambiguation
// finds words that set it apart from others.
var (
	usageCue        = regexp.MustCompile(`(?i)\b(use (this|it|when|to|for|only|instead)|when (you|the user|a user|an agent|asked)|call (this|it|first|before|after|when)|useful (for|when)|intended for|only (if|when|for)|before (calling|using)|after (calling|using)|prefer|do not use|don't use|for example|e\.g\.)`)
	disambiguation  = regexp.MustCompile(`(?i)\b(instead of|rather than|unlike|not for|as opposed to|do not use .* for|use .* instead|for .* use)\b`)
	behaviorCue     = regexp.MustCompile(`(?i)\b(returns?|read-only|does not (modify|change|write)|no side effects?|modif(y|ies)|creates?|deletes?|removes?|overwrites?|irreversibl[ey]|permanent(ly)?|cannot be undone|side effects?|rate.?limit|requires? (auth|authentication|a token|permission|scope)|idempotent|paginat|sends?|charges?|publish(es)?|destructive)\b`)
	returnsCue      = regexp.MustCompile(`(?i)\b(returns?|responds? with|results? (in|is|are)|outputs?|yields?|gives back|lists? (of|the)|the response)\b`)
	destructiveVerb = regexp.MustCompile(`^(delete|remove|drop|destroy|purge|cancel|revoke|reset|wipe|erase|terminate|kill|overwrite|truncate)`)
	permanentCue    = regexp.MustCompile(`(?i)\b(permanent|irreversibl|cannot be undone|destructive)`)
	sentenceSplit   = regexp.MustCompile(`[.!?\n]+`)
)

// scorer scores one tool, dimension by dimension, and gathers the
// findings that cost it points.
type scorer struct {
	Tool
	t     *canonical.Tool
	d     string   // the description, trimmed
	close []string // siblings a model could take it for
}

// scoreTool scores one tool among its siblings.
func scoreTool(t *canonical.Tool, close []string) Tool {
	s := &scorer{Tool: Tool{ID: t.ID(), Dimensions: map[string]int{}}, t: t, d: strings.TrimSpace(t.Description), close: close}
	s.purpose()
	s.usage()
	s.behavior()
	s.parameters()
	s.conciseness()
	s.completeness()
	total := 0
	for _, dim := range Dimensions() {
		total += s.Dimensions[dim]
	}
	s.Score = float64(total) / float64(len(Dimensions()))
	return s.Tool
}

func (s *scorer) add(code string, at canonical.Pointer, fix, format string, args ...any) {
	s.Findings = append(s.Findings, Finding{Code: code, At: at, Message: fmt.Sprintf(format, args...), Fix: fix})
}

// purpose: what the tool does, led by a verb, in more than its name.
func (s *scorer) purpose() {
	d, first := s.d, FirstSentence(s.d)
	switch {
	case d == "":
		s.Dimensions[Purpose] = 1
		s.add("quality.purpose-missing", "/description", "write a first sentence that starts with what the tool does: \"Lists the open issues of a repository\"", "the tool has no description: a model has only its name to choose it by")
	case words.Restates(s.t.Description, s.t.Name):
		s.Dimensions[Purpose] = 1
		s.add("quality.purpose-name", "/description", "say what the tool does with what, beyond its name: its object, its scope, what it returns", "the description %q is the tool's name again", d)
	case len(words.Text(first)) < 4:
		s.Dimensions[Purpose] = 2
		s.add("quality.purpose-thin", "/description", "lead with a sentence of what the tool does, to what, and what it returns", "the first sentence has %d words: too few to say what the tool does and to what", len(words.Text(first)))
	case !startsWithVerb(first, s.t.Name):
		s.Dimensions[Purpose] = 3
		s.add("quality.purpose-no-verb", "/description", "start with the action: \"Gets …\", \"Creates …\", \"Searches …\"", "the description does not start with what the tool does (%q)", firstWords(first, 4))
	case len(words.Text(first)) < 7:
		s.Dimensions[Purpose] = 4
	default:
		s.Dimensions[Purpose] = 5
	}
}

// usage: when to use it, and how it differs from its siblings.
func (s *scorer) usage() {
	d, close := s.d, s.close
	switch {
	case d == "":
		s.Dimensions[Usage] = 1
	case disambiguation.MatchString(d) || mentionsSibling(d, close):
		s.Dimensions[Usage] = 5
	case usageCue.MatchString(d) && len(close) == 0:
		s.Dimensions[Usage] = 5
	case usageCue.MatchString(d):
		s.Dimensions[Usage] = 4
		s.add("quality.usage-ambiguous", "/description", fmt.Sprintf("say when to use it rather than %s", strings.Join(close, ", ")), "the description says when to use the tool but not how it differs from %s, whose names it shares words with", strings.Join(close, ", "))
	case len(close) > 0:
		s.Dimensions[Usage] = 2
		s.add("quality.usage-ambiguous", "/description", fmt.Sprintf("add when to use it, and when to use %s instead", strings.Join(close, ", ")), "nothing says when to use the tool rather than %s, whose names it shares words with", strings.Join(close, ", "))
	default:
		s.Dimensions[Usage] = 3
		s.add("quality.usage-missing", "/description", "add when to use it: \"Use this when …\", \"Call it before …\"", "the description does not say when to use the tool")
	}
}

// behavior: what calling it does to the world.
func (s *scorer) behavior() {
	d, a := s.d, s.t.Annotations
	hinted := a != nil && (a.ReadOnlyHint != nil || a.DestructiveHint != nil)
	said := behaviorCue.MatchString(d)
	switch {
	case hinted && said:
		s.Dimensions[Behavior] = 5
	case hinted || said:
		s.Dimensions[Behavior] = 4
	case d == "":
		s.Dimensions[Behavior] = 1
	default:
		s.Dimensions[Behavior] = 2
		s.add("quality.behavior-unstated", "/description", "say whether it changes anything (read-only, creates, deletes, sends), or set readOnlyHint / destructiveHint", "neither the description nor the annotations say what calling the tool does to the world")
	}
	nw := words.Name(s.t.Name)
	destructive := len(nw) > 0 && destructiveVerb.MatchString(nw[0])
	if destructive && !(a != nil && a.DestructiveHint != nil && *a.DestructiveHint) && !permanentCue.MatchString(d) {
		s.Dimensions[Behavior] = min(s.Dimensions[Behavior], 2)
		s.add("quality.behavior-destructive-unstated", "/name", "say that the change is permanent (or how to undo it), and set destructiveHint: true", "%q sounds destructive, and neither the description nor destructiveHint says so", s.t.Name)
	}
}

// parameters: each described, beyond its name.
func (s *scorer) parameters() {
	n, described := 0, 0
	for _, m := range s.t.Input.JSON().Get("properties").Members() {
		n++
		pd, _ := m.Value.Get("description").StringValue()
		switch {
		case strings.TrimSpace(pd) == "":
			s.add("quality.parameter-undescribed", canonical.Pointer("/input/properties").Append(m.Key), "describe what the parameter means and what values it takes", "the parameter %q has no description", m.Key)
		case slices.Equal(words.Text(pd), words.Name(m.Key)):
			s.add("quality.parameter-undescribed", canonical.Pointer("/input/properties").Append(m.Key, "description"), "say what the parameter means and what values it takes, beyond its name", "the parameter %q is described by its name again", m.Key)
		default:
			described++
		}
	}
	switch share := float64(described) / float64(max(n, 1)); {
	case n == 0 || share == 1:
		s.Dimensions[Parameters] = 5
	case share >= 0.75:
		s.Dimensions[Parameters] = 4
	case share >= 0.5:
		s.Dimensions[Parameters] = 3
	case share > 0:
		s.Dimensions[Parameters] = 2
	default:
		s.Dimensions[Parameters] = 1
	}
}

// conciseness: sized to what it says, front-loaded, said once.
func (s *scorer) conciseness() {
	const fix = "move details into the parameters' descriptions and keep the description under 1,024 characters"
	switch l := len(s.d); {
	case l == 0:
		s.Dimensions[Conciseness] = 1
	case l <= 500:
		s.Dimensions[Conciseness] = 5
	case l <= 1024:
		s.Dimensions[Conciseness] = 4
	default:
		s.Dimensions[Conciseness] = 3
		if l > 2000 {
			s.Dimensions[Conciseness] = 2
		}
		s.add("quality.too-long", "/description", fix, "the description has %d characters: a model reads every one in every request", l)
	}
	if repeated(s.d) {
		s.Dimensions[Conciseness] = max(1, s.Dimensions[Conciseness]-1)
		s.add("quality.repetition", "/description", "say each thing once", "a sentence of the description is said twice")
	}
}

// completeness: what it returns, and enough of the rest.
func (s *scorer) completeness() {
	returns := s.t.Output != nil || returnsCue.MatchString(s.d)
	long := len(words.Text(s.d)) >= 12
	switch {
	case s.d == "":
		s.Dimensions[Completeness] = 1
	case returns && long:
		s.Dimensions[Completeness] = 5
	case returns:
		s.Dimensions[Completeness] = 4
	default:
		s.Dimensions[Completeness] = 2
		if long {
			s.Dimensions[Completeness] = 3
		}
		s.add("quality.returns-unstated", "/description", "say what the tool returns (or give it an output schema)", "nothing says what the tool returns")
	}
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// repeated reports whether a sentence of d of five words or more is said
// twice.
func repeated(d string) bool {
	seen := map[string]bool{}
	for _, s := range sentenceSplit.Split(d, -1) {
		w := strings.Join(words.Text(s), " ")
		if len(strings.Fields(w)) < 5 {
			continue
		}
		if seen[w] {
			return true
		}
		seen[w] = true
	}
	return false
}

// stem is a name word without a plural s.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// family is the tools of one namespace (one server), indexed for
// closeSiblings: each tool's name words and description words, stemmed, and
// which tools have each name word, so that finding a tool's siblings is the
// work of its own words, not of every pair of tools (BFCL puts 2,000 in one).
type family struct {
	tools  []*canonical.Tool
	index  map[*canonical.Tool]int
	names  [][]string        // per tool, its name's words, stemmed
	descs  []map[string]bool // per tool, its description's words of four letters or more, stemmed
	byWord map[string][]int  // a stemmed name word → the tools whose names have it, once each
}

func newFamily(tools []*canonical.Tool) *family {
	f := &family{tools: tools, index: map[*canonical.Tool]int{}, names: make([][]string, len(tools)), descs: make([]map[string]bool, len(tools)), byWord: map[string][]int{}}
	for i, t := range tools {
		f.index[t] = i
		for _, w := range words.Name(t.Name) {
			w = stem(w)
			f.names[i] = append(f.names[i], w)
			if l := f.byWord[w]; len(l) == 0 || l[len(l)-1] != i {
				f.byWord[w] = append(l, i)
			}
		}
		f.descs[i] = map[string]bool{}
		for _, w := range words.Text(t.Description) {
			if len(w) > 3 {
				if w = stem(w); len(w) > 3 {
					f.descs[i][w] = true
				}
			}
		}
	}
	return f
}

// closeSiblings are the names of the tools of t's namespace (the tool at
// index i of the family) whose names share a word with t's that is no
// verb: the tools a model may take for it. The closest first (more name
// words shared, then more description words), then by name; at most five.
func (f *family) closeSiblings(i int) []string {
	t := f.tools[i]
	mine := map[string]bool{}
	for k, w := range words.Name(t.Name) {
		if (k > 0 || !actionVerb.MatchString(w)) && len(w) > 2 { // the name's verb aside
			mine[stem(w)] = true
		}
	}
	type near struct {
		name         string
		names, descs int
	}
	candidates := map[int]bool{}
	for w := range mine {
		for _, j := range f.byWord[w] {
			candidates[j] = true
		}
	}
	var out []near
	for j := range candidates {
		o := f.tools[j]
		if j == i || o.Name == t.Name {
			continue
		}
		n := near{name: o.Name}
		for _, w := range f.names[j] {
			if mine[w] {
				n.names++
			}
		}
		for w := range f.descs[j] {
			if f.descs[i][w] {
				n.descs++
			}
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b near) int {
		return cmp.Or(cmp.Compare(b.names, a.names), cmp.Compare(b.descs, a.descs), strings.Compare(a.name, b.name))
	})
	var names []string
	for _, n := range out[:min(5, len(out))] {
		names = append(names, n.name)
	}
	return names
}

// mentionsSibling reports whether d names one of the sibling tools.
func mentionsSibling(d string, names []string) bool {
	for _, n := range names {
		if strings.Contains(d, n) {
			return true
		}
	}
	return false
}

// Siblings are, for eval sets, the tools a model may take for each tool:
// those closeSiblings finds, by ID, keyed by the tool's ID.
func Siblings(tools []*canonical.Tool) map[string][]string {
	out := map[string][]string{}
	for _, f := range families(tools) {
		byName := map[string]string{}
		for _, o := range f.tools {
			byName[o.Name] = o.ID()
		}
		for i, t := range f.tools {
			for _, n := range f.closeSiblings(i) {
				out[t.ID()] = append(out[t.ID()], byName[n])
			}
		}
	}
	return out
}

// families are the catalog's tools per namespace, in a stable order.
func families(tools []*canonical.Tool) map[string]*family {
	byNS := map[string][]*canonical.Tool{}
	for _, t := range tools {
		byNS[t.Namespace] = append(byNS[t.Namespace], t)
	}
	out := map[string]*family{}
	for ns, ts := range byNS {
		out[ns] = newFamily(ts)
	}
	return out
}
