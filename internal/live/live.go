// Package live reads the tools that a live MCP server offers, as toolc
// capture and toolc verify do: it starts the server's command (never
// through a shell; with what MCP clients pass of the environment and what
// the capture sets and inherits, env.go) or connects to its streamable
// HTTP endpoint with the MCP Go SDK's client, initializes, reads every
// page of tools/list, and ends the server's process group. The tools are kept as the server wrote them
// (key order and fields the SDK does not know included), from the raw
// JSON-RPC answers, and Encode writes them deterministically.
//
// Drift compares the tools of a pinned capture with the live ones.
package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/manifest"
)

// Options tune List.
type Options struct {
	// Dir is the command's working directory: the manifest's folder.
	Dir string
	// Lookup reads the environment for ${env:NAME}; os.LookupEnv when nil.
	Lookup func(string) (string, bool)
	// MaxPages bounds the pages of tools/list (a server that hands back
	// cursors forever); DefaultMaxPages when 0.
	MaxPages int
	// Version is toolc's, sent as the client's version.
	Version string
	// MaxAnswer bounds the bytes of one answer of an HTTP server, and
	// MaxTotal those of all its answers together (a body that never ends,
	// pages that never stop); DefaultMaxAnswer and DefaultMaxTotal when 0.
	MaxAnswer, MaxTotal int64
}

// The default bounds of what a server may send: the largest real server's
// tools/list (GitHub's, 172 KB) fits in an answer nearly fifty times over.
const (
	DefaultMaxAnswer = 8 << 20
	DefaultMaxTotal  = 32 << 20
)

// DefaultMaxPages is how many pages of tools/list List reads at most.
const DefaultMaxPages = 1000

// Listing is what a server offers.
type Listing struct {
	// Server is the name and version the server gave when initialized (or
	// in server/discover, for a 2026-07-28 server).
	Server *mcp.Implementation
	// Protocol is the MCP revision the server spoke: what the SDK's
	// client agreed on, server/discover first (2026-07-28, which has no
	// initialize), initialize for the revisions before.
	Protocol string
	// Tools are the tool objects as the server sent them, in its order.
	Tools []*canonical.Value
	// Pages is how many pages of tools/list they came in.
	Pages int
}

// Failure is why a server could not be read: the stage that failed, the
// cause, and the last lines the server wrote to stderr.
type Failure struct {
	Stage  string // "config", "start", "initialize", "tools/list", "answer"
	Err    error
	Stderr string // its last lines, for a command
	Fix    string // what may mend it, when toolc can tell
}

func (f *Failure) Error() string {
	if f.Stage == "config" || f.Stage == "start" {
		return f.Err.Error()
	}
	return "during " + f.Stage + ": " + f.Err.Error()
}

func (f *Failure) Unwrap() error { return f.Err }

// ErrTimeout is wrapped by the Failure of a server that did not answer in
// time.
var ErrTimeout = errors.New("timed out")

// List reads every tool the server of c offers.
func List(ctx context.Context, c *manifest.Capture, opts Options) (*Listing, error) {
	if opts.Lookup == nil {
		opts.Lookup = os.LookupEnv
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = DefaultMaxPages
	}
	if opts.MaxAnswer <= 0 {
		opts.MaxAnswer = DefaultMaxAnswer
	}
	if opts.MaxTotal <= 0 {
		opts.MaxTotal = DefaultMaxTotal
	}
	ctx, cancel := context.WithTimeout(ctx, c.Deadline())
	defer cancel()
	var (
		transport mcp.Transport
		stderr    *tail
		cmd       *exec.Cmd
		err       error
	)
	limit := &bounds{answer: opts.MaxAnswer, total: opts.MaxTotal}
	if len(c.Command) > 0 {
		transport, cmd, stderr, err = stdio(ctx, c, opts, limit)
	} else {
		transport, err = streamable(c, opts, limit)
	}
	if err != nil {
		return nil, err
	}
	rec := &recorder{Transport: transport}
	l, err := list(ctx, rec, opts)
	if cmd != nil {
		endGroup(cmd)
	}
	if err != nil {
		f := failure(ctx, err, rec, c, cmd, stderr)
		if over := limit.exceeded(); over != nil {
			f.Err = over // whatever layer of the client noticed it
		}
		f.redact(secrets(c, opts.Lookup))
		return nil, f
	}
	if from := leaked(l, c, opts.Lookup); from != "" {
		return nil, &Failure{Stage: "tools/list", Err: fmt.Errorf("what the server offers holds the value of %s, which toolc gave it; toolc writes and prints no such value", from),
			Fix: "a server should not repeat its credentials; if the value is no secret, write it in the capture's env as it is, not as ${env:NAME}"}
	}
	return l, nil
}

// stdio is the transport to the server c starts, in a process group of its
// own, with its stderr kept for the message.
func stdio(ctx context.Context, c *manifest.Capture, opts Options, limit *bounds) (mcp.Transport, *exec.Cmd, *tail, error) {
	env, err := serverEnv(c, opts.Lookup)
	if err != nil {
		return nil, nil, nil, &Failure{Stage: "config", Err: err}
	}
	// On timeout the context ends the whole process group, not the command
	// alone: npx starts node, which would outlive it.
	cmd := exec.CommandContext(ctx, c.Command[0], c.Command[1:]...)
	cmd.Cancel = func() error { endGroup(cmd); return nil }
	cmd.WaitDelay = 2 * time.Second
	cmd.Dir, cmd.Env = opts.Dir, env
	stderr := &tail{max: 16 << 10}
	cmd.Stderr = stderr
	ownGroup(cmd)
	return &boundedStdio{cmd: cmd, limit: limit}, cmd, stderr, nil
}

// boundedStdio is the SDK's CommandTransport with the server's stdout
// bounded as an HTTP server's answers are: a line at most the answer bound,
// all of them at most the total.
type boundedStdio struct {
	cmd   *exec.Cmd
	limit *bounds
	stdin *serverStdin // once connected
}

func (t *boundedStdio) Connect(ctx context.Context) (mcp.Connection, error) {
	// The server's stdout is a pipe of toolc's, not StdoutPipe's, which
	// Wait closes once the server has ended, with what it wrote last
	// perhaps not yet read (a second answer to a request).
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	t.cmd.Stdout = w
	stdin, err := t.cmd.StdinPipe()
	if err == nil {
		err = t.cmd.Start()
	}
	_ = w.Close() // the server's end is the server's
	if err != nil {
		_ = stdout.Close()
		return nil, err
	}
	in := &boundedLines{r: stdout, limit: t.limit}
	t.stdin = &serverStdin{cmd: t.cmd, w: stdin, out: stdout}
	t.stdin.ended = sync.OnceValue(t.stdin.stop)
	return (&mcp.IOTransport{Reader: io.NopCloser(in), Writer: t.stdin}).Connect(ctx)
}

// boundedLines counts a server's stdout, line by line.
type boundedLines struct {
	r     io.Reader
	limit *bounds
	line  int64 // bytes since the last newline
}

func (b *boundedLines) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		b.line = int64(n - i - 1)
	} else {
		b.line += int64(n)
	}
	if over := b.limit.add(int64(n), b.line); over != nil {
		return n, over
	}
	return n, err
}

// serverStdin is the server's stdin; closing it ends the server as the
// MCP specification says: stdin closed, then SIGTERM, then SIGKILL. Its
// stdout, read by the client, is closed then too.
type serverStdin struct {
	cmd *exec.Cmd
	w   io.WriteCloser
	out *os.File
	// ended ends the server the first time it is called, and returns how.
	ended func() error
}

func (s *serverStdin) Write(p []byte) (int, error) { return s.w.Write(p) }

func (s *serverStdin) Close() error {
	err := s.ended()
	_ = s.out.Close()
	return err
}

func (s *serverStdin) stop() error {
	_ = s.w.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	for _, next := range []func() error{terminate(s.cmd), s.cmd.Process.Kill} {
		select {
		case err := <-done:
			return err
		case <-time.After(2 * time.Second):
		}
		_ = next()
	}
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		return errors.New("the server does not end")
	}
}

// streamable is the transport to the streamable HTTP server at c's URL,
// with c's headers.
func streamable(c *manifest.Capture, opts Options, limit *bounds) (mcp.Transport, error) {
	headers := http.Header{}
	for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
		v, missing := manifest.Expand(c.Headers[k], opts.Lookup)
		if len(missing) > 0 {
			return nil, &Failure{Stage: "config", Err: fmt.Errorf("headers %s: the environment variable %s is not set", k, strings.Join(missing, ", "))}
		}
		headers.Set(k, v)
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return nil, &Failure{Stage: "config", Err: fmt.Errorf("url %q: %v", c.URL, err)}
	}
	return &mcp.StreamableClientTransport{
		Endpoint:             c.URL,
		HTTPClient:           &http.Client{Transport: &withHeaders{headers: headers, origin: originOf(u), base: &bounded{limit: limit, base: http.DefaultTransport}}},
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
	}, nil
}

// failure says why listing failed: at which stage, in a person's words,
// with the last lines of a stdio server's stderr.
func failure(ctx context.Context, err error, rec *recorder, c *manifest.Capture, cmd *exec.Cmd, stderr *tail) *Failure {
	f := &Failure{Err: err, Stage: rec.stage()}
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		f.Err = fmt.Errorf("%w after %s (timeout = %q on the capture changes it)", ErrTimeout, c.Deadline(), c.Deadline())
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		f.Stage = "start"
		f.Err = fmt.Errorf("cannot start %s: %v", c.Command[0], ee.Err)
	} else if f.Stage != "config" && !errors.Is(f.Err, ErrTimeout) {
		f.Err = plain(err, cmd)
	}
	if f.Stage == "initialize" && cmd != nil && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() > 0 {
		// Most often a variable it needs, which toolc did not pass.
		f.Fix = "the server gets " + strings.Join(passed(runtime.GOOS), ", ") + " of toolc's environment and no more (docs/live.md): name what else it needs in the capture's env or inherit"
	}
	if stderr != nil {
		f.Stderr = stderr.lines(12)
	}
	return f
}

// secrets are the values a capture takes from the environment and its
// headers: written nowhere, not even in what a failing server printed.
func secrets(c *manifest.Capture, lookup func(string) (string, bool)) []string {
	var out []string
	add := func(v string) {
		if len(strings.TrimSpace(v)) >= 4 { // shorter is no secret, and too common to hide
			out = append(out, v)
		}
	}
	for _, v := range fromEnv(c, lookup) {
		add(v.value)
	}
	for _, k := range c.Inherit { // the user's to say, and as likely a secret
		if val, ok := lookup(k); ok {
			add(val)
		}
	}
	for _, v := range c.Headers {
		expanded, _ := manifest.Expand(v, lookup)
		add(expanded)
		if _, rest, ok := strings.Cut(expanded, " "); ok { // "Bearer <token>"
			add(rest)
		}
	}
	// The longest first: a token inside a header value goes with it.
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// redact replaces each secret in what the failure says with ***.
func (f *Failure) redact(secrets []string) {
	if len(secrets) == 0 {
		return
	}
	hide := func(s string) string {
		for _, v := range secrets {
			s = strings.ReplaceAll(s, v, "***")
		}
		return s
	}
	f.Stderr = hide(f.Stderr)
	if msg := f.Err.Error(); hide(msg) != msg {
		f.Err = redacted{msg: hide(msg), err: f.Err}
	}
}

// redacted is an error whose message had a secret taken out.
type redacted struct {
	msg string
	err error
}

func (r redacted) Error() string { return r.msg }
func (r redacted) Unwrap() error { return r.err }

// plain says err in a person's words: what the server did, not which
// layer of the client noticed.
func plain(err error, cmd *exec.Cmd) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, "client is closing: "); i >= 0 {
		msg = msg[i+len("client is closing: "):]
	} else if i := strings.LastIndex(msg, `": `); strings.HasPrefix(msg, "calling \"") && i >= 0 {
		msg = msg[i+3:]
	}
	switch {
	case msg == "EOF" || strings.HasSuffix(msg, "EOF"):
		msg = "the server closed the connection without an answer"
	case strings.Contains(msg, "exceeded max depth"):
		msg = "the server wrote JSON nested more than 10,000 levels deep, which toolc does not read (" + msg + "); no tool's schema nests that deep"
	case strings.HasPrefix(msg, "invalid character"):
		msg = "the server wrote something that is not JSON-RPC on stdout (" + msg + "); a stdio server may write only JSON-RPC there, and its logs to stderr"
	}
	if cmd != nil && cmd.ProcessState != nil && cmd.ProcessState.Exited() && cmd.ProcessState.ExitCode() != 0 {
		msg += fmt.Sprintf(" (it exited with status %d)", cmd.ProcessState.ExitCode())
	}
	return errors.New(msg)
}

func list(ctx context.Context, rec *recorder, opts Options) (*Listing, error) {
	var invalid []string
	var mu sync.Mutex
	logger := slog.New(&invalidTools{add: func(s string) { mu.Lock(); invalid = append(invalid, s); mu.Unlock() }})
	client := mcp.NewClient(&mcp.Implementation{Name: "toolc", Version: opts.Version}, &mcp.ClientOptions{Logger: logger})
	session, err := client.Connect(ctx, rec, nil)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	rec.setStage("tools/list")
	l := &Listing{}
	if r := session.InitializeResult(); r != nil {
		l.Server, l.Protocol = r.ServerInfo, r.ProtocolVersion
	}
	params := &mcp.ListToolsParams{}
	seen := map[string]bool{}
	for {
		if l.Pages == opts.MaxPages {
			return nil, fmt.Errorf("more than %d pages of tools/list; the server's cursors do not end", opts.MaxPages)
		}
		res, err := session.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		l.Pages++
		if res.NextCursor == "" {
			break
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("the server gave the cursor %q twice; its pages do not end", res.NextCursor)
		}
		seen[res.NextCursor] = true
		params.Cursor = res.NextCursor
	}
	if len(invalid) > 0 {
		return nil, fmt.Errorf("the SDK refused tools the server sent: %s", strings.Join(invalid, "; "))
	}
	// What the server sends up to its end is read: an answer it gave
	// twice may come after the one the client took.
	rec.end()
	_ = session.Close()
	if err := rec.protocol(); err != nil {
		return nil, err
	}
	rec.setStage("answer")
	for i, page := range rec.pages() {
		v, err := canonical.ParseJSON(page)
		if err != nil {
			return nil, fmt.Errorf("page %d of tools/list: %v", i+1, err)
		}
		tools := v.Get("tools")
		if tools == nil || tools.Kind != canonical.Array {
			return nil, fmt.Errorf("page %d of tools/list has no tools array", i+1)
		}
		l.Tools = append(l.Tools, tools.Items()...)
	}
	return l, nil
}

// Encode writes the tools of l as an MCP tools/list result, sorted by
// name, indented by two spaces, with the revision the server spoke pinned
// under _meta["dev.toolc/capture"]: the same server gives the same bytes.
// What a 2026-07-28 result says of its caching (ttlMs, cacheScope) is a
// hint of the moment, not the server's tools, and is not pinned.
func Encode(l *Listing) []byte {
	tools := slices.Clone(l.Tools)
	slices.SortStableFunc(tools, func(a, b *canonical.Value) int {
		an, _ := a.Get("name").StringValue()
		bn, _ := b.Get("name").StringValue()
		return strings.Compare(an, bn)
	})
	doc := canonical.NewObject()
	doc.Set("tools", canonical.NewArray(tools...))
	if l.Protocol != "" {
		pin := canonical.NewObject()
		pin.Set("protocol", canonical.NewString(l.Protocol))
		meta := canonical.NewObject()
		meta.Set(CaptureMetaKey, pin)
		doc.Set("_meta", meta)
	}
	return append(doc.Indent(), '\n')
}

// CaptureMetaKey is the _meta key of a capture file that pins what the
// server spoke: {"protocol": "2026-07-28"}.
const CaptureMetaKey = "dev.toolc/capture"

// PinnedProtocol is the MCP revision a capture file pins, "" where it pins
// none (a file captured before toolc pinned it).
func PinnedProtocol(doc *canonical.Value) string {
	p, _ := doc.Get("_meta").Get(CaptureMetaKey).Get("protocol").StringValue()
	return p
}

// recorder is a transport that keeps the raw results of tools/list, which
// the SDK's client decodes into maps (losing the key order) and filters.
type recorder struct {
	mcp.Transport
	mu       sync.Mutex
	ids      map[string]bool // of the tools/list requests
	sent     map[string]bool // of every request
	answered map[string]bool
	results  [][]byte
	at       string
	broken   error // the first protocol error the server made
	// read is closed once the client has read all the server will send:
	// a read failed (the server's stdout ended, or broke JSON-RPC).
	read     chan struct{}
	readOnce sync.Once
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	r.setStage("start")
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	r.setStage("initialize")
	r.read = make(chan struct{})
	return &recording{Connection: c, r: r}, nil
}

// end ends a stdio server and waits, up to drainWait, until the client has
// read what it wrote up to its end: an answer it gave twice may come
// after the one the client took, and a closed session reads nothing more.
// What is left of its process group is ended too, as it may hold the
// server's stdout open. A streamable HTTP server's session just closes.
func (r *recorder) end() {
	t, ok := r.Transport.(*boundedStdio)
	if !ok || t.stdin == nil || r.read == nil {
		return
	}
	_ = t.stdin.ended()
	endGroup(t.cmd)
	select {
	case <-r.read:
	case <-time.After(drainWait):
	}
}

// drainWait bounds how long end waits for a server's stdout to end once
// the server and its process group have (a descendant that left the group
// may hold it open).
const drainWait = 2 * time.Second

func (r *recorder) setStage(s string) { r.mu.Lock(); r.at = s; r.mu.Unlock() }
func (r *recorder) stage() string     { r.mu.Lock(); defer r.mu.Unlock(); return r.at }
func (r *recorder) pages() [][]byte   { r.mu.Lock(); defer r.mu.Unlock(); return r.results }
func (r *recorder) protocol() error   { r.mu.Lock(); defer r.mu.Unlock(); return r.broken }

type recording struct {
	mcp.Connection
	r *recorder
}

func (c *recording) Write(ctx context.Context, m jsonrpc.Message) error {
	if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
		c.r.mu.Lock()
		if c.r.ids == nil {
			c.r.ids, c.r.sent, c.r.answered = map[string]bool{}, map[string]bool{}, map[string]bool{}
		}
		id := fmt.Sprint(req.ID.Raw())
		c.r.sent[id] = true
		if req.Method == "tools/list" {
			c.r.ids[id] = true
		}
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, m)
}

// ErrProtocol is wrapped by the failure of a server that breaks JSON-RPC:
// an answer to a request it was not sent, or a second answer to one.
var ErrProtocol = errors.New("JSON-RPC protocol error")

func (c *recording) Read(ctx context.Context) (m jsonrpc.Message, err error) {
	defer func() {
		if err != nil {
			c.r.readOnce.Do(func() { close(c.r.read) })
		}
	}()
	m, err = c.Connection.Read(ctx)
	res, ok := m.(*jsonrpc.Response)
	if !ok || err != nil {
		return m, err
	}
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	id := fmt.Sprint(res.ID.Raw())
	var broken error
	switch {
	case !c.r.sent[id]:
		broken = fmt.Errorf("%w: the server answered request %s, which toolc did not send", ErrProtocol, id)
	case c.r.answered[id]:
		// Merging the two would pin tools one answer held and not the
		// other; verify would then see drift that is not there.
		broken = fmt.Errorf("%w: the server answered request %s twice", ErrProtocol, id)
	}
	if broken != nil {
		if c.r.broken == nil {
			c.r.broken = broken
		}
		return nil, broken
	}
	c.r.answered[id] = true
	if res.Error == nil && c.r.ids[id] {
		c.r.results = append(c.r.results, bytes.Clone(res.Result))
	}
	return m, err
}

// invalidTools is a log handler that keeps what the SDK says when it
// leaves a tool out of tools/list, and drops the rest of its log.
type invalidTools struct {
	add   func(string)
	attrs []slog.Attr // from WithAttrs, kept for the message
}

func (h *invalidTools) Enabled(context.Context, slog.Level) bool { return true }

func (h *invalidTools) Handle(_ context.Context, r slog.Record) error {
	if !strings.Contains(r.Message, "excluding") {
		return nil
	}
	var b strings.Builder
	b.WriteString(r.Message)
	each := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		each(a)
	}
	r.Attrs(each)
	h.add(b.String())
	return nil
}

func (h *invalidTools) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &invalidTools{add: h.add, attrs: append(slices.Clone(h.attrs), attrs...)}
}

func (h *invalidTools) WithGroup(string) slog.Handler { return h }

// withHeaders adds headers to every request.
// withHeaders adds a capture's headers to the requests that go to the
// origin of its URL (scheme, host and port), and to no other: a redirect
// to another host is followed without them, as curl and browsers do, so a
// bearer token never reaches a server it was not written for.
type withHeaders struct {
	headers http.Header
	origin  string // of the capture's URL
	base    http.RoundTripper
}

func (w *withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	if originOf(r.URL) != w.origin {
		return w.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range w.headers {
		r.Header[k] = v
	}
	return w.base.RoundTrip(r)
}

// bounds are the most bytes a server may send: in one answer, and in all
// of them together. What went over is kept for the failure to say.
type bounds struct {
	answer, total int64
	mu            sync.Mutex
	read          int64
	over          error
}

func (b *bounds) exceeded() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// add counts n more bytes of an answer that has had seen bytes so far,
// and says when a bound is passed.
func (b *bounds) add(n, seen int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.read += n
	switch {
	case b.over != nil:
	case seen > b.answer:
		b.over = fmt.Errorf("the server's answer is over %s, the most toolc reads of one answer: no tools/list is that big", sizeText(b.answer))
	case b.read > b.total:
		b.over = fmt.Errorf("the server sent over %s in all, the most toolc reads of one server: its pages do not end", sizeText(b.total))
	}
	return b.over
}

func sizeText(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// bounded ends each answer's body where a bound is passed.
type bounded struct {
	limit *bounds
	base  http.RoundTripper
}

func (b *bounded) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := b.base.RoundTrip(r)
	if err == nil {
		res.Body = &boundedBody{ReadCloser: res.Body, limit: b.limit}
	}
	return res, err
}

type boundedBody struct {
	io.ReadCloser
	limit *bounds
	seen  int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.seen += int64(n)
	if over := b.limit.add(int64(n), b.seen); over != nil {
		return n, over
	}
	return n, err
}

// originOf is a URL's origin: scheme, host and port, the port made
// explicit.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

// lines returns the last n lines written.
func (t *tail) lines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	ls := strings.Split(strings.TrimRight(string(t.buf), "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.TrimSpace(strings.Join(ls, "\n"))
}
