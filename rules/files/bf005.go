package files

import (
	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/suggest"
	"github.com/bflint/bflint/rules"
)

// ConfigKeyUnknown reports a dbt config() key that dbt ignores because it
// is misspelt.
var ConfigKeyUnknown = &rules.Rule{
	Code:     "BF005",
	Name:     "config-key-unknown",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A dbt config() key is misspelt, so dbt ignores it",
		Why: "dbt keeps a config() key it does not know and applies nothing of it: unique_id=[...] written for unique_key " +
			"leaves an incremental model with no key, so every run appends what a merge was meant to replace, and " +
			"incremental_stratgy leaves it on the adapter's default strategy. Nothing fails and the model looks configured. " +
			"A key that no dbt config or adapter config has, and that is within a few edits of one that does, is reported " +
			"with the key meant; a custom key far from every known one is left alone (dbt wants those under meta).",
		Bad: rules.Example{Lang: "sql", Text: `{{ config(materialized='incremental', unique_id=['tx_hash', 'event_index']) }}
select tx_hash, event_index, amount from {{ ref('stg_transfers') }}
`},
		Good: rules.Example{Lang: "sql", Text: `{{ config(materialized='incremental', unique_key=['tx_hash', 'event_index']) }}
select tx_hash, event_index, amount from {{ ref('stg_transfers') }}
`},
	},
	Run: func(pass *rules.Pass) error {
		for _, f := range pass.Unit.SQL {
			if f.Parsed == nil {
				continue
			}
			for _, k := range f.Parsed.ConfigKeys {
				if dbtproject.KnownConfigKey(k.Key) {
					continue
				}
				if meant := suggest.Closest(k.Key, dbtproject.ConfigKeys); meant != "" {
					pass.Reportf(f.Pos(k.At), "config key %q is not one dbt knows, so dbt ignores it and %s is not set\nhelp: did you mean %q?", k.Key, meant, meant)
				}
			}
		}
		return nil
	},
}
