package membound

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live    uint64
		targets int
		want    int64
	}{
		{364 * mb, 3, 1092 * mb}, // the shared bench's 100,000 tools: 2 × 364 × 1.5
		{364 * mb, 0, Floor},     // a catalog only: 728 MB, under the floor
		{600 * mb, 0, 1200 * mb},
		{600 * mb, 6, 2400 * mb},
		{100 * mb, 3, Floor}, // 20,000 tools: no limit a build needs
		{0, 3, Floor},
	} {
		if got := Limit(c.live, c.targets); got != c.want {
			t.Errorf("Limit(%d MB, %d) = %d MB, want %d MB", c.live/mb, c.targets, got/mb, c.want/mb)
		}
	}
}

// userless clears the user's GOGC and GOMEMLIMIT for the test: membound
// leaves either alone when set.
func userless(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
}

// withFloor lowers the floor for one test and puts the limit and the
// collector's percentage back after.
func withFloor(t *testing.T, f int64) {
	old := floor
	floor = f
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() {
		floor = old
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(percent)
	})
	debug.SetMemoryLimit(math.MaxInt64)
}

// gcPercent is the collector's percentage (GOGC), unchanged.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

var held [][]byte

func TestBoundSetsTwiceWhatTheBuildWillHold(t *testing.T) {
	userless(t) // one of the shell's would be left alone
	withFloor(t, 1<<20)
	for range 64 {
		held = append(held, make([]byte, 1<<20)) // 64 MB live
	}
	defer func() { held = nil }()
	Bound(3)
	got := debug.SetMemoryLimit(-1)
	// Twice 1.5 × what is live: at least the 64 MB held, and not much
	// more than the test binary's own.
	if got < 3*64<<20 || got > 3*96<<20 {
		t.Errorf("limit %d MB, want 3 × the heap's 64 to 96 MB", got>>20)
	}
	if p := gcPercent(); p != -1 {
		t.Errorf("GOGC %d under the limit, want off: the limit collects", p)
	}
}

func TestBoundLeavesGOGCAlone(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "100")
	withFloor(t, 1<<20)
	held = [][]byte{make([]byte, 16<<20)}
	defer func() { held = nil }()
	Bound(3)
	if got := debug.SetMemoryLimit(-1); got == math.MaxInt64 {
		t.Error("no limit with GOGC set, want one")
	}
	if p := gcPercent(); p != 100 {
		t.Errorf("GOGC %d with GOGC=100 set, want it left", p)
	}
}

func TestBoundLeavesGOMEMLIMITAlone(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "10GiB")
	withFloor(t, 1<<20)
	held = [][]byte{make([]byte, 16<<20)}
	defer func() { held = nil }()
	Bound(3)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d MB with GOMEMLIMIT set, want none", got>>20)
	}
}

func TestBoundSetsNothingUnderTheFloor(t *testing.T) {
	userless(t)
	withFloor(t, Floor)
	Bound(3)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d MB for a test's heap, want none under %d MB", got>>20, Floor>>20)
	}
	if p := gcPercent(); p != 100 {
		t.Errorf("GOGC %d without a limit, want 100", p)
	}
}

func TestHoldLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		held, live uint64
		old        int64
		want       int64 // 0: none
	}{
		{300 * mb, 161 * mb, math.MaxInt64, 300 * mb}, // a 20,000-tool report after its build
		{300 * mb, 200 * mb, math.MaxInt64, 300 * mb}, // a third left to collect in
		{300 * mb, 201 * mb, math.MaxInt64, 0},        // less: the collector would run back to back
		{1100 * mb, 560 * mb, 1092 * mb, 0},           // under Bound's lower limit: that one stays
		{10 * mb, 2 * mb, math.MaxInt64, 0},           // the example catalog: too small to hold
		{0, 0, math.MaxInt64, 0},
	} {
		got, ok := holdLimit(c.held, c.live, c.old)
		if ok != (c.want != 0) || got != c.want {
			t.Errorf("holdLimit(%d MB, %d MB, %d) = %d MB, %v; want %d MB", c.held/mb, c.live/mb, c.old, got/mb, ok, c.want/mb)
		}
	}
}

func TestHoldSetsWhatTheProgramHolds(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	withFloor(t, Floor)
	runtime.GC()                                     // what is live: the test binary's few MB
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // and no collection until Hold has read
	held = [][]byte{make([]byte, 96<<20)}
	held = nil // taken, and now garbage: what a build leaves its report
	old := debug.SetMemoryLimit(-1)
	release := Hold()
	got := debug.SetMemoryLimit(-1)
	if got == math.MaxInt64 || got < 96<<20 {
		t.Errorf("limit %d MB after 96 MB were taken and let go, want at least that", got>>20)
	}
	release()
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("limit %d MB after release, want the one before Hold, %d MB", got>>20, old>>20)
	}
}

func TestHoldLeavesGOMEMLIMITAlone(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "10GiB")
	withFloor(t, Floor)
	defer Hold()()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d MB with GOMEMLIMIT set, want none", got>>20)
	}
}

func TestReadingWaitsUntilRead(t *testing.T) {
	userless(t)
	withFloor(t, Floor)
	const size = 512 << 20 // a catalog of 512 MB: its limit is above Floor
	read := Reading(size)
	if p := gcPercent(); p != -1 {
		t.Errorf("GOGC %d while reading, want off: the collector waits", p)
	}
	if got := debug.SetMemoryLimit(-1); got != perByte*size {
		t.Errorf("limit %d MB while reading 512 MB, want %d MB", got>>20, perByte*size>>20)
	}
	read(-1)
	read(-1) // once only: a second call puts back nothing more
	if p := gcPercent(); p != 100 {
		t.Errorf("GOGC %d once read, want 100 back", p)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d MB once read, want none back", got>>20)
	}
	Reading(1 << 20)(-1)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d MB once a small catalog is read, want none back", got>>20)
	}
}

// TestReadingBuildsShareTheWait: builds that read at once in one
// process (the CLI's tests do) leave the collector waiting until the last
// one is read, and then put back what there was before the first.
func TestReadingBuildsShareTheWait(t *testing.T) {
	userless(t)
	withFloor(t, Floor)
	first := Reading(1 << 20)
	second := Reading(512 << 20)
	if got := debug.SetMemoryLimit(-1); got != perByte*512<<20 {
		t.Errorf("limit %d MB while two read, want the larger's %d MB", got>>20, perByte*512)
	}
	second(0) // a small heap: no limit of its own
	if p := gcPercent(); p != -1 {
		t.Errorf("GOGC %d while one build still reads, want off", p)
	}
	first(-1)
	if p, got := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || got != math.MaxInt64 {
		t.Errorf("GOGC %d, limit %d MB once both are read, want 100 and none", p, got>>20)
	}
}

func TestReadingBoundsTheBuildOnceRead(t *testing.T) {
	userless(t)
	withFloor(t, 1<<20)
	read := Reading(16 << 20)
	for range 64 {
		held = append(held, make([]byte, 1<<20)) // 64 MB read and kept
	}
	defer func() { held = nil }()
	read(3)
	if got := debug.SetMemoryLimit(-1); got < 3*64<<20 || got > 3*96<<20 {
		t.Errorf("limit %d MB once read, want Bound's: 3 × the heap's 64 to 96 MB", got>>20)
	}
	if p := gcPercent(); p != -1 {
		t.Errorf("GOGC %d under the build's limit, want off", p)
	}
}

func TestReadingLeavesTheUsersSettingsAlone(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			userless(t)
			t.Setenv(env, map[string]string{"GOGC": "100", "GOMEMLIMIT": "10GiB"}[env])
			withFloor(t, Floor)
			read := Reading(512 << 20)
			if p, got := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || got != math.MaxInt64 {
				t.Errorf("GOGC %d, limit %d MB while reading with %s set, want them as they were", p, got>>20, env)
			}
			read(-1)
		})
	}
}
