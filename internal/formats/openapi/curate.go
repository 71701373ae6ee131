package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/option"
)

// Options curate a description: which operations become tools, and how each
// is named, described and shaped. They are the [sources.openapi] table of
// toolc.toml; the zero value reads every operation as it is.
//
// An operation becomes a tool when, in this order:
//
//  1. it matches no entry of Exclude: each list of Exclude alone leaves
//     out what it matches (the manifest has the last word);
//  2. it matches Include: one of its selectors (it may be one table or a
//     list of them) whose every list that is set (tags, paths, methods,
//     operations) has an entry it matches, or Include sets none;
//  3. the description does not turn it off: the first boolean x-mcp of the
//     operation, its path item and the document root (x-speakeasy-mcp's
//     disabled on the operation counts as the operation's), false being
//     off. An operation that Include names by operationId or "METHOD /path"
//     is on whatever x-mcp says: the team chose it.
type Options struct {
	Include Selectors `toml:"include"`
	Exclude Selector  `toml:"exclude"`
	// Operations overrides operations, keyed by operationId or by
	// "METHOD /path" ("GET /v1/customers").
	Operations map[string]Override `toml:"operations"`
}

// Selectors is one selector or several: an operation is included when any
// of them matches it. In TOML it is one table (include = { tags = [...] })
// or an array of them (include = [{ tags = [...] }, { operations = [...] }],
// or [[sources.openapi.include]] tables).
type Selectors []Selector

// UnmarshalTOML reads a table or an array of tables, refusing keys that are
// not a selector's.
func (s *Selectors) UnmarshalTOML(v any) error {
	var tables []map[string]any
	switch x := v.(type) {
	case map[string]any:
		tables = []map[string]any{x}
	case []map[string]any:
		tables = x
	case []any:
		for _, it := range x {
			m, ok := it.(map[string]any)
			if !ok {
				return fmt.Errorf("want a table or an array of tables, not an array of %s", option.WordOf(it))
			}
			tables = append(tables, m)
		}
	default:
		return fmt.Errorf("want a table or an array of tables, not %s", option.WordOf(v))
	}
	*s = nil
	for _, m := range tables {
		var sel Selector
		for _, k := range sortedKeys(m) {
			var dst *[]string
			switch k {
			case "tags":
				dst = &sel.Tags
			case "paths":
				dst = &sel.Paths
			case "methods":
				dst = &sel.Methods
			case "operations":
				dst = &sel.Operations
			default:
				return fmt.Errorf("unknown key %q (a selector has tags, paths, methods and operations)", k)
			}
			list, ok := m[k].([]any)
			if !ok {
				return fmt.Errorf("%s: want an array of strings, not %s", k, option.WordOf(m[k]))
			}
			for _, it := range list {
				str, ok := it.(string)
				if !ok {
					return fmt.Errorf("%s: want an array of strings, not one with %s", k, option.WordOf(it))
				}
				*dst = append(*dst, str)
			}
		}
		*s = append(*s, sel)
	}
	return nil
}

// Selector matches operations. Each list matches when any of its entries
// does; an empty list matches nothing by itself.
type Selector struct {
	// Tags are operation tags, compared exactly.
	Tags []string `toml:"tags"`
	// Paths are globs over path templates ("/v1/customers/**", "/pets/*",
	// "/pets/{id}": braces are the template's, matched as they are).
	Paths []string `toml:"paths"`
	// Methods are HTTP methods, in any case.
	Methods []string `toml:"methods"`
	// Operations are operationIds, which may be globs ("Get*"), or
	// "METHOD /path" exactly.
	Operations []string `toml:"operations"`
}

// Override changes one operation's tool. Empty fields change nothing.
type Override struct {
	Name        string `toml:"name"`
	Title       string `toml:"title"`
	Description string `toml:"description"`
	// Annotations set MCP hints, over the defaults from the method and what
	// the description says.
	Annotations Hints `toml:"annotations"`
	// Fixed hides parameters (input properties, by their name in the tool)
	// from the model and gives them a value: the HTTP binding records it
	// for the caller to send.
	Fixed map[string]any `toml:"fixed"`
	// Rename renames input properties: old name → new name. The HTTP
	// binding records which parameter or body field each one is, so a
	// caller maps the model's arguments back.
	Rename map[string]string `toml:"rename"`
}

// Hints are MCP tool annotations' hints; nil leaves one as it is.
type Hints struct {
	ReadOnly    *bool `toml:"readOnlyHint"`
	Destructive *bool `toml:"destructiveHint"`
	Idempotent  *bool `toml:"idempotentHint"`
	OpenWorld   *bool `toml:"openWorldHint"`
}

// HTTPMethods returns the HTTP methods a selector may name.
func HTTPMethods() []string { return slices.Clone(httpMethods) }

// Entry names one entry of Options: a selector list's entry
// ("include.tags", "issues") or an override ("operations", "GetFoo").
type Entry struct {
	Key, Value string
}

// Parts is the key path of e in the table, a part a key: the list
// ("include", "tags"), or the override's own key ("operations",
// "GET /pets").
func (e Entry) Parts() []string {
	if e.Key == "operations" {
		return []string{e.Key, e.Value}
	}
	return strings.Split(e.Key, ".")
}

func problemf(key []string, format string, args ...any) option.Problem {
	return option.Problem{Key: key, Message: fmt.Sprintf(format, args...)}
}

// Entries lists every entry of o, in the order of the manifest's keys.
func (o *Options) Entries() []Entry {
	var es []Entry
	for _, s := range o.selectors() {
		for _, l := range s.sel.lists() {
			for _, v := range l.values {
				es = append(es, Entry{s.name + "." + l.name, v})
			}
		}
	}
	for _, k := range sortedKeys(o.Operations) {
		es = append(es, Entry{"operations", k})
	}
	return es
}

type namedSelector struct {
	name string
	sel  *Selector
}

// selectors are o's selectors with their keys ("include", or
// "include[1]" when there are several, and "exclude").
func (o *Options) selectors() []namedSelector {
	var out []namedSelector
	for i := range o.Include {
		name := "include"
		if len(o.Include) > 1 {
			name = fmt.Sprintf("include[%d]", i)
		}
		out = append(out, namedSelector{name, &o.Include[i]})
	}
	return append(out, namedSelector{"exclude", &o.Exclude})
}

type selectorList struct {
	name   string
	values []string
}

func (s *Selector) lists() []selectorList {
	return []selectorList{{"tags", s.Tags}, {"paths", s.Paths}, {"methods", s.Methods}, {"operations", s.Operations}}
}

// empty reports whether s sets no list.
func (s *Selector) empty() bool {
	return len(s.Tags)+len(s.Paths)+len(s.Methods)+len(s.Operations) == 0
}

// Check returns what is wrong with o alone, for the manifest to locate.
func (o *Options) Check() []option.Problem {
	var errs []option.Problem
	for _, s := range o.selectors() {
		for _, p := range s.sel.Paths {
			if !strings.HasPrefix(p, "/") || !doublestar.ValidatePattern(pathPattern(p)) {
				errs = append(errs, problemf([]string{s.name, "paths"}, "%q is not a glob over path templates such as \"/v1/customers/**\"", p))
			}
		}
		for _, m := range s.sel.Methods {
			if !slices.Contains(httpMethods, strings.ToLower(m)) {
				errs = append(errs, problemf([]string{s.name, "methods"}, "%q is not an HTTP method (%s)", m, strings.Join(httpMethods, ", ")))
			}
		}
		for _, op := range s.sel.Operations {
			if _, _, isRoute := route(op); !isRoute && !doublestar.ValidatePattern(op) {
				errs = append(errs, problemf([]string{s.name, "operations"}, "%q is neither an operationId glob nor \"METHOD /path\"", op))
			}
		}
	}
	for _, k := range sortedKeys(o.Operations) {
		ov := o.Operations[k]
		for _, old := range sortedKeys(ov.Rename) {
			if _, fixed := ov.Fixed[old]; fixed {
				errs = append(errs, problemf([]string{"operations", k}, "%q is both fixed and renamed", old))
			}
			if ov.Rename[old] == "" {
				errs = append(errs, problemf([]string{"operations", k, "rename"}, "%q is renamed to nothing", old))
			}
		}
	}
	return errs
}

// route splits "METHOD /path" (method in any case).
func route(s string) (method, path string, ok bool) {
	method, path, ok = strings.Cut(s, " ")
	method = strings.ToLower(method)
	if !ok || !strings.HasPrefix(path, "/") || !slices.Contains(httpMethods, method) {
		return "", "", false
	}
	return method, path, true
}

// pathPattern makes a glob over path templates: braces are the template's
// ("/v1/customers/{customer}"), not the glob's alternatives.
func pathPattern(glob string) string {
	return strings.NewReplacer("{", `\{`, "}", `\}`).Replace(glob)
}

// operationRef is what selectors and overrides match an operation by.
type operationRef struct {
	method, path, id string
	tags             []string
}

// names reports whether entry, of a selector's operations or an override's
// key, names op: its operationId (a glob when glob is set) or its route.
func (r operationRef) named(entry string, glob bool) bool {
	if m, p, ok := route(entry); ok {
		return m == r.method && p == r.path
	}
	if !glob || r.id == "" {
		return entry == r.id && r.id != ""
	}
	ok, _ := doublestar.Match(entry, r.id)
	return ok
}

// match reports whether r matches s: with every=true, whether each list s
// sets has an entry that matches (Include); otherwise whether any entry
// of any list does (Exclude). It records in matched each entry that
// matches, under the key prefix ("include" or "exclude").
func (s *Selector) match(r operationRef, prefix string, every bool, matched map[Entry]bool) bool {
	all, some := true, false
	for _, l := range s.lists() {
		if len(l.values) == 0 {
			continue
		}
		hit := false
		for _, v := range l.values {
			var ok bool
			switch l.name {
			case "tags":
				ok = slices.Contains(r.tags, v)
			case "paths":
				ok, _ = doublestar.Match(pathPattern(v), r.path)
			case "methods":
				ok = strings.EqualFold(v, r.method)
			case "operations":
				ok = r.named(v, true)
			}
			if ok {
				hit = true
				matched[Entry{prefix + "." + l.name, v}] = true
			}
		}
		all = all && hit
		some = some || hit
	}
	if every {
		return all
	}
	return some
}

// Selection counts why operations were left out of one description.
type Selection struct {
	Operations  int // operations in the description
	Selected    int
	Excluded    int // by Exclude
	NotIncluded int // by Include
	Off         int // by x-mcp: false or x-speakeasy-mcp's disabled
}

// Add adds the counts of o to s (a source's files, together).
func (s *Selection) Add(o Selection) {
	s.Operations += o.Operations
	s.Selected += o.Selected
	s.Excluded += o.Excluded
	s.NotIncluded += o.NotIncluded
	s.Off += o.Off
}

// selected decides whether the operation becomes a tool; see Options.
func (o *oasDoc) selected(r operationRef, item, op *canonical.Value) bool {
	opts := o.opts
	o.sel.Operations++
	if opts.Exclude.match(r, "exclude", false, o.matched) {
		o.sel.Excluded++
		return false
	}
	included, named, some := false, false, false
	for _, ns := range opts.selectors() {
		if ns.name == "exclude" || ns.sel.empty() {
			continue
		}
		some = true
		if ns.sel.match(r, ns.name, true, o.matched) {
			included = true
		}
		named = named || slices.ContainsFunc(ns.sel.Operations, func(e string) bool { return r.named(e, false) })
	}
	if some && !included {
		o.sel.NotIncluded++
		return false
	}
	if !named && !o.mcpOn(item, op) {
		o.sel.Off++
		return false
	}
	o.sel.Selected++
	return true
}

// mcpOn reads x-mcp: the operation's, then x-speakeasy-mcp's disabled, then
// the path item's, then the document's; true when none says.
func (o *oasDoc) mcpOn(item, op *canonical.Value) bool {
	if on, ok := op.Get("x-mcp").BoolValue(); ok {
		return on
	}
	if off, ok := op.Get("x-speakeasy-mcp").Get("disabled").BoolValue(); ok {
		return !off
	}
	for _, v := range []*canonical.Value{item, o.doc} {
		if on, ok := v.Get("x-mcp").BoolValue(); ok {
			return on
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
