package formats

// What the external tests read of detection: the tool objects of a
// document, and the shape of each.
var (
	ToolList = toolList
	ShapeOf  = shapeOf
)

// The shapes the tests name.
const (
	ShapeChat         = shapeChat
	ShapeAnthropicDef = shapeAnthropicDef
	ShapeOpenAIHosted = shapeOpenAIHosted
)
