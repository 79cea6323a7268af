package main

import (
	"flag"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/bflint/bflint/internal/runsql"
	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// sqlFile is a file init writes beside the plan.
type sqlFile struct{ path, text string }

// runSQL writes, for a plan init writes to output, the SQL of the steps
// that depend only on where the rows live, in the target's warehouse, and
// records in sk the paths the plan names. It writes none, and says why,
// when the warehouse, the partition column, the staging relation or the
// target's relation is unknown: the skeleton's TODOs then stay.
func runSQL(fs *flag.FlagSet, sk *skeleton, m *manifest.Manifest, graph *lineage.Graph, node *manifest.Node, macros map[string]jinja.Macro, projectDir, manifestPath, column string, start, end time.Time, output string) ([]sqlFile, string, error) {
	dialect, ok := runsql.ForAdapter(m.AdapterType)
	if name := flagValue(fs, "dialect"); name != "" {
		if dialect, ok = runsql.ForAdapter(name); !ok {
			return nil, "", commandUsageErrorf("init", "init --dialect %q: use %s", name, dialectNames())
		}
	}
	target := m.RelationName(node)
	switch {
	case !ok && m.AdapterType == "":
		return nil, "pass --dialect to have the SQL written for your warehouse", nil
	case !ok:
		return nil, "bflint writes no SQL for the " + m.AdapterType + " adapter; pass --dialect " + dialectNames(), nil
	case column == "":
		return nil, "the model's config names no partition_by field; pass --partition-column", nil
	case sk.Staging == "TODO":
		return nil, "the staging relation is the table dbt writes, which bflint cannot name", nil
	case target == "":
		return nil, "the model builds no relation", nil
	}
	spec := runsql.Spec{
		Dialect: dialect, Target: target, Staging: sk.Staging,
		Rollback:        "backfill_rollback." + sk.Name + "__pre_" + sk.ID,
		PartitionColumn: column, Grain: plan.Grain(sk.Grain), Start: start, End: end,
	}
	if sk.Known.Key != "" {
		spec.Key = node.Config.UniqueKey
	}
	if sk.RunCommand == "" {
		if model, compiled, ok := modelSQL(m, graph, node, macros, projectDir, manifestPath, target); ok {
			cs, ce := runsql.ControlBefore(spec.Grain, start, end)
			spec.Build = []runsql.Query{{First: start, Last: end, SQL: model}}
			spec.Control = &runsql.Control{Start: cs, End: ce, Build: []runsql.Query{{First: cs, Last: ce, SQL: model}}}
			if compiled.path != "" {
				spec.BuildFrom = compiled.describe(projectDir)
				sk.BuildNote = "the model's query as dbt compiled it (" + spec.BuildFrom + "), bounded to the range"
			}
		}
	}
	files, err := writeRunSQL(sk, spec, output)
	return files, "", err
}

// writeRunSQL generates the set of spec for the plan at output, under
// sql/ID/ beside it, and records in sk the paths the plan names; it
// refuses to overwrite a file.
func writeRunSQL(sk *skeleton, spec runsql.Spec, output string) ([]sqlFile, error) {
	dir := filepath.Join(filepath.Dir(output), "sql", sk.ID)
	var files []sqlFile
	sk.SQL = map[string]string{}
	for _, f := range runsql.Generate(spec) {
		p := filepath.Join(dir, f.Name)
		if _, err := os.Lstat(p); err == nil {
			return nil, inputErrorf("init -o: %s exists; bflint init does not overwrite SQL, which may hold answers. Remove it or pass another --id", p)
		}
		files = append(files, sqlFile{p, f.Text})
		sk.SQL[f.Key] = path.Join("sql", sk.ID, f.Name)
	}
	sk.Dialect, sk.Rollback = string(spec.Dialect), spec.Rollback
	if c := spec.Control; c != nil && sk.SQL[runsql.ControlKey] != "" {
		sk.ControlStart, sk.ControlEnd = spec.Grain.Format(c.Start), spec.Grain.Format(c.End)
	}
	return files, nil
}

func dialectList() []string {
	names := make([]string, len(runsql.Dialects))
	for i, d := range runsql.Dialects {
		names[i] = string(d)
	}
	return names
}

func dialectNames() string {
	names := dialectList()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
