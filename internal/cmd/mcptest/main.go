// Command mcptest serves the tools of a JSON file over stdio, as the tests'
// MCP server does (package internal/mcptest): for trying toolc capture and
// toolc verify by hand.
package main

import (
	"os"

	"github.com/toolc-dev/toolc/internal/mcptest"
)

func main() { os.Exit(mcptest.Main()) }
