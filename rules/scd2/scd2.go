// Package scd2 holds the rules about joins to type-2 slowly changing
// dimensions: a backfill recomputes the past, so every dimension it joins
// must be read as it was when each row happened, not as it is today.
//
// A relation counts as type-2 when a dbt snapshot describes it, when the
// configuration's scd2.relations patterns name it, when the statement reads
// both of its validity columns (scd2.valid_from and scd2.valid_to, with
// defaults valid_from, *_valid_from, effective_from, effective_date and
// valid_to, *_valid_to, effective_to, expiry_date), or when the
// join keeps only its current row (is_current, *_is_current,
// is_current_version, current_flag, is_latest, valid_to IS NULL), which
// only a versioned relation has (except on the relation a query starts
// from, which is its fact: a fact's latest version is often what the query
// wants). A WITH query that selects from one relation (dbt's import CTEs)
// stands for it, its renames and filters carried to the join.
//
// Validity columns count only when qualified by the dimension's alias,
// except in a correlated subquery whose only relation is the dimension.
// A relation is only checked where it is joined: as one of several items of
// a FROM clause, in UPDATE ... FROM or DELETE ... USING, or as a MERGE
// source. A statement that writes the dimension itself (the job that closes
// old versions and opens new ones) is maintaining it, not reading history,
// and is left alone.
package scd2

import "github.com/bflint/bflint/rules"

// Rules are the SCD2 family.
var Rules = []*rules.Rule{PlainJoin, AsOfNow, ClosedInterval, OpenDropped}
