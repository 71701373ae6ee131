package typegen

import (
	"bufio"
	"fmt"
	"go/doc/comment"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/textesc"
)

// The printers of text: every string a catalog says reaches generated code
// through one of these, as a string literal (which reads back as exactly
// the string) or as a comment (which no text can end early). Text is never
// concatenated into source otherwise.

// sink is what generated text is written to: a strings.Builder (a piece,
// or the whole text for a caller that wants a string) or a bufio.Writer
// (the output file, which the text is written to as it is made).
type sink interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

// put writes parts to b in order: fmt.Fprintf with only %s, without the
// formatting (a tenth of the typed files' writing went to it).
func put(b sink, parts ...string) {
	for _, p := range parts {
		b.WriteString(p)
	}
}

// Text is a typed target's file: it writes it to w as it makes it, so
// the file is never held whole (at 20,000 tools the go target's is 53 MB,
// and the three typed files were most of such a build's memory).
type Text func(w io.Writer) error

// discard is a sink that keeps nothing: for a pass that only learns what
// the text will use.
type discard struct{}

func (discard) Write(p []byte) (int, error)       { return len(p), nil }
func (discard) WriteString(s string) (int, error) { return len(s), nil }
func (discard) WriteByte(byte) error              { return nil }

// textOf is what write makes, as a string: for a caller that wants a
// module whole (a test, a check).
func textOf(write func(sink)) string {
	var b strings.Builder
	write(&b)
	return b.String()
}

// buffered writes what write makes to w through a buffer, and returns w's
// first error (after which the buffer writes nothing more).
func buffered(w io.Writer, write func(sink)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	write(bw)
	return bw.Flush()
}

// commentLines splits text into the lines of a comment: at each line end
// (\n, \r\n, or \r alone), each line without trailing space, and every
// character a comment cannot carry or a reader would not see (controls,
// format characters such as bidi overrides and byte order marks, U+2028
// and U+2029, invalid UTF-8) written as a visible \u escape. What is left
// holds no line end in any of the three languages, no NUL, no BOM.
func commentLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(visible(l), " \t")
	}
	return lines
}

// visible is s with the characters commentLines escapes written as \uXXXX.
func visible(s string) string {
	return textesc.Escape(s, func(_ string, _ int, r rune) bool { return hiddenRune(r) }, func(b *strings.Builder, r rune) { fmt.Fprintf(b, `\u%04X`, r) })
}

// hiddenRune reports whether r is a control or format character (tab
// aside), or a line or paragraph separator.
func hiddenRune(r rune) bool {
	if r < utf8.RuneSelf { // most text: ASCII's controls are C0 and DEL, and it has no format character
		return r < 0x20 && r != '\t' || r == 0x7f
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// goString is s as a Go string literal: strconv.Quote, which escapes
// every byte that is not printable UTF-8, so it reads back as s.
func goString(s string) string { return strconv.Quote(s) }

// goComment writes text as // lines at indent, the first beginning with
// lead ("Name: "); an empty text writes nothing.
func goComment(b sink, indent, lead, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	for i, l := range commentLines(text) {
		if i == 0 {
			l = lead + l
		}
		if l == "" {
			put(b, indent, "//\n")
			continue
		}
		put(b, indent, "// ", l, "\n")
	}
}

// goDoc writes text as the // lines of a top-level declaration's doc
// comment, the first beginning with lead, in the form gofmt gives it:
// go/printer reformats such a comment through go/doc/comment (an indented
// line becomes a code block, a lone line a heading), and the Go file is
// written as gofmt writes it, not formatted. An empty text writes nothing.
func goDoc(b sink, lead, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	lines := commentLines(text)
	lines[0] = lead + lines[0]
	if l := lines[0]; len(lines) == 1 && l[0] != ' ' && l[0] != '#' && !strings.ContainsAny(l, "[\t") && !strings.Contains(l, "``") && !strings.Contains(l, "''") {
		// One line that go/doc/comment reads as a paragraph of plain text
		// (no heading, code block, list, doc link or link definition, and
		// no `` or '', which it prints as curly quotes), which it prints
		// as it is: most docs, and a fifth of the Go file's time.
		put(b, "// ", lines[0], "\n")
		return
	}
	// go/printer's formatDocComment: the text after each "//" and one
	// space, parsed and printed by go/doc/comment.
	var p comment.Parser
	var pr comment.Printer
	out := string(pr.Comment(p.Parse(strings.Join(lines, "\n") + "\n")))
	for out != "" {
		var l string
		l, out, _ = strings.Cut(out, "\n")
		switch {
		case l == "":
			b.WriteString("//\n")
		case l[0] == '\t':
			put(b, "//", l, "\n")
		default:
			put(b, "// ", l, "\n")
		}
	}
}

// tsString is s as a TypeScript string literal: JSON's form, with U+2028
// and U+2029 escaped as JSON need not.
func tsString(s string) string { return jsText(canonical.NewString(s).String()) }

// lineSeparators escapes U+2028 and U+2029 in JSON text, which older
// JavaScript takes as line ends in a string literal. Made once: a
// Replacer builds its tables on first use, which per string was most of
// what writing TypeScript allocated (227 MB at 20,000 tools).
var lineSeparators = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`)

// jsText is JSON text as JavaScript source.
func jsText(json string) string {
	if !strings.ContainsAny(json, "\u2028\u2029") { // nearly every text: the Replacer copies even what it leaves alone
		return json
	}
	return lineSeparators.Replace(json)
}

// tsLineComment writes text as // lines.
func tsLineComment(b sink, text string) {
	for _, l := range commentLines(text) {
		put(b, "// ", l, "\n")
	}
}

// tsDoc writes a JSDoc comment: the text, its constraints as tags, and
// @deprecated; "*/" in the text cannot end it.
func tsDoc(b sink, indent, doc string, tags []string, deprecated bool) {
	var lines []string
	if doc = strings.TrimSpace(doc); doc != "" {
		lines = commentLines(doc)
	}
	for _, t := range tags {
		lines = append(lines, commentLines(t)...)
	}
	if deprecated {
		lines = append(lines, "@deprecated")
	}
	if len(lines) == 0 {
		return
	}
	put(b, indent, "/**\n")
	for _, l := range lines {
		l = strings.ReplaceAll(l, "*/", `*\/`)
		if l == "" {
			put(b, indent, " *\n")
			continue
		}
		put(b, indent, " * ", l, "\n")
	}
	put(b, indent, " */\n")
}

// pyString is s as a Python string literal: JSON's escapes are Python's,
// and U+2028 and U+2029 are escaped for the readers that break lines
// there.
func pyString(s string) string { return tsString(s) }

// pyLineComment writes text as # lines.
func pyLineComment(b sink, text string) {
	for _, l := range commentLines(text) {
		put(b, "# ", l, "\n")
	}
}

// pyEscaped reports whether pyDoc writes r as an escape.
func pyEscaped(r rune) bool { return r == '\\' || r == utf8.RuneError || hiddenRune(r) }

// pyDoc writes text as a docstring at indent: a string literal whose value
// is the text (trimmed, with each line's trailing space cut), with every
// backslash, run of three quotes and character a reader would not see
// escaped, and a space before the closing quotes where the text ends in
// one.
func pyDoc(b sink, indent, text string) {
	if _, dry := b.(discard); dry { // a pass that learns the names the text uses: a docstring uses none
		return
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if text == "" {
		return
	}
	var body strings.Builder
	body.Grow(len(text) + 16)
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			body.WriteByte('\n')
			body.WriteString(indent)
		}
		l = strings.TrimRight(l, " \t")
		if !strings.ContainsFunc(l, pyEscaped) { // most lines: as they are
			body.WriteString(l)
			continue
		}
		for _, r := range l {
			switch {
			case r == '\\':
				body.WriteString(`\\`)
			case r == utf8.RuneError:
				body.WriteString(`\ufffd`)
			case hiddenRune(r) && r <= 0xFF:
				fmt.Fprintf(&body, `\x%02x`, r)
			case hiddenRune(r):
				fmt.Fprintf(&body, `\u%04x`, r)
			default:
				body.WriteRune(r)
			}
		}
	}
	doc := strings.ReplaceAll(body.String(), `"""`, `\"\"\"`)
	if strings.HasSuffix(doc, `"`) {
		doc += " "
	}
	put(b, indent, "\"\"\"", doc, "\"\"\"\n")
}
