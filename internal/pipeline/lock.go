package pipeline

import (
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/toolc-dev/toolc/canonical"
	"github.com/toolc-dev/toolc/internal/lock"
	"github.com/toolc-dev/toolc/internal/par"
)

func (b *build) lock(outputs []Output, tools lock.Tools) [][]byte {
	l := lock.Lock{Version: lock.Version, Toolc: b.opts.Version, Manifest: b.manifestHash, Baseline: b.baselineHash}
	if c := b.m.Catalog; c.Name != "" || c.Version != "" {
		l.Catalog = &lock.Catalog{Name: c.Name, Version: c.Version}
	}
	refs := map[string]string{}
	for i, in := range b.inputs {
		l.Sources = append(l.Sources, lock.Source{Path: in.path, Format: b.files[i].format, Hash: b.files[i].hash, Transforms: slices.Sorted(maps.Keys(b.files[i].transformed))})
		for _, ref := range b.files[i].refs {
			refs[ref.path] = ref.hash
		}
	}
	maps.Copy(refs, b.targetFiles) // read by targets: a package's file, say
	for _, p := range slices.Sorted(maps.Keys(refs)) {
		l.References = append(l.References, lock.Reference{Path: p, Hash: refs[p]})
	}
	l.Removed = b.tombstones()
	format := map[string]string{}
	for _, t := range b.m.Targets {
		format[t.Name] = t.Format
	}
	for _, o := range outputs {
		hash, _ := o.digest() // known when the bundle was written
		l.Outputs = append(l.Outputs, lock.Output{Target: o.Target, Format: format[o.Target], Path: o.Path, Hash: hash})
	}
	slices.SortFunc(l.Sources, func(x, y lock.Source) int { return strings.Compare(x.Path, y.Path) })
	slices.SortFunc(l.Outputs, func(x, y lock.Output) int { return strings.Compare(x.Path, y.Path) })
	return lock.PartsWith(&l, tools)
}

// lockTools is the lock's [[tools]] section, encoded.
func (b *build) lockTools() lock.Tools {
	// Each tool's entry from the targets' maps, in parallel: five lookups
	// and a map of names for each tool and target were a serial tenth of a
	// second at the end of a 100,000-tool build.
	tools := make([]lock.Tool, len(b.tools))
	par.For(len(b.tools), 256, func(j int) { tools[j] = b.lockTool(b.tools[j]) })
	return lock.EncodeTools(tools)
}

// addRenamed records a target's renamed keys (pointer → old key) in m.
func addRenamed(m map[string]map[string]string, target string, ren map[canonical.Pointer]string) map[string]map[string]string {
	if len(ren) == 0 {
		return m
	}
	if m == nil {
		m = map[string]map[string]string{}
	}
	keys := map[string]string{}
	for p, old := range ren {
		keys[string(p)] = old
	}
	m[target] = keys
	return m
}

// lockTool is t's entry in the lock: its hash, and per target its emitted
// name and what lowering changed that a call is turned back by.
func (b *build) lockTool(t *canonical.Tool) lock.Tool {
	id := t.ID()
	lt := lock.Tool{ID: id, Source: t.Source.File, Hash: b.toolHash[t], Names: make(map[string]string, len(b.m.Targets))}
	for i, tgt := range b.m.Targets {
		name, ok := b.targets[i].names[id]
		if !ok {
			continue // not in this target's selection
		}
		lt.Names[tgt.Name] = name
		if opt := b.targets[i].optional[id]; len(opt) > 0 {
			if lt.Optional == nil {
				lt.Optional = map[string][]string{}
			}
			for _, p := range opt {
				lt.Optional[tgt.Name] = append(lt.Optional[tgt.Name], string(p))
			}
		}
		lt.Renamed = addRenamed(lt.Renamed, tgt.Name, b.targets[i].renamed[id])
		lt.RenamedOutput = addRenamed(lt.RenamedOutput, tgt.Name, b.targets[i].renamedO[id])
		if alias, ok := b.targets[i].aliases[id]; ok {
			if lt.Aliases == nil {
				lt.Aliases = map[string]string{}
			}
			lt.Aliases[tgt.Name] = alias
		}
		if b.targets[i].deferred[id] {
			lt.Deferred = append(lt.Deferred, tgt.Name)
		}
		if group, ok := b.targets[i].groups[id]; ok {
			if lt.Namespaces == nil {
				lt.Namespaces = map[string]string{}
			}
			lt.Namespaces[tgt.Name] = group
		}
	}
	slices.Sort(lt.Deferred) // as every list of the lock
	return lt
}

// tombstones are the lock's records of the manifest's removed tools: the
// name each had in each target, and the name of the tool to use instead.
func (b *build) tombstones() []lock.Removed {
	var out []lock.Removed
	for _, ts := range b.m.Removed {
		r := lock.Removed{ID: ts.ID, In: ts.In, Use: ts.Use, Names: map[string]string{}}
		for i, t := range b.m.Targets {
			a, ok := b.writers.Get(t.Format)
			if !ok {
				continue
			}
			r.Names[t.Name] = a.Profile.NameOf(ts.ID, b.targetOptions(t))
			if name, ok := b.targets[i].names[ts.Use]; ok {
				if r.UseNames == nil {
					r.UseNames = map[string]string{}
				}
				r.UseNames[t.Name] = name
			}
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(x, y lock.Removed) int { return strings.Compare(x.ID, y.ID) })
	return out
}

// LockedSources returns the hash toolc.lock recorded of each source file;
// none without a lock. Only the lock's head is read.
func LockedSources(fsys fs.FS) map[string]string {
	l, _, err := readLockHead(fsys)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, s := range l.Sources {
		out[s.Path] = s.Hash
	}
	return out
}
