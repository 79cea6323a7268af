// Package json renders a run as one versioned JSON document, for scripts
// and dashboards that read bflint's results. schema.json in this folder is
// the JSON Schema (draft 2020-12) of the document, and a test checks the
// output against it.
//
// The document, with every field:
//
//	{
//	  "version": 1,                // document version; bumped only when a field is removed or changes meaning
//	  "tool": {
//	    "name": "bflint",
//	    "version": "1.2.0"         // the bflint release; "" when unknown
//	  },
//	  "findings": [                // active findings, in file then position order
//	    {
//	      "code": "BF201",         // the rule's stable code
//	      "name": "append-write",  // the rule's stable kebab-case name
//	      "severity": "error",     // "error", "warning" or "info", after config overrides
//	      "message": "...",        // the headline: the object and what goes wrong; may span lines
//	      "help": "...",           // the one concrete fix; absent when the rule gives none
//	      "file": "sql/build.sql", // slash path relative to the project root
//	      "line": 3,               // 1-based
//	      "column": 13,            // 1-based, counted in bytes
//	      "end_line": 3,           // where the flagged text ends; both end fields
//	      "end_column": 33,        // are absent when the rule gave no end; the end is exclusive
//	      "fingerprint": "9f2c...", // see below
//	      "analysis": "tokens",    // only when the statement did not parse and was read from its tokens
//	      "inventory": true,       // only for an entry of an inventory (BF111 on a model linted on its own)
//	      "related": [             // only when the finding names other places
//	        {"file": "sql/build.sql", "line": 5, "column": 1, "message": "refills \"analytics.fct_orders\" ..."}
//	      ]
//	    }
//	  ],
//	  "errors": [                  // internal errors: a rule that crashed or failed on a file
//	    {
//	      "code": "BF207",         // the rule that failed ("" when no rule is to blame)
//	      "file": "sql/build.sql", // the file it was checking ("" when none)
//	      "message": "..."         // may span lines (it can hold a stack trace)
//	    }
//	  ],
//	  "summary": {
//	    "errors": 3,               // active findings by severity
//	    "warnings": 2,
//	    "infos": 1,
//	    "suppressed": 1            // findings silenced by a bflint:ignore comment, not listed above
//	  },
//	  "coverage": {                // how the SQL statements were read; counts, never findings
//	    "sql_files": 12,
//	    "statements": 40,
//	    "parsed": 37,              // from their parse tree
//	    "from_tokens": 2,          // rejected by the parser, read from their tokens
//	    "not_read": 1,             // nothing could be read: each is named by a BF002 finding
//	    "macro_calls_read": 5,     // calls to dbt project macros read as the macros' SQL
//	    "macros_unread": 1,        // project macros models call that could not be read as SQL
//	    "filters_unread": 0,       // models whose re-run safety rests on such a macro's filter
//	    "python_queries": 0,       // bigquery-etl tables written by query.py, not read
//	    "unparsed": [              // every statement read from tokens or not read
//	      {
//	        "file": "models/orders.sql",
//	        "line": 12,
//	        "column": 3,
//	        "read": "tokens",      // "tokens" or "none"
//	        "construct": "\"PIVOT\"", // what stopped the parser, or the unread macro call
//	        "statements": 1        // more than one for the unread rest of a file
//	      }
//	    ],
//	    "project_problems": [      // dbt project files not read as dbt reads them
//	      {
//	        "file": "models/staging/schema.yml",
//	        "line": 0,             // 0 for the file as a whole
//	        "message": "is not valid YAML: ..."
//	      }
//	    ]
//	  },
//	  "inputs": {                  // what else the run linted
//	    "plans": 2,                // bflint plans
//	    "bqetl_entries": 0,        // bigquery-etl backfill.yaml entries, each linted as a plan
//	    "dbt_manifests": 1,        // lineages checked against
//	    "dbt_projects": 0,         // dbt projects read from their own files, having no manifest
//	    "bqetl_trees": 0
//	  }
//	}
//
// "findings" and "errors" are always arrays, empty when there is nothing to
// list. Suppressed findings are left out of "findings" and only counted.
//
// "related" lists the other places a finding is about, each with its own
// short message: BF204 names the INSERT that refills what its DELETE
// emptied. Reporters show them as notes (text), relatedLocations (SARIF)
// and related_locations (rdjsonl).
//
// "analysis" marks a finding about a SQL statement the parser rejected,
// which the rules that can work from tokens read from its tokens instead:
// a coarser reading, so the finding deserves a second look. Its message
// ends with "(analysed from tokens: the statement did not parse)" too.
//
// "inventory" marks one entry of an inventory: BF111's info finding for
// a dbt model linted on its own that cannot be backfilled by range. The
// formats a person reads count these in the summary and leave them to
// bflint models; machine formats keep every one.
//
// The fingerprint is the hex SHA-256 of the code, file, message and the
// finding's occurrence index among findings with the same code, file and
// message (each separated by a NUL byte). It leaves out the line, so a
// finding keeps its fingerprint when edits above it move it, which lets a
// consumer tell new findings from old ones across commits. It equals the
// "bflintFingerprint/v1" partial fingerprint of the SARIF output.
//
// New fields may be added within version 1 (schema.json is updated with
// them); consumers should ignore fields they do not know.
package json
