package diag

import (
	"crypto/sha256"
	"encoding/hex"
)

// Fingerprint identifies a diagnostic independently of its line and column,
// so that it survives edits above it: the hash of its code, file, pointer,
// target and message (with its tool). A measurement (a count over a
// limit: accept.tools, limit.*) is identified by what it measures, not by
// how much: its message, which holds the count, is left out, so that it
// stays the same finding when the count changes. It is SARIF's partial
// fingerprint and the key of toolc.baseline.
func Fingerprint(d Diagnostic) string {
	text := d.Text()
	if Measured(d.Code) {
		text = d.Tool
	}
	h := sha256.New()
	for _, s := range []string{d.Code, d.File, d.Pointer, d.Target, text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// measured are the codes, besides the limit category, whose message
// reports a count against a budget.
var measured = map[string]bool{"accept.tools": true, "accept.strict-tools": true, "accept.optional": true, "accept.unions": true}

// Measured reports whether code's findings measure something against a
// limit, so that their message changes with the count.
func Measured(code string) bool {
	return measured[code] || Code{Code: code}.Category() == "limit"
}
