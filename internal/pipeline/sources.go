package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolc-dev/toolc/diag"
	"github.com/toolc-dev/toolc/internal/manifest"
	"github.com/toolc-dev/toolc/internal/suggest"
)

// expandSources matches every source's globs, removes its excludes, and
// checks that no file belongs to two sources, that no output is a source,
// and that no path leaves the manifest's folder through a symlink.
func (b *build) expandSources() error {
	e := &expansion{b: b, owner: map[string]int{}, linked: map[string]string{}}
	e.rl, e.links = b.fsys.(fs.ReadLinkFS)
	for i, src := range b.m.Sources {
		key := fmt.Sprintf("sources[%d].include", i)
		var matched []string
		for _, pattern := range src.Include {
			matched = append(matched, e.glob(key, pattern, src)...)
		}
		for _, f := range matched {
			e.add(i, key, f, src)
		}
	}
	slices.SortFunc(b.inputs, func(x, y input) int { return strings.Compare(x.path, y.path) })
	for _, in := range b.inputs {
		if p := b.m.Sources[in.source].Policy; p != nil {
			if b.sourcePolicy == nil {
				b.sourcePolicy = map[string]*diag.Policy{}
			}
			b.sourcePolicy[in.path] = p
		}
	}
	e.sayAgain()
	e.checkOutputs()
	if len(e.errs) > 0 {
		return b.configError(e.errs...)
	}
	return nil
}

// expansion is the state of expandSources.
type expansion struct {
	b      *build
	rl     fs.ReadLinkFS
	links  bool // whether the file system can say where links lead
	owner  map[string]int
	linked map[string]string // a matched file's path with its links followed → the path read
	// The paths matched again through each symbolic link: a link to a
	// folder above it, under **, names every file below once a level.
	againVia map[string]*matchedAgain
	errs     []diag.Diagnostic
}

// fail adds a configuration error at key of the manifest.
func (e *expansion) fail(code, key string, format string, args ...any) {
	line, col := e.b.m.Pos(key)
	e.errs = append(e.errs, diag.Diagnostic{Code: code, Severity: diag.Error, File: e.b.manifestFile, Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
}

// warn adds a finding at key of the manifest that does not stop the build.
func (e *expansion) warn(d diag.Diagnostic, key string) {
	d.File = e.b.manifestFile
	d.Line, d.Column = e.b.m.Pos(key)
	e.b.diags = append(e.b.diags, d)
}

// glob returns the files pattern matches, reporting one that matches none.
func (e *expansion) glob(key, pattern string, src manifest.Source) []string {
	b := e.b
	// Matches are not stat'ed by the glob: a symlink that leaves the folder
	// must be reported as such, not as an I/O error.
	files, err := doublestar.Glob(b.fsys, collapseStars(pattern))
	if err != nil {
		e.fail("manifest.invalid", key, "%s: %q: %v", key, pattern, unwrapPath(err))
		return nil
	}
	var matched []string
	for _, f := range files {
		if e.links {
			if err := checkLinks(e.rl, f); err != nil {
				e.fail("manifest.path-escape", key, "%s: %v", f, err)
				continue
			}
		}
		if info, err := fs.Stat(b.fsys, f); err == nil && info.IsDir() {
			continue
		}
		matched = append(matched, f)
	}
	if len(matched) == 0 && !src.Optional {
		d := diag.New("source.no-match", "%s: %q matches no file; a typo would ship empty bundles, so this fails the build (optional = true on the source lets it match nothing)", key, pattern)
		if src.Capture != nil {
			d = diag.New("source.no-match", "%s: %q has not been captured yet", key, pattern).WithFix("run toolc capture, which writes it from the source's live server")
		}
		if near := nearPattern(b.fsys, pattern); near != "" {
			d.Message += fmt.Sprintf("; did you mean %q?", near)
		}
		e.warn(d, key)
	}
	return matched
}

// add makes f an input of source i, unless it is excluded, the manifest
// or the lock, already read through a link, or another source's.
func (e *expansion) add(i int, key, f string, src manifest.Source) {
	if excluded(f, src.Exclude) || f == e.b.manifestFile || f == manifest.LockFile {
		return
	}
	if e.links {
		// A symbolic link to a folder above (a loop under **) or beside it
		// names a file again: it is read once, under the first path that
		// names it.
		if r, err := resolveLinks(e.rl, f); err == nil && r != "" {
			if first, ok := e.linked[r]; ok && first != f {
				e.again(key, f, first, r)
				return
			}
			e.linked[r] = f
		}
	}
	if j, ok := e.owner[f]; ok {
		if j != i {
			e.fail("manifest.invalid", key, "%s is matched by sources[%d] and sources[%d]; exclude it from one of them", f, j, i)
		}
		return
	}
	e.owner[f] = i
	e.b.inputs = append(e.b.inputs, input{path: f, source: i})
}

// matchedAgain is what a symbolic link made a glob match again: how many
// paths, and the first of them, the path it is read as and the file.
type matchedAgain struct {
	key         string // the first source's include it was matched by
	n           int
	f, first, r string
}

// again notes that f, matched by key, is the file r, read as first.
func (e *expansion) again(key, f, first, r string) {
	link := firstLink(e.rl, f)
	if a := e.againVia[link]; a != nil {
		a.n++
		return
	}
	if e.againVia == nil {
		e.againVia = map[string]*matchedAgain{}
	}
	e.againVia[link] = &matchedAgain{key: key, n: 1, f: f, first: first, r: r}
}

// sayAgain warns once of each symbolic link through which files were
// matched again: a loop under ** names a file once for every level the
// glob goes down, and was as many warnings.
func (e *expansion) sayAgain() {
	for _, link := range slices.Sorted(maps.Keys(e.againVia)) {
		a := e.againVia[link]
		if a.n == 1 {
			e.warn(diag.New("source.link-duplicate", "%s and %s are one file, %s, through a symbolic link; it is read once, as %s", a.f, a.first, a.r, a.first), a.key)
			continue
		}
		to, _ := resolveLinks(e.rl, link)
		loop := ""
		if to == "." || strings.HasPrefix(link, to+"/") {
			loop = ", a folder that holds it, so that ** goes round it"
		}
		e.warn(diag.New("source.link-duplicate", "%s is a symbolic link to %s%s: %d paths through it name files matched before (%s is %s, …); each file is read once, under its first path", link, to, loop, a.n, a.f, a.first), a.key)
	}
}

// firstLink is the first part of name that is a symbolic link, or name.
func firstLink(fsys fs.ReadLinkFS, name string) string {
	for i := range len(name) {
		if name[i] != '/' {
			continue
		}
		if info, err := fsys.Lstat(name[:i]); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return name[:i]
		}
	}
	return name
}

// resolve is name with its symbolic links followed, where that can be told.
func (e *expansion) resolve(name string) string {
	if e.links {
		if r, err := resolveLinks(e.rl, name); err == nil {
			return r
		}
	}
	return name
}

// checkOutputs refuses a target whose file is something a build reads or
// keeps, by the path symlinks lead to: writing it would overwrite an
// input, or the repository.
func (e *expansion) checkOutputs() {
	b := e.b
	inputs := map[string]string{} // resolved path → what it is
	for _, in := range b.inputs {
		if r := e.resolve(in.path); r != in.path {
			inputs[r] = "the source file " + in.path + ", a symbolic link to it"
		} else {
			inputs[r] = "the source file " + in.path
		}
	}
	inputs[e.resolve(b.manifestFile)] = "the manifest"
	inputs[e.resolve(BaselineFile)] = "the baseline"
	if b.opts.Baseline != "" {
		inputs[e.resolve(b.opts.Baseline)] = "the baseline"
	}
	inputs[e.resolve(manifest.LockFile)] = "the lock, which the build writes itself"
	for i, t := range b.m.Targets {
		key := fmt.Sprintf("targets[%d].out", i)
		r := e.resolve(t.Out)
		if j, ok := e.owner[t.Out]; ok {
			e.fail("manifest.invalid", key, "%s: %s is also a source file (matched by sources[%d]); exclude the output folder from the source", key, t.Out, j)
		} else if what, ok := inputs[r]; ok {
			via := ""
			if r != t.Out {
				via = " (through a symbolic link, " + r + ")"
			}
			e.fail("manifest.invalid", key, "%s: %s is %s%s; a build would overwrite it: write the bundle elsewhere", key, t.Out, what, via)
		}
		info, err := fs.Stat(b.fsys, t.Out)
		switch folder := b.folder(t.Format); {
		case folder && err == nil && !info.IsDir():
			e.fail("manifest.invalid", key, "%s: %s is a file; a %s target writes a folder there", key, t.Out, t.Format)
		case folder:
			for _, in := range b.inputs {
				if strings.HasPrefix(in.path, t.Out+"/") {
					e.fail("manifest.invalid", key, "%s: the folder %s holds the source file %s; a build would write over it: write the folder elsewhere", key, t.Out, in.path)
					break
				}
			}
		case err == nil && info.IsDir():
			e.fail("manifest.invalid", key, "%s: %s is a folder; out names the bundle's file (%s/%s.json, say)", key, t.Out, t.Out, t.Name)
		}
		if r == ".git" || strings.HasPrefix(r, ".git/") {
			e.fail("manifest.invalid", key, "%s: %s is inside .git, which belongs to git: write the bundle elsewhere", key, t.Out)
		}
		if e.links {
			if err := checkLinks(e.rl, t.Out); err != nil {
				e.fail("manifest.path-escape", key, "%s: %s: %v", key, t.Out, err)
			}
		}
	}
}

// nearPattern returns pattern with its first folder that is not there
// replaced by the nearest one that is, when the pattern then matches a file
// ("tool/*.json" for tools/); else "".
func nearPattern(fsys fs.FS, pattern string) string {
	parts := strings.Split(pattern, "/")
	dir := "."
	for i, p := range parts {
		if strings.ContainsAny(p, "*?[{\\") {
			return ""
		}
		next := path.Join(dir, p)
		if _, err := fs.Stat(fsys, next); err == nil {
			dir = next
			continue
		}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil || i == len(parts)-1 {
			// A file name one letter off is most likely another file.
			return ""
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		c := suggest.Closest(p, names)
		if c == "" {
			return ""
		}
		parts[i] = c
		cand := strings.Join(parts, "/")
		if files, err := doublestar.Glob(fsys, collapseStars(cand)); err == nil && len(files) > 0 {
			return cand
		}
		return ""
	}
	return ""
}

// collapseStars writes consecutive ** segments of a glob as one, which
// matches the same paths: each more ** multiplied the glob's work.
func collapseStars(pattern string) string {
	if !strings.Contains(pattern, "**/**") {
		return pattern
	}
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, seg)
	}
	return strings.Join(out, "/")
}

func excluded(file string, patterns []string) bool {
	for _, p := range patterns {
		p = collapseStars(p)
		if ok, _ := doublestar.Match(p, file); ok {
			return true
		}
		// An excluded folder excludes everything below it.
		if ok, _ := doublestar.Match(strings.TrimSuffix(p, "/")+"/**", file); ok {
			return true
		}
	}
	return false
}

// checkLinks follows every symlink on the way to name and fails when one
// leads outside the root of fsys.
func checkLinks(fsys fs.ReadLinkFS, name string) error {
	_, err := resolveLinks(fsys, name)
	return err
}

// errLeaves is what resolveLinks wraps when a link leads outside the
// manifest's folder.
var errLeaves = errors.New("outside the manifest's folder")

// resolveLinks follows every symlink on the way to name and returns the
// path it leads to, inside the root of fsys; it fails when one leads
// outside. A missing part ends the walk: the rest is taken as written.
func resolveLinks(fsys fs.ReadLinkFS, name string) (string, error) {
	parts := strings.Split(path.Clean(name), "/")
	resolved := ""
	for hops := 0; len(parts) > 0; {
		next := path.Join(resolved, parts[0])
		parts = parts[1:]
		info, err := fsys.Lstat(next)
		if err != nil {
			return path.Join(append([]string{next}, parts...)...), nil // a missing output path is fine; reading reports the rest
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > 40 {
			return "", fmt.Errorf("too many levels of symbolic links")
		}
		target, err := fsys.ReadLink(next)
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) || strings.HasPrefix(target, "/") {
			return "", fmt.Errorf("symlink %s points to an absolute path, %w", next, errLeaves)
		}
		joined := path.Join(path.Dir(next), target)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return "", fmt.Errorf("symlink %s leads %w", next, errLeaves)
		}
		parts = append(strings.Split(joined, "/"), parts...)
		resolved = ""
	}
	return resolved, nil
}
