package security

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A textRule finds a phrase or a tag in the text of a tool (its name,
// title, description, and every description, title and string value of its
// schemas).
type textRule struct {
	Code    string
	Name    string                // what it finds, for messages
	Pattern func() *regexp.Regexp // compiled when a text first may match
	Source  string                // where the pattern comes from
	// Needles are groups of lower-case strings: every match holds one of
	// each group, so a text without is not given to the pattern (most are
	// not, and the patterns were a third of a build's time on 20,000
	// tools).
	Needles [][]string
}

// mayMatch reports whether the lower-case text holds one needle of each
// group: a text that does not is not given to the pattern.
func (r *textRule) mayMatch(lower string) bool {
	return !slices.ContainsFunc(r.Needles, func(group []string) bool {
		return !slices.ContainsFunc(group, func(n string) bool { return strings.Contains(lower, n) })
	})
}

// Sources of the patterns.
const (
	srcInvariant = "Invariant Labs, \"MCP Security Notification: Tool Poisoning Attacks\" (2025-04): <IMPORTANT> blocks that tell the model to read ~/.ssh/id_rsa and mcp.json and not to mention it"
	srcSimon     = "Simon Willison, \"Model Context Protocol has prompt injection security problems\" (2025-04): hidden instructions in tool descriptions"
	srcTrail     = "Trail of Bits, \"Jumping the line: how MCP servers can attack you before you ever use them\" (2025-04): descriptions that instruct the model about other tools and the user"
	srcUnicode   = "Unicode Technical Standard #39 and \"ASCII smuggling\" (Johann Rehberger, 2024): zero-width, bidi control and tag characters that a reader does not see and a model reads"
	srcAnnot     = "MCP specification 2025-06-18, ToolAnnotations: readOnlyHint means no modification; destructiveHint false means only additive updates"
	srcElastic   = "Elastic Security Labs, \"MCP tools: attack vectors and defense\" (2025-09): tools with the same name or description shadowing one another across servers"
	srcImage     = "Johann Rehberger (Embrace The Red), \"Data exfiltration via markdown image rendering\" (2023-2025, ChatGPT, Copilot, Claude): an image whose URL carries data out when the client renders it"
	srcCurl      = "Invariant Labs and CyberArk (2025): tool descriptions that have the model run a downloaded script (curl … | sh) on the user's machine"
	srcComment   = "CyberArk Labs, \"Poison everywhere: no output from your MCP server is safe\" (2025-06): instructions in parts of a tool a reader does not see, HTML comments among them"
)

// textRules are the instruction and secret rules, in the order their
// findings are reported.
var textRules = []textRule{
	// Tags that frame text as an instruction to the model.
	{"security.instruction", "an instruction tag", pattern(`(?i)</?\s*(important|system|instructions?|hidden|secret|admin|assistant)\s*>`), srcInvariant, [][]string{{"<"}}},
	{"security.instruction", "an instruction to ignore earlier instructions", pattern(`(?i)\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|other|system)\s+(instructions|prompts?|rules|messages|guidance|directions|guidelines)\b`), srcSimon, [][]string{{"instructions", "prompt", "rules", "messages", "guidance", "directions", "guidelines"}, {"ignore", "disregard", "forget", "override"}}},
	{"security.instruction", "an instruction to keep something from the user", pattern(`(?i)\b(do\s+not|don'?t|never|must\s+not|should\s+not)\s+(tell|mention|inform|notify|reveal|disclose|alert)\b[^.\n]{0,100}?\b(the\s+)?user\b`), srcInvariant, [][]string{{"user"}, {"tell", "mention", "inform", "notify", "reveal", "disclose", "alert"}}},
	{"security.instruction", "an instruction to keep something from the user", pattern(`(?i)\bwithout\s+(telling|informing|notifying|alerting)\s+the\s+user\b`), srcTrail, [][]string{{"without"}, {"user"}}},
	// Secrets and the paths that hold them, asked for in a description.
	{"security.sensitive-path", "a path that holds secrets", pattern(`(?i)((~|\$HOME|%USERPROFILE%)[/\\])?\.ssh/(id_[a-z0-9]+|authorized_keys|known_hosts)\b|(~|\$HOME|%USERPROFILE%)[/\\]\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.config/gcloud|\.kube/config|\.docker/config\.json|\.npmrc\b|\.netrc\b|\.git-credentials|\.pgpass\b|/etc/(passwd|shadow)\b`), srcInvariant,
		[][]string{{".ssh", "id_", ".aws/", "gcloud", ".kube/", ".docker/", ".npmrc", ".netrc", ".git-credentials", ".pgpass", "/etc/"}}},
	// Shapes that carry data out, or run what is downloaded.
	{"security.exfiltration", "a markdown image whose URL carries data out", pattern(`!\[[^\]]*\]\(\s*https?://[^)\s]*\?[^)\s]*=[^)\s]*[{<$%][^)]*\)`), srcImage, [][]string{{"!["}, {"http"}}},
	{"security.exfiltration", "a downloaded script piped into a shell", pattern(`(?i)\b(curl|wget)\b[^|\n]{0,200}\|\s*(sudo\s+)?(ba|z|da)?sh\b`), srcCurl, [][]string{{"curl", "wget"}, {"|"}}},
	{"security.exfiltration", "an HTML comment, which a reader of rendered text does not see", pattern(`<!--[\s\S]{1,500}?-->`), srcComment, [][]string{{"<!--"}}},
	{"security.exfiltration", "a long base64 blob, which a reader cannot read and a model can decode", pattern(`[A-Za-z0-9+/]{160,}={0,2}`), srcComment, nil},
	{"security.sensitive-path", "an MCP client's configuration, which holds other servers' secrets", pattern(`(?i)\bmcp\.json\b|claude_desktop_config\.json|\.cursor/mcp|\.codeium/windsurf`), srcInvariant, [][]string{{"mcp.json", "claude_desktop", ".cursor/", ".codeium/"}}},
}

// pattern returns the regular expression expr, compiled when it is first
// asked for: compiling the rules took 2–4 ms of every toolc run's start
// (their bounded repeats, {0,200} and {1,500}, are programs of hundreds of
// steps), paid by the runs that lint nothing (--check answered by the
// lock, a cached build, toolc inputs) too.
func pattern(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// destructiveVerbs are the words of a tool name that say it deletes.
var destructiveVerbs = []string{"delete", "drop", "remove", "destroy", "purge", "erase", "wipe", "truncate"}
