// Package mcptest is a small MCP server for tests, made with the Go SDK: it
// serves the tools of a JSON file, as they are written there, page by page,
// over stdio or streamable HTTP, and fails on request in each of the ways a
// live server fails (it exits, hangs, writes garbage, crashes in the middle
// of tools/list, answers tools/list with an error). The file is read again
// for each session, so a test changes the server's tools by rewriting it.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is the server's file: an MCP tools/list result (a bundle toolc
// wrote) serves as one, its caching hints included.
type Config struct {
	Name     string            `json:"name"`     // the server's name, "mcptest" when empty
	Tools    []json.RawMessage `json:"tools"`    // tools/list's tools, sent as written
	PageSize int               `json:"pageSize"` // tools per page; all in one when 0
	// TTLMs and CacheScope are the caching hints of a 2026-07-28 result.
	TTLMs      int    `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
	// Fail makes the server fail: "exit" (at start, with a message on
	// stderr), "hang" (never answers), "garbage" (writes a line that is not
	// JSON-RPC), "crash" (exits during the second page of tools/list, or
	// the first when there is one), "error" (tools/list answers an error),
	// "twice" (each tools/list is answered twice with one id, the second
	// answer with a tool more), "twice-late" (the second answer written
	// once stdin has closed, as the server ends).
	Fail string `json:"fail"`
	// Expand has the tools say the server's environment: each $NAME or
	// ${NAME} in them is replaced with the variable's value (a server that
	// echoes its token in a description).
	Expand bool `json:"expand"`
}

// Read reads a config file.
func Read(name string) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var c Config
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		// A tools/list result's tools alone (a corpus capture): served
		// as they are, by a server named mcptest.
		if err := json.Unmarshal(data, &c.Tools); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return &c, nil
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if c.Expand {
		for i, t := range c.Tools {
			c.Tools[i] = json.RawMessage(os.ExpandEnv(string(t)))
		}
	}
	return &c, nil
}

// Server makes the server of c.
func Server(c *Config) *mcp.Server {
	name := c.Name
	if name == "" {
		name = "mcptest"
	}
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			return c.list(req.GetParams().(*mcp.ListToolsParams))
		}
	})
	return s
}

// list answers one page of tools/list; the cursor is the index of the
// page's first tool.
func (c *Config) list(p *mcp.ListToolsParams) (*mcp.ListToolsResult, error) {
	start := 0
	if p != nil && p.Cursor != "" {
		n, err := strconv.Atoi(p.Cursor)
		if err != nil || n < 0 || n > len(c.Tools) {
			return nil, fmt.Errorf("invalid cursor %q", p.Cursor)
		}
		start = n
	}
	switch {
	case c.Fail == "error":
		return nil, errors.New("the tool registry is not loaded")
	case c.Fail == "crash" && (start > 0 || c.PageSize == 0):
		fmt.Fprintln(os.Stderr, "panic: runtime error: index out of range [3] with length 3")
		os.Exit(2)
	}
	end := len(c.Tools)
	if c.PageSize > 0 {
		end = min(end, start+c.PageSize)
	}
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{}, Cacheable: mcp.Cacheable{TTLMs: c.TTLMs, CacheScope: c.CacheScope}}
	for _, raw := range c.Tools[start:end] {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &t)
		res.Tools = append(res.Tools, rawTool{raw: raw, name: t.Name}.tool())
	}
	if end < len(c.Tools) {
		res.NextCursor = strconv.Itoa(end)
	}
	return res, nil
}

// rawTool is a tool written as the file has it.
type rawTool struct {
	raw  json.RawMessage
	name string
}

// tool returns an *mcp.Tool that marshals to the raw JSON: its fields from
// the file, and the input schema as the raw value, whatever it is.
func (r rawTool) tool() *mcp.Tool {
	var t mcp.Tool
	_ = json.Unmarshal(r.raw, &t)
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(r.raw, &fields)
	t.InputSchema = fields["inputSchema"]
	if o, ok := fields["outputSchema"]; ok {
		t.OutputSchema = o
	}
	return &t
}

// Main serves the config file named by the first argument over stdio, as
// a test binary or testscript command does.
func Main() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcptest CONFIG.json")
		return 2
	}
	c, err := Read(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	switch c.Fail {
	case "exit":
		fmt.Fprintln(os.Stderr, "mcptest: GITHUB_TOKEN is not set; the server cannot start")
		return 3
	case "hang":
		fmt.Fprintln(os.Stderr, "mcptest: waiting for a lock that never comes")
		time.Sleep(time.Hour)
		return 1
	case "garbage":
		fmt.Println("Server listening on stdio (v1.2.3)")
	}
	var t mcp.Transport = &mcp.StdioTransport{}
	w := &twice{File: os.Stdout, late: c.Fail == "twice-late"}
	if strings.HasPrefix(c.Fail, "twice") {
		t = &mcp.IOTransport{Reader: os.Stdin, Writer: w}
	}
	err = Server(c).Run(context.Background(), t)
	w.mu.Lock()
	if w.kept != nil {
		_, _ = os.Stdout.Write(w.kept)
	}
	w.mu.Unlock()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// twice writes each line that answers tools/list twice, the second time
// with a tool more: a server that breaks JSON-RPC. With late, it keeps the
// second answer for the server to write as it ends.
type twice struct {
	*os.File
	late bool
	mu   sync.Mutex
	kept []byte
}

// Close leaves stdout open: the server's end writes there still.
func (w *twice) Close() error { return nil }

func (w *twice) Write(p []byte) (int, error) {
	n, err := w.File.Write(p)
	if err == nil && bytes.Contains(p, []byte(`"tools":[`)) {
		again := bytes.Replace(p, []byte(`"tools":[`), []byte(`"tools":[{"name":"sneaky","inputSchema":{"type":"object"}},`), 1)
		if w.late {
			w.mu.Lock()
			w.kept = again
			w.mu.Unlock()
			return n, nil
		}
		_, err = w.File.Write(again)
	}
	return n, err
}

// Handler serves the config file name over streamable HTTP, reading it at
// each new session. A request without the header "Authorization: Bearer
// token" when the config's name is "private" is refused with 401.
func Handler(name string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		c, err := Read(name)
		if err != nil {
			c = &Config{Fail: "error"}
		}
		return Server(c)
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := Read(name); err == nil && c.Name == "private" && r.Header.Get("Authorization") != "Bearer token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
