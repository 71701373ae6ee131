package profile

import "github.com/toolc-dev/toolc/internal/lower"

// Options are the target options that shape a bundle.
type Options struct {
	// Strict, when set, lowers every tool for strict mode (or for none) in
	// formats that have one, and writes the tool's "strict" flag; when nil,
	// each tool keeps the strict flag of its source, if the source was of a
	// format the target writes back, and is lowered accordingly.
	Strict *bool
	// Dialect names the server that speaks the format, where servers
	// differ (Dialects); "" is the provider itself.
	Dialect string
	// Auto, with Strict true, makes each tool strict only where strict
	// mode can express it without narrowing what it accepts (a free-form
	// object, an untyped value, a recursion the target refuses); the others
	// are emitted non-strict, each with a lower.strict-fallback saying why.
	Auto bool
	// Schema is the schema mode of formats that have several: "" (or
	// "json-schema") or "openapi" for Gemini.
	Schema string
	// Names is the template of emitted names (default DefaultNames).
	Names string
	// Describe moves constraints that lowering drops into the description
	// of their schema.
	Describe bool
	// Catalog names the catalog in formats that have room for it (MCP
	// _meta, canonical, jsonschema); empty fields are left out.
	Catalog Catalog
	// Clients names the MCP clients an MCP bundle is made for ("vscode",
	// "claude-desktop", "cursor", "windsurf"): their rules are lowered for
	// and checked; the others' refusals are advice.
	Clients []string
	// Protocol is the MCP revision an MCP bundle is for (Protocols); ""
	// is the newest.
	Protocol string
	// Publish is what a release target writes besides the tools.
	Publish Publish
	// Unchecked holds the IDs of tools that the acceptance check skips:
	// tools whose own schemas are in error, which fail the build already.
	Unchecked map[string]bool
	// Memo, when set, lowers each schema once for every target of a build
	// under the same rules (Fingerprints), which then share it.
	Memo *lower.Memo
}

// Catalog identifies a catalog in a bundle.
type Catalog struct {
	Name, Version string
}
