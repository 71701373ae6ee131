package publish

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/toolc-dev/toolc/internal/option"
	"github.com/toolc-dev/toolc/internal/profile"
)

// The options of each release format, declared once (package option reads
// them): the manifest decodes a target's table into its format's struct,
// strictly, so a key toolc does not write is an error, not a silence.

// ServerJSONOptions are the server-json target's options.
type ServerJSONOptions struct {
	profile.Naming
	Server Server `toml:"server" doc:"what the registry's entry says that the catalog does not know"`
}

// Server is [targets.server] of a server-json target: the registry's
// fields (server.schema.json 2025-12-11) in the manifest's snake_case.
type Server struct {
	Name       string      `toml:"name" doc:"the server's name in reverse-DNS form with one \"/\" (io.github.OWNER/SERVER); the catalog's name by default"`
	Title      string      `toml:"title" doc:"the server's display name, at most 100 characters"`
	Website    string      `toml:"website" doc:"the server's home page (websiteUrl)"`
	Repository *Repository `toml:"repository" doc:"where its source is"`
	Icons      []Icon      `toml:"icons" doc:"the server's icons, https URLs"`
	Packages   []Package   `toml:"packages" doc:"how to install and run it"`
	Remotes    []Remote    `toml:"remotes" doc:"where it runs"`
}

// ReadFiles are the package files whose hashes the entry gives.
func (o *ServerJSONOptions) ReadFiles() []string {
	var out []string
	for _, p := range o.Server.Packages {
		if p.File != "" {
			out = append(out, p.File)
		}
	}
	return out
}

// Check checks the name template and that each package file is a path in
// the manifest's folder.
func (o *ServerJSONOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	_, ps := o.Naming.Check(p)
	for i, pkg := range o.Server.Packages {
		if f := pkg.File; f != "" && !fs.ValidPath(f) {
			ps = append(ps, option.Problemf(fmt.Sprintf("server.packages[%d].file", i), "file %q must be a path in the manifest's folder, '/'-separated, with no . or .. part (dist/acme.mcpb)", f))
		}
	}
	return p, ps
}

// Icon is one of a server's icons.
type Icon struct {
	Src      string   `toml:"src" doc:"the icon's https URL"`
	MIMEType string   `toml:"mime_type" doc:"image/png, image/svg+xml …"`
	Sizes    []string `toml:"sizes" doc:"such as 48x48, or any"`
	Theme    string   `toml:"theme" enum:"light,dark" doc:"the theme it is drawn for"`
}

// Input is what a client asks the user for, or sets, to run a server: an
// environment variable or a header (name), or the value of an argument.
type Input struct {
	Name        string   `toml:"name" doc:"the variable's or header's name"`
	Description string   `toml:"description" doc:"what it is, for the person who sets it"`
	Required    bool     `toml:"required" doc:"the server does not run without it (isRequired)"`
	Secret      bool     `toml:"secret" doc:"a token or password: a client keeps it out of logs and configs (isSecret)"`
	Format      string   `toml:"format" enum:"string,number,boolean,filepath" doc:"the value's kind"`
	Default     string   `toml:"default" doc:"the value when none is set"`
	Value       string   `toml:"value" doc:"a fixed value, which may name {variables}"`
	Placeholder string   `toml:"placeholder" doc:"an example the client shows"`
	Choices     []string `toml:"choices" doc:"the values it takes"`
}

// Argument is a command-line argument of a package or its runtime.
type Argument struct {
	Type        string `toml:"type" enum:"positional,named" doc:"a positional value, or a named --flag"`
	Name        string `toml:"name" doc:"named: the flag, dashes included"`
	Value       string `toml:"value" doc:"the argument's value"`
	ValueHint   string `toml:"value_hint" doc:"positional: what the value is, where value is not set"`
	Description string `toml:"description" doc:"what it does"`
	Required    bool   `toml:"required" doc:"the server does not run without it"`
	Repeated    bool   `toml:"repeated" doc:"it may be given more than once"`
	Secret      bool   `toml:"secret" doc:"its value is a secret"`
	Default     string `toml:"default" doc:"the value when none is given"`
}

// Repository is where a server's source is.
type Repository struct {
	URL       string `toml:"url" doc:"the repository's URL"`
	Source    string `toml:"source" doc:"the host: github, gitlab …"`
	ID        string `toml:"id" doc:"the host's ID of the repository"`
	Subfolder string `toml:"subfolder" doc:"the server's folder in a monorepo"`
}

// Package is one way to install a server.
type Package struct {
	RegistryType    string `toml:"registry_type" doc:"the package registry: npm, pypi, oci, nuget, mcpb …"`
	RegistryBaseURL string `toml:"registry_base_url" doc:"the registry's URL, where it is not the usual one"`
	Identifier      string `toml:"identifier" doc:"the package's name in the registry"`
	Version         string `toml:"version" doc:"the exact version it installs; the catalog's by default"`
	Transport       string `toml:"transport" enum:"stdio,streamable-http,sse" default:"stdio" doc:"how a client speaks to it"`
	FileSHA256      string `toml:"file_sha256" pattern:"^[a-f0-9]{64}$" doc:"the SHA-256 of an mcpb package's file; file computes it"`
	File            string `toml:"file" doc:"the package's file, relative to the manifest (dist/acme.mcpb): its SHA-256 is file_sha256, read at every build"`
	RuntimeHint     string `toml:"runtime_hint" doc:"the program that runs it: npx, uvx, docker …"`
	// URL and Headers are the local endpoint of a package that serves
	// streamable HTTP (or SSE) once it runs.
	URL                  string     `toml:"url" doc:"streamable-http or sse: where the running package listens, such as http://localhost:{port}/mcp"`
	Headers              []Input    `toml:"headers" doc:"streamable-http or sse: the headers each request sends"`
	EnvironmentVariables []Input    `toml:"environment_variables" doc:"the environment the package needs: tokens (secret = true), settings"`
	PackageArguments     []Argument `toml:"package_arguments" doc:"the arguments after the package"`
	RuntimeArguments     []Argument `toml:"runtime_arguments" doc:"the arguments of its runtime (runtime_hint), before the package"`
}

// Remote is one endpoint where a server runs.
type Remote struct {
	Type    string  `toml:"type" enum:"streamable-http,sse" doc:"the transport"`
	URL     string  `toml:"url" doc:"the endpoint, http:// or https://"`
	Headers []Input `toml:"headers" doc:"the headers each request sends: an API key (secret = true)"`
}

// MCPBOptions are the mcpb target's options.
type MCPBOptions struct {
	profile.Naming
	MCPB            MCPBTable `toml:"mcpb" doc:"the manifest's fields that the catalog does not know, written as they are"`
	StaticResponses bool      `toml:"static_responses" doc:"add the MCP tools/list answer under _meta[\"com.microsoft.windows\"].static_responses, which Windows' agent registry reads"`
	ManifestVersion string    `toml:"manifest_version" enum:"0.3,0.4" default:"0.3" doc:"the MCPB manifest version: 0.4 adds the server type uv (a Python server run by uv); mcpb 2.1 validates both"`
	Flavor          string    `toml:"flavor" enum:"spec,smithery" default:"spec" doc:"spec: tools by name and description, what mcpb validate takes; smithery: with each tool's inputSchema, which Smithery's publish needs"`
}

// MCPBTable is [targets.mcpb]: the fields of an MCPB manifest
// (MANIFEST.md 0.3 and 0.4) that the catalog does not know.
type MCPBTable struct {
	Name            string                `toml:"name" doc:"the bundle's name; the catalog's by default"`
	DisplayName     string                `toml:"display_name" doc:"the name people see"`
	LongDescription string                `toml:"long_description" doc:"a longer description, in Markdown"`
	Author          *MCPBAuthor           `toml:"author" doc:"who made it (required)"`
	Repository      *MCPBRepository       `toml:"repository" doc:"where its source is"`
	Homepage        string                `toml:"homepage" doc:"its home page"`
	Documentation   string                `toml:"documentation" doc:"its documentation"`
	Support         string                `toml:"support" doc:"where to get help"`
	Icon            string                `toml:"icon" doc:"the path of its icon in the bundle"`
	Server          *MCPBServer           `toml:"server" doc:"the server the bundle runs (required)"`
	ToolsGenerated  *bool                 `toml:"tools_generated" doc:"whether the server makes more tools at run time than it lists"`
	Keywords        []string              `toml:"keywords" doc:"search keywords"`
	License         string                `toml:"license" doc:"an SPDX license"`
	PrivacyPolicies []string              `toml:"privacy_policies" doc:"the URLs of the privacy policies of the services it reaches"`
	Compatibility   *MCPBCompatibility    `toml:"compatibility" doc:"the hosts, platforms and runtimes it needs"`
	UserConfig      map[string]UserConfig `toml:"user_config" doc:"what the user configures on installing it, by name"`
}

// MCPBAuthor is an MCPB manifest's author.
type MCPBAuthor struct {
	Name  string `toml:"name" doc:"the author's name"`
	Email string `toml:"email" doc:"the author's e-mail address"`
	URL   string `toml:"url" doc:"the author's URL"`
}

// MCPBRepository is where an MCPB bundle's source is.
type MCPBRepository struct {
	Type string `toml:"type" doc:"the version control system: git"`
	URL  string `toml:"url" doc:"the repository's URL"`
}

// MCPBServer is the server an MCPB bundle runs.
type MCPBServer struct {
	Type       string     `toml:"type" enum:"python,node,binary,uv" doc:"its runtime; uv with manifest_version = \"0.4\""`
	EntryPoint string     `toml:"entry_point" doc:"its main file in the bundle"`
	MCPConfig  *MCPConfig `toml:"mcp_config" doc:"how the host starts it"`
}

// MCPConfig is how a host starts an MCPB bundle's server.
type MCPConfig struct {
	Command           string               `toml:"command" doc:"the program (${__dirname} is the bundle's folder)"`
	Args              []string             `toml:"args" doc:"its arguments"`
	Env               map[string]string    `toml:"env" doc:"its environment (${user_config.NAME} is a configured value)"`
	PlatformOverrides map[string]MCPConfig `toml:"platform_overrides" doc:"command, args and env by platform: darwin, win32, linux"`
}

// MCPBCompatibility is what an MCPB bundle needs of its host.
type MCPBCompatibility struct {
	ClaudeDesktop string        `toml:"claude_desktop" doc:"the Claude Desktop versions it runs in, a semver range"`
	Platforms     []string      `toml:"platforms" enum:"darwin,win32,linux" doc:"the platforms it runs on"`
	Runtimes      *MCPBRuntimes `toml:"runtimes" doc:"the runtimes' versions it needs"`
}

// MCPBRuntimes are the runtime versions an MCPB bundle needs.
type MCPBRuntimes struct {
	Python string `toml:"python" doc:"a semver range of Python"`
	Node   string `toml:"node" doc:"a semver range of Node.js"`
}

// UserConfig is one value the user of an MCPB bundle configures.
type UserConfig struct {
	Type        string   `toml:"type" enum:"string,number,boolean,directory,file" doc:"its type"`
	Title       string   `toml:"title" doc:"its label"`
	Description string   `toml:"description" doc:"what it is for"`
	Required    *bool    `toml:"required" doc:"whether the user must set it"`
	Default     any      `toml:"default" doc:"its default: a string, number, boolean or list of strings"`
	Multiple    *bool    `toml:"multiple" doc:"whether it takes several values (directory, file)"`
	Sensitive   *bool    `toml:"sensitive" doc:"whether it is a secret, kept in the OS's keychain"`
	Min         *float64 `toml:"min" doc:"the least number"`
	Max         *float64 `toml:"max" doc:"the greatest number"`
}

// A2AOptions are the a2a-card target's options.
type A2AOptions struct {
	profile.Naming
	Server A2AServer `toml:"server" doc:"where the agent answers and who provides it"`
	Skills string    `toml:"skills" enum:"tools,tags" default:"tools" doc:"a skill per tool, or per tag"`
}

// A2AServer is [targets.server] of an a2a-card target.
type A2AServer struct {
	URL           string       `toml:"url" doc:"the URL of the agent's interface (required)"`
	Binding       string       `toml:"binding" enum:"JSONRPC,GRPC,HTTP+JSON" default:"JSONRPC" doc:"the interface's protocol binding"`
	Provider      *A2AProvider `toml:"provider" doc:"who provides the agent (required)"`
	Documentation string       `toml:"documentation" doc:"the URL of its documentation"`
}

// A2AProvider is who provides an agent.
type A2AProvider struct {
	Organization string `toml:"organization" doc:"the organization's name"`
	URL          string `toml:"url" doc:"its URL"`
}

// LLMsTxtOptions are the llms-txt target's options.
type LLMsTxtOptions struct {
	profile.Naming
	Sections string `toml:"sections" enum:"namespaces,tags" default:"namespaces" doc:"a section per namespace, or per tag"`
	Links    string `toml:"links" pattern:"\\{(id|namespace|name)\\}" doc:"the URL of each tool's page, with {id}, {namespace} and {name}"`
}

// Check checks the name template and that links names a tool.
func (o *LLMsTxtOptions) Check(p *profile.Profile) (*profile.Profile, []option.Problem) {
	_, ps := o.Naming.Check(p)
	if o.Links != "" && !strings.Contains(o.Links, "{") {
		ps = append(ps, option.Problemf("links", "links = %q names no tool: use {id}, {namespace} or {name} in it", o.Links))
	}
	return p, ps
}
