package lower

import (
	"fmt"
	"strings"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
)

// Fingerprint is the text of everything in r that lowering reads: two
// rules with one fingerprint lower every schema alike, messages included
// (a row's source is in them). OpenAI's Chat and Responses formats, and a
// dialect that changes no row, have the same rules.
func (r *Rules) Fingerprint() string {
	var b strings.Builder
	for _, row := range r.Rows {
		fmt.Fprintf(&b, "row %q %q %q %q\n", row.Feature, row.Action, row.Values, row.Source)
	}
	for _, l := range r.Limits {
		fmt.Fprintf(&b, "limit %q %d %q\n", l.Name, l.Max, l.Source)
	}
	if k := r.Keys; k != nil {
		fmt.Fprintf(&b, "keys %q %q %d %q\n", k.Chars, k.First, k.Max, k.Source)
	}
	return b.String()
}

// Memo lowers each schema once per fingerprint of rules, for the targets
// of one build that share rules: their bundles share the lowered schema,
// which nothing changes after lowering (as the bundles of targets that
// leave a schema as it is share the catalog's). Only the fingerprints it
// was made with are remembered; under any other, Schema lowers as the
// function does, holding nothing.
type Memo struct {
	shared  map[string]bool
	entries sync.Map // memoKey → *memoEntry
}

type memoKey struct {
	schema      *canonical.Schema
	fingerprint string
	opts        Options
}

type memoEntry struct {
	once sync.Once
	res  *Result
}

// NewMemo returns a memo of the lowerings under the rules of the given
// fingerprints; nil (lowering everything on its own) when there are none.
func NewMemo(fingerprints []string) *Memo {
	if len(fingerprints) == 0 {
		return nil
	}
	m := &Memo{shared: map[string]bool{}}
	for _, f := range fingerprints {
		m.shared[f] = true
	}
	return m
}

// Schema returns Schema(s, rules, opts), lowered once for every caller
// that passes the same s, the same rules' fingerprint and options. The
// result is shared: callers only read it. A nil memo lowers every time.
func (m *Memo) Schema(s *canonical.Schema, rules *Rules, fingerprint string, opts Options) *Result {
	if m == nil || !m.shared[fingerprint] {
		return Schema(s, rules, opts)
	}
	e, _ := m.entries.LoadOrStore(memoKey{s, fingerprint, opts}, &memoEntry{})
	entry := e.(*memoEntry)
	entry.once.Do(func() { entry.res = Schema(s, rules, opts) })
	return entry.res
}
