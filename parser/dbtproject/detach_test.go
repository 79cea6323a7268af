package dbtproject

import (
	"testing"
	"unsafe"

	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// A project keeps each model's config and source() calls for the whole
// run; kept as substrings they would keep every model's file text alive
// with them (20 MB on a 4,500-model project).
func TestScanKeepsNoFileText(t *testing.T) {
	src := `{{ config(materialized='incremental', unique_key=['id', 'day'], meta={'owner': 'finance'}) }}
select * from {{ source('shop', 'orders') }}`
	f := &sqlFile{path: "m.sql", kind: "model"}
	f.scanText(src, nil, nil)
	if len(f.configs) != 3 || len(f.sources) != 1 {
		t.Fatalf("read %d config keys and %d source calls, want 3 and 1", len(f.configs), len(f.sources))
	}
	var kept []string
	var values func(v jinja.Value)
	values = func(v jinja.Value) {
		kept = append(append(kept, v.Text), v.Keys...)
		for _, it := range v.Items {
			values(it)
		}
	}
	for _, k := range f.configs {
		kept = append(kept, k.Key)
		values(k.Value)
	}
	for _, c := range f.sources {
		kept = append(append(append(kept, c.Kind, c.Text), c.Args...), c.Partial...)
	}
	from := uintptr(unsafe.Pointer(unsafe.StringData(src)))
	to := from + uintptr(len(src))
	for _, s := range kept {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); s != "" && p >= from && p < to {
			t.Errorf("%q is a substring of the file's text", s)
		}
	}
}
