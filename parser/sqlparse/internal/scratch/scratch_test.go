package scratch

import "testing"

func TestGetReturnsZeroedSliceOfLength(t *testing.T) {
	var p Pool[int]
	s := p.Get(10)
	for i := range s {
		s[i] = i + 1
	}
	p.Put(s)
	again := p.Get(5)
	if len(again) != 5 {
		t.Fatalf("len = %d, want 5", len(again))
	}
	if &again[0] != &s[0] {
		t.Fatal("the buffer given back was not lent again")
	}
	for i, v := range again {
		if v != 0 {
			t.Fatalf("element %d = %d, want 0", i, v)
		}
	}
}

func TestGetAllocatesWhenNoBufferFits(t *testing.T) {
	var p Pool[int]
	small := p.Get(4)
	p.Put(small)
	large := p.Get(100)
	if len(large) != 100 || &large[0] == &small[:1][0] {
		t.Fatal("a buffer too small was lent")
	}
}

func TestPutDropsLargeBuffers(t *testing.T) {
	var p Pool[byte]
	big := p.Get(maxLen + 1)
	p.Put(big)
	if len(p.free) != 0 {
		t.Fatalf("the pool kept a buffer of %d elements, over its %d", cap(big), maxLen)
	}
}

func TestPutKeepsAtMostMaxKept(t *testing.T) {
	var p Pool[int]
	for range maxKept + 4 {
		p.Put(make([]int, 8))
	}
	if len(p.free) != maxKept {
		t.Fatalf("the pool keeps %d buffers, want %d", len(p.free), maxKept)
	}
}

func TestLentBufferAllocatesNothing(t *testing.T) {
	var p Pool[int]
	p.Put(p.Get(64))
	if n := testing.AllocsPerRun(100, func() { p.Put(p.Get(64)) }); n != 0 {
		t.Fatalf("%v allocations a loan, want 0", n)
	}
}
