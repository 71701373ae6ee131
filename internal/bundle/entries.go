package bundle

import "github.com/toolc-dev/toolc/canonical"

// Entries are the items of a bundle's tool list as its provider reads
// them: the functions (a namespace's in its place), the namespaces, and
// the provider's own tools ({"type": "tool_search"} and the like), which a
// bundle adds where it defers tools and no source declares.
type Entries struct {
	Functions  []*canonical.Value
	Namespaces []*canonical.Value
	Provider   []*canonical.Value
}

// EntriesOf sorts the items of list: an item without a type, or of type
// function or custom, is a function; one of type namespace (OpenAI
// Responses) holds functions; any other is the provider's own tool.
func EntriesOf(list []*canonical.Value) Entries {
	var e Entries
	for _, it := range list {
		switch typ, _ := it.Get("type").StringValue(); typ {
		case "", "function", "custom":
			e.Functions = append(e.Functions, it)
		case "namespace":
			e.Namespaces = append(e.Namespaces, it)
			if ts := it.Get("tools"); ts != nil && ts.Kind == canonical.Array {
				e.Functions = append(e.Functions, ts.Items()...)
			}
		default:
			e.Provider = append(e.Provider, it)
		}
	}
	return e
}
