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

// softMemoryLimit is the heap size past which the collector works harder
// while little is alive. GOGC=200 lets the heap grow to three times what
// is alive; past the limit the collector runs as often as it needs to stay
// there instead. With the binary's own pages (some 16 MiB) and glibc's
// heap, a run peaks about 20 MiB above it: spellbook (7,900 dbt models,
// 35 to 75 MiB alive) at 145-147 MiB instead of 218-233 with the 320 MiB
// this limit was before, for 7% more time (11 interleaved runs: 3.16 s
// against 2.96 s); the other development repositories never reach it. A
// user who has the memory and wants the time sets GOMEMLIMIT.
const softMemoryLimit = 125 << 20

// liveHeadroom is how far above what is alive the limit stays: a run that
// keeps more alive than a repository of 7,900 models, or a hostile file,
// gets a limit of liveHeadroom times its live heap, so that the collector
// runs about as often as GOGC=70 would have it, never without pause.
const liveHeadroom = 1.7

// paceCollector sets GOGC to gcPercent, raised after each collection while
// what is alive is small enough that it would collect before the heap
// reached heapFloor (floor), and the soft memory limit, raised after each
// collection to liveHeadroom times what is alive when that is more
// (limit). Either is left to the environment when it sets GOGC or
// GOMEMLIMIT.
func paceCollector(floor, limit bool) {
	if limit {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	if !floor && !limit {
		return
	}
	percent, memoryLimit := gcPercent, int64(softMemoryLimit)
	if floor {
		debug.SetGCPercent(percent)
	}
	heap := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	var arm func()
	arm = func() {
		// The finalizer runs after the first collection that finds the
		// object unreachable, which is the next one.
		runtime.SetFinalizer(&gcCycle{}, func(*gcCycle) {
			metrics.Read(heap)
			live, goal := heap[0].Value.Uint64(), heap[1].Value.Uint64()
			if want := floorPercent(live, goal, percent); floor && want != percent {
				debug.SetGCPercent(want)
				percent = want
			}
			if want := memoryLimitFor(live); limit && want != memoryLimit {
				debug.SetMemoryLimit(want)
				memoryLimit = want
			}
			arm()
		})
	}
	arm()
}

// memoryLimitFor is the soft memory limit for a run with live bytes
// alive: softMemoryLimit, or liveHeadroom times live when that is more.
func memoryLimitFor(live uint64) int64 {
	return max(softMemoryLimit, int64(float64(live)*liveHeadroom))
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
