package dbtproject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzProject reads arbitrary bytes as a dbt project's dbt_project.yml, a
// properties file, a model and a macro file: reading its nodes and its
// graph must never panic or hang, every problem must name a file of the
// project, and every node must come from a file inside it.
func FuzzProject(f *testing.F) {
	f.Add("name: shop\nmodels:\n  shop:\n    +materialized: incremental\n    +unique_key: id\n",
		"version: 2\nmodels:\n  - name: orders\n    config:\n      materialized: table\n",
		"{{ config(materialized='incremental') }}\nselect * from {{ ref('stg') }}\n{% if is_incremental() %} where ts > (select max(ts) from {{ this }}) {% endif %}",
		"{% macro cents(x) %}{{ x }} * 100{% endmacro %}")
	f.Add("name: shop\nmacro-paths: [\"../../..\", \"/\"]\nmodel-paths: [\"..\"]\nvars: {a: &x [*x]}\n",
		"version: 2\nsources:\n  - name: raw\n    tables: [{name: t, config: {enabled: false}}]\n",
		"{{ my_macro(ref('a'), source('raw', 't')) }}",
		"{% macro my_macro(a, b) %}select * from {{ a }} join {{ b }} using (id){% endmacro %}")
	f.Add("models: {+materialized: [1, 2]}\nname: {a: b}\n", "config: {materialized: [unclosed\n", "{{ config(", "{% macro")
	f.Add("name: shop\nmodels: &m {shop: *m, +tags: &t [*t, *t]}\nseeds: &s {+x: [*s, *s, *s]}\n",
		"version: 2\nmodels:\n  - &n {name: orders, config: {meta: *n}}\n", "select 1", "")
	f.Fuzz(func(t *testing.T, project, properties, model, macro string) {
		dir := t.TempDir()
		for name, text := range map[string]string{
			FileName:                 project,
			"models/properties.yml":  properties,
			"models/orders.sql":      model,
			"macros/macros.sql":      macro,
			"models/staging/stg.sql": "select 1 as id",
		} {
			path := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p := Open(dir, Options{Boundary: dir})
		p.Nodes()
		g := p.Graph()
		for _, pr := range p.Problems {
			if !Within(dir, pr.File) {
				t.Fatalf("problem %q names %s, outside the project", pr.Msg, pr.File)
			}
		}
		for _, n := range g.Nodes() {
			if path := n.OriginalFilePath; path != "" && (filepath.IsAbs(path) || strings.HasPrefix(filepath.Clean(path), "..")) {
				t.Fatalf("node %s read from %s, outside the project", n.UniqueID, path)
			}
		}
	})
}
