package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/pipeline"
	"github.com/toolc-dev/toolc/internal/typegen"
)

// TestWriteRefusedCodeIsItsDiagnostic: code go/format refuses is found
// as a typed target's file is written (the file is never held whole); the
// failed write (pipeline's *UnmadeError) is reported as the
// publish.code-invalid error naming the tool, then that nothing was
// written, and the exit is 1.
func TestWriteRefusedCodeIsItsDiagnostic(t *testing.T) {
	var stderr bytes.Buffer
	out, err := newOutput(&globalFlags{errorFormat: "text"}, &bytes.Buffer{}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	tool := &canonical.Tool{Name: "broken", Source: canonical.Source{File: "tools.json"}}
	ce := &typegen.CodeError{Tool: tool, Language: "Go", Err: errors.New("1:9: expected ';', found Input")}
	err = writeResult{err: &pipeline.UnmadeError{Diagnostics: []diag.Diagnostic{ce.Diagnostic()}}}.say(out)
	var exit *exitError
	if !errors.As(err, &exit) || exit.code != exitFailed {
		t.Fatalf("say = %v, want exit %d", err, exitFailed)
	}
	got := stderr.String()
	t.Log(got)
	for _, want := range []string{"publish.code-invalid", "tools.json", "the types of broken", "toolc: an output cannot be made: nothing was written"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
}
