package lower

import "github.com/toolc-dev/toolc/canonical"

// Boolean subschemas, for servers that refuse them (Ollama, llama.cpp):
// true and false written as the object schemas that say the same.

// boolKept are the keywords whose boolean value the servers that refuse
// boolean subschemas still take: additionalProperties: false is how an
// object is closed (Ollama's parser skips it; llama.cpp's grammar reads it).
var boolKept = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true}

// hasBoolSub reports whether one of n's subschemas is a boolean schema the
// bool-schemas row rewrites.
func hasBoolSub(n *canonical.Value) bool {
	for rel, sub := range canonical.AsSchema(n).Subschemas() {
		if sub.IsBool() && !boolKept[firstToken(rel)] {
			return true
		}
	}
	return false
}

// objectBool writes the boolean schema n as the object schema that accepts
// the same values: true as {}, false as {"type": "string", "enum": []}
// (not {"not": {}}, which Fireworks refuses).
func objectBool(u *Unit, n *canonical.Value, at canonical.Pointer) {
	if n.Bool {
		n.Kind = canonical.Object
		n.SetMembers(nil)
		u.Report("lower.bool-schema", at, n, "", "the schema true written as {}, which accepts the same values: the target refuses boolean schemas")
		return
	}
	n.Kind = canonical.Object
	n.SetMembers([]canonical.Member{{Key: "type", Value: canonical.NewString("string")}, {Key: "enum", Value: canonical.NewArray()}})
	u.Report("lower.bool-schema", at, n, "", "the schema false written as {\"type\": \"string\", \"enum\": []}, which accepts the same values (none): the target refuses boolean schemas")
}
