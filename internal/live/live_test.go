package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/mcptest"
)

// TestMain runs this test binary as the test server when asked: the
// capture's command is the binary itself.
func TestMain(m *testing.M) {
	if os.Getenv("TOOLC_MCPTEST") == "1" {
		os.Exit(mcptest.Main())
	}
	os.Exit(m.Run())
}

const tools = `[
 {"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "a": {"type": "integer"}}, "required": ["q"]}, "x-vendor": 1},
 {"name": "alpha", "description": "Alpha.", "inputSchema": {"type": "object"}},
 {"name": "zeta", "description": "Zeta.", "inputSchema": {"type": "object"}}
]`

func mustParse(t *testing.T, data []byte) *canonical.Value {
	t.Helper()
	v, err := canonical.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func server(t *testing.T, config string) *manifest.Capture {
	t.Helper()
	file := filepath.Join(t.TempDir(), "server.json")
	if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A binary built with -race sleeps a second when it exits, waiting for
	// races to report, unless its GORACE says not to.
	return &manifest.Capture{Command: []string{exe, file}, Env: map[string]string{"TOOLC_MCPTEST": "1", "GORACE": "atexit_sleep_ms=0"}, Timeout: "10s"}
}

// TestListStdio: every page, the tools as the server wrote them (key order,
// unknown keys), written sorted by name.
func TestListStdio(t *testing.T) {
	c := server(t, `{"name": "demo", "pageSize": 2, "tools": `+tools+`}`)
	l, err := List(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Pages != 2 || len(l.Tools) != 3 || l.Server.Name != "demo" {
		t.Fatalf("List = %d pages, %d tools, server %+v; want 2 pages of 3 tools from demo", l.Pages, len(l.Tools), l.Server)
	}
	// The Go SDK's server speaks 2026-07-28: read through server/discover,
	// without initialize, and pinned.
	if l.Protocol != "2026-07-28" || PinnedProtocol(mustParse(t, Encode(l))) != "2026-07-28" {
		t.Errorf("protocol %q; want 2026-07-28, pinned", l.Protocol)
	}
	got := string(Encode(l))
	if !strings.HasPrefix(got, "{\n  \"tools\": [\n    {\n") || strings.Index(got, `"alpha"`) > strings.Index(got, `"search"`) || strings.Index(got, `"search"`) > strings.Index(got, `"zeta"`) {
		t.Errorf("Encode is not sorted by name, two-space indented:\n%s", got)
	}
	if !strings.Contains(got, `"q": {`) || strings.Index(got, `"q"`) > strings.Index(got, `"a": {`) {
		t.Errorf("Encode lost the property order q, a:\n%s", got)
	}
	if again := string(Encode(l)); again != got {
		t.Error("Encode is not deterministic")
	}
}

func TestListHTTP(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "server.json")
	os.WriteFile(file, []byte(`{"name": "private", "pageSize": 1, "tools": `+tools+`}`), 0o644)
	srv := httptest.NewServer(mcptest.Handler(file))
	defer srv.Close()
	c := &manifest.Capture{URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer ${env:TOKEN}"}}
	lookup := func(k string) (string, bool) {
		if k == "TOKEN" {
			return "token", true
		}
		return "", false
	}
	l, err := List(context.Background(), c, Options{Lookup: lookup})
	if err != nil {
		t.Fatal(err)
	}
	if l.Pages != 3 || len(l.Tools) != 3 {
		t.Errorf("List over HTTP = %d pages, %d tools; want 3 and 3", l.Pages, len(l.Tools))
	}
	// Without the token: 401, a failure in seconds.
	_, err = List(context.Background(), c, Options{Lookup: func(string) (string, bool) { return "wrong", true }})
	var f *Failure
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("List with a wrong token = %v, want a failure saying 401", err)
	}
	// An endpoint that is not there: 404, a failure in seconds.
	nf := httptest.NewServer(http.NotFoundHandler())
	defer nf.Close()
	_, err = List(context.Background(), &manifest.Capture{URL: nf.URL + "/mcp"}, Options{})
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "404") && !strings.Contains(strings.ToLower(err.Error()), "not found") {
		t.Errorf("List of a missing endpoint = %v, want a failure saying 404", err)
	}
	// Not set at all: a configuration failure naming the variable.
	_, err = List(context.Background(), c, Options{Lookup: func(string) (string, bool) { return "", false }})
	if !errors.As(err, &f) || f.Stage != "config" || !strings.Contains(err.Error(), "TOKEN is not set") {
		t.Errorf("List without TOKEN = %v, want a config failure naming TOKEN", err)
	}
}

// TestListFailures: each way a server fails is a Failure in seconds, with
// the stage and the server's last stderr lines.
func TestListFailures(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		capture      func(*manifest.Capture)
		stage, want  string
		stderr       string
	}{
		{"no such command", `{}`, func(c *manifest.Capture) { c.Command = []string{"toolc-no-such-server"} }, "start", "executable file not found", ""},
		{"exits", `{"fail": "exit"}`, nil, "initialize", "", "GITHUB_TOKEN is not set"},
		{"hangs", `{"fail": "hang"}`, func(c *manifest.Capture) { c.Timeout = "1s" }, "initialize", "timed out after 1s", "waiting for a lock"},
		{"garbage", `{"fail": "garbage"}`, nil, "initialize", "", ""},
		{"crash mid-list", `{"fail": "crash", "pageSize": 1, "tools": ` + tools + `}`, nil, "tools/list", "", "index out of range"},
		{"tools/list error", `{"fail": "error", "tools": ` + tools + `}`, nil, "tools/list", "tool registry is not loaded", ""},
		// Issue 38: the second answer's tool was pinned in 21 of 30
		// captures; now none is.
		{"answers twice", `{"fail": "twice", "tools": ` + tools + `}`, nil, "tools/list", "the server answered request 2 twice", ""},
		// The second answer may come once the client has taken the first
		// and closed the server's stdin: what it writes to its end is read.
		{"answers twice as it ends", `{"fail": "twice-late", "tools": ` + tools + `}`, nil, "tools/list", "the server answered request 2 twice", ""},
		// Issue 38: JSON nested too deep was called "not JSON-RPC".
		{"nests too deep", `{}`, func(c *manifest.Capture) {
			c.Command = []string{"sh", "-c", `read line; printf '{"jsonrpc":"2.0","id":1,"result":{"x":'; i=0; while [ $i -lt 12000 ]; do printf '['; i=$((i+1)); done; printf '}}\n'; sleep 1`}
		}, "initialize", "nested more than 10,000 levels deep", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := server(t, tc.config)
			if tc.capture != nil {
				tc.capture(c)
			}
			start := time.Now()
			_, err := List(context.Background(), c, Options{})
			var f *Failure
			if !errors.As(err, &f) {
				t.Fatalf("List = %v, want a Failure", err)
			}
			if f.Stage != tc.stage || !strings.Contains(f.Error(), tc.want) || !strings.Contains(f.Stderr, tc.stderr) {
				t.Errorf("List = stage %q, %q, stderr %q; want stage %q, %q, stderr with %q", f.Stage, f.Error(), f.Stderr, tc.stage, tc.want, tc.stderr)
			}
			t.Logf("%s: %v (stderr %q)", f.Stage, f, f.Stderr)
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("the failure took %s", d)
			}
		})
	}
}

// TestInvalidToolsLogger: what the SDK logs when it leaves a tool out is
// kept, through loggers made With attributes too; the rest is dropped.
func TestInvalidToolsLogger(t *testing.T) {
	var got []string
	logger := slog.New(&invalidTools{add: func(s string) { got = append(got, s) }})
	logger.With("session", "s1").Error("excluding tool from tools/list", "tool", "x", "error", "bad header")
	logger.Info("connected")
	if len(got) != 1 || got[0] != "excluding tool from tools/list session=s1 tool=x error=bad header" {
		t.Errorf("kept %q", got)
	}
}

// TestHeadersStayWithTheirOrigin: a server that redirects (307) to
// another host gets the capture's headers; the other host never does,
// while the capture still reads it (issue 38: a bearer token followed a
// redirect).
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "server.json")
	os.WriteFile(file, []byte(`{"name": "elsewhere", "tools": `+tools+`}`), 0o644)
	var mu sync.Mutex
	var leaked, seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, a)
		}
		mu.Unlock()
		mcptest.Handler(file).ServeHTTP(w, r)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	c := &manifest.Capture{URL: first.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer ${env:TOKEN}"}}
	lookup := func(k string) (string, bool) { return "s3cret", k == "TOKEN" }
	l, err := List(context.Background(), c, Options{Lookup: lookup})
	if err != nil {
		t.Fatalf("List through a redirect: %v", err)
	}
	if len(l.Tools) != 3 {
		t.Errorf("List through a redirect read %d tools, want 3", len(l.Tools))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "Bearer s3cret" {
		t.Errorf("the capture's own origin got Authorization %q, want the token", seen)
	}
	if len(leaked) > 0 {
		t.Errorf("the other origin got Authorization %q", leaked)
	}
}

// TestBoundedAnswers: a server that sends an answer that never ends (a
// JSON body, an SSE event) or more pages than any catalog has fails the
// capture in seconds, naming the bound, having read no more than it
// (issue 38: 10 GB bodies ran toolc out of memory).
func TestBoundedAnswers(t *testing.T) {
	endless := func(contentType, start string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			io.WriteString(w, start)
			chunk := bytes.Repeat([]byte("a"), 1<<16)
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "server.json")
	var many []string
	for i := range 400 {
		many = append(many, fmt.Sprintf(`{"name": "t%03d", "description": %q, "inputSchema": {"type": "object"}}`, i, strings.Repeat("word ", 100)))
	}
	os.WriteFile(file, []byte(`{"name": "big", "pageSize": 10, "tools": [`+strings.Join(many, ",")+`]}`), 0o644)
	for _, tc := range []struct {
		name    string
		handler http.Handler
		opts    Options
		want    string
	}{
		{"an endless JSON body", endless("application/json", `{"jsonrpc": "2.0", "id": 1, "result": {"x": "`), Options{}, "the server's answer is over 8 MiB"},
		{"an endless SSE event", endless("text/event-stream", "event: message\ndata: "), Options{}, "the server's answer is over 8 MiB"},
		{"pages past the total", mcptest.Handler(file), Options{MaxTotal: 64 << 10}, "the server sent over 64 KiB in all"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := List(context.Background(), &manifest.Capture{URL: srv.URL + "/mcp", Timeout: "60s"}, tc.opts)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			var f *Failure
			if !errors.As(err, &f) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("List = %v, want a failure saying %q", err, tc.want)
			}
			if took > 5*time.Second {
				t.Errorf("List took %s, want under 5 s", took)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 300<<20 {
				t.Errorf("List allocated %d MiB, want under 300", alloc>>20)
			}
		})
	}
	// Over stdio, a line that never ends.
	if _, err := exec.LookPath("sh"); err == nil {
		start := time.Now()
		_, err := List(context.Background(), &manifest.Capture{Command: []string{"sh", "-c", `printf '{"jsonrpc": "2.0", "id": 1, "result": {"x": "'; while :; do printf '%01024d' 0; done`}, Timeout: "60s"}, Options{})
		if err == nil || !strings.Contains(err.Error(), "the server's answer is over 8 MiB") {
			t.Errorf("List of an endless stdout line = %v, want a failure naming the bound", err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("List of an endless stdout line took %s", took)
		}
	}
}

// TestDuplicateAnswerHTTP: over streamable HTTP, a server that answers
// tools/list twice with one id pins no tool of the second answer (over
// stdio it is a protocol error: TestListFailures).
func TestDuplicateAnswerHTTP(t *testing.T) {
	tool := func(name string) string {
		return `{"name": "` + name + `", "description": "d", "inputSchema": {"type": "object"}}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		switch req.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "twice", "version": "1"}}}`, req.ID)
		case "tools/list":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\": \"2.0\", \"id\": %s, \"result\": {\"tools\": [%s]}}\n\n", req.ID, tool("a"))
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\": \"2.0\", \"id\": %s, \"result\": {\"tools\": [%s, %s]}}\n\n", req.ID, tool("a"), tool("sneaky"))
		default:
			if len(req.ID) == 0 { // a notification
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "error": {"code": -32601, "message": "method not found"}}`, req.ID)
		}
	}))
	defer srv.Close()
	// Over HTTP the client reads one answer to a request and stops: the
	// second is never read, and what is pinned is the first.
	l, err := List(context.Background(), &manifest.Capture{URL: srv.URL, Timeout: "10s"}, Options{})
	if err == nil && len(l.Tools) == 1 {
		return
	}
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "twice") {
		var names []string
		if l != nil {
			for _, tl := range l.Tools {
				n, _ := tl.Get("name").StringValue()
				names = append(names, n)
			}
		}
		t.Fatalf("List = %v tools, %v; want a protocol error saying the request was answered twice", names, err)
	}
}
