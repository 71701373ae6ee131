package openapi_test

import (
	"fmt"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/formats/openapi"
)

// Reading the GET operations of a description, one of them renamed, with
// the annotations their method implies.
func ExampleRead() {
	doc, _ := canonical.ParseJSON([]byte(`{"openapi": "3.1.0", "paths": {
		"/pets": {"get": {"operationId": "listPets", "summary": "List pets"}, "post": {"operationId": "createPet", "summary": "Add a pet"}},
		"/pets/{id}": {"get": {"operationId": "getPet", "summary": "Read a pet",
			"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]}}}}`))
	r := openapi.Read(doc, "api.json", &openapi.Options{
		Include:    openapi.Selectors{{Methods: []string{"get"}}},
		Operations: map[string]openapi.Override{"listPets": {Name: "list_pets"}},
	}, nil)
	for _, t := range r.Tools {
		fmt.Println(t.Name, *t.Annotations.ReadOnlyHint)
	}
	fmt.Printf("%d of %d operations\n", r.Selection.Selected, r.Selection.Operations)
	// Output:
	// list_pets true
	// getPet true
	// 2 of 3 operations
}
