package formats

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
)

// Score is how well a document fits one format.
type Score struct {
	Format     string
	Confidence float64 // 0 (does not fit) to 1 (certain)
}

// Detection is the outcome of Detect: every score, best first, and the
// chosen format or an error saying why none was chosen.
type Detection struct {
	Format string
	Scores []Score
	Err    error // wraps ErrAmbiguous when no format is chosen
}

// Detection thresholds: the best format needs at least minConfidence, and a
// lead of at least minMargin over the next, or the file is ambiguous.
const (
	minConfidence = MinConfidence
	minMargin     = 0.25
)

// MinConfidence is the least confidence with which a format is chosen, and
// SureConfidence the least with which it is taken without a word: between
// them, a build says which format it guessed.
const (
	MinConfidence  = 0.5
	SureConfidence = 0.9
)

// Score returns the confidence of format, 0 when it was not scored.
func (d Detection) Score(format string) float64 {
	for _, s := range d.Scores {
		if s.Format == format {
			return s.Confidence
		}
	}
	return 0
}

// Detect scores doc against every registered format that can be detected
// and chooses the best one when it is clear.
func (r *Registry) Detect(doc *canonical.Value) Detection {
	var d Detection
	// The shapes of the document's tools, found once for every format
	// told by them (a 1,000-tool file was read once per format).
	var ss []shape
	var envelope, found bool
	for _, a := range r.List() {
		switch {
		case a.fit != nil:
			if !found {
				ss, envelope = shapesOf(doc)
				found = true
			}
			d.Scores = append(d.Scores, Score{Format: a.Name, Confidence: a.fit.weigh(ss, envelope)})
		case a.Detect != nil:
			d.Scores = append(d.Scores, Score{Format: a.Name, Confidence: a.Detect(doc)})
		}
	}
	slices.SortStableFunc(d.Scores, func(a, b Score) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	switch {
	case len(d.Scores) == 0 || d.Scores[0].Confidence < minConfidence:
		d.Err = fmt.Errorf("%w: the file does not look like any known tool format (%s)", ErrAmbiguous, scoresText(d.Scores))
	case len(d.Scores) > 1 && d.Scores[0].Confidence-d.Scores[1].Confidence < minMargin:
		d.Err = fmt.Errorf("%w: the file fits %s and %s about equally (%s)", ErrAmbiguous, d.Scores[0].Format, d.Scores[1].Format, scoresText(d.Scores))
	default:
		d.Format = d.Scores[0].Format
	}
	return d
}

func scoresText(scores []Score) string {
	var parts []string
	for _, s := range scores {
		parts = append(parts, fmt.Sprintf("%s %.2f", s.Format, s.Confidence))
	}
	return strings.Join(parts, ", ")
}

// shape is what one tool object looks like.
type shape uint8

const (
	shapeOther        shape = iota
	shapeMCP                // has inputSchema
	shapeChat               // {"type":"function","function":{…}}
	shapeLegacy             // {name, parameters}
	shapeBare               // {name, description?} and nothing that decides
	shapeAnthropic          // has input_schema
	shapeAnthropicDef       // Anthropic-defined tool type
	shapeOpenAIHosted       // OpenAI hosted tool type
	shapeResponses          // {"type":"function", name, parameters}: flat
	shapeGemini             // a function declaration with Gemini's fields
	shapeGeminiTool         // a Tool: {"functionDeclarations": …} or a built-in
	shapeBedrock            // {"toolSpec": …}, a toolConfig entry or request
	shapeLangChain          // has args_schema
)

func shapeOf(v *canonical.Value) shape {
	if v == nil || v.Kind != canonical.Object {
		return shapeOther
	}
	typ, _ := v.Get("type").StringValue()
	fn := v.Get("function")
	paramType, _ := v.Get("parameters").Get("type").StringValue()
	switch {
	case v.Has("toolSpec") || v.Has("toolConfig") || v.Has("cachePoint") || v.Has("systemTool"):
		return shapeBedrock
	case v.Has("inputSchema") && v.Get("inputSchema").Has("json") && !v.Get("inputSchema").Has("type"):
		return shapeBedrock // a bare toolSpec
	case v.Has("inputSchema"):
		return shapeMCP
	case isGeminiTool(v):
		return shapeGeminiTool
	case slices.ContainsFunc(langChainSchemaKeys, v.Has):
		return shapeLangChain
	case v.Has("name") && !v.Has("parameters") && isSchemaObject(v.Get("schema")):
		// {name, description, schema}: the Python canonicalizer's LangChain
		// form, the arguments' JSON Schema under "schema".
		return shapeLangChain
	case v.Has("parametersJsonSchema") || v.Has("responseJsonSchema") || paramType != "" && paramType != strings.ToLower(paramType):
		return shapeGemini
	case v.Has("input_schema"):
		return shapeAnthropic
	case typ == "function" && fn != nil && fn.Kind == canonical.Object:
		return shapeChat
	case typ == "function" && v.Has("name"):
		return shapeResponses
	case typ != "" && isAnthropicDefinedType(typ):
		return shapeAnthropicDef
	case typ != "" && slices.Contains(openAIBuiltins, typ):
		return shapeOpenAIHosted
	case v.Has("parameters") && v.Has("name"):
		return shapeLegacy
	case v.Has("name"):
		if _, ok := v.Get("name").StringValue(); ok {
			return shapeBare
		}
	}
	return shapeOther
}

// toolList returns the list of tool objects a document holds, however it is
// wrapped (array, {"tools": …}, JSON-RPC result, request body), and whether
// the wrapper itself is typical of MCP.
func toolList(doc *canonical.Value) (items []*canonical.Value, mcpEnvelope bool) {
	switch {
	case doc.Kind == canonical.Array:
		return doc.Items(), false
	case doc.Kind != canonical.Object:
		return nil, false
	case doc.Has("jsonrpc"):
		if tools := doc.Get("result").Get("tools"); tools != nil && tools.Kind == canonical.Array {
			return tools.Items(), true
		}
		return nil, false
	case doc.Has("tools") && !doc.Has("name"):
		if tools := doc.Get("tools"); tools.Kind == canonical.Array {
			return tools.Items(), !doc.Has("model") && !doc.Has("messages") && !doc.Has("toolc")
		}
		return nil, false
	case doc.Has("functions") && !doc.Has("name"):
		if fns := doc.Get("functions"); fns.Kind == canonical.Array {
			return fns.Items(), false
		}
		return nil, false
	}
	return []*canonical.Value{doc}, false
}

// fitting is how a format is told by the shapes of a document's tools:
// the weight with which each shape speaks for it, and the score of an
// envelope without tools.
type fitting struct {
	weights       map[shape]float64
	emptyEnvelope float64
}

// weigh is the share of the shapes ss that speak for the format.
func (f *fitting) weigh(ss []shape, envelope bool) float64 {
	if len(ss) == 0 {
		if envelope {
			return f.emptyEnvelope
		}
		return 0
	}
	var sum float64
	for _, sh := range ss {
		sum += f.weights[sh]
	}
	return sum / float64(len(ss))
}

// shapesOf is the shape of each tool of doc, and whether doc is a list of
// tools or holds one, rather than being one tool.
func shapesOf(doc *canonical.Value) ([]shape, bool) {
	items, envelope := toolList(doc)
	ss := make([]shape, len(items))
	for i, it := range items {
		ss[i] = shapeOf(it)
	}
	return ss, envelope
}

// The formats told by their tools' shapes.
var (
	mcpFit       = &fitting{map[shape]float64{shapeMCP: 1}, 0.9}
	openAIFit    = &fitting{map[shape]float64{shapeChat: 1, shapeLegacy: 0.9, shapeOpenAIHosted: 0.5, shapeResponses: 0.3, shapeBare: 0.6}, 0}
	responsesFit = &fitting{map[shape]float64{shapeResponses: 1, shapeOpenAIHosted: 0.9}, 0} // hosted tools (web_search, file_search …) belong to the Responses API rather than to Chat Completions
	geminiFit    = &fitting{map[shape]float64{shapeGemini: 1, shapeGeminiTool: 1, shapeLegacy: 0.3}, 0}
	bedrockFit   = &fitting{map[shape]float64{shapeBedrock: 1}, 0}
	langChainFit = &fitting{map[shape]float64{shapeLangChain: 1}, 0}
	anthropicFit = &fitting{map[shape]float64{shapeAnthropic: 1, shapeAnthropicDef: 1}, 0}
)

// isSchemaObject reports whether v looks like the JSON Schema of a tool's
// arguments: an object with a type or properties.
func isSchemaObject(v *canonical.Value) bool {
	return v != nil && v.Kind == canonical.Object && (v.Has("type") || v.Has("properties"))
}
