package security

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/words"
)

// Three ways of saying what the phrase rules look for so that they do not
// see it: an instruction spelled as an identifier, a hint that the tool's
// own words contradict, and text encoded where a reader sees noise.

// spelledInstruction finds an instruction to the model spelled as an
// identifier: a parameter's name, an enum value or the tool's name written
// with separators or case changes instead of spaces
// (ignore_all_previous_instructions, DoNotTellTheUser), which the phrase
// rules, written for prose, do not read as words.
func spelledInstruction(t *canonical.Tool, f field) []diag.Diagnostic {
	if strings.ContainsAny(f.text, " \t\n") || len(f.text) < 12 {
		return nil // prose, which phrases reads; or too short to say anything
	}
	// The rules' needles are words, which an identifier holds as they are:
	// most names hold none, and are not split.
	buf := lowerPool.Get().(*[]byte)
	*buf = lowerASCII((*buf)[:0], f.text)
	lower := unsafeString(*buf)
	needed := slices.ContainsFunc(textRules, func(r textRule) bool { return r.Code == "security.instruction" && r.mayMatch(lower) })
	lowerPool.Put(buf)
	if !needed {
		return nil
	}
	spelled := strings.Join(words.Name(f.text), " ")
	if spelled == strings.ToLower(f.text) {
		return nil // one word
	}
	for i := range textRules {
		r := &textRules[i]
		if r.Code != "security.instruction" || !r.mayMatch(spelled) {
			continue
		}
		if m := r.Pattern().FindString(spelled); m != "" {
			what := f.label() + " " + strconv.Quote(diagfmt.Elide(f.text, 80))
			switch {
			case f.base == "/name":
				what = "the tool's name"
			case f.key:
				what = fmt.Sprintf("the parameter name %q", diagfmt.Elide(f.text, 80))
			}
			d := report(t, "security.instruction-in-name", f.at(), "%s spells %s: %q, which a model reads as words", what, r.Name, m)
			return []diag.Diagnostic{d.WithFix("rename it to say what the value is: a name reaches the model as the words it spells")}
		}
	}
	return nil
}

// identifier reports whether f is a name rather than prose: the tool's
// name, a parameter's name, or an enum value.
func identifier(f field) bool {
	return f.key || f.base == "/name" || len(f.path) >= 2 && f.path[len(f.path)-2] == "enum"
}

// Verbs of the tool's own words: what a destructive tool does, and what
// any tool that changes something does, each as its base and its third
// person.
var (
	destroying = verbSet("delete", "remove", "destroy", "drop", "erase", "wipe", "purge", "truncate", "overwrite")
	changing   = verbSet("delete", "remove", "destroy", "drop", "erase", "wipe", "purge", "truncate", "overwrite",
		"create", "update", "write", "modify", "send", "post", "upload", "insert", "edit", "publish", "push", "merge", "rename", "move",
		"append", "replace", "submit", "change", "save")
	// leads are the words a statement of the tool's own action may begin
	// with before its verb ("This tool will permanently delete …").
	leads = map[string]bool{"this": true, "tool": true, "the": true, "it": true, "also": true, "then": true, "permanently": true,
		"irreversibly": true, "immediately": true, "forcibly": true, "recursively": true, "will": true, "can": true, "may": true}
	// objects are the words after the verb that make it a statement about
	// something ("deletes the file"), not a noun ("Posts of a user").
	objects = map[string]bool{"a": true, "an": true, "the": true, "all": true, "every": true, "each": true, "any": true, "one": true,
		"new": true, "this": true, "that": true, "these": true, "those": true, "your": true, "its": true, "their": true, "existing": true,
		"multiple": true, "specified": true, "selected": true, "given": true}
)

// verbSet maps each verb's base and third person to the third person.
func verbSet(verbs ...string) map[string]string {
	m := map[string]string{}
	for _, v := range verbs {
		third := v + "s"
		switch {
		case strings.HasSuffix(v, "y") && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
			third = strings.TrimSuffix(v, "y") + "ies"
		case strings.HasSuffix(v, "sh"):
			third = v + "es"
		}
		m[v], m[third] = third, third
	}
	return m
}

// hintContradiction finds a behaviour hint that the tool's description
// contradicts: readOnlyHint true for a tool that says it changes
// something, destructiveHint false for one that says it deletes or
// overwrites. A client that trusts the hint runs the tool without asking,
// or without a warning. The hints that annotations already found against
// the tool's name are not said twice.
func hintContradiction(t *canonical.Tool, said []diag.Diagnostic) []diag.Diagnostic {
	a := t.Annotations
	if a == nil || t.Description == "" {
		return nil
	}
	already := func(p string) bool {
		for _, d := range said {
			if strings.HasSuffix(d.Pointer, p) {
				return true
			}
		}
		return false
	}
	var out []diag.Diagnostic
	switch {
	case a.ReadOnlyHint != nil && *a.ReadOnlyHint && !already("/annotations/readOnlyHint"):
		if verb, sentence := statementIn(changing, t.Description); verb != "" {
			out = append(out, report(t, "security.hint-contradiction", "/annotations/readOnlyHint", "readOnlyHint is true, but the description says the tool %s: %q; a client that trusts the hint runs it without asking",
				verb, sentence).WithFix("set readOnlyHint to false, or make the description say what the tool does"))
		}
	case a.DestructiveHint != nil && !*a.DestructiveHint && !already("/annotations/destructiveHint"):
		if verb, sentence := statementIn(destroying, t.Description); verb != "" {
			out = append(out, report(t, "security.hint-contradiction", "/annotations/destructiveHint", "destructiveHint is false, but the description says the tool %s: %q; a client that trusts the hint does not warn before running it",
				verb, sentence).WithFix("set destructiveHint to true, or make the description say what the tool does"))
		}
	}
	return out
}

// statementIn finds a sentence of the description in which the tool says
// it does one of verbs to something: the verb at the sentence's start,
// after "This tool", "It" or an adverb ("Permanently deletes the file",
// "This tool will remove every row"), with a determiner after it, so that
// a noun ("Posts of a user") or a verb in a clause ("Pass null to remove
// it") is not one. It returns the verb, as the tool does it ("deletes"),
// and the sentence, cut short.
func statementIn(verbs map[string]string, description string) (verb, sentence string) {
	for rest := description; rest != ""; {
		end := strings.IndexAny(rest, ".!?;\n")
		if end < 0 {
			end = len(rest) - 1
		}
		s := rest[:end+1]
		rest = rest[end+1:]
		third := "" // the verb, once read: then the word after it decides
		for w := range strings.FieldsSeq(s) {
			w = strings.ToLower(w)
			if third == "" {
				if leads[w] {
					continue
				}
				if third = verbs[w]; third == "" {
					break // the sentence begins otherwise
				}
				continue
			}
			if objects[strings.Trim(w, ",:.!?;")] {
				return third, diagfmt.Elide(strings.TrimSpace(s), 80)
			}
			break
		}
	}
	return "", ""
}

// encodedPayload finds text encoded in base64 or hex in a field a model
// reads: a run that decodes to words (an instruction, most often) is
// noise to a reader and plain text to a model, which decodes it. A run
// that decodes to bytes (a hash, a key, an ID) is not text and is left
// alone.
func encodedPayload(t *canonical.Tool, f field) []diag.Diagnostic {
	for _, run := range runs(f.text) {
		if text, how := decodeRun(run); text != "" {
			d := report(t, "security.encoded-payload", f.at(), "%s holds %s that decodes to text: %q is %q",
				f.label(), how, diagfmt.Elide(run, 40), diagfmt.Elide(text, 80))
			return []diag.Diagnostic{d.WithFix("write the text as text, so that a reviewer reads what the model reads, or remove it")}
		}
	}
	return nil
}

// runs are the runs of base64's letters (either alphabet) in s, 24
// characters or more.
func runs(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && base64Letter(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 24 {
			out = append(out, s[start:i])
		}
		start = -1
	}
	return out
}

func base64Letter(c byte) bool { return base64Letters[c] }

// base64Letters are the bytes of base64's two alphabets and its padding.
var base64Letters = func() (t [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=") {
		t[c] = true
	}
	return t
}()

// decodeRun decodes a run as hex (an even run of hex digits) or base64,
// and returns the text it is, with how it was encoded, or "".
func decodeRun(run string) (string, string) {
	if len(run)%2 == 0 && strings.Trim(run, "0123456789abcdefABCDEF") == "" {
		b, err := hex.DecodeString(run)
		if err == nil && words3(b) {
			return string(b), "a hex run"
		}
		return "", ""
	}
	body := strings.TrimRight(run, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(body); err == nil && words3(b) {
			return string(b), "a base64 run"
		}
	}
	return "", ""
}

// words3 reports whether b is text of words: valid UTF-8, almost every
// character printable, three words or more, each with a letter.
func words3(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	s := string(b)
	printable, n := 0, 0
	for _, r := range s {
		n++
		if unicode.IsPrint(r) || r == '\n' || r == '\t' {
			printable++
		}
	}
	if printable*10 < n*9 {
		return false
	}
	w := 0
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, unicode.IsLetter) {
			w++
		}
	}
	return w >= 3
}
