package pipeline

import (
	"bytes"
	"crypto/sha256"
	"io"
	"sync"

	"github.com/toolc-dev/toolc/canonical"
)

// Output is one file that a build writes: a bundle, kept as its value and
// encoded as it is written (20,000 tools make 100 MB of bundles, which
// held in memory until the lock was written were a third of a build's
// live heap), a typed target's text, made as it is written, bytes, or the
// lock, made from the bundles' hashes when it is first needed.
type Output struct {
	Target string                         // the target's name; "" for the lock file
	Path   string                         // relative to the manifest's folder, '/'-separated
	encode func(io.Writer) (int64, error) // a bundle's or a text's
	sum    *encoding                      // its hash and size, once it was encoded
	data   []byte
	lazy   func() [][]byte       // the lock's bytes, made once, in parts
	early  func()                // begins what of lazy needs no other output (the lock's tools)
	stream func(io.Writer) error // StreamOutput's
	size   int64                 // of data's file; -1 for a stream
	hash   string                // of data's file, "sha256:…"
}

// encoding is a bundle's file's hash and size. A bundle is hashed as it
// is encoded to be compared with the disk and written (writeChanged, in
// one pass), never encoded a second time only to hash it, and the lock,
// which records the hashes, is finished after the bundles are written (its
// tools are encoded while they are).
type encoding struct {
	mu   sync.Mutex
	hash string // "" until known
	size int64
}

// NewOutput returns the output of data at path, for Write.
func NewOutput(path string, data []byte) Output {
	return Output{Path: path, data: data, size: int64(len(data)), hash: hashBytes(data)}
}

// bundleOutput returns the output of the bundle v at path, for target.
func bundleOutput(target, path string, v *canonical.Value) Output {
	return Output{Target: target, Path: path, encode: func(w io.Writer) (int64, error) { return writeBundle(v, w) }, sum: &encoding{}}
}

// textOutput returns the output at path of the text that write writes,
// for target: made each time it is written, never held whole.
func textOutput(target, path string, write func(io.Writer) error) Output {
	encode := func(w io.Writer) (int64, error) {
		c := &countingWriter{w: w}
		err := write(c)
		return c.n, err
	}
	return Output{Target: target, Path: path, encode: encode, sum: &encoding{}}
}

// lazyOutput returns the output at path of the parts make makes, made
// once, when they are first needed: after the outputs before it are
// written, when Write writes it. early, when not nil, is what of them
// needs none of the other outputs: Write begins it beside them.
func lazyOutput(path string, make func() [][]byte, early func()) Output {
	return Output{Path: path, lazy: sync.OnceValue(make), early: early, size: -1}
}

// StreamOutput returns the output at path of what write writes, made as
// it is written (a report): its size and hash are not known before, so
// Write writes it whatever is on disk, and never holds it whole.
func StreamOutput(path string, write func(io.Writer) error) Output {
	return Output{Path: path, stream: write, size: -1}
}

// WriteTo writes the output's bytes to w. A bundle whose hash is not yet
// known is hashed as it is written.
func (o Output) WriteTo(w io.Writer) (int64, error) {
	switch {
	case o.encode != nil: // a bundle or a text, with its sum
		o.sum.mu.Lock()
		defer o.sum.mu.Unlock()
		if o.sum.hash != "" {
			return o.encode(w)
		}
		h := sha256.New()
		n, err := o.encode(io.MultiWriter(w, h))
		if err == nil {
			o.sum.hash, o.sum.size = hashText(h.Sum(nil)), n
		}
		return n, err
	case o.stream != nil:
		c := &countingWriter{w: w}
		err := o.stream(c)
		return c.n, err
	case o.lazy != nil:
		return writeParts(w, o.lazy())
	}
	n, err := w.Write(o.data)
	return int64(n), err
}

// writeParts writes parts to w in order (net.Buffers would empty the
// lock's parts as it wrote them).
func writeParts(w io.Writer, parts [][]byte) (int64, error) {
	var n int64
	for _, p := range parts {
		m, err := w.Write(p)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// digest returns the hash and size of the output's file, encoding a
// bundle whose hash is not yet known. A stream has none before it is
// written: its caller asks it of none.
func (o Output) digest() (hash string, size int64) {
	switch {
	case o.lazy != nil:
		return hashEncoding(func(w io.Writer) (int64, error) { return writeParts(w, o.lazy()) })
	case o.encode != nil:
		o.sum.mu.Lock()
		defer o.sum.mu.Unlock()
		if o.sum.hash == "" {
			o.sum.hash, o.sum.size = hashEncoding(o.encode)
		}
		return o.sum.hash, o.sum.size
	}
	return o.hash, o.size
}

// knownSize returns the size of the output's file, when it is known
// without encoding it.
func (o Output) knownSize() (int64, bool) {
	switch {
	case o.encode != nil:
		o.sum.mu.Lock()
		defer o.sum.mu.Unlock()
		return o.sum.size, o.sum.hash != ""
	case o.lazy != nil || o.stream != nil:
		return 0, false
	}
	return o.size, true
}

// writeBundle writes a bundle: indented JSON, or the text of a bundle
// that is a string (llms.txt, which is Markdown).
func writeBundle(v *canonical.Value, w io.Writer) (int64, error) {
	if v.Kind == canonical.String {
		return writeString(w, v.Text())
	}
	return v.WriteIndent(w)
}

// writeString writes s to w through a small buffer: io.WriteString to a
// writer without WriteString (a hash), or to one whose WriteString copies
// (io.MultiWriter's, to a hash beside the file), copies s whole, and the text
// of a typed target is tens of megabytes (at 20,000 tools the go target's
// 50 MB: comparing the three typed outputs with the disk held 106 MB of
// such copies).
func writeString(w io.Writer, s string) (int64, error) {
	buf := make([]byte, min(len(s), 64<<10))
	var n int64
	for len(s) > 0 {
		k := copy(buf, s)
		m, err := w.Write(buf[:k])
		n += int64(m)
		if err != nil {
			return n, err
		}
		s = s[k:]
	}
	return n, nil
}

// countingWriter counts what it passes on.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Bytes returns the output's bytes, encoding a bundle whole: for what
// needs them at once (a diff, a test).
func (o Output) Bytes() []byte {
	switch {
	case o.encode != nil:
		var b bytes.Buffer
		o.encode(&b)
		return b.Bytes()
	case o.stream != nil:
		var b bytes.Buffer
		o.WriteTo(&b)
		return b.Bytes()
	case o.lazy != nil:
		return bytes.Join(o.lazy(), nil)
	}
	return o.data
}
