package files

import (
	"errors"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

// MissingFile reports file references that cannot be used.
var MissingFile = &rules.Rule{
	Code:     "BF003",
	Name:     "missing-file",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A file the plan names does not exist, is not a regular file, or lies outside the project; or a dbt manifest cannot be read",
		Why: "The SQL a plan points at is the plan: the build, the uniqueness check, the validation queries, the publish and the rollback. " +
			"A reference to a file that is not there means the step was never written, or was written somewhere no reviewer looked. " +
			"Paths must also stay inside the repository, so that what is reviewed is what runs and a plan cannot read files outside the project. " +
			"A SQL file that changes while bflint runs (read for the project model, then again for its rules) is reported too, not linted: its two readings would not agree. " +
			"A dbt manifest that cannot be read is reported the same way: without it, ref() names and the lineage checks are blind. " +
			"So is, as a warning, a plan in a dbt project that has no manifest yet (dbt writes target/ and its .gitignore keeps it out of the repository, " +
			"so a fresh clone, a CI job or a pre-commit hook has none): the downstream checks (BF801-BF808) and the model config checks did not run, " +
			"and a plan that leaves a mart out of downstream.rebuild would otherwise lint clean. Run dbt parse (or dbt compile) before bflint, or name the manifest with --manifest, manifest: in .bflint.yaml or downstream.manifest.",
		Bad: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publsh.sql           # typo: the file is sql/publish.sql
rollback:
  sql: /home/me/rollback.sql    # outside the repository
`},
		Good: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publish.sql
rollback:
  sql: sql/rollback.sql
`},
	},
	Run: func(pass *rules.Pass) error {
		if err := pass.Unit.ReadError; err != nil {
			// A plan that cannot be read is BF001's; a SQL file bflint was
			// asked to lint and could not read is reported here, never
			// skipped in silence.
			var folder *source.UnlistedFolder
			switch {
			case pass.Plan != nil:
			case errors.As(err, &folder):
				pass.Reportf(pass.Unit.File.Pos(0), "cannot list folder: %v: no file below it was linted\nhelp: make the folder readable, or leave it out with exclude: in .bflint.yaml", err)
			case errors.Is(err, source.ErrChanged):
				// The project model was read from the old text; the rules
				// would read the new one at the old one's positions.
				pass.Reportf(pass.Unit.File.Pos(0), "the SQL file changed while bflint read it, so it was not linted\nhelp: run bflint again once nothing is writing to it")
			default:
				pass.Reportf(pass.Unit.File.Pos(0), "cannot read SQL file: %v\nhelp: make it a readable regular file, or leave it out with exclude: in .bflint.yaml", err)
			}
			return nil
		}
		if pass.Plan != nil {
			for _, ref := range pass.Plan.Paths {
				switch {
				case ref.Err == nil:
				case strings.Contains(ref.Err.Error(), "did you mean"):
					// The suggestion is the fix.
					pass.Reportf(ref.Value.Value, "%s %q %v", ref.Key, ref.Value.V, ref.Err)
				default:
					pass.Reportf(ref.Value.Value, "%s %q %v\nhelp: name a file of the project, relative to the plan's folder, or add the file", ref.Key, ref.Value.V, ref.Err)
				}
			}
		}
		if path, err := pass.Unit.ManifestError(); err != nil {
			at := pass.Unit.File.Pos(0)
			if pass.Plan != nil {
				at = pass.PlanStart()
				if d := pass.Plan.Downstream; d != nil && d.Manifest.Set {
					at = d.Manifest.Value
				}
			}
			pass.Reportf(at, "the dbt artifact %s cannot be read, so ref() names, lineage and snapshot columns are unknown for this file: %v\nhelp: write it again with dbt parse, or delete it so that the project's own files are read", path, err)
		}
		return nil
	},
}
