package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

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

// keepHeapFloor sets GOGC to percent, raised after each collection while
// what is alive is small enough that percent would collect before the
// heap reached heapFloor.
func keepHeapFloor(percent int) {
	debug.SetGCPercent(percent)
	heap := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	current := percent
	var arm func()
	arm = func() {
		// The finalizer runs after the first collection that finds the
		// object unreachable, which is the next one.
		runtime.SetFinalizer(&gcCycle{}, func(*gcCycle) {
			metrics.Read(heap)
			if want := floorPercent(heap[0].Value.Uint64(), heap[1].Value.Uint64(), current, percent); want != current {
				debug.SetGCPercent(want)
				current = want
			}
			arm()
		})
	}
	arm()
}

// floorPercent is the GOGC that sets the next heap goal to heapFloor, or
// percent when that is higher. The runtime's goal is live + (live +
// roots) * GOGC/100, the roots being the stacks and globals; the goal the
// current GOGC gave says what they weigh.
func floorPercent(live, goal uint64, current, percent int) int {
	if goal <= live || current <= 0 {
		return percent
	}
	scanned := float64(goal-live) / float64(current) // (live + roots) / 100
	want := int(float64(heapFloor-min(live, heapFloor)) / scanned)
	return max(want, percent)
}

// gcCycle marks a collection. It holds a pointer so that it is not one of
// the tiny objects the runtime batches, whose finalizers may never run.
type gcCycle struct{ _ *byte }
