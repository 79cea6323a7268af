package runcmd

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// DBT is a dbt invocation.
type DBT struct {
	// Program is the word that names dbt.
	Program Word
	// Subcommand is run, build, test, ...; nil when none is given.
	Subcommand *Word
	// Select are the values of --select, -s, --models and -m, Exclude of
	// --exclude, as written: dbt splits each further at spaces.
	Select, Exclude []Word
	// FullRefresh is the --full-refresh or -f flag, nil when absent.
	FullRefresh *Word
	// EventTimeStart (inclusive) and EventTimeEnd (exclusive) bound the
	// batches of microbatch models; dbt reads a value without a zone as
	// UTC.
	EventTimeStart, EventTimeEnd *Time
	Vars                         *Option
	// Target is -t or --target, the profile output dbt writes to; nil
	// when absent, and then dbt writes to the profile's default output.
	Target *Option
}

// Rebuilds reports whether the command builds models: dbt run or dbt
// build.
func (d *DBT) Rebuilds() bool {
	return d.Subcommand != nil && (d.Subcommand.Value == "run" || d.Subcommand.Value == "build")
}

// Airflow backfill commands.
const (
	// Airflow2 is "airflow dags backfill" (Airflow 2).
	Airflow2 = 2
	// Airflow3 is "airflow backfill create" (Airflow 3).
	Airflow3 = 3
)

// Airflow is an airflow invocation.
type Airflow struct {
	// Program is the word that names airflow.
	Program Word
	// Subcommand is the command group and command, such as dags backfill.
	Subcommand []Word
	// Backfill is Airflow2 or Airflow3 for the two backfill commands, 0
	// for any other.
	Backfill int
	// DAG is the DAG id: the first positional argument of dags backfill
	// and tasks run, the value of --dag-id for backfill create.
	DAG *Word
	// Start and End are the first and last logical dates, both inclusive:
	// -s/--start-date and -e/--end-date, or --from-date and --to-date.
	Start, End *Time
	// Switches, nil when absent. MarkSuccess is also read for
	// "airflow tasks run".
	MarkSuccess, ResetDagRuns, Yes, RunBackwards, DoNotPickle, DryRun *Word
	MaxActiveRuns, ReprocessBehavior                                  *Option
}

// recognise finds the dbt or airflow program among the command's words.
// When the word that names the tool is followed by the same name (docker
// exec airflow airflow ..., uv run --directory dbt dbt ...), the last one
// is the program.
func (c *Command) recognise() {
	for i := 0; i < len(c.Words); i++ {
		tool := toolOf(c.Words[i])
		if tool == "" {
			continue
		}
		for i+1 < len(c.Words) && toolOf(c.Words[i+1]) == tool {
			i++
		}
		if tool == "dbt" {
			c.DBT = parseDBT(c.Words[i], c.Words[i+1:])
		} else {
			c.Airflow = parseAirflow(c.Words[i], c.Words[i+1:])
		}
		return
	}
}

func toolOf(w Word) string {
	name := w.Value[strings.LastIndexByte(w.Value, '/')+1:]
	switch name {
	case "dbt", "dbtf":
		return "dbt"
	case "airflow":
		return "airflow"
	}
	return ""
}

var dbtFlags = flagSet{defs: defs(
	flagDef{"select", listFlag}, "-s", "--select", "-m", "--models", "--model",
	flagDef{"exclude", listFlag}, "--exclude",
	flagDef{"full-refresh", switchFlag}, "-f", "--full-refresh",
	flagDef{"event-time-start", valueFlag}, "--event-time-start",
	flagDef{"event-time-end", valueFlag}, "--event-time-end",
	flagDef{"vars", valueFlag}, "--vars",
	flagDef{"other", listFlag}, "--resource-type", "--resource-types", "--exclude-resource-type", "--exclude-resource-types",
	flagDef{"target", valueFlag}, "-t", "--target",
	flagDef{"other", valueFlag}, "--profile", "--profiles-dir", "--project-dir", "--selector", "--threads",
	"--state", "--defer-state", "--log-format", "--log-format-file", "--log-level", "--log-level-file", "--log-path",
	"--target-path", "--printer-width", "--indirect-selection", "--sample", "--output", "-o", "--output-keys", "--args",
)}

func parseDBT(program Word, args []Word) *DBT {
	d := &DBT{Program: program}
	dbtFlags.scan(args, func(a arg) {
		switch a.key {
		case "":
			if d.Subcommand == nil {
				w := a.flag
				d.Subcommand = &w
			}
		case "select":
			d.Select = append(d.Select, a.values...)
		case "exclude":
			d.Exclude = append(d.Exclude, a.values...)
		case "full-refresh":
			w := a.flag
			d.FullRefresh = &w
		case "event-time-start":
			d.EventTimeStart = newTime(a.option())
		case "event-time-end":
			d.EventTimeEnd = newTime(a.option())
		case "vars":
			o := a.option()
			d.Vars = &o
		case "target":
			o := a.option()
			d.Target = &o
		}
	})
	return d
}

var (
	airflow2Flags = flagSet{abbrev: true, defs: defs(
		flagDef{"start", valueFlag}, "-s", "--start-date",
		flagDef{"end", valueFlag}, "-e", "--end-date",
		flagDef{"mark-success", switchFlag}, "-m", "--mark-success",
		flagDef{"reset-dagruns", switchFlag}, "--reset-dagruns",
		flagDef{"yes", switchFlag}, "-y", "--yes",
		flagDef{"run-backwards", switchFlag}, "-B", "--run-backwards",
		flagDef{"donot-pickle", switchFlag}, "-x", "--donot-pickle",
		flagDef{"dry-run", switchFlag}, "-n", "--dry-run",
		flagDef{"other", valueFlag}, "-t", "--task-regex", "-c", "--conf", "-S", "--subdir", "--pool", "--delay-on-limit",
		flagDef{"other", switchFlag}, "-l", "--local", "-i", "--ignore-dependencies", "-I", "--ignore-first-depends-on-past",
		"-v", "--verbose", "--rerun-failed-tasks", "--continue-on-failures", "--disable-retry", "--treat-dag-as-regex",
		"--treat-dag-id-as-regex",
	)}
	airflow3Flags = flagSet{abbrev: true, defs: defs(
		flagDef{"dag", valueFlag}, "--dag-id",
		flagDef{"start", valueFlag}, "--from-date",
		flagDef{"end", valueFlag}, "--to-date",
		flagDef{"max-active-runs", valueFlag}, "--max-active-runs",
		flagDef{"reprocess-behavior", valueFlag}, "--reprocess-behavior",
		flagDef{"run-backwards", switchFlag}, "--run-backwards",
		flagDef{"dry-run", switchFlag}, "--dry-run",
		flagDef{"other", valueFlag}, "--dag-run-conf", "-o", "--output",
		flagDef{"other", switchFlag}, "--run-on-latest-version", "-v", "--verbose",
	)}
	airflowTaskFlags = flagSet{abbrev: true, defs: defs(
		flagDef{"mark-success", switchFlag}, "-m", "--mark-success",
		flagDef{"other", valueFlag}, "-S", "--subdir", "--pool", "--cfg-path", "--map-index", "-p", "--pickle",
	)}
)

func parseAirflow(program Word, args []Word) *Airflow {
	a := &Airflow{Program: program}
	for len(a.Subcommand) < 2 && len(args) > 0 && !isFlag(args[0]) {
		a.Subcommand = append(a.Subcommand, args[0])
		args = args[1:]
	}
	var fs flagSet
	// dags backfill and tasks run name the DAG by their first positional
	// argument; backfill create by --dag-id.
	positionalDAG := true
	switch a.subcommand() {
	case "dags backfill":
		a.Backfill, fs = Airflow2, airflow2Flags
	case "backfill create":
		a.Backfill, fs, positionalDAG = Airflow3, airflow3Flags, false
	case "tasks run":
		fs = airflowTaskFlags
	default:
		return a
	}
	fs.scan(args, func(f arg) {
		w := f.flag
		switch f.key {
		case "":
			if positionalDAG && a.DAG == nil {
				a.DAG = &w
			}
		case "dag":
			if f.valued {
				a.DAG = &f.values[0]
			}
		case "start":
			a.Start = newTime(f.option())
		case "end":
			a.End = newTime(f.option())
		case "mark-success":
			a.MarkSuccess = &w
		case "reset-dagruns":
			a.ResetDagRuns = &w
		case "yes":
			a.Yes = &w
		case "run-backwards":
			a.RunBackwards = &w
		case "donot-pickle":
			a.DoNotPickle = &w
		case "dry-run":
			a.DryRun = &w
		case "max-active-runs":
			o := f.option()
			a.MaxActiveRuns = &o
		case "reprocess-behavior":
			o := f.option()
			a.ReprocessBehavior = &o
		}
	})
	return a
}

func (a *Airflow) subcommand() string {
	parts := make([]string, len(a.Subcommand))
	for i, w := range a.Subcommand {
		parts[i] = w.Value
	}
	return strings.Join(parts, " ")
}

// defs builds a flag table from a flat list: a flagDef, then the names
// written for it, then the next flagDef.
func defs(items ...any) map[string]flagDef {
	m := map[string]flagDef{}
	var cur flagDef
	for _, it := range items {
		switch v := it.(type) {
		case flagDef:
			cur = v
		case string:
			m[v] = cur
		}
	}
	return m
}

// VarValues reads --vars, a YAML mapping, into each var's value as
// written (a date stays 2026-03-02); ok is false when there is no --vars,
// its value is dynamic ($VARS), or it is not a mapping of scalars dbt
// would accept.
func (d *DBT) VarValues() (values map[string]string, ok bool) {
	if d.Vars == nil || d.Vars.Value == nil || d.Vars.Value.Dynamic {
		return nil, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(d.Vars.Value.Value), &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	m := doc.Content[0]
	values = map[string]string{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode {
			values[k.Value] = v.Value
		}
	}
	return values, true
}

// SelectTerm is one term of a dbt selection in the subset bflint reads: a
// node name with the graph operators +name, N+name, name+ and name+N.
type SelectTerm struct {
	// Name is the node's name or dotted path, as written.
	Name string
	// Parents and Children are the depths of the operators: 0 without
	// one, -1 for no limit (a bare +), else N.
	Parents, Children int
}

// selectorTerm reads a term; see SelectTerm.
var selectorTerm = regexp.MustCompile(`^(?:(\d*)\+)?([^+]+?)(?:\+(\d*))?$`)

// SelectTerms reads the terms of dbt --select or --exclude values.
// Intersections (a,b), methods (tag:, path:, state:, ...), wildcards,
// @name and words known only when the command runs are left out: what
// they select cannot be told from the text.
func SelectTerms(values []Word) []SelectTerm {
	var out []SelectTerm
	for _, w := range values {
		if w.Dynamic {
			continue
		}
		for _, term := range strings.Fields(w.Value) {
			if strings.ContainsAny(term, ",:*?[@/") {
				continue
			}
			m := selectorTerm.FindStringSubmatch(term)
			if m == nil {
				continue
			}
			t := SelectTerm{Name: m[2]}
			if strings.HasPrefix(term, m[1]+"+") {
				t.Parents = operatorDepth(m[1])
			}
			if strings.HasSuffix(term, "+"+m[3]) {
				t.Children = operatorDepth(m[3])
			}
			out = append(out, t)
		}
	}
	return out
}

// Selects reports whether dbt --select values name the model name in a
// term SelectTerms reads: by its name, or a dotted path or unique_id
// ending in it, in any case.
func Selects(values []Word, name string) bool {
	name = strings.ToLower(name)
	for _, t := range SelectTerms(values) {
		if term := strings.ToLower(t.Name); term == name || strings.HasSuffix(term, "."+name) {
			return true
		}
	}
	return false
}

// operatorDepth reads the N of a graph operator; -1, no limit, when it is
// absent.
func operatorDepth(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return -1
}

// EventTimeValue writes an instant as dbt's --event-time-start and
// --event-time-end read it: a date at midnight, else a date and time, UTC.
func EventTimeValue(t time.Time) string {
	t = t.UTC()
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02T15:04:05")
}
