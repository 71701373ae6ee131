package main

import (
	"fmt"
	"time"

	"github.com/toolc-dev/toolc/internal/buildcache"
	"github.com/toolc-dev/toolc/internal/diagfmt"
	"github.com/toolc-dev/toolc/internal/pipeline"
)

// cacheDir is where the build cache (internal/buildcache) is: "" with
// --no-cache, --out-dir or --target, whose builds it does not answer.
func cacheDir(f buildFlags) string {
	if f.noCache || f.outDir != "" || len(f.only) > 0 {
		return ""
	}
	return buildcache.Dir(f.cache)
}

// sayFindings prints a build's findings, digested, and what the baseline
// hid: e is the build, or the cache's record of it.
func sayFindings(e *buildcache.Entry, out *output) {
	out.digest(e.Diagnostics)
	sayBaseline(e.Hidden, e.Gone, out)
}

// sayBaseline says, last, what the baseline hid.
func sayBaseline(hidden, gone int, out *output) {
	if hidden == 0 && gone == 0 {
		return
	}
	msg := fmt.Sprintf("%s hid %s it knows (--no-baseline shows them)", pipeline.BaselineFile, diagfmt.Plural(hidden, "finding"))
	switch {
	case gone == 1:
		msg += "; 1 of its entries no longer occurs: toolc baseline rewrites it"
	case gone > 1:
		msg += fmt.Sprintf("; %d of its entries no longer occur: toolc baseline rewrites it", gone)
	}
	out.status("%s", msg)
}

// sayDone prints the deferral plans and the build's last line, format's
// words around its summary (the tools, files, targets, findings and
// time).
func sayDone(e *buildcache.Entry, out *output, start time.Time, format string) {
	for _, p := range e.Plans {
		out.status("%s", p)
	}
	out.status(format, summary(e, start))
}

// summary is a build's figures (buildcache.Entry.Summary).
func summary(e *buildcache.Entry, start time.Time) string { return e.Summary(time.Since(start)) }
