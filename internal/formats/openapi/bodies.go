package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/decode"
)

// oasParam is one parameter of an operation, after path-level and
// operation-level lists are merged.
type oasParam struct {
	name, in string
	v        *canonical.Value
	at       canonical.Pointer
}

// ignoredHeaders are header parameters that OpenAPI says to ignore: the
// request's media types and authorization come from elsewhere.
var ignoredHeaders = []string{"accept", "content-type", "authorization"}

func (o *oasDoc) parameters(item *canonical.Value, itemAt canonical.Pointer, op *canonical.Value, opAt canonical.Pointer) ([]oasParam, bool) {
	var params []oasParam
	ok := true
	for _, src := range []struct {
		list *canonical.Value
		at   canonical.Pointer
	}{{item.Get("parameters"), itemAt.Append("parameters")}, {op.Get("parameters"), opAt.Append("parameters")}} {
		if src.list == nil {
			continue
		}
		if src.list.Kind != canonical.Array {
			o.d.Report("source.invalid", src.at, "parameters must be an array, got %s", src.list.Kind)
			ok = false
			continue
		}
		for i, raw := range src.list.Items() {
			v, at, bad := o.deref(raw, src.at.Index(i))
			if v == nil {
				ok = ok && !bad
				continue
			}
			name, okName := v.Get("name").StringValue()
			in, okIn := v.Get("in").StringValue()
			if !okName || !okIn || name == "" || !slices.Contains([]string{"path", "query", "header", "cookie"}, in) {
				o.d.Report("source.invalid", at, `a parameter needs a "name" and an "in" of path, query, header or cookie`)
				ok = false
				continue
			}
			if in == "header" && slices.Contains(ignoredHeaders, strings.ToLower(name)) {
				continue
			}
			p := oasParam{name: name, in: in, v: v, at: at}
			if j := slices.IndexFunc(params, func(q oasParam) bool { return q.name == name && q.in == in }); j >= 0 {
				params[j] = p // the operation overrides the path item
			} else {
				params = append(params, p)
			}
		}
	}
	return params, ok
}

// jsonMedia reports whether a media type carries JSON.
func jsonMedia(mt string) bool {
	base, _, _ := strings.Cut(strings.ToLower(mt), ";")
	base = strings.TrimSpace(base)
	return base == "application/json" || strings.HasSuffix(base, "+json") || base == "*/*"
}

// formMedia are the body media types that are objects of named fields, read
// when a body has no JSON media type.
var formMedia = []string{"application/x-www-form-urlencoded", "multipart/form-data"}

// media chooses the media type of a content map: JSON first, then (for
// request bodies) a form; "" when there is none.
func media(content *canonical.Value, forms bool) string {
	for _, m := range decode.Members(content) {
		if jsonMedia(m.Key) {
			return m.Key
		}
	}
	if forms {
		for _, m := range decode.Members(content) {
			base, _, _ := strings.Cut(strings.ToLower(m.Key), ";")
			if slices.Contains(formMedia, strings.TrimSpace(base)) {
				return m.Key
			}
		}
	}
	return ""
}

// stringBody is the schema of a request body that is not JSON nor a form:
// a string, with contentMediaType, and contentEncoding base64 unless the
// media type is text. The description is the media type schema's, else the
// request body's, else one that says what to send.
func stringBody(schema, description *canonical.Value, mt string) *canonical.Value {
	s := canonical.NewObject()
	s.Set("type", canonical.NewString("string"))
	base, _, _ := strings.Cut(strings.ToLower(mt), ";")
	base = strings.TrimSpace(base)
	d, ok := schema.Get("description").StringValue()
	if !ok {
		d, ok = description.StringValue()
	}
	if !ok {
		d = "The request body, " + base
		if !textMedia(base) {
			d += ", base64-encoded"
		}
		d += "."
	}
	s.Set("description", canonical.NewString(d))
	if !textMedia(base) {
		s.Set("contentEncoding", canonical.NewString("base64"))
	}
	if !strings.Contains(base, "*") {
		s.Set("contentMediaType", canonical.NewString(base))
	}
	return s
}

// stringSchema reports whether s, a body's schema, says no more than that
// the body is a string (of bytes, in some media type), which is what the
// tool's string body says.
func stringSchema(s *canonical.Value) bool {
	if s == nil {
		return true
	}
	if s.Kind != canonical.Object {
		return false
	}
	for _, m := range s.Members() {
		switch m.Key {
		case "type":
			if t, _ := m.Value.StringValue(); t != "string" {
				return false
			}
		case "format", "description", "title", "contentMediaType", "contentEncoding", "example", "examples":
		default:
			return false
		}
	}
	return true
}

// textMedia reports whether a media type (lower case, without parameters)
// is text that a string holds as it is.
func textMedia(base string) bool {
	return strings.HasPrefix(base, "text/") || strings.HasSuffix(base, "+xml") || base == "application/xml" ||
		base == "application/yaml" || base == "application/x-yaml" || base == "application/graphql" || base == "application/sql" ||
		base == "application/javascript" || base == "application/x-ndjson" || base == "application/jsonl"
}

// flattenKeys are the keywords besides type, properties and required that
// an object body may have and still be flattened into the input: they
// annotate or close it and mean the same on the input object.
var flattenKeys = []string{"title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "xml", "externalDocs", "additionalProperties"}

// flattenable reports whether an object body can be flattened: type object,
// properties, and nothing else but annotations or additionalProperties: false.
func flattenable(s *canonical.Value) bool {
	if s == nil || s.Kind != canonical.Object {
		return false
	}
	if typ, _ := s.Get("type").StringValue(); typ != "object" || s.Get("properties") == nil || s.Get("properties").Kind != canonical.Object {
		return false
	}
	if ap := s.Get("additionalProperties"); ap != nil && !(ap.Kind == canonical.Bool && !ap.Bool) {
		return false
	}
	for _, m := range s.Members() {
		if m.Key != "type" && m.Key != "properties" && m.Key != "required" && !slices.Contains(flattenKeys, m.Key) && !strings.HasPrefix(m.Key, "x-") {
			return false
		}
	}
	return true
}

func (o *oasDoc) input(t *canonical.Tool, params []oasParam, op *canonical.Value, opAt canonical.Pointer, http *canonical.Value) *canonical.Value {
	in := &inputMaker{o: o, t: t, root: canonical.NewObject(), props: canonical.NewObject(), taken: map[string]bool{}}
	in.root.Set("type", canonical.NewString("object"))
	// The body first: whether it is flattened decides which names it takes.
	body := o.requestBody(t, params, op, opAt)
	if body != nil {
		if body.flat {
			for _, m := range body.v.Get("properties").Members() {
				in.taken[m.Key] = true
			}
		} else {
			in.taken["body"] = true
		}
	}
	list := canonical.NewArray()
	for _, p := range params {
		entry := in.param(p)
		if entry == nil {
			return nil
		}
		list.SetItems(append(list.Items(), entry))
	}
	if len(list.Items()) > 0 {
		http.Set("parameters", list)
	}
	closed := in.body(body)
	if body != nil {
		http.Set("body", body.info)
	}
	in.root.Set("properties", in.props)
	if len(in.required) > 0 {
		in.root.Set("required", canonical.NewStrings(in.required))
	}
	if closed != nil {
		in.root.Set("additionalProperties", closed)
	}
	attachDefs(t, in.root, o.reach(in.refs), "/input")
	return in.root
}

// inputMaker is the input schema of an operation being made.
type inputMaker struct {
	o        *oasDoc
	t        *canonical.Tool
	root     *canonical.Value
	props    *canonical.Value
	required []string
	refs     []string
	taken    map[string]bool // property names in use
}

// requestBody is an operation's request body as the input takes it.
type requestBody struct {
	oasSchema
	info     *canonical.Value // the binding's body: media type, required, where it went
	flat     bool             // its properties become the input's
	required bool
}

// requestBody reads the operation's request body: a schema of a JSON-like
// media type, flattened into the input where nothing collides, or any
// other media type as one string; nil without one.
func (o *oasDoc) requestBody(t *canonical.Tool, params []oasParam, op *canonical.Value, opAt canonical.Pointer) *requestBody {
	rb, rbAt := op.Get("requestBody"), opAt.Append("requestBody")
	if rb == nil {
		return nil
	}
	v, at, _ := o.deref(rb, rbAt)
	if v == nil {
		return nil
	}
	body := &requestBody{}
	body.required, _ = v.Get("required").BoolValue()
	content := v.Get("content")
	mt := media(content, true)
	switch {
	case mt != "":
		mAt := at.Append("content", mt)
		body.oasSchema = o.root(content.Get(mt).Get("schema"), mAt.Append("schema"))
		body.flat = flattenable(body.v) &&
			!slices.ContainsFunc(params, func(p oasParam) bool { return body.v.Get("properties").Has(p.name) })
	case len(decode.Members(content)) > 0:
		// Text or bytes: the body is one string, its media type in the
		// binding.
		mt = content.Members()[0].Key
		mAt := at.Append("content", mt)
		sv := content.Get(mt).Get("schema")
		if !stringSchema(sv) {
			o.d.Report("source.openapi-skipped", mAt.Append("schema"), "the %s request body of %q is taken as one string, so its schema, which describes more than a string, is left out", mt, t.Name)
		}
		body.oasSchema = oasSchema{v: stringBody(sv, v.Get("description"), mt), at: mAt}
	default:
		return nil
	}
	body.info = canonical.NewObject()
	body.info.Set("mediaType", canonical.NewString(mt))
	body.info.Set("required", canonical.NewBool(body.required))
	return body
}

// param adds parameter p to the input, under its name or, where that is
// taken, "in_name", and returns its entry in the binding; nil when both
// names are taken.
func (in *inputMaker) param(p oasParam) *canonical.Value {
	name := p.name
	if in.taken[name] {
		name = p.in + "_" + p.name
	}
	if in.taken[name] {
		in.o.d.Report("source.invalid", p.at, "parameter %q (in %s) has the name of another parameter, and so does %q", p.name, p.in, name)
		return nil
	}
	in.taken[name] = true
	sv, sAt := p.v.Get("schema"), p.at.Append("schema")
	var mt string
	if sv == nil {
		if c := p.v.Get("content"); c != nil && len(decode.Members(c)) > 0 {
			mt = c.Members()[0].Key
			sv, sAt = c.Members()[0].Value.Get("schema"), p.at.Append("content", mt, "schema")
		}
	}
	s := in.o.schema(sv, sAt)
	left := annotateParam(s.v, p.v)
	in.props.Set(name, s.v)
	in.t.Source.Fields[canonical.Pointer("/input/properties").Append(name)] = sAt
	in.refs = append(in.refs, s.refs...)
	if req, _ := p.v.Get("required").BoolValue(); req || p.in == "path" {
		in.required = append(in.required, name)
	}
	entry := canonical.NewObject()
	entry.Set("name", canonical.NewString(p.name))
	entry.Set("in", canonical.NewString(p.in))
	entry.Set("property", canonical.NewString(name))
	for _, k := range []string{"style", "explode", "allowReserved", "allowEmptyValue"} {
		if v := p.v.Get(k); v != nil {
			entry.Set(k, v)
		}
	}
	if mt != "" {
		entry.Set("mediaType", canonical.NewString(mt))
	}
	entry.SetMembers(append(entry.Members(), left...))
	return entry
}

// body puts the request body into the input: its properties and keywords
// when flat, else as the property "body". It returns the flattened body's
// additionalProperties, which closes the input.
func (in *inputMaker) body(body *requestBody) (closed *canonical.Value) {
	switch {
	case body == nil:
	case body.flat:
		for _, m := range body.v.Members() {
			switch m.Key {
			case "type", "properties", "required":
			case "additionalProperties":
				closed = m.Value
			default:
				in.root.Set(m.Key, m.Value)
				in.t.Source.Fields[canonical.Pointer("/input").Append(m.Key)] = body.at.Append(m.Key)
			}
		}
		for _, m := range body.v.Get("properties").Members() {
			in.props.Set(m.Key, m.Value)
			in.t.Source.Fields[canonical.Pointer("/input/properties").Append(m.Key)] = body.at.Append("properties", m.Key)
		}
		if req, ok := body.v.Get("required").Strings(); ok {
			in.required = append(in.required, req...)
		}
		in.refs = append(in.refs, body.refs...)
		body.info.Set("flattened", canonical.NewBool(true))
	default:
		in.props.Set("body", body.v)
		in.t.Source.Fields["/input/properties/body"] = body.at
		in.refs = append(in.refs, body.refs...)
		if body.required {
			in.required = append(in.required, "body")
		}
		body.info.Set("property", canonical.NewString("body"))
	}
	return closed
}

// annotateParam moves what a parameter says about its value (description,
// deprecation, examples) onto its schema, unless the schema says it already,
// and returns what it could not move, for the HTTP binding to keep: nothing
// the description says is lost.
func annotateParam(s, param *canonical.Value) (left []canonical.Member) {
	if s.Kind == canonical.Bool && s.Bool { // true is {}: room for annotations
		*s = canonical.Value{Kind: canonical.Object, Pos: s.Pos}
	}
	move := func(key string, v *canonical.Value) {
		if s.Kind == canonical.Object && !s.Has(key) {
			s.Set(key, v)
		} else if !v.Equal(s.Get(key)) {
			left = append(left, canonical.Member{Key: key, Value: v})
		}
	}
	if d := param.Get("description"); d != nil {
		move("description", d)
	}
	if dep, _ := param.Get("deprecated").BoolValue(); dep {
		move("deprecated", canonical.NewBool(true))
	}
	if ex := param.Get("example"); ex != nil {
		move("examples", canonical.NewArray(ex))
	} else if exs := param.Get("examples"); exs != nil {
		var items []*canonical.Value
		for _, m := range decode.Members(exs) {
			if v := m.Value.Get("value"); v != nil {
				items = append(items, v)
			}
		}
		if len(items) > 0 {
			move("examples", canonical.NewArray(items...))
		}
	}
	return left
}

// successCodes lists the success responses: 2xx codes in ascending order,
// then 2XX.
func successCodes(responses *canonical.Value) []string {
	var codes []string
	for _, m := range decode.Members(responses) {
		if n, err := strconv.Atoi(m.Key); err == nil && n >= 200 && n < 300 {
			codes = append(codes, m.Key)
		}
	}
	slices.Sort(codes) // three digits each: text order is numeric order
	for _, m := range decode.Members(responses) {
		if strings.EqualFold(m.Key, "2XX") {
			codes = append(codes, m.Key)
		}
	}
	return codes
}

func (o *oasDoc) output(t *canonical.Tool, op *canonical.Value, opAt canonical.Pointer) *canonical.Schema {
	responses := op.Get("responses")
	var code, mt string
	var content *canonical.Value
	var at canonical.Pointer
	for _, c := range successCodes(responses) {
		resp, rAt, _ := o.deref(responses.Get(c), opAt.Append("responses", c))
		if m := media(resp.Get("content"), false); m != "" {
			code, mt, content, at = c, m, resp.Get("content"), rAt
			break
		}
	}
	if mt == "" {
		return nil
	}
	sv := content.Get(mt).Get("schema")
	if sv == nil {
		return nil
	}
	s := o.root(sv, at.Append("content", mt, "schema"))
	if o.allOfObjects(s.v) {
		// Every member is an object, so the schema is one: saying so is
		// the same schema, and makes it an output schema.
		s.v.SetMembers(slices.Insert(s.v.Members(), 0, canonical.Member{Key: "type", Value: canonical.NewString("object")}))
	}
	if typ, _ := s.v.Get("type").StringValue(); s.v.Kind != canonical.Object || typ != "object" {
		what := `not an object schema`
		if s.v.Kind == canonical.Object && s.v.Get("type") == nil {
			what = `a schema without "type": "object"`
		} else if s.v.Kind == canonical.Object {
			what = "of type " + s.v.Get("type").String()
		}
		o.d.Report("source.openapi-skipped", s.at, "the %s response of %q is %s; an output schema must be an object, so the tool has none", code, t.Name, what)
		return nil
	}
	reached := o.reach(s.refs)
	size := s.v.Size()
	for _, def := range reached {
		size += def.nodes
	}
	if size > maxOutputValues {
		o.d.Report("source.openapi-skipped", s.at, "the %s response of %q, with the %d component schemas it reaches, has %d JSON values, more than the %d an output schema is given; the tool has none", code, t.Name, len(reached), size, maxOutputValues)
		return nil
	}
	t.Source.Fields["/output"] = s.at
	attachDefs(t, s.v, reached, "/output")
	return canonical.AsSchema(s.v)
}

// allOfObjects reports whether s has no type but an allOf whose members
// (after $refs to definitions) all have "type": "object".
func (o *oasDoc) allOfObjects(s *canonical.Value) bool {
	all := s.Get("allOf")
	if s.Kind != canonical.Object || s.Has("type") || all == nil || all.Kind != canonical.Array || len(all.Items()) == 0 {
		return false
	}
	for _, m := range all.Items() {
		if def := o.follow(m); def != nil {
			m = def.schema
		}
		if typ, _ := m.Get("type").StringValue(); typ != "object" {
			return false
		}
	}
	return true
}
