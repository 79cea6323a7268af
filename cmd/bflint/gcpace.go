package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// How bflint paces Go's collector. A run keeps little alive (each SQL
// file's parse is dropped after its rules) but allocates a great deal, so
// the default GOGC=100 collects every few megabytes. GOGC=200 is the
// middle ground measured on 1,000 generated SQL files, interleaved runs:
// 7% slower than GOGC=400 at the median for 30% less memory (71 against
// 102 MiB), and Go's default was 13% slower again at 54 MiB.
const gcPercent = 200

// heapFloor is the heap a run may grow to before a collection, however
// little of it is alive. With GOGC=200 alone a run that keeps 10 MiB alive
// collects every 20 MiB it allocates, and a run over a few hundred SQL
// files allocates hundreds of MiB, its parse trees dying file after file.
// On 1,000 generated files (interleaved runs) a floor of 32 to 48 MiB
// took 4-6% off the CPU time for 4-11 MiB more memory, and 64 MiB was
// slower again (the pages a larger heap touches cost more than the
// collections saved). Raising GOGC itself to 300 did as much for the small
// run but cost a repository that keeps 30 MiB alive 25 MiB for nothing;
// the floor leaves such runs as GOGC has them.
const heapFloor = 40 << 20

// softMemoryLimit is the heap size past which the collector works harder.
// GOGC=200 lets the heap grow to three times what is alive; past the limit
// the collector runs as often as it needs to stay there instead, so a run
// over a hostile file (60 MB of SQL, of which bflint keeps the first
// 4 MiB) peaks near 340 MB, not 575. Real repositories stay below it and
// are not slowed: the largest measured, spellbook (7,900 dbt models, 35 to
// 50 MiB alive), peaks at 250-280 MiB. A lower limit trades time for that
// memory (4 interleaved runs, against 3.00 s): 200 MiB gave 216 MiB in
// 3.08 s, 160 MiB 178 MiB in 3.15 s, 130 MiB 149 MiB in 3.29 s; a user
// who needs it sets GOMEMLIMIT.
const softMemoryLimit = 320 << 20

// paceCollector sets GOGC to gcPercent, raised after each collection while
// what is alive is small enough that it would collect before the heap
// reached heapFloor (floor), and the soft memory limit (limit). Either is
// left to the environment when it sets GOGC or GOMEMLIMIT.
func paceCollector(floor, limit bool) {
	if limit {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	if !floor {
		return
	}
	percent := gcPercent
	debug.SetGCPercent(percent)
	heap := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	var arm func()
	arm = func() {
		// The finalizer runs after the first collection that finds the
		// object unreachable, which is the next one.
		runtime.SetFinalizer(&gcCycle{}, func(*gcCycle) {
			metrics.Read(heap)
			if want := floorPercent(heap[0].Value.Uint64(), heap[1].Value.Uint64(), percent); want != percent {
				debug.SetGCPercent(want)
				percent = want
			}
			arm()
		})
	}
	arm()
}

// floorPercent is the GOGC that sets the next heap goal to heapFloor, or
// gcPercent when that is higher. The runtime's goal is live + (live +
// roots) * GOGC/100, the roots being the stacks and globals; the goal the
// current GOGC gave says what they weigh.
func floorPercent(live, goal uint64, current int) int {
	if goal <= live || current <= 0 {
		return gcPercent
	}
	scanned := float64(goal-live) / float64(current) // (live + roots) / 100
	want := int(float64(heapFloor-min(live, heapFloor)) / scanned)
	return max(want, gcPercent)
}

// gcCycle marks a collection. It holds a pointer so that it is not one of
// the tiny objects the runtime batches, whose finalizers may never run.
type gcCycle struct{ _ *byte }
