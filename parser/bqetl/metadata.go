package bqetl

import (
	"fmt"
	"go/token"
	"math"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
	"go.yaml.in/yaml/v3"
)

// Table is what bflint reads of a table's metadata.yaml: how bqetl
// partitions and schedules it. The file holds
// much more (owners, labels, descriptions), which no check needs, so
// unknown keys are no problem here.
type Table struct {
	File *source.File // nil when the table has no metadata.yaml
	// Partitioning is bigquery.time_partitioning.type (day, month,
	// hour), Field its field; both unset for an unpartitioned table.
	Partitioning yamlx.String
	Field        yamlx.String
	// ExpirationDays is bigquery.time_partitioning.expiration_days.
	ExpirationDays Retention
	// DependsOnPast is scheduling.depends_on_past: each run reads the
	// table's previous partition.
	DependsOnPast yamlx.Bool
	// DateParameter is scheduling.date_partition_parameter. Unset, bqetl
	// binds submission_date; set to null (Null), the query writes the
	// whole table on every run.
	DateParameter yamlx.String
	Null          bool
	// Offset is scheduling.date_partition_offset, in days; 0 when the
	// value is not a whole number of days a date can move by (a problem).
	Offset yamlx.Int
	// Deprecated is set for a table marked deprecated (deprecated: true,
	// or the label): no longer maintained.
	Deprecated bool
	// Parameters is set when scheduling.parameters lists any: the query
	// takes a date (or other values) that way, not only through
	// date_partition_parameter.
	Parameters bool
	// Scheduled is set when scheduling.dag_name names the DAG that runs
	// the query: without one no bqetl run computes the table's partitions.
	Scheduled bool
	// Owners are the table's owners, the people an entry's watchers
	// usually are.
	Owners []string
	// Appends is the scheduling.arguments item that makes bqetl append
	// the query's rows to the table (--append_table) instead of
	// replacing what the run writes; unset without one.
	Appends yamlx.Field
	// Problems are the values bqetl cannot use: a number of days that is
	// not one (BF001 on the table's entries).
	Problems []yamlx.Problem
}

// AppendsTable reports whether a query argument bqetl passes to bq makes
// it append: --append_table, with or without a value other than false.
func AppendsTable(arg string) bool {
	name, value, _ := strings.Cut(strings.TrimSpace(arg), "=")
	switch name {
	case "--append_table", "--append-table":
		return !strings.EqualFold(value, "false")
	}
	return false
}

// Retention is how long the table keeps a partition: expiration_days,
// which bqetl passes on to BigQuery as a number of days, whole or not.
type Retention struct {
	yamlx.Field
	// Days are the whole days kept, when Limited.
	Days int
	// Limited is set for a retention shorter than the calendar: a value
	// longer (1e20, .inf) never deletes a partition any date can name.
	Limited bool
	// Raw is the value as written, for messages.
	Raw string
}

// calendarDays spans every date a plan can name, 0001-01-01 to
// 9999-12-31: a number of days past it moves no date to another date, so
// an offset that large is no offset bqetl can compute (Python's dates end
// there too) and a retention that long keeps everything.
const calendarDays = 3_652_059

// ReadTable reads a metadata.yaml; a file that is not YAML yields a Table
// with what could be read, which is nothing.
func ReadTable(f *source.File) *Table {
	if f == nil {
		return &Table{}
	}
	t := readTable(f.Content, f.LineCol)
	t.File = f
	return t
}

// sources is the table's metadata.yaml, where findings on its values
// point, when there is one.
func (t *Table) sources() []*source.File {
	if t.File == nil {
		return nil
	}
	return []*source.File{t.File}
}

// readTable reads metadata.yaml content; at places a line and column,
// token.NoPos when the positions are not wanted (the lineage reads every
// table's metadata and reports on none).
func readTable(content []byte, at func(line, col int) token.Pos) *Table {
	t := &Table{}
	var doc yaml.Node
	if yaml.Unmarshal(content, &doc) != nil || len(doc.Content) == 0 {
		return t
	}
	root := doc.Content[0]
	field := func(k, v *yaml.Node) yamlx.Field {
		return yamlx.Field{Key: at(k.Line, k.Column), Value: at(v.Line, v.Column), Set: !isNull(v)}
	}
	// deprecated: true at the top, or as a label.
	for _, keys := range [][]string{{"deprecated"}, {"labels", "deprecated"}} {
		if _, v := lookup(root, keys...); v != nil && v.Kind == yaml.ScalarNode && strings.EqualFold(v.Value, "true") {
			t.Deprecated = true
		}
	}
	if k, v := lookup(root, "bigquery", "time_partitioning", "type"); v != nil && v.Kind == yaml.ScalarNode {
		t.Partitioning = yamlx.String{Field: field(k, v), V: strings.ToLower(v.Value)}
	}
	if k, v := lookup(root, "bigquery", "time_partitioning", "field"); v != nil && v.Kind == yaml.ScalarNode {
		t.Field = yamlx.String{Field: field(k, v), V: v.Value}
	}
	problem := func(v *yaml.Node, format string, args ...any) {
		t.Problems = append(t.Problems, yamlx.Problem{Pos: at(v.Line, v.Column), Message: fmt.Sprintf(format, args...)})
	}
	if k, v := lookup(root, "bigquery", "time_partitioning", "expiration_days"); v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
		var days float64
		err := v.Decode(&days)
		if err != nil {
			// A quoted number is a number to bqetl, whose model coerces it.
			days, err = strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
		}
		switch {
		case err != nil || math.IsNaN(days):
			problem(v, "expiration_days %q is not a number of days: bqetl cannot give the table's partitions an expiry", v.Value)
		case days < 0:
			problem(v, "expiration_days %s is negative: BigQuery refuses a partition expiry before the partition exists", v.Value)
		default:
			t.ExpirationDays = Retention{Field: field(k, v), Raw: v.Value}
			if days < calendarDays {
				t.ExpirationDays.Days, t.ExpirationDays.Limited = int(days), true
			}
		}
	}
	if k, v := lookup(root, "scheduling", "depends_on_past"); v != nil && v.Kind == yaml.ScalarNode {
		t.DependsOnPast = yamlx.Bool{Field: field(k, v), V: v.Value == "true" || v.Value == "True"}
	}
	if k, v := lookup(root, "scheduling", "date_partition_parameter"); v != nil {
		t.DateParameter = yamlx.String{Field: field(k, v), V: v.Value}
		t.Null = isNull(v)
		if t.Null {
			// Present, but null: the key itself is what a finding points at.
			t.DateParameter.Set = false
			t.DateParameter.Key = at(k.Line, k.Column)
		}
	}
	if _, v := lookup(root, "scheduling", "parameters"); v != nil && v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
		t.Parameters = true
	}
	if _, v := lookup(root, "scheduling", "dag_name"); v != nil && v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) != "" {
		t.Scheduled = true
	}
	if _, v := lookup(root, "owners"); v != nil && v.Kind == yaml.SequenceNode {
		for _, o := range v.Content {
			if o.Kind == yaml.ScalarNode && o.Value != "" {
				t.Owners = append(t.Owners, o.Value)
			}
		}
	}
	if _, v := lookup(root, "scheduling", "arguments"); v != nil && v.Kind == yaml.SequenceNode {
		for _, a := range v.Content {
			if a.Kind == yaml.ScalarNode && AppendsTable(a.Value) {
				t.Appends = yamlx.Field{Key: at(a.Line, a.Column), Value: at(a.Line, a.Column), Set: true}
			}
		}
	}
	if k, v := lookup(root, "scheduling", "date_partition_offset"); v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
		var days int64
		err := v.Decode(&days)
		if err != nil {
			days, err = strconv.ParseInt(strings.TrimSpace(v.Value), 10, 64)
		}
		switch {
		case err != nil:
			problem(v, "date_partition_offset %q is not a whole number of days: bqetl cannot compute the partition each date writes", v.Value)
		case days <= -calendarDays || days >= calendarDays:
			problem(v, "date_partition_offset %s moves every date off the calendar: bqetl fails computing the partition each date writes", v.Value)
		default:
			t.Offset = yamlx.Int{Field: field(k, v), V: int(days)}
		}
	}
	return t
}

// lookup follows keys down nested mappings and returns the last key's node
// and value, or nils.
func lookup(n *yaml.Node, keys ...string) (key, value *yaml.Node) {
	for _, want := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil, nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == want {
				key, next = n.Content[i], n.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil, nil
		}
		n = next
	}
	return key, n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}
