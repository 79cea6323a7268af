package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCompiledCode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "manifest.json")
	const doc = `{"metadata": {"adapter_type": "bigquery", "x": [1, {"y": 2}]},
 "nodes": {
  "model.shop.a": {"name": "a", "config": {"materialized": "table"}, "compiled_code": "select 1 as a"},
  "model.shop.b": {"name": "b", "compiled_code": null},
  "model.shop.c": {"name": "c"}
 }}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"model.shop.a": "select 1 as a", "model.shop.b": "", "model.shop.c": "", "model.shop.d": ""} {
		got, ok, err := CompiledCode(path, id)
		if err != nil || got != want || ok != (want != "") {
			t.Errorf("CompiledCode(%s) = %q, %v, %v; want %q", id, got, ok, err, want)
		}
	}
}
