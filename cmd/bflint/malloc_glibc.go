//go:build linux && cgo

package main

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// The SQL parser allocates its tree and JSON output with the C allocator,
// some hundreds of KiB a statement, and frees them straight after. With
// glibc's defaults each such free hands memory back to the kernel (trim, or
// unmap above the mmap threshold) and the next statement faults it in again;
// on 1,000 files that doubled the page faults and cost a quarter of the run.
// Serving blocks up to 32 MiB from the heap, and keeping up to 4 MiB of it
// free at its top, lets the statements reuse the same pages; only the
// largest give theirs back. Keeping 256 MiB, as bflint did, made no
// difference to the 1,000 files (13,100-13,400 page faults either way) and
// held 40 MiB more on 7,900 dbt models. Each thread that calls the parser
// would otherwise get a heap of its own (up to eight per processor), each
// keeping what its largest statement needed: one heap per parsing worker
// halved what a run over those models holds (68 to 34 MiB).
static void keep_freed_heap(int heaps) {
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 4 << 20);
	mallopt(M_ARENA_MAX, heaps);
#endif
}
*/
import "C"

import "runtime"

func init() { C.keep_freed_heap(C.int(runtime.GOMAXPROCS(0))) }
