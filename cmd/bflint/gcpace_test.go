package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestPaceCollector checks that with little alive the collector is let
// grow the heap to the floor, GOGC raised after a collection, and that the
// memory limit is set.
func TestPaceCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	paceCollector(true, true)
	if got := debug.SetMemoryLimit(-1); got != softMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, softMemoryLimit)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if p > gcPercent {
			return
		}
	}
	t.Fatalf("GOGC stayed at %d with a test binary's few MiB alive: the floor never applied", gcPercent)
}

func TestMemoryLimitFor(t *testing.T) {
	mib := uint64(1 << 20)
	tests := []struct {
		name string
		live uint64
		want int64
	}{
		{"nothing alive yet", 0, softMemoryLimit},
		// Spellbook keeps 35 to 75 MiB alive: the limit stays put.
		{"a large repository", 70 * mib, softMemoryLimit},
		// Past it the limit follows, 1.7 times what is alive.
		{"more alive", 100 * mib, 170 << 20},
		{"a hostile file", 300 * mib, 510 << 20},
	}
	for _, tt := range tests {
		if got := memoryLimitFor(tt.live); got != tt.want {
			t.Errorf("%s: memoryLimitFor(%d MiB) = %d MiB, want %d MiB", tt.name, tt.live>>20, got>>20, tt.want>>20)
		}
	}
}

// TestPaceCollectorRaisesTheLimitWithTheLiveHeap checks that the limit
// follows a live heap past what softMemoryLimit allows for, and is left
// alone when only the limit is the environment's.
func TestPaceCollectorRaisesTheLimitWithTheLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	paceCollector(false, true)
	alive := make([]byte, 100<<20)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if debug.SetMemoryLimit(-1) > softMemoryLimit {
			runtime.KeepAlive(alive)
			return
		}
	}
	t.Fatalf("the memory limit stayed at %d MiB with 100 MiB alive", debug.SetMemoryLimit(-1)>>20)
}

func TestFloorPercent(t *testing.T) {
	mib := uint64(1 << 20)
	tests := []struct {
		name       string
		live, goal uint64
		current    int
		want       int
	}{
		// 10 MiB alive and 2 MiB of roots: GOGC=200 aims at 34 MiB; the
		// floor needs (40-10)/(12/100) = 250.
		{"small heap", 10 * mib, 34 * mib, 200, 250},
		// Already raised: the goal it gave says the same of the roots.
		{"raised before", 10 * mib, 40 * mib, 250, 250},
		{"large heap", 30 * mib, 94 * mib, 200, 200},
		{"past the floor", 50 * mib, 150 * mib, 200, 200},
		{"no goal yet", 0, 0, 200, 200},
	}
	for _, tt := range tests {
		if got := floorPercent(tt.live, tt.goal, tt.current); got != tt.want {
			t.Errorf("%s: floorPercent = %d, want %d", tt.name, got, tt.want)
		}
	}
}
