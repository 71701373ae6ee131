package diag

import (
	"crypto/sha256"
	"encoding/hex"
)

// Fingerprint identifies a diagnostic independently of its line and column,
// so that it survives edits above it: the hash of its code, file, pointer,
// target and message (with its tool). It is SARIF's partial fingerprint
// and the key of toolc.baseline.
func Fingerprint(d Diagnostic) string {
	h := sha256.New()
	for _, s := range []string{d.Code, d.File, d.Pointer, d.Target, d.Text()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
