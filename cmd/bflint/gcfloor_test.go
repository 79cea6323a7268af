package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestKeepHeapFloor checks that with little alive the collector is let
// grow the heap to the floor: GOGC is raised after a collection.
func TestKeepHeapFloor(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	keepHeapFloor(200)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if p > 200 {
			return
		}
	}
	t.Fatal("GOGC stayed at 200 with a test binary's few MiB alive: the floor never applied")
}

func TestFloorPercent(t *testing.T) {
	mib := uint64(1 << 20)
	tests := []struct {
		name             string
		live, goal       uint64
		current, percent int
		want             int
	}{
		// 10 MiB alive and 2 MiB of roots: GOGC=200 aims at 34 MiB; the
		// floor needs (40-10)/(12/100) = 250.
		{"small heap", 10 * mib, 34 * mib, 200, 200, 250},
		// Already raised: the goal it gave says the same of the roots.
		{"raised before", 10 * mib, 40 * mib, 250, 200, 250},
		{"large heap", 30 * mib, 94 * mib, 200, 200, 200},
		{"past the floor", 50 * mib, 150 * mib, 200, 200, 200},
		{"no goal yet", 0, 0, 200, 200, 200},
	}
	for _, tt := range tests {
		if got := floorPercent(tt.live, tt.goal, tt.current, tt.percent); got != tt.want {
			t.Errorf("%s: floorPercent = %d, want %d", tt.name, got, tt.want)
		}
	}
}
