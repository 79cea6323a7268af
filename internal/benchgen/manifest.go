// Package benchgen writes the deterministic inputs bflint's benchmarks
// measure: warehouse SQL corpora, dbt manifests of a chosen size and a
// pre-commit project that joins the two. The same seed always writes the
// same bytes, so figures taken on different days compare.
package benchgen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
)

// Manifest is what WriteManifest wrote: its size and, for checking, the
// edges (unique id to parent ids).
type Manifest struct {
	Size    int64
	Parents map[string][]string
	// Models are the model ids in the order written, sources first in
	// the graph: a later model depends only on earlier ones.
	Models []string
}

// WriteManifest writes a manifest of about target bytes shaped like a
// large dbt 1.x project: layers of models over sources, generic tests on
// every model, a snapshot per hundred models, exposures on marts, a macros
// section the loader skips, and child_map/parent_map. Node bodies carry
// the fields dbt writes (columns, compiled code, unrendered config) so the
// loader pays for skipping them as it would on a real manifest.
func WriteManifest(path string, target int64, seed uint64) (*Manifest, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cw := &countWriter{w: bufio.NewWriterSize(f, 1<<20)}
	g := &Manifest{Parents: map[string][]string{}}
	rng := rand.New(rand.NewPCG(seed, 2))

	fmt.Fprint(cw, `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "dbt_version": "1.10.4", "generated_at": "2026-01-01T00:00:00Z", "project_name": "warehouse", "adapter_type": "snowflake", "env": {}}, "nodes": {`)
	const sources = 200
	var models []string
	sep := ""
	for i := 0; cw.n < target*80/100; i++ {
		id := fmt.Sprintf("model.warehouse.model_%06d", i)
		var deps []string
		if i < sources || rng.IntN(10) == 0 {
			deps = append(deps, fmt.Sprintf("source.warehouse.raw.table_%04d", rng.IntN(sources)))
		}
		for range rng.IntN(4) {
			if len(models) > 0 {
				deps = append(deps, models[len(models)-1-rng.IntN(min(len(models), 300))])
			}
		}
		materialized := [...]string{"view", "table", "table", "incremental", "ephemeral"}[rng.IntN(5)]
		fmt.Fprint(cw, sep)
		sep = ", "
		writeModel(cw, id, fmt.Sprintf("model_%06d", i), materialized, deps, rng)
		g.Parents[id] = deps
		models = append(models, id)
		for _, test := range []string{"not_null", "unique"} {
			tid := fmt.Sprintf("test.warehouse.%s_model_%06d_id.%08x", test, i, rng.Uint32())
			fmt.Fprint(cw, sep)
			writeTest(cw, tid, test, id)
			g.Parents[tid] = []string{id}
		}
		if i%100 == 99 {
			sid := fmt.Sprintf("snapshot.warehouse.snap_%06d", i)
			fmt.Fprint(cw, sep)
			writeSnapshot(cw, sid, id)
			g.Parents[sid] = []string{id}
		}
	}
	g.Models = models
	fmt.Fprint(cw, `}, "sources": {`)
	for i := range sources {
		if i > 0 {
			fmt.Fprint(cw, ", ")
		}
		id := fmt.Sprintf("source.warehouse.raw.table_%04d", i)
		fmt.Fprintf(cw, `%q: {"database": "RAW", "schema": "LANDING", "name": "table_%04d", "resource_type": "source", "package_name": "warehouse", "path": "models/sources.yml", "original_file_path": "models/sources.yml", "unique_id": %q, "fqn": ["warehouse", "raw", "table_%04d"], "source_name": "raw", "source_description": "", "loader": "fivetran", "identifier": "table_%04d", "quoting": {"database": null, "schema": null, "identifier": null, "column": null}, "loaded_at_field": "_fivetran_synced", "freshness": {"warn_after": {"count": 1, "period": "day"}, "error_after": {"count": null, "period": null}, "filter": null}, "external": null, "description": "", "columns": {}, "meta": {}, "source_meta": {}, "tags": [], "config": {"enabled": true, "event_time": null}, "patch_path": null, "unrendered_config": {}, "relation_name": "RAW.LANDING.table_%04d", "created_at": 1767225600.0}`, id, i, id, i, i, i)
		g.Parents[id] = nil
	}
	fmt.Fprint(cw, `}, "exposures": {`)
	for i := 0; i*50 < len(models); i++ {
		if i > 0 {
			fmt.Fprint(cw, ", ")
		}
		id := fmt.Sprintf("exposure.warehouse.dashboard_%04d", i)
		deps := []string{models[len(models)-1-i*50], models[rng.IntN(len(models))]}
		fmt.Fprintf(cw, `%q: {"name": "dashboard_%04d", "resource_type": "exposure", "package_name": "warehouse", "path": "exposures.yml", "original_file_path": "models/exposures.yml", "unique_id": %q, "fqn": ["warehouse", "dashboard_%04d"], "type": "dashboard", "owner": {"email": "bi@example.com", "name": "BI"}, "description": "", "label": null, "maturity": "high", "meta": {}, "tags": [], "config": {"enabled": true}, "unrendered_config": {}, "url": null, "depends_on": {"macros": [], "nodes": %s}, "refs": [], "sources": [], "metrics": [], "created_at": 1767225600.0}`, id, i, id, i, jsonList(deps))
		g.Parents[id] = deps
	}
	fmt.Fprint(cw, `}, "metrics": {}, "groups": {}, "selectors": {}, "disabled": {}, "macros": {`)
	for i := 0; cw.n < target*97/100; i++ {
		if i > 0 {
			fmt.Fprint(cw, ", ")
		}
		fmt.Fprintf(cw, `"macro.warehouse.helper_%05d": {"name": "helper_%05d", "resource_type": "macro", "package_name": "warehouse", "path": "macros/helper_%05d.sql", "original_file_path": "macros/helper_%05d.sql", "unique_id": "macro.warehouse.helper_%05d", "macro_sql": "{%% macro helper_%05d(column) %%}\n  case when {{ column }} is null then 0 else {{ column }} end\n{%% endmacro %%}", "depends_on": {"macros": []}, "description": "", "meta": {}, "docs": {"show": true, "node_color": null}, "patch_path": null, "arguments": [], "created_at": 1767225600.0, "supported_languages": null}`, i, i, i, i, i, i)
	}
	fmt.Fprint(cw, `}, "parent_map": {`)
	ids := make([]string, 0, len(g.Parents))
	for id := range g.Parents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	children := map[string][]string{}
	for i, id := range ids {
		if i > 0 {
			fmt.Fprint(cw, ", ")
		}
		fmt.Fprintf(cw, "%q: %s", id, jsonList(g.Parents[id]))
		for _, p := range g.Parents[id] {
			children[p] = append(children[p], id)
		}
	}
	fmt.Fprint(cw, `}, "child_map": {`)
	for i, id := range ids {
		if i > 0 {
			fmt.Fprint(cw, ", ")
		}
		fmt.Fprintf(cw, "%q: %s", id, jsonList(children[id]))
	}
	fmt.Fprint(cw, "}}\n")
	if err := cw.w.Flush(); err != nil {
		return nil, err
	}
	g.Size = cw.n
	return g, cw.err
}

func writeModel(w io.Writer, id, name, materialized string, deps []string, rng *rand.Rand) {
	var cols, sql strings.Builder
	for c := range 8 + rng.IntN(16) {
		if c > 0 {
			cols.WriteString(", ")
		}
		fmt.Fprintf(&cols, `"column_%02d": {"name": "column_%02d", "description": "A column of %s, documented in the model's YAML so the docs site can show it.", "meta": {}, "data_type": null, "constraints": [], "quote": null, "config": {"meta": {}, "tags": []}, "tags": [], "granularity": null, "doc_blocks": []}`, c, c, name)
	}
	sql.WriteString(`select\n`)
	for c := range 12 {
		fmt.Fprintf(&sql, `    coalesce(src.column_%02d, 0) as column_%02d,\n`, c, c)
	}
	sql.WriteString(`    current_timestamp as loaded_at\nfrom {{ ref('upstream') }} as src\nwhere src.updated_at >= dateadd(day, -3, current_date)`)
	strategy, key := "null", "null"
	if materialized == "incremental" {
		strategy, key = `"merge"`, `"column_00"`
	}
	fmt.Fprintf(w, `%q: {"database": "ANALYTICS", "schema": "MARTS", "name": %q, "resource_type": "model", "package_name": "warehouse", "path": "marts/%s.sql", "original_file_path": "models/marts/%s.sql", "unique_id": %q, "fqn": ["warehouse", "marts", %q], "alias": %q, "checksum": {"name": "sha256", "checksum": "%064x"}, "config": {"enabled": true, "alias": null, "schema": "marts", "database": null, "tags": [], "meta": {}, "group": null, "materialized": %q, "incremental_strategy": %s, "batch_size": null, "lookback": 1, "begin": null, "persist_docs": {}, "post-hook": [], "pre-hook": [], "quoting": {}, "column_types": {}, "full_refresh": null, "unique_key": %s, "on_schema_change": "ignore", "on_configuration_change": "apply", "grants": {}, "packages": [], "docs": {"show": true, "node_color": null}, "contract": {"enforced": false, "alias_types": true}, "event_time": null, "concurrent_batches": null, "access": "protected"}, "tags": [], "description": "One row per entity and day, rebuilt from the layers below.", "columns": {%s}, "meta": {}, "group": null, "docs": {"show": true, "node_color": null}, "patch_path": "warehouse://models/marts/schema.yml", "build_path": null, "unrendered_config": {"materialized": %q}, "created_at": 1767225600.0, "relation_name": "ANALYTICS.MARTS.%s", "raw_code": "%s", "doc_blocks": [], "language": "sql", "refs": [], "sources": [], "metrics": [], "functions": [], "depends_on": {"macros": ["macro.warehouse.helper_00001"], "nodes": %s}, "compiled_path": "target/compiled/warehouse/models/marts/%s.sql", "contract": {"enforced": false, "alias_types": true, "checksum": null}, "access": "protected", "constraints": [], "version": null, "latest_version": null, "deprecation_date": null, "primary_key": ["column_00"], "time_spine": null}`,
		id, name, name, name, id, name, name, rng.Uint64(), materialized, strategy, key, cols.String(), materialized, strings.ToUpper(name), sql.String(), jsonList(deps), name)
}

func writeTest(w io.Writer, id, test, model string) {
	fmt.Fprintf(w, `%q: {"database": "ANALYTICS", "schema": "DBT_TEST__AUDIT", "name": "%s_id", "resource_type": "test", "package_name": "warehouse", "path": "%s.sql", "original_file_path": "models/marts/schema.yml", "unique_id": %q, "fqn": ["warehouse", "marts", "%s"], "alias": "%s_id", "checksum": {"name": "none", "checksum": ""}, "config": {"enabled": true, "alias": null, "schema": "dbt_test__audit", "database": null, "tags": [], "meta": {}, "group": null, "materialized": "test", "severity": "ERROR", "store_failures": null, "store_failures_as": null, "where": null, "limit": null, "fail_calc": "count(*)", "warn_if": "!= 0", "error_if": "!= 0"}, "tags": [], "description": "", "columns": {}, "meta": {}, "group": null, "docs": {"show": true, "node_color": null}, "patch_path": null, "build_path": null, "unrendered_config": {}, "created_at": 1767225600.0, "relation_name": null, "raw_code": "{{ test_%s(**_dbt_generic_test_kwargs) }}", "doc_blocks": [], "language": "sql", "refs": [], "sources": [], "metrics": [], "functions": [], "depends_on": {"macros": ["macro.dbt.test_%s"], "nodes": [%q]}, "compiled_path": null, "contract": {"enforced": false, "alias_types": true, "checksum": null}, "column_name": "id", "file_key_name": "models.marts", "attached_node": %q, "test_metadata": {"name": %q, "kwargs": {"column_name": "id", "model": "{{ get_where_subquery(ref('x')) }}"}, "namespace": null}}`,
		id, test, test, id, test, test, test, test, model, model, test)
}

func writeSnapshot(w io.Writer, id, model string) {
	name := id[strings.LastIndexByte(id, '.')+1:]
	fmt.Fprintf(w, `%q: {"database": "ANALYTICS", "schema": "SNAPSHOTS", "name": %q, "resource_type": "snapshot", "package_name": "warehouse", "path": "%s.sql", "original_file_path": "snapshots/%s.sql", "unique_id": %q, "alias": %q, "checksum": {"name": "sha256", "checksum": "%064x"}, "config": {"enabled": true, "materialized": "snapshot", "strategy": "timestamp", "unique_key": "column_00", "updated_at": "loaded_at", "snapshot_meta_column_names": {"dbt_valid_to": "valid_to", "dbt_valid_from": "valid_from", "dbt_scd_id": null, "dbt_updated_at": null, "dbt_is_deleted": null}, "dbt_valid_to_current": "to_date('9999-12-31')"}, "relation_name": "ANALYTICS.SNAPSHOTS.%s", "depends_on": {"macros": [], "nodes": [%q]}}`,
		id, name, name, name, id, name, len(id), strings.ToUpper(name), model)
}

func jsonList(ids []string) string {
	if len(ids) == 0 {
		return "[]"
	}
	return `["` + strings.Join(ids, `", "`) + `"]`
}

type countWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
