// Package membound bounds the heap of a large build once its sources are
// read, so that its peak follows what the build holds, not the timing of
// the collector.
//
// With the collector's default (GOGC=100) a heap grows to twice what the
// last collection marked before the next one. While targets are built a
// collection marks for about a second on two cores, and counts as live
// everything allocated meanwhile; a 100,000-tool build holds 364 MB once
// read and 556 MB once its three targets are built, yet its heap reached
// 1.3 GB when a collection fell mid-way, and 1.1 GB when none did. After
// reading, the build knows what it holds: Bound collects once, measures
// it, and sets a soft memory limit of twice what the build will hold once
// its targets are built (each target keeps about a sixth of what reading
// left: its bundle, names and diagnostics), never below Floor, where no
// build needs it, and leaves the collecting to the limit alone. The
// runtime keeps the heap under the limit by collecting as it nears it,
// and never spends more than half the CPU doing so.
//
// Before that, while the sources are read, the collector waits
// (Reading): reading keeps most of what it makes, and each collection
// its heap's growth would start frees little of it.
//
// Hold is for a program's part that holds no more than the part before it
// did (a report's page, written after its build; a build's outputs,
// written after it): it keeps the heap within the memory the program has
// taken so far.
//
// GOMEMLIMIT, when set, is the user's choice: Reading, Bound and Hold
// leave it alone, as Reading and Bound leave GOGC. The limit is the
// process's: membound is for a program (the CLI), not for a library that
// builds inside someone else's, which pipeline.Options.Memory leaves
// unset.
package membound

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Floor is the least limit Bound sets: below it, a build's memory limits
// no machine it runs on, and a limit would only cost time (at 20,000
// tools, where the heap peaks near 300 MB, one set at its estimate made
// the build a tenth slower).
const Floor = 1 << 30

// floor is Floor, lowered by tests that bound a small heap.
var floor int64 = Floor

// perTarget is how much of what reading left each target adds to the
// build's live heap: a sixth (0.176 measured on ../shared/bench's
// 100,000 real MCP tools and three targets: 364 MB read, 556 MB built).
const perTarget = 6

// Limit is the soft memory limit for a build that holds live bytes once
// read and builds targets: twice what it will hold, at least Floor.
func Limit(live uint64, targets int) int64 {
	held := live + live*uint64(max(targets, 0))/perTarget
	return max(int64(2*held), floor)
}

// Bound sets the soft memory limit for the rest of a build of targets
// whose sources are read (Reading's end), unless GOMEMLIMIT is set or the
// heap is too small for any limit above Floor. It reports whether it set
// one.
func Bound(targets int) bool {
	if os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	// What the heap's objects take now, garbage included, is at least
	// what is live: when even that makes no limit above Floor, the
	// collection that measures it is not worth its time.
	if Limit(read("/memory/classes/heap/objects:bytes"), targets) == floor {
		return false
	}
	runtime.GC()
	limit := Limit(read("/gc/heap/live:bytes"), targets)
	if limit == floor {
		return false
	}
	debug.SetMemoryLimit(limit)
	// Under the limit the collector's own trigger, twice what it last
	// marked, only adds collections on the way to it: at 100,000
	// tools the first, at 620 MB, marked 631 MB and freed nothing
	// (what the targets make is kept), and one more ran between it
	// and the limit. The limit alone runs one collection fewer, for
	// 0.5 s less of the collector's CPU (GOGC, when set, is the
	// user's).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
	}
	return true
}

// perByte is how much heap reading a byte of sources makes at most before
// the collector runs while they are read (../shared/bench's 100,000 real
// MCP tools: 150 MB of files made 714 MB, 364 MB of it kept).
const perByte = 4

// Reading is for a build about to read size bytes of sources
// (pipeline.Options.Memory): the collector waits until they are read.
// Reading keeps most of what it makes (the parsed documents and their
// tools), so the collections that its heap's growth would start (each at
// twice what the last one marked: a dozen at 100,000 tools, marking 1.1
// GB in all) free little, and the build's limit, set once they are read,
// is above what reading makes. Only past a limit of perByte times size,
// at least Floor, does the collector run while reading.
//
// The returned function ends the reading, once: called with the number of
// targets the build builds, it bounds them (Bound); with -1, when the
// build stopped, it only puts back the collector's settings. Builds that
// read at once in one process (tests) share the wait, and the last one to
// end it puts them back. GOGC and GOMEMLIMIT, when set, are the user's:
// the collector does not wait.
func Reading(size int64) (read func(targets int)) {
	end := endReading
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		end = func(targets int) {
			if targets >= 0 {
				Bound(targets)
			}
		}
	} else {
		wait(max(floor, perByte*size))
	}
	var once sync.Once
	return func(targets int) { once.Do(func() { end(targets) }) }
}

// wait has the collector wait, under limit, until every build that waits
// has ended its reading.
func wait(limit int64) {
	waiting.Lock()
	defer waiting.Unlock()
	if waiting.builds == 0 {
		waiting.percent = debug.SetGCPercent(-1)
		waiting.limit = debug.SetMemoryLimit(limit)
	} else if limit > debug.SetMemoryLimit(-1) { // the larger of their limits
		debug.SetMemoryLimit(limit)
	}
	waiting.builds++
}

// waiting is the state of the builds Reading has the collector wait for.
var waiting struct {
	sync.Mutex
	builds  int   // reading now
	percent int   // GOGC before the first of them
	limit   int64 // the memory limit before the first of them
}

// endReading ends one build's reading, and bounds its targets when it
// goes on. While the collector still waits, Bound measures the heap
// before the collector's settings are put back: put back first, GOGC's
// trigger, far below a heap that grew unhindered, would start a
// collection that Bound's own must wait for, marking the heap twice.
func endReading(targets int) {
	waiting.Lock()
	defer waiting.Unlock()
	waiting.builds--
	if waiting.builds > 0 {
		return // another build reads: the last one bounds
	}
	if targets >= 0 && Bound(targets) {
		return // the build's limit replaces the wait
	}
	debug.SetGCPercent(waiting.percent)
	debug.SetMemoryLimit(waiting.limit)
}

// read returns the runtime metric name, a count of bytes.
func read(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Hold bounds the heap at the memory the runtime holds now (what a
// memory limit counts: all it has mapped, less what it gave back), until
// release. A report's build ends holding about what a build does, and its
// page needs little more; but the collector lets the heap grow to twice
// what its last collection marked, at the build's largest, and the page
// allocates enough to get there: at 20,000 tools the report peaked a
// quarter over its build. Hold leaves GOMEMLIMIT and a lower limit alone,
// and sets none that would leave the collector less than a third of it
// to work in, nor one under holdFloor. release puts back the limit there was: a command run again
// in the same process (the CLI's tests run it so) starts from it, not
// from what an earlier, smaller run held.
func Hold() (release func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	held := read("/memory/classes/total:bytes") - read("/memory/classes/heap/released:bytes")
	old := debug.SetMemoryLimit(-1)
	limit, ok := holdLimit(held, read("/gc/heap/live:bytes"), old)
	if !ok {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// holdFloor is the least memory Hold holds a program to. Under it, the
// runtime's own memory (its stacks and tables: about 6 MB of the 12 MB
// the example catalog's build held as its write began, 2.3 MB of it
// live) leaves the heap so little room that the collector runs back to
// back: that build's write ran 35 collections, a third of its CPU, and
// the build took 0.052 s instead of 0.036.
const holdFloor = 64 << 20

// holdLimit is the limit Hold sets when the runtime holds held bytes,
// the last collection marked live and the limit is old; false for none.
func holdLimit(held, live uint64, old int64) (int64, bool) {
	if held < holdFloor || 3*live > 2*held || int64(held) >= old {
		return 0, false
	}
	return int64(held), true
}
