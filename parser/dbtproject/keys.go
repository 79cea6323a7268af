package dbtproject

import "slices"

// ConfigKeys are the config keys dbt reads, its own and those of the
// adapters bflint meets (BigQuery, Snowflake, Databricks and Spark,
// Redshift, PostgreSQL, Trino, DuckDB), for models, snapshots, seeds and
// tests. A config() key one edit from one of them, and none of them, is
// most likely a misspelling that dbt ignores without a word.
var ConfigKeys = sortedKeys(
	// dbt
	"materialized", "enabled", "tags", "pre_hook", "post_hook", "pre-hook", "post-hook", "database", "schema", "alias",
	"persist_docs", "full_refresh", "meta", "grants", "contract", "docs", "group", "access", "unique_key",
	"incremental_strategy", "on_schema_change", "sql_header", "event_time", "batch_size", "lookback", "begin",
	"concurrent_batches", "incremental_predicates", "merge_update_columns", "merge_exclude_columns",
	"on_configuration_change", "packages", "quoting", "column_types", "delimiter", "quote_columns", "store_failures",
	"store_failures_as", "severity", "where", "limit", "warn_if", "error_if", "fail_calc", "description", "config",
	"static_analysis", "python_version", "submission_method", "copy_partitions",
	// snapshots
	"strategy", "updated_at", "check_cols", "target_schema", "target_database", "invalidate_hard_deletes",
	"hard_deletes", "dbt_valid_to_current", "snapshot_meta_column_names",
	// BigQuery
	"partition_by", "cluster_by", "partition_expiration_days", "require_partition_filter", "partitions",
	"kms_key_name", "labels", "label", "hours_to_expiration", "grant_access_to", "enable_refresh",
	"refresh_interval_minutes", "max_staleness", "resource_tags", "table_format", "file_format", "storage_uri",
	"dataproc_cluster_name", "notebook_template_id", "enable_list_inference", "intermediate_format", "description",
	// Snowflake
	"transient", "automatic_clustering", "snowflake_warehouse", "copy_grants", "secure", "query_tag",
	"target_lag", "refresh_mode", "initialize", "table_tag", "row_access_policy", "external_volume",
	"base_location_root", "base_location_subpath", "tmp_relation_type", "change_tracking", "imports", "use_anonymous_sproc",
	// Databricks and Spark
	"location_root", "liquid_clustered_by", "auto_liquid_cluster", "clustered_by", "buckets", "tblproperties",
	"zorder", "compression", "databricks_tags", "include_full_name_in_path", "options", "skip_non_matched_step",
	"skip_matched_step", "matched_condition", "not_matched_condition", "not_matched_by_source_action",
	"not_matched_by_source_condition", "merge_with_schema_evolution", "target_alias", "source_alias",
	"databricks_compute", "partition_overwrite_mode",
	// Redshift, PostgreSQL
	"dist", "sort", "sort_type", "bind", "backup", "auto_refresh", "autorefresh", "indexes", "unlogged",
	// Trino, Athena, DuckDB
	"properties", "views_enabled", "on_table_exists", "view_security", "write_compression", "table_type",
	"external_location", "partitioned_by", "bucketed_by", "bucket_count", "format", "s3_data_dir",
	"s3_data_naming", "lf_tags_config", "force_batch_from_source", "use_write_table", "location",
	"overwrite", "options",
)

func sortedKeys(keys ...string) []string {
	slices.Sort(keys)
	return slices.Compact(keys)
}

// KnownConfigKey reports whether dbt or an adapter reads key.
func KnownConfigKey(key string) bool {
	_, found := slices.BinarySearch(ConfigKeys, key)
	return found
}
