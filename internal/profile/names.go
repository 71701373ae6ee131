package profile

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/lower"
)

// NameRule is a target's rule for tool names: which characters, which may
// come first, and how many. It is the rule lowering applies to property
// keys (lower.KeyRule), with the same pattern and the same way of making a
// name legal. A zero rule keeps every tool's namespace and name as they are
// (the canonical and jsonschema targets).
type NameRule = lower.KeyRule

// DefaultNames is the default name template of a target.
const DefaultNames = "{namespace}__{name}"

// CheckNames reports what is wrong with a name template, or nil.
func CheckNames(tmpl string) error {
	rest := tmpl
	seen := false
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return fmt.Errorf("name template %q has an unclosed {", tmpl)
		}
		switch ph := rest[i+1 : i+j]; ph {
		case "name":
			seen = true
		case "namespace":
		default:
			return fmt.Errorf("name template %q: unknown placeholder {%s} (want {namespace} and {name})", tmpl, ph)
		}
		rest = rest[i+j+1:]
	}
	if !seen {
		return fmt.Errorf("name template %q has no {name}, so every tool would get the same name", tmpl)
	}
	return nil
}

// render fills a name template. Without a namespace, {namespace} and the
// text between it and the next placeholder (or, when it comes last, the text
// before it) are left out: "{namespace}__{name}" gives "name".
func render(tmpl string, t *canonical.Tool) string {
	if t.Namespace == "" {
		if i := strings.Index(tmpl, "{namespace}"); i >= 0 {
			after := tmpl[i+len("{namespace}"):]
			if j := strings.IndexByte(after, '{'); j >= 0 {
				tmpl = tmpl[:i] + after[j:]
			} else {
				k := strings.LastIndexByte(tmpl[:i], '}')
				tmpl = tmpl[:k+1]
			}
		}
	}
	// One pass, as strings.Replacer would, without building one per tool.
	var b strings.Builder
	b.Grow(len(tmpl) + len(t.Namespace) + len(t.Name))
	for tmpl != "" {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		b.WriteString(tmpl[:i])
		switch rest := tmpl[i:]; {
		case strings.HasPrefix(rest, "{namespace}"):
			b.WriteString(t.Namespace)
			tmpl = rest[len("{namespace}"):]
		case strings.HasPrefix(rest, "{name}"):
			b.WriteString(t.Name)
			tmpl = rest[len("{name}"):]
		default:
			b.WriteByte('{')
			tmpl = rest[1:]
		}
	}
	return b.String()
}

// NameOf is the name a target with opts emits for a tool of this ID: the
// name template filled and made legal by the target's name rule, as
// lowering names a tool. A removed tool's tombstone is found by it.
func (p *Profile) NameOf(id string, opts Options) string {
	ns, name, _ := canonical.ParseID(id)
	t := &canonical.Tool{Namespace: ns, Name: name}
	rule := p.nameRule(opts)
	if rule.Max == 0 {
		return id
	}
	return rule.Legal(render(cmp.Or(opts.Names, p.Names, DefaultNames), t), id)
}
