// Package targets names the formats toolc writes: each one's profile (what
// it accepts, package profile) and its writer, an encoder of provider
// bundles (package emit) or a writer of release files (package publish)
// and typed code (package typegen). A target runs as lower → encode →
// accept (emit.Bundle); a release target's writer checks what its
// destination refuses in place of the acceptance table.
package targets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/emit"
	"github.com/toolc-dev/toolc/internal/profile"
	"github.com/toolc-dev/toolc/internal/publish"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// Target is one format toolc writes.
type Target struct {
	// Name is the format name used in toolc.toml ("mcp", "openai" …).
	Name string
	// Profile is what the format accepts: its names, schema rules,
	// dialects and limits.
	Profile *profile.Profile
	// Options declares the options of the target's table: it returns a
	// pointer to a new value of the format's options struct, its defaults.
	Options func() profile.FormatOptions
	// Encode writes a provider bundle, which the profile's acceptance
	// table then checks; Publish, for a release target, writes the file
	// and checks it against its destination itself; Generate, for typed
	// code, says what the file's types cannot say and writes the file as
	// it makes it. One of the three is set.
	Encode   emit.Encoder
	Publish  publish.Publisher
	Generate typegen.Generator
	// Folder says that out names a folder: the bundle is an object from
	// each file's path under it to the file's text (the skills target's
	// SKILL.md and references).
	Folder bool
}

// Emit lowers tools for the target (named target in diagnostics), writes
// them, and checks what it wrote. Once ctx is done it stops, and returns
// nil.
func (t *Target) Emit(ctx context.Context, tools []*canonical.Tool, target string, opts profile.Options) *profile.Lowered {
	if t.Encode != nil {
		return emit.Bundle(ctx, t.Profile, t.Encode, tools, target, opts)
	}
	low := t.Profile.Lower(ctx, tools, target, opts)
	if low == nil {
		return nil
	}
	if t.Generate != nil {
		var later profile.Later
		low.Text, later = t.Generate(low.Tools, low.Sources, opts)
		if later.N > 0 {
			low.Later = profile.Later{N: later.N, Append: func(ds []diag.Diagnostic) []diag.Diagnostic {
				start := len(ds)
				ds = later.Append(ds)
				for i := start; i < len(ds); i++ {
					ds[i].Target = target
				}
				return ds
			}}
		}
		return low
	}
	var ds []diag.Diagnostic
	low.Bundle, ds = t.Publish(low.Tools, low.Sources, opts)
	for i := range ds {
		ds[i].Target = target
	}
	if len(low.Diagnostics) == 0 { // the usual case: not copied
		low.Diagnostics = ds
	} else {
		low.Diagnostics = append(low.Diagnostics, ds...)
	}
	return low
}

// Registry is a set of targets by name. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	targets map[string]*Target
}

// NewRegistry returns a registry holding targets.
func NewRegistry(targets ...*Target) *Registry {
	r := &Registry{targets: map[string]*Target{}}
	for _, t := range targets {
		if err := r.Register(t); err != nil {
			panic(err)
		}
	}
	return r
}

// Register adds t. It fails if a target of the same name is registered.
func (r *Registry) Register(t *Target) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.targets[t.Name]; ok {
		return fmt.Errorf("target format %s is registered already", t.Name)
	}
	r.targets[t.Name] = t
	return nil
}

// Get returns the target name.
func (r *Registry) Get(name string) (*Target, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.targets[name]
	return t, ok
}

// List returns the registered targets sorted by name.
func (r *Registry) List() []*Target {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Target, 0, len(r.targets))
	for _, t := range r.targets {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Target) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Default returns a new registry with every target toolc writes.
func Default() *Registry {
	return NewRegistry(
		provider[emit.MCPOptions]("mcp", emit.MCP), provider[emit.OpenAIOptions]("openai", emit.OpenAI),
		provider[emit.StrictOptions]("openai-responses", emit.Responses), provider[emit.AnthropicOptions]("anthropic", emit.Anthropic),
		provider[emit.GeminiOptions]("gemini", emit.Gemini), provider[emit.StrictOptions]("bedrock", emit.Bedrock),
		provider[emit.NoOptions]("canonical", emit.Canonical), provider[emit.NoOptions]("jsonschema", emit.JSONSchema),
		release[publish.ServerJSONOptions]("server-json", publish.ServerJSON), release[publish.MCPBOptions]("mcpb", publish.MCPB),
		release[publish.A2AOptions]("a2a-card", publish.A2ACard), release[publish.ServerCardOptions]("server-card", publish.ServerCard), release[publish.LLMsTxtOptions]("llms-txt", publish.LLMsTxt), folder(release[publish.SkillsOptions]("skills", publish.Skills)),
		typed[typegen.TypeScriptOptions]("typescript", typegen.TypeScriptTarget), typed[typegen.GoOptions]("go", typegen.GoTarget),
		typed[typegen.PythonOptions]("python", typegen.PythonTarget))
}

// options is the constructor of a format's options, whose struct is T.
type options[T any] interface {
	*T
	profile.FormatOptions
}

func provider[T any, PT options[T]](name string, enc emit.Encoder) *Target {
	return &Target{Name: name, Profile: profileOf(name), Options: func() profile.FormatOptions { return PT(new(T)) }, Encode: enc}
}

func release[T any, PT options[T]](name string, pub publish.Publisher) *Target {
	return &Target{Name: name, Profile: profileOf(name), Options: func() profile.FormatOptions { return PT(new(T)) }, Publish: pub}
}

func typed[T any, PT options[T]](name string, gen typegen.Generator) *Target {
	return &Target{Name: name, Profile: profileOf(name), Options: func() profile.FormatOptions { return PT(new(T)) }, Generate: gen}
}

// folder marks t as writing a folder.
func folder(t *Target) *Target {
	t.Folder = true
	return t
}

// profileOf is the profile of a format this package registers.
func profileOf(format string) *profile.Profile {
	p, ok := profile.Of(format)
	if !ok {
		panic("targets: no profile for " + format) // a bug in this package's table
	}
	return p
}
