package accept

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolc-dev/toolc/canonical"
)

// metaSchemas are the compiled meta-schemas of the dialects, by $schema
// URI without "#": the library ships them, so nothing is fetched.
var metaSchemaOf = sync.OnceValue(func() map[string]*jsonschema.Schema {
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for u := range metaSchemas {
		if s, err := c.Compile(u); err == nil {
			out[u] = s
		}
	}
	return out
})

// metaSchema checks root, an input schema, against the meta-schema of the
// dialect it declares (2020-12 where it declares none), as SGLang does.
func (c *checker) metaSchema(root *canonical.Value, r Rule) {
	id, _ := root.Get("$schema").StringValue()
	id = strings.Replace(strings.TrimSuffix(id, "#"), "http://json-schema.org/draft/", "https://json-schema.org/draft/", 1)
	meta := metaSchemaOf()[id]
	if meta == nil {
		meta = metaSchemaOf()["https://json-schema.org/draft/2020-12/schema"]
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(root.AppendJSON(nil, "")))
	if err != nil {
		c.report(r, c.field, "", root.Pos, "the schema is not JSON: %v", err)
		return
	}
	var ve *jsonschema.ValidationError
	if err := meta.Validate(doc); errors.As(err, &ve) {
		at, why := firstCause(ve)
		c.report(r, c.field, at, root.Pos, "%s", why)
	}
}

// firstCause returns the place and the words of the innermost first cause
// of a meta-schema validation error.
func firstCause(ve *jsonschema.ValidationError) (canonical.Pointer, string) {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	var at canonical.Pointer
	for _, tok := range ve.InstanceLocation {
		at = at.Append(tok)
	}
	return at, ve.ErrorKind.LocalizedString(printer)
}

var printer = message.NewPrinter(language.English)
