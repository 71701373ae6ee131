package publish

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/profile"
)

// ---- Agent Skills ----

// The Agent Skills rules (agentskills.io/specification): a skill is a
// folder whose SKILL.md opens with YAML front matter; name is 1 to 64 of
// a-z, 0-9 and '-', neither first nor last, never two in a row, and the
// folder's name; description is 1 to 1,024 characters; compatibility at
// most 500.
const (
	skillNameMax          = 64
	skillDescriptionMax   = 1024
	skillCompatibilityMax = 500
)

// skillName is what a skill's name must be.
var skillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// SkillsOptions are the skills target's options.
type SkillsOptions struct {
	profile.Naming
	Per           string            `toml:"per" enum:"namespace,tag" default:"namespace" doc:"a skill per namespace (a server), or per tag"`
	Descriptions  map[string]string `toml:"descriptions" doc:"a skill's description by its namespace or tag: what the tools do and when to use them (at most 1,024 characters); toolc writes one from the tools' first sentences otherwise"`
	License       string            `toml:"license" doc:"the skills' license, an SPDX name or a bundled file"`
	Compatibility string            `toml:"compatibility" doc:"what the skills need to run, at most 500 characters: the MCP server, say"`
}

// Skills writes one Agent Skills folder per namespace (or tag) of the
// catalog: SKILL.md, whose body lists the tools and how to call each, and
// references/TOOL.json with each tool as the server's tools/list gives it,
// input schema whole. The bundle is an object from each file's path, under
// the target's folder, to its text (SKILL.md) or its JSON value, indented
// as it is written (a reference file a tool: at 20,000 tools, 95 MB of
// text not held).
func Skills(tools, sources []*canonical.Tool, opts profile.Options) (*canonical.Value, []diag.Diagnostic) {
	r, o := newRelease[SkillsOptions](tools, sources, opts)
	if n := utf8.RuneCountInString(o.Compatibility); n > skillCompatibilityMax {
		r.atTable("publish.invalid", "shorten compatibility to at most 500 characters", "compatibility has %d characters; Agent Skills take at most %d", n, skillCompatibilityMax)
	}
	groups := map[string][]int{}
	for i, t := range sources {
		keys := []string{t.Namespace}
		if o.Per == "tag" {
			keys = t.Tags
		}
		for _, k := range keys {
			if k != "" {
				groups[k] = append(groups[k], i)
			}
		}
	}
	if len(groups) == 0 && len(sources) > 0 { // no tool at all is catalog.empty's to say
		r.atTable("publish.field-missing", `give the sources a namespace, or set per = "tag" and tag the tools`, "the skills target makes a skill per %s, and no tool has one", cmp.Or(o.Per, "namespace"))
	}
	entries := emit.MCP(emit.Tools(tools), profile.Options{Catalog: opts.Catalog}).Get("tools").Items()
	files := canonical.NewObject()
	owner := map[string]string{} // skill name → its group
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		name := skillNameOf(g)
		switch {
		case !skillName.MatchString(name):
			r.atTable("publish.invalid", "name the namespace or tag with letters or digits", "%q makes no skill name: Agent Skills names are a-z, 0-9 and '-'", g)
			continue
		case owner[name] != "":
			r.atTable("publish.invalid", "rename one of them", "%q and %q both make the skill name %q", owner[name], g, name)
			continue
		}
		owner[name] = g
		desc := o.Descriptions[g]
		if desc == "" {
			desc = r.skillDescription(g, groups[g], name)
		} else if n := utf8.RuneCountInString(desc); n > skillDescriptionMax {
			r.atTable("publish.invalid", "shorten it to at most 1,024 characters", "descriptions[%q] has %d characters; a skill's description takes at most %d", g, n, skillDescriptionMax)
		}
		var body strings.Builder
		body.WriteString(r.frontMatter(name, desc, o))
		fmt.Fprintf(&body, "\n# %s\n\n", g)
		fmt.Fprintf(&body, "These are tools of the MCP server %s%s. Call one by its name with a JSON object of its arguments; each tool's file under references/ has its whole input schema.\n",
			cmp.Or(opts.Catalog.Name, "that serves them"), versionNote(opts.Catalog.Version))
		type ref struct{ tool, file string }
		refs := map[string]ref{} // by the file's name in lower case: macOS's and Windows' file systems hold A.json and a.json as one file
		for _, i := range groups[g] {
			t, src := tools[i], sources[i]
			file := fileName(t.Name)
			if other, ok := refs[strings.ToLower(file)]; ok && other.file == file && fileName(other.tool) == file { // not a name -2 made
				r.atTool(i, "publish.invalid", "/name", "rename one of the tools", "tools %q and %q make the same reference file, references/%s.json", other.tool, t.Name, file)
				continue
			}
			// A name another tool's file has in another case (BFCL's
			// calculate_BMI and calculate_bmi) takes the first free of
			// -2, -3 …: SKILL.md links each file by the name it has.
			for n, base := 2, file; refs[strings.ToLower(file)] != (ref{}); n++ {
				file = fmt.Sprintf("%s-%d", base, n)
			}
			refs[strings.ToLower(file)] = ref{t.Name, file}
			fmt.Fprintf(&body, "\n## %s\n\n", t.Name)
			if d := strings.TrimSpace(src.Description); d != "" {
				fmt.Fprintf(&body, "%s\n\n", d)
			}
			body.WriteString(arguments(t.Input))
			fmt.Fprintf(&body, "\nSchema: [references/%s.json](references/%s.json)\n", file, file)
			files.Set(name+"/references/"+file+".json", entries[i]) // indented as it is written, as a bundle is
		}
		files.Set(name+"/SKILL.md", canonical.NewString(body.String()))
	}
	return files, r.ds
}

// skillNameOf is the Agent Skills name of a namespace or tag: lower case,
// each run of other characters one '-', none first or last, at most 64.
func skillNameOf(g string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(g) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > skillNameMax {
		s = strings.TrimRight(s[:skillNameMax], "-")
	}
	return s
}

// skillDescription is a skill's description that no option gives: what
// its tools do, from their first sentences, cut to 1,024 characters.
func (r *release) skillDescription(g string, idx []int, name string) string {
	var names, firsts []string
	for _, i := range idx {
		names = append(names, r.tools[i].Name)
		if s := firstSentence(r.sources[i].Description); s != "" {
			firsts = append(firsts, s)
		}
	}
	d := fmt.Sprintf("The %s tools (%s). Use them when a task needs what they do: %s", g, strings.Join(names, ", "), strings.Join(firsts, " "))
	if utf8.RuneCountInString(d) > skillDescriptionMax {
		short := profile.Shorten(d, skillDescriptionMax)
		r.atTable("loss.description", fmt.Sprintf("write descriptions = { %q = \"…\" } on the target: what the tools do and when to use them, at most 1,024 characters", g),
			"the skill %s's description, made from its %d tools' first sentences, has %d characters; Agent Skills take at most %d, so it was cut", name, len(idx), utf8.RuneCountInString(d), skillDescriptionMax)
		return short
	}
	return d
}

// frontMatter is SKILL.md's YAML front matter: each string a
// double-quoted scalar (JSON's escapes are YAML's), no flow collections.
func (r *release) frontMatter(name, desc string, o *SkillsOptions) string {
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "name: %s\n", name)
	fmt.Fprintf(&b, "description: %s\n", yamlString(desc))
	if o.License != "" {
		fmt.Fprintf(&b, "license: %s\n", yamlString(o.License))
	}
	if o.Compatibility != "" {
		fmt.Fprintf(&b, "compatibility: %s\n", yamlString(o.Compatibility))
	}
	if c := r.opts.Catalog; c.Name != "" || c.Version != "" {
		b.WriteString("metadata:\n")
		if c.Name != "" {
			fmt.Fprintf(&b, "  server: %s\n", yamlString(c.Name))
		}
		if c.Version != "" {
			fmt.Fprintf(&b, "  version: %s\n", yamlString(c.Version))
		}
	}
	b.WriteString("---\n")
	return b.String()
}

// yamlString is s as a YAML double-quoted scalar.
func yamlString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// versionNote is " (version V)", or "".
func versionNote(v string) string {
	if v == "" {
		return ""
	}
	return " (version " + v + ")"
}

// fileName is a tool name as a file name: what is not a letter, digit,
// '_', '.' or '-' becomes '-', and a Windows device's name takes a '_'.
func fileName(name string) string {
	file := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' {
			return c
		}
		return '-'
	}, name)
	// Windows opens a device, not a file, for CON, NUL, COM1 … with any
	// extension, and git for Windows refuses to check one out: such a
	// name takes a '_' before its first dot.
	base, rest, _ := strings.Cut(file, ".")
	if device(base) {
		file = base + "_"
		if rest != "" {
			file += "." + rest
		}
	}
	return file
}

// device reports whether name is a device's on Windows, in any case.
func device(name string) bool {
	switch n := strings.ToUpper(name); {
	case n == "CON" || n == "PRN" || n == "AUX" || n == "NUL":
		return true
	case len(n) == 4 && (strings.HasPrefix(n, "COM") || strings.HasPrefix(n, "LPT")) && n[3] >= '0' && n[3] <= '9':
		return true
	}
	return false
}

// arguments lists a tool's top-level arguments: name, type, required or
// not, and description.
func arguments(in *canonical.Schema) string {
	var b strings.Builder
	required := in.Required()
	n := 0
	for key, p := range in.Properties() {
		if n == 0 {
			b.WriteString("Arguments:\n\n")
		}
		n++
		kind := strings.Join(p.Types(), " or ")
		if kind == "" {
			kind = "any"
		}
		need := "optional"
		if slices.Contains(required, key) {
			need = "required"
		}
		fmt.Fprintf(&b, "- `%s` (%s, %s)", key, kind, need)
		if d := strings.Join(strings.Fields(p.Description()), " "); d != "" {
			fmt.Fprintf(&b, ": %s", d)
		}
		b.WriteString("\n")
	}
	if n == 0 {
		b.WriteString("No arguments: call it with {}.\n")
	}
	return b.String()
}
