package capture

import (
	"fmt"
	"strings"

	"github.com/toolc-dev/toolc/internal/breaking"
	"github.com/toolc-dev/toolc/internal/diagfmt"
)

// Captured says what capture pinned, a line per server; path names a
// file as the user sees it.
func (r *Result) Captured(path func(string) string) []string {
	var lines []string
	for i, s := range r.Sources {
		l := r.Listings[i]
		name := "the server"
		if l.Server != nil && l.Server.Name != "" {
			name = l.Server.Name
			if l.Server.Version != "" {
				name += " " + l.Server.Version
			}
		}
		lines = append(lines, fmt.Sprintf("captured %s: %s from %s in %s; toolc build pins it", path(s.File), diagfmt.Plural(len(l.Tools), "tool"), name, diagfmt.Plural(l.Pages, "page")))
	}
	return lines
}

// Verdict is verify's last word: which servers drifted, with the release
// the catalog's drift calls for; failed when the policy fails it or a
// server could not be read.
func (r *Result) Verdict() (line string, failed bool) {
	var drifted, unread []string
	bump := breaking.None
	for i, s := range r.Sources {
		switch {
		case r.Listings[i] == nil:
			unread = append(unread, s.Name)
		case r.Bumps[i] > breaking.None:
			drifted = append(drifted, fmt.Sprintf("%s (%s)", s.Name, r.Bumps[i]))
			bump = max(bump, r.Bumps[i])
		}
	}
	notRead := ""
	if len(unread) > 0 { // the others' drift is reported all the same
		notRead = "; not read: " + strings.Join(unread, ", ")
	}
	switch {
	case r.Failed && len(drifted) > 0:
		return fmt.Sprintf("drift: %s; the catalog's release would be %s (toolc capture pins what is live)%s", strings.Join(drifted, ", "), bump, notRead), true
	case r.Failed:
		return fmt.Sprintf("verify failed (%s)%s", r.Servers(), notRead), true
	case len(drifted) > 0:
		return "drift the policy allows: " + strings.Join(drifted, ", "), false
	}
	return "no drift: " + r.Servers() + " as pinned", false
}
