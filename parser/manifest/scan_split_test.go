package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// splitScan scans the file at path with two scanners and checks the result
// against the stream decoder. It reports whether the second scanner's work
// was used.
func splitScan(t *testing.T, path string) (joined bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, ok, joined, err := scanSplit(f, int64(len(data)), MaxSize)
	if err != nil || !ok {
		t.Fatalf("%s: the split scan failed (%v)", path, err)
	}
	want, err := decodeStream(bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	if !sameManifest(m, want) {
		t.Fatalf("%s: the split scan differs from the stream decoder", path)
	}
	return joined
}

// TestSplitScan scans real and synthetic manifests in two halves: the
// result is the stream decoder's, and on the synthetic ones, whose nodes
// span the middle, the second half's work is used.
func TestSplitScan(t *testing.T) {
	for _, path := range corpusManifests(t) {
		splitScan(t, path)
	}
	dir := t.TempDir()
	for seed := range uint64(4) {
		path := filepath.Join(dir, fmt.Sprintf("synthetic%d.json", seed))
		if _, err := benchgen.WriteManifest(path, int64(256<<10)<<seed, seed); err != nil {
			t.Fatal(err)
		}
		if !splitScan(t, path) {
			t.Errorf("%s: the second scanner's guess was not used", path)
		}
	}
}

// TestSplitScanWrongGuess puts, after the middle of a manifest, an object
// whose key looks like a node's after a closed object: the second scanner
// starts there, and the first finds the guess wrong and reads alone.
func TestSplitScanWrongGuess(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json"}, "nodes": {`)
	for i := range 100 {
		// The middle node's description is most of the file.
		description := "short"
		if i == 50 {
			description = strings.Repeat("padding ", 32<<10)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"model.a.n%03d": {"resource_type": "model", "name": "n%03d", "description": "%s", "meta": {"x": {}, "model.decoy.n%03d": {"name": "decoy"}}}`,
			i, i, description, i)
	}
	b.WriteString(`}, "child_map": {}}`)
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if splitScan(t, path) {
		t.Error("the second scanner's wrong guess was used")
	}
}

// TestSplitScanBrokenEnd breaks a manifest past the middle: the second
// scanner fails, and Load reports what the stream decoder reports.
func TestSplitScanBrokenEnd(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	if _, err := benchgen.WriteManifest(whole, 1<<20, 9); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, data[:len(data)*3/4], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(broken)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok, _, err := scanSplit(f, int64(len(data)*3/4), MaxSize); ok || err != nil {
		t.Fatalf("the split scan of a truncated manifest: ok %v, %v", ok, err)
	}
	defer func(was int64) { splitMin = was }(splitMin)
	splitMin = 0
	_, err = Load(broken)
	_, want := decodeStream(bytes.NewReader(data[:len(data)*3/4]), MaxSize)
	if err == nil || !strings.Contains(err.Error(), want.Error()) {
		t.Errorf("Load = %v, want %v", err, want)
	}
}
