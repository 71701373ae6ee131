package profile

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/lower"
)

// featureSamples holds, per feature, a property schema that uses it and the
// keyword to look at afterwards.
var featureSamples = map[string]struct{ schema, keyword string }{
	"$ref":                 {`{"$ref": "#/$defs/d"}`, "$ref"},
	"anyOf":                {`{"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "d"}`, "anyOf"},
	"oneOf":                {`{"oneOf": [{"type": "string"}, {"type": "integer"}]}`, "oneOf"},
	"any-of-type":          {`{"type": "string", "anyOf": [{"maxLength": 3}, {"pattern": "^a"}]}`, "type"},
	"branch-types":         {`{"anyOf": [{"maxLength": 3}, {"enum": [1, 2]}]}`, "anyOf"},
	"allOf":                {`{"allOf": [{"type": "string"}], "description": "d"}`, "allOf"},
	"not":                  {`{"type": "string", "not": {"enum": ["x"]}}`, "not"},
	"conditional":          {`{"type": "string", "if": {"maxLength": 3}, "then": {"pattern": "^a"}}`, "if"},
	"dependent":            {`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "dependentRequired": {"a": ["a"]}}`, "dependentRequired"},
	"type-array":           {`{"type": ["string", "integer"]}`, "type"},
	"type":                 {`{"type": "string"}`, "type"},
	"const":                {`{"type": "string", "const": "x"}`, "const"},
	"enum":                 {`{"type": "integer", "enum": [1, 2]}`, "enum"},
	"pattern":              {`{"type": "string", "pattern": "^(?!admin)[a-z]+$"}`, "pattern"},
	"format":               {`{"type": "string", "format": "uri"}`, "format"},
	"minimum":              {`{"type": "number", "minimum": 1}`, "minimum"},
	"maximum":              {`{"type": "number", "maximum": 9}`, "maximum"},
	"exclusiveMinimum":     {`{"type": "number", "exclusiveMinimum": 1}`, "exclusiveMinimum"},
	"exclusiveMaximum":     {`{"type": "number", "exclusiveMaximum": 9}`, "exclusiveMaximum"},
	"multipleOf":           {`{"type": "number", "multipleOf": 2}`, "multipleOf"},
	"minLength":            {`{"type": "string", "minLength": 2}`, "minLength"},
	"maxLength":            {`{"type": "string", "maxLength": 9}`, "maxLength"},
	"minItems":             {`{"type": "array", "items": {"type": "string"}, "minItems": 2}`, "minItems"},
	"maxItems":             {`{"type": "array", "items": {"type": "string"}, "maxItems": 9}`, "maxItems"},
	"uniqueItems":          {`{"type": "array", "items": {"type": "string"}, "uniqueItems": true}`, "uniqueItems"},
	"contains":             {`{"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}`, "contains"},
	"prefixItems":          {`{"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}`, "prefixItems"},
	"patternProperties":    {`{"type": "object", "properties": {}, "patternProperties": {"^x": {"type": "string"}}}`, "patternProperties"},
	"propertyNames":        {`{"type": "object", "properties": {}, "propertyNames": {"maxLength": 9}}`, "propertyNames"},
	"minProperties":        {`{"type": "object", "properties": {}, "minProperties": 1}`, "minProperties"},
	"maxProperties":        {`{"type": "object", "properties": {}, "maxProperties": 9}`, "maxProperties"},
	"unevaluated":          {`{"type": "object", "properties": {}, "unevaluatedProperties": false}`, "unevaluatedProperties"},
	"additionalProperties": {`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {"type": "string"}}`, "additionalProperties"},
	"optional":             {`{"type": "string"}`, ""},
	"default":              {`{"type": "string", "default": "x"}`, "default"},
	"examples":             {`{"type": "string", "examples": ["x"]}`, "examples"},
	"title":                {`{"type": "string", "title": "T"}`, "title"},
	"core":                 {`{"type": "string", "$comment": "c"}`, "$comment"},
	"other":                {`{"type": "string", "x-order": 1}`, "x-order"},
	"untyped":              {`{"description": "anything"}`, "anyOf"},
	"items-missing":        {`{"type": "array"}`, "items"},
	"properties-missing":   {`{"type": "object", "additionalProperties": false}`, "properties"},
	"ref-siblings":         {`{"$ref": "#/$defs/d", "title": "T"}`, "$ref"},
	"required-undefined":   {`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "zzz"]}`, "required"},
	"root-any-of":          {`{"type": "string"}`, ""}, // checked on a root of its own: rootSamples
	"root-all-of":          {`{"type": "string"}`, ""},
	"root-enum":            {`{"type": "string"}`, ""},
	"root-not":             {`{"type": "string"}`, ""},
	"legacy-forms":         {`{"type": "string"}`, ""}, // checked on a draft-07 root: rootSamples
	"enum-null":            {`{"type": ["string", "null"], "enum": ["a", null]}`, "enum"},
	"required-alone":       {`{"required": ["a"]}`, "properties"},
	"ref-external":         {`{"$ref": "https://json-schema.org/draft/2020-12/schema", "description": "A schema."}`, "$ref"},
	"pattern-flavor":       {`{"type": "string", "pattern": "^\\p{Lu}+$"}`, "pattern"},
	"bool-schemas":         {`{"type": "object", "properties": {"a": true}}`, "properties"},
	"never":                {`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"not": {}}}, "additionalProperties": false}`, "properties"},
	"property-type":        {`{"type": ["string", "null"]}`, "type"},
	"ref-targets":          {`{"type": "string"}`, ""}, // checked on a root of its own: rootSamples
	"unused-defs":          {`{"type": "string"}`, ""}, // checked on a root of its own: rootSamples
	"root-properties":      {`{"type": "string"}`, ""}, // checked on a root of its own: rootSamples
	"dialect-default":      {`{"type": "string"}`, ""}, // checked on a root of its own: rootSamples
	"root-ref":             {`{"type": "string"}`, ""}, // a dialect's row (DeepSeek): lower's testdata/passes/rootref.txtar shows it
	"mcp-header":           {`{"type": "string", "x-mcp-header": "Region"}`, "x-mcp-header"},
}

// TestProfileRows checks every row of every profile mode: a schema using the
// feature, lowered with the mode's rules, shows the row's action.
func TestProfileRows(t *testing.T) {
	for _, f := range lower.Features() {
		if _, ok := featureSamples[f.Name]; !ok {
			t.Errorf("feature %q has no sample", f.Name)
		}
	}
	for _, format := range slices.Sorted(maps.Keys(profiles)) {
		p := profiles[format]
		for _, mode := range slices.Sorted(maps.Keys(p.Schema)) {
			rules := p.Schema[mode]
			for _, row := range rules.Rows {
				t.Run(fmt.Sprintf("%s/%s/%s=%s", format, mode, row.Feature, row.Action), func(t *testing.T) {
					if row.Source == "" {
						t.Errorf("row has no source")
					}
					checkRow(t, rules, row)
				})
			}
		}
	}
}

// rootSamples holds, per root feature, a root schema that uses it, the
// keyword to look at afterwards, and the properties the root has and what
// it requires when the feature is merged or dropped.
var rootSamples = map[string]struct {
	schema, keyword string
	props, required []string
}{
	"root-any-of": {`{"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}`, "anyOf", []string{"a", "b"}, nil},
	"root-all-of": {`{"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"required": ["a"]}]}`, "allOf", []string{"a"}, []string{"a"}},
	"root-enum":   {`{"type": "object", "properties": {}, "enum": [{}]}`, "enum", nil, nil},
	"root-not":    {`{"type": "object", "properties": {"a": {}, "b": {}}, "not": {"required": ["a", "b"]}}`, "not", []string{"a", "b"}, nil},
	"ref-targets": {`{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}, "c": {"$ref": "#/properties/a"}}, "required": ["a", "c"]}`,
		"", []string{"a", "c"}, []string{"a", "c"}},
	// $defs/b is used only by the unused $defs/c: both go, $defs/a stays.
	"unused-defs": {`{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "required": ["a"], "$defs": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}}}}`,
		"$defs", []string{"a"}, []string{"a"}},
	"legacy-forms": {`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}}, "required": ["t"]}`,
		"$schema", []string{"t"}, []string{"t"}},
	// A tool without parameters, in the form the MCP specification advises.
	"root-properties": {`{"type": "object", "additionalProperties": false}`, "properties", nil, nil},
	"dialect-default": {`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}}`, "$schema", nil, nil},
}

// checkRootRow checks a row of a root feature on its root sample.
func checkRootRow(t *testing.T, rules *lower.Rules, row lower.Row) {
	sample := rootSamples[row.Feature]
	in, err := canonical.ParseSchema([]byte(sample.schema))
	if err != nil {
		t.Fatal(err)
	}
	res := lower.Schema(in, rules, lower.Options{Input: true}) // a root sample is an input schema
	out := res.Schema.JSON()
	got := string(out.AppendJSON(nil, ""))
	switch {
	case row.Feature == "unused-defs" && row.Action == lower.Prune:
		// a stays, unless the mode inlines it.
		got := out.Get("$defs").Keys()
		want := []string{"a"}
		if rules.Action("$ref") == lower.Inline {
			want = nil
		}
		pruned := slices.IndexFunc(res.Changes, func(c lower.Change) bool { return c.Code == "lower.defs-pruned" })
		if !slices.Equal(got, want) || pruned < 0 || slices.ContainsFunc(res.Changes, func(c lower.Change) bool { return strings.HasPrefix(c.Origin.String(), "/$defs/") }) {
			t.Errorf("want $defs b and c pruned in a lower.defs-pruned change, and no change inside them; got $defs %q, changes %v", got, res.Changes)
		}
		return
	}
	switch row.Action {
	case lower.Keep:
		if !out.Has(sample.keyword) {
			t.Errorf("want %s kept at the root; got %s", sample.keyword, got)
		}
	case lower.Merge, lower.Drop:
		req, _ := out.Get("required").Strings()
		if out.Has(sample.keyword) || !slices.Equal(out.Get("properties").Keys(), sample.props) ||
			slices.ContainsFunc(sample.required, func(r string) bool { return !slices.Contains(req, r) }) {
			t.Errorf("want no %s at the root, properties %q, %q required; got %s", sample.keyword, sample.props, sample.required, got)
		}
		if len(res.Changes) == 0 {
			t.Errorf("the root changed without a report")
		}
	case lower.Add:
		if p := out.Get("properties"); p == nil || len(p.Members()) != 0 || !slices.ContainsFunc(res.Changes, func(c lower.Change) bool { return c.Code == "lower.properties-added" && c.Pointer == "" }) {
			t.Errorf("want properties: {} added at the root, and said; got %s, changes %v", got, res.Changes)
		}
	case lower.Hoist:
		if ref := out.Get("properties").Get("c").Get("$ref"); ref == nil || ref.Text() != "#/$defs/a" || !out.Get("$defs").Has("a") {
			t.Errorf("want the target of #/properties/a hoisted into $defs/a; got %s", got)
		}
	case lower.Modern:
		// The tuple is 2020-12's prefixItems now, unless the mode
		// rewrites tuples after (strict mode: items: {anyOf}).
		tuple := out.Get("properties").Get("t")
		if out.Has("$schema") || tuple.Has("additionalItems") || tuple.Get("items") != nil && tuple.Get("items").Kind == canonical.Array {
			t.Errorf("want the draft-07 tuple written as 2020-12; got %s", got)
		}
	default:
		t.Errorf("no check for action %q of a root feature", row.Action)
	}
}

func checkRow(t *testing.T, rules *lower.Rules, row lower.Row) {
	if _, ok := rootSamples[row.Feature]; ok {
		checkRootRow(t, rules, row)
		return
	}
	sample := featureSamples[row.Feature]
	required := `, "required": ["p"]`
	if row.Feature == "optional" {
		required = ""
	}
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"p": ` + sample.schema + `}` + required + `, "$defs": {"d": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	res := lower.Schema(in, rules, lower.Options{})
	root := res.Schema.JSON()
	p := root.Get("properties").Get("p")
	has := p.Has(sample.keyword)
	v := p.Get(sample.keyword)
	codes := map[string]bool{}
	for _, c := range res.Changes {
		codes[c.Code] = true
	}
	f, _ := lower.FeatureNamed(row.Feature)
	dropped := func() {
		if has || !codes[f.Loss] {
			t.Errorf("want %s dropped and %s reported; got %s, changes %v", sample.keyword, f.Loss, p.AppendJSON(nil, ""), res.Changes)
		}
	}
	kept := func() {
		if !has {
			t.Errorf("want %s kept; got %s", sample.keyword, p.AppendJSON(nil, ""))
		}
	}
	switch row.Action {
	case lower.Keep, lower.Acyclic:
		kept()
	case lower.Drop:
		dropped()
	case lower.Only:
		if row.Feature == "ref-siblings" {
			if has || !codes["lower.ref-wrapped"] {
				t.Errorf("want $ref with a sibling outside %v wrapped; got %s", row.Values, p.AppendJSON(nil, ""))
			}
			return
		}
		ok := false
		orig := in.JSON().Get("properties").Get("p").Get(sample.keyword)
		for _, it := range append([]*canonical.Value{orig}, orig.Items()...) {
			ok = ok || slices.Contains(row.Values, it.Text()) || it.Kind == canonical.Number && slices.Contains(row.Values, "number")
		}
		if row.Feature == "enum" {
			ok = slices.Contains(row.Values, "number") || slices.Contains(row.Values, "integer")
		}
		if ok {
			kept()
		} else {
			dropped()
		}
	case lower.Simple:
		dropped() // the sample has lookaround
	case lower.Python:
		dropped() // the sample has \p{Lu}, which Python's re lacks
	case lower.Inline:
		if has || !codes["lower.ref-inlined"] || root.Has("$defs") {
			t.Errorf("want $ref inlined; got %s", root.AppendJSON(nil, ""))
		}
	case lower.AnyOf:
		if has || !p.Has("anyOf") {
			t.Errorf("want oneOf as anyOf; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Enum:
		if has || !p.Has("enum") {
			t.Errorf("want const as enum; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Merge:
		if has || !codes["lower.all-of-merged"] {
			t.Errorf("want allOf merged; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Alone:
		if row.Feature == "any-of-type" {
			if has || p.Get("anyOf").Items()[0].Get("type") == nil {
				t.Errorf("want the type moved into the branches; got %s", p.AppendJSON(nil, ""))
			}
			return
		}
		if len(p.Members()) != 1 || !has || p.Get("anyOf").Items()[0].Get("description") == nil {
			t.Errorf("want anyOf alone, the description on its branches; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Type:
		if row.Feature == "property-type" {
			if _, ok := v.StringValue(); !ok || !p.Has("nullable") {
				t.Errorf("want the property's type one string, nullable; got %s", p.AppendJSON(nil, ""))
			}
			return
		}
		if row.Feature == "branch-types" {
			for _, b := range v.Items() {
				if !b.Has("type") || !codes["lower.type-inferred"] {
					t.Errorf("want every branch typed; got %s", p.AppendJSON(nil, ""))
				}
			}
			return
		}
		if !has || !codes["loss.untyped"] {
			t.Errorf("want the untyped schema widened to anyOf and loss.untyped; got %s, changes %v", p.AppendJSON(nil, ""), res.Changes)
		}
	case lower.Add:
		if !has || !codes["lower."+sample.keyword+"-added"] {
			t.Errorf("want %s added; got %s, changes %v", sample.keyword, p.AppendJSON(nil, ""), res.Changes)
		}
	case lower.Wrap:
		if has || !p.Has("anyOf") || !codes["lower.ref-wrapped"] {
			t.Errorf("want $ref wrapped in anyOf; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Prune:
		if row.Feature == "never" {
			if v.Has("b") || !codes["lower.never"] {
				t.Errorf("want the property that accepts no value removed from the closed object; got %s", p.AppendJSON(nil, ""))
			}
			return
		}
		if req, _ := v.Strings(); !slices.Equal(req, []string{"a"}) || !codes["loss.required"] {
			t.Errorf("want required pruned to [a]; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Nullable:
		if v != nil && v.Kind == canonical.Array || !p.Has("anyOf") {
			t.Errorf("want the types as anyOf; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Tuple:
		if mi := p.Get("maxItems"); has || !p.Has("items") || rules.Action("maxItems") == lower.Keep && (mi == nil || mi.Text() != "2") {
			t.Errorf("want the tuple as items with maxItems 2; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Close:
		if ap := p.Get("additionalProperties"); ap == nil || ap.Kind != canonical.Bool || ap.Bool {
			t.Errorf("want additionalProperties false; got %s", p.AppendJSON(nil, ""))
		}
	case lower.Require:
		req, _ := root.Get("required").Strings()
		if !slices.Contains(req, "p") || len(res.Optional) != 1 {
			t.Errorf("want p required and recorded; got %s, optional %v", root.AppendJSON(nil, ""), res.Optional)
		}
	case lower.Upper:
		if v == nil || v.Text() != "STRING" {
			t.Errorf("want type STRING; got %s", p.AppendJSON(nil, ""))
		}
	default:
		t.Errorf("no check for action %q", row.Action)
	}
}

// TestNameInvalid: a registered format whose name rule cannot be met by
// replacing characters with '_' (here: no '_' allowed) gets name.invalid
// instead of a name it does not take. toolc's own rules always can be met.
func TestNameInvalid(t *testing.T) {
	p := &Profile{Format: "lower-only", Name: NameRule{Chars: "a-z", Max: 20}}
	tool := &canonical.Tool{Name: "get.page", Input: canonical.AsSchema(canonical.NewObject())}
	low := p.Lower(context.Background(), []*canonical.Tool{tool}, "lower-only", Options{})
	var codes []string
	for _, d := range low.All() {
		codes = append(codes, d.Code)
	}
	if !slices.Contains(codes, "name.invalid") {
		t.Errorf("Lower with a rule that '_' cannot meet gives %v, want name.invalid", codes)
	}
	for format, prof := range profiles {
		if r := prof.Name; r.Max > 0 && (!r.Match("_") || !r.Match(r.Legal("9 ü.x", "id"))) {
			t.Errorf("%s: legalizing cannot always meet the name rule %s", format, r.Pattern())
		}
	}
}

// TestStrictNullableKeepsSharedDefinitions: making an optional property
// nullable in strict mode wraps its $ref and never changes the definition
// that other places share.
func TestStrictNullableKeepsSharedDefinitions(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {
		"a": {"$ref": "#/$defs/D"},
		"b": {"$ref": "#/$defs/D", "description": "the same, optional"}},
		"required": ["a"],
		"$defs": {"D": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	res := lower.Schema(in, openAIStrict, lower.Options{})
	out := res.Schema.JSON()
	if got := string(out.Get("$defs").Get("D").AppendJSON(nil, "")); got != `{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}` {
		t.Errorf("the shared definition became %s", got)
	}
	if got := string(out.Get("properties").Get("a").AppendJSON(nil, "")); got != `{"$ref":"#/$defs/D"}` {
		t.Errorf("the required property became %s", got)
	}
	if got := string(out.Get("properties").Get("b").AppendJSON(nil, "")); got != `{"anyOf":[{"$ref":"#/$defs/D"},{"type":"null"}],"description":"the same, optional"}` {
		t.Errorf("the optional property became %s", got)
	}
}

// TestPropertyKeysRenamed: keys outside a target's key rule are renamed,
// required follows, the old keys are recorded by their new pointers, and a
// renamed key that is taken is an error.
func TestPropertyKeysRenamed(t *testing.T) {
	in, _ := canonical.ParseSchema([]byte(`{"type": "object", "properties": {
		"filter[bundleId]": {"type": "string"}, "page[size]": {"type": "integer"},
		"nested": {"type": "object", "properties": {"Content-Type": {"type": "string"}}}},
		"required": ["filter[bundleId]"]}`))
	res := lower.Schema(in, geminiOpenAPI, lower.Options{})
	out := res.Schema.JSON()
	if got := out.Get("properties").Keys(); !slices.Equal(got, []string{"filter_bundleId_", "page_size_", "nested"}) {
		t.Errorf("keys = %q", got)
	}
	if req, _ := out.Get("required").Strings(); !slices.Equal(req, []string{"filter_bundleId_"}) {
		t.Errorf("required = %q", req)
	}
	want := map[canonical.Pointer]string{"/properties/filter_bundleId_": "filter[bundleId]", "/properties/page_size_": "page[size]", "/properties/nested/properties/Content_Type": "Content-Type"}
	if !maps.Equal(res.Renamed, want) {
		t.Errorf("renamed = %v, want %v", res.Renamed, want)
	}
	clash, _ := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"a[b]": {"type": "string"}, "a_b_": {"type": "string"}}}`))
	res = lower.Schema(clash, anthropicDefault, lower.Options{})
	if !slices.ContainsFunc(res.Changes, func(c lower.Change) bool { return c.Code == "name.property-collision" }) {
		t.Errorf("a renamed key that is taken gives %v, want name.property-collision", res.Changes)
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"Short.", 10, "Short."},
		{"Lists the issues. Filters by state and label. Pages with cursor.", 50, "Lists the issues. Filters by state and label."},
		{"Lists the issues of a repository with filters", 20, "Lists the issues of…"},
		{"Überschrift über alles", 10, "Überschri…"},
	} {
		if got := Shorten(tc.in, tc.max); got != tc.want || len([]rune(got)) > tc.max {
			t.Errorf("shorten(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestGeminiMaxItemsBudget: Gemini refuses a declaration whose maxItems add
// up to more than about 960 (python-genai issue 2170). Both schema modes
// warn with the figure at the largest maxItems; profile = { maxItems =
// "drop" } lowers the tool under the budget, each dropped value reported.
func TestGeminiMaxItemsBudget(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {
		"a": {"type": "array", "items": {"type": "string"}, "maxItems": 400},
		"b": {"type": "array", "items": {"type": "string"}, "maxItems": 600}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := &canonical.Tool{Name: "t", Input: in}
	gemini, _ := Of("gemini")
	lowered, err := gemini.Override(map[string]any{"maxItems": "drop"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"", "openapi"} {
		codes := func(p *Profile) map[string][]string {
			out := map[string][]string{}
			for _, d := range p.Lower(context.Background(), []*canonical.Tool{tool}, "gemini", Options{Schema: mode}).All() {
				out[d.Code] = append(out[d.Code], d.Message)
			}
			return out
		}
		got := codes(gemini)
		if w := got["limit.max-items-sum"]; len(w) != 1 || !strings.Contains(w[0], "1000") || !strings.Contains(w[0], "960") {
			t.Errorf("mode %q: limit.max-items-sum = %q, want one warning with 1000 and 960", mode, w)
		}
		got = codes(lowered)
		if len(got["limit.max-items-sum"]) > 0 || len(got["loss.max-items"]) != 2 {
			t.Errorf("mode %q with maxItems dropped: %v, want two loss.max-items and no budget warning", mode, got)
		}
	}
}

// TestOutputKeyCollisionDropsTheOutput: GitHub's REST description has
// reactions keyed "+1" and "-1", which Gemini's key rule both makes "_1".
// In an output schema that drops the output schema (loss.output-schema), and
// the tool still builds; in an input schema it stays an error, as a caller
// could not be told which argument is which.
func TestOutputKeyCollisionDropsTheOutput(t *testing.T) {
	reactions, err := canonical.ParseSchema([]byte(`{"type": "object", "properties": {"+1": {"type": "integer"}, "-1": {"type": "integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := canonical.ParseSchema([]byte(`{"type": "object", "properties": {}}`))
	gemini, _ := Of("gemini")
	for _, tc := range []struct {
		tool       *canonical.Tool
		code, want string // want: the severity of code
	}{
		{&canonical.Tool{Name: "get_issue", Input: empty, Output: reactions}, "loss.output-schema", "warning"},
		{&canonical.Tool{Name: "react", Input: reactions}, "name.property-collision", "error"},
	} {
		low := gemini.Lower(context.Background(), []*canonical.Tool{tc.tool}, "gemini", Options{Schema: "openapi"})
		var got []string
		for _, d := range low.All() {
			if d.Code == tc.code {
				got = append(got, d.Severity.String())
			}
			if d.Severity == diag.Error && d.Code != tc.code {
				t.Errorf("%s: %s", tc.tool.Name, d)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %s = %v, want one %s", tc.tool.Name, tc.code, got, tc.want)
		}
		if tc.code == "loss.output-schema" && low.Tools[0].Output != nil {
			t.Errorf("%s: the output schema is still there", tc.tool.Name)
		}
	}
}

// TestDialects lowers, for each dialect of OpenAI's format, a tool with
// what some server refuses (null in an enum, required without properties,
// $schema and $id, an ECMA-262-only escape) and checks the bundle against
// the dialect's acceptance table: what the dialect's rows lower, its table
// takes; compatible takes every rule at once. The evidence is each row's.
func TestDialects(t *testing.T) {
	in, err := canonical.ParseSchema([]byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "type": "object", "properties": {
		"state": {"type": ["string", "null"], "enum": ["open", "closed", null]},
		"code": {"type": "string", "pattern": "^[^\\0]+$"},
		"any": {"anyOf": [{"required": ["a"]}, {"type": "string"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := &canonical.Tool{Name: "t", Description: "d", Input: in}
	openai, _ := Of("openai")
	for _, tc := range []struct {
		dialect string
		want    []string // what the emitted schema must not hold
	}{
		{"openai", []string{`"required":["a"]}`}},
		{"xai", []string{`null]`, `"required":["a"]}`}},
		{"groq", []string{`"required":["a"]}`}},
		{"mistral", []string{`"$schema"`, `"$id"`, `"required":["a"]}`}},
		{"deepseek", []string{`\\0`, `"required":["a"]}`}},
		{"compatible", []string{`null]`, `"$schema"`, `"$id"`, `\\0`, `"required":["a"]}`}},
	} {
		opts := Options{Dialect: tc.dialect}
		low := openai.Lower(context.Background(), []*canonical.Tool{tool}, "openai", opts)
		out := string(low.Tools[0].Input.JSON().AppendJSON(nil, ""))
		for _, w := range tc.want {
			if strings.Contains(out, w) {
				t.Errorf("%s: the schema still holds %s: %s", tc.dialect, w, out)
			}
		}
		bundle := canonical.NewArray(canonical.NewObject())
		fn := canonical.NewObject()
		fn.Set("name", canonical.NewString("t"))
		fn.Set("parameters", low.Tools[0].Input.JSON())
		bundle.Items()[0].Set("type", canonical.NewString("function"))
		bundle.Items()[0].Set("function", fn)
		for _, d := range openai.Accept(bundle, low.Sources, "openai", opts) {
			if d.Severity == diag.Error {
				t.Errorf("%s: %s", tc.dialect, d)
			}
		}
		// And the table refuses what the rows lower: the source as it is.
		fn.Set("parameters", in.JSON())
		refused := 0
		for _, d := range openai.Accept(bundle, []*canonical.Tool{tool}, "openai", opts) {
			if d.Severity == diag.Error {
				refused++
			}
		}
		if refused < len(tc.want) {
			t.Errorf("%s: the table refuses %d things of the source, want at least %d", tc.dialect, refused, len(tc.want))
		}
	}
}

// TestToolPassesNamed: every step of lowering a tool has a name of its own
// and says what it does, as the schema passes do.
func TestToolPassesNamed(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range toolPasses {
		if p.name == "" || p.doc == "" || p.run == nil || seen[p.name] {
			t.Errorf("tool pass %q: want a unique name, a doc and a run", p.name)
		}
		seen[p.name] = true
	}
}
