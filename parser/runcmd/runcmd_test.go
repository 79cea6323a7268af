package runcmd

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// values lists each command's words as the program receives them.
func values(cmds []*Command) [][]string {
	var out [][]string
	for _, c := range cmds {
		var ws []string
		for _, w := range c.Words {
			ws = append(ws, w.Value)
		}
		out = append(out, ws)
	}
	return out
}

func TestWords(t *testing.T) {
	tests := []struct {
		line string
		want [][]string
	}{
		{`dbt run`, [][]string{{"dbt", "run"}}},
		{`  dbt   run  `, [][]string{{"dbt", "run"}}},
		{`dbt run --vars '{start: "2026-01-14"}'`, [][]string{{"dbt", "run", "--vars", `{start: "2026-01-14"}`}}},
		{`echo "a \"b\" \$c \x" 'd\e'`, [][]string{{"echo", `a "b" $c \x`, `d\e`}}},
		{`echo a\ b \'c`, [][]string{{"echo", "a b", "'c"}}},
		{"dbt run \\\n  --select x", [][]string{{"dbt", "run", "--select", "x"}}},
		{"dbt run \\\r\n  -s x", [][]string{{"dbt", "run", "-s", "x"}}},
		{"echo \"a\\\nb\"", [][]string{{"echo", "ab"}}},
		{`cd x && dbt run || echo failed; dbt test | tee log & wait`, [][]string{{"cd", "x"}, {"dbt", "run"}, {"echo", "failed"}, {"dbt", "test"}, {"tee", "log"}, {"wait"}}},
		{"dbt seed\ndbt run", [][]string{{"dbt", "seed"}, {"dbt", "run"}}},
		{`(cd x && dbt run)`, [][]string{{"cd", "x"}, {"dbt", "run"}}},
		{`DBT_PROFILES_DIR=. FOO="a b" dbt run`, [][]string{{"dbt", "run"}}},
		{`X=1`, nil},
		{`"X"=1 dbt`, [][]string{{"X=1", "dbt"}}},
		{`dbt run > out.log 2>&1`, [][]string{{"dbt", "run"}}},
		{`dbt run &> out.log`, [][]string{{"dbt", "run"}}},
		{`dbt run 2> err.log --select x`, [][]string{{"dbt", "run", "--select", "x"}}},
		{`dbt run # --full-refresh`, [][]string{{"dbt", "run"}}},
		{`dbt run a#b`, [][]string{{"dbt", "run", "a#b"}}},
		{`dbt run -s $MODEL "${X}" $(date +%F) ` + "`date`", [][]string{{"dbt", "run", "-s", "$MODEL", "${X}", "$(date +%F)", "`date`"}}},
		{`echo "$(echo "a b")"`, [][]string{{"echo", `$(echo "a b")`}}},
		{`airflow dags backfill -s {{ ds }} dag`, [][]string{{"airflow", "dags", "backfill", "-s", "{{ ds }}", "dag"}}},
		{`echo {x} $ end\`, [][]string{{"echo", "{x}", "$", `end\`}}},
		{`echo '' ""`, [][]string{{"echo", "", ""}}},
		{``, nil},
		{`;;&&`, nil},
	}
	for _, tt := range tests {
		cmds, err := Parse(tt.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.line, err)
			continue
		}
		if got := values(cmds); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestOffsets(t *testing.T) {
	line := `FOO=1 dbt run --select 'a b' "--event-time-end=2026-07-01"`
	cmds, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	c := cmds[0]
	if c.Assignments[0].Offset != 0 || c.Words[0].Offset != 6 {
		t.Errorf("offsets %d %d", c.Assignments[0].Offset, c.Words[0].Offset)
	}
	sel := c.DBT.Select[0]
	if sel.Value != "a b" || line[sel.Offset:sel.End] != `'a b'` {
		t.Errorf("select %q at %q", sel.Value, line[sel.Offset:sel.End])
	}
	end := c.DBT.EventTimeEnd
	if got := line[end.Flag.Offset:end.Flag.End]; got != `"--event-time-end` {
		t.Errorf("flag at %q", got)
	}
	if got := line[end.Value.Offset:]; got != `2026-07-01"` {
		t.Errorf("value at %q", got)
	}
	dyn, _ := Parse(`dbt run -s "$X" y`)
	if !dyn[0].DBT.Select[0].Dynamic || dyn[0].DBT.Select[1].Dynamic {
		t.Errorf("dynamic words misread: %+v", dyn[0].DBT.Select)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		line   string
		offset int
		msg    string
	}{
		{`dbt run --vars '{a: 1}`, 15, "unterminated single quote"},
		{`dbt run -s "fct_orders`, 11, "unterminated double quote"},
		{`echo "ok" "a\"`, 10, "unterminated double quote"},
		{`dbt run -s $(ls`, 11, "unterminated $( command substitution"},
		{`dbt run -s "$(ls"`, 12, "unterminated $( command substitution"},
		{"dbt run -s `ls", 11, "unterminated ` command substitution"},
		{`dbt run -s ${X`, 11, "unterminated ${ parameter expansion"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.line)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): err = %v, want a SyntaxError", tt.line, err)
			continue
		}
		if se.Offset != tt.offset || se.Msg != tt.msg {
			t.Errorf("Parse(%q): %q at %d, want %q at %d", tt.line, se.Msg, se.Offset, tt.msg, tt.offset)
		}
	}
}

func day(s string) time.Time {
	t, _ := time.Parse("2006-01-02", s)
	return t
}

func TestDBT(t *testing.T) {
	cmds, err := Parse(`cd transform && uv run dbt --log-format json build -s fct_orders+ tag:daily --exclude x -f --target prod ` +
		`--event-time-start 2026-01-14 --event-time-end=2026-07-01T00:00:00Z --vars '{a: 1}'`)
	if err != nil {
		t.Fatal(err)
	}
	if cmds[0].DBT != nil {
		t.Errorf("cd transform read as dbt")
	}
	d := cmds[1].DBT
	if d == nil || d.Program.Value != "dbt" || !d.Rebuilds() || d.Subcommand.Value != "build" {
		t.Fatalf("dbt build not recognised: %+v", d)
	}
	var sel []string
	for _, w := range d.Select {
		sel = append(sel, w.Value)
	}
	if !reflect.DeepEqual(sel, []string{"fct_orders+", "tag:daily"}) || len(d.Exclude) != 1 || d.FullRefresh == nil || d.FullRefresh.Value != "-f" {
		t.Errorf("select %q exclude %d full refresh %v", sel, len(d.Exclude), d.FullRefresh)
	}
	s, e := d.EventTimeStart, d.EventTimeEnd
	if !s.Known() || !s.T.Equal(day("2026-01-14")) || s.Zoned {
		t.Errorf("start %+v", s)
	}
	if !e.Known() || !e.T.Equal(day("2026-07-01")) || !e.Zoned {
		t.Errorf("end %+v", e)
	}
	if d.Vars == nil || d.Vars.Value.Value != "{a: 1}" {
		t.Errorf("vars %+v", d.Vars)
	}

	for line, want := range map[string]string{
		`dbt run -m a b -t prod`:                "a b",
		`dbt run --models=a b --full-refresh`:   "a b",
		`dbt run -sa`:                           "a",
		`dbt --debug --log-level warn run -s a`: "a",
		`uv run --directory dbt dbt run -s a`:   "a",
	} {
		cmds, _ := Parse(line)
		d := cmds[0].DBT
		var got []string
		for _, w := range d.Select {
			got = append(got, w.Value)
		}
		if strings.Join(got, " ") != want || d.Subcommand == nil || d.Subcommand.Value != "run" {
			t.Errorf("%q: select %q, subcommand %v", line, got, d.Subcommand)
		}
	}

	cmds, _ = Parse(`dbt run --event-time-start "$START" --event-time-end 2026-02-30 --event-time-end`)
	d = cmds[0].DBT
	if d.EventTimeStart.Known() || d.EventTimeStart.Err != nil {
		t.Errorf("a dynamic start is neither known nor wrong: %+v", d.EventTimeStart)
	}
	if d.EventTimeEnd.Value != nil {
		t.Errorf("the last --event-time-end has no value")
	}
	cmds, _ = Parse(`dbt run --event-time-end 2026-02-30`)
	if cmds[0].DBT.EventTimeEnd.Err == nil {
		t.Errorf("2026-02-30 read as a date")
	}
}

func TestAirflow(t *testing.T) {
	cmds, err := Parse(`airflow dags backfill -s 2026-01-14 --end-date=2026-06-30 -yB -m --reset --donot-pickle orders_daily`)
	if err != nil {
		t.Fatal(err)
	}
	a := cmds[0].Airflow
	if a == nil || a.Backfill != Airflow2 || a.DAG == nil || a.DAG.Value != "orders_daily" {
		t.Fatalf("dags backfill not recognised: %+v", a)
	}
	if !a.Start.Known() || !a.Start.T.Equal(day("2026-01-14")) || !a.End.Known() || !a.End.T.Equal(day("2026-06-30")) {
		t.Errorf("dates %+v %+v", a.Start, a.End)
	}
	if a.Yes == nil || a.RunBackwards == nil || a.MarkSuccess == nil || a.ResetDagRuns == nil || a.DoNotPickle == nil {
		t.Errorf("switches %+v", a)
	}
	if a.RunBackwards.Value != "B" {
		t.Errorf("-B in a cluster is %q", a.RunBackwards.Value)
	}

	cmds, _ = Parse(`airflow dags backfill -ys2026-01-14 -t 'load_.*' dag`)
	a = cmds[0].Airflow
	if a.Yes == nil || !a.Start.Known() || a.DAG.Value != "dag" || a.End != nil {
		t.Errorf("clustered -ys: %+v", a)
	}

	cmds, _ = Parse(`docker exec airflow airflow backfill create --dag-id orders --from-date 2026-01-14 --to-date 2026-06-30T00:00:00+02:00 ` +
		`--max-active-runs 4 --reprocess-behavior completed --run-backwards --dry-run`)
	a = cmds[0].Airflow
	if a == nil || a.Backfill != Airflow3 || a.DAG.Value != "orders" || a.MaxActiveRuns.Value.Value != "4" || a.ReprocessBehavior.Value.Value != "completed" ||
		a.RunBackwards == nil || a.DryRun == nil {
		t.Fatalf("backfill create not recognised: %+v", a)
	}
	if !a.End.Zoned || !a.End.T.Equal(time.Date(2026, 6, 29, 22, 0, 0, 0, time.UTC)) {
		t.Errorf("zoned end %v", a.End.T)
	}

	cmds, _ = Parse(`airflow tasks run -m orders load 2026-01-14`)
	if a := cmds[0].Airflow; a.Backfill != 0 || a.MarkSuccess == nil {
		t.Errorf("tasks run -m: %+v", a)
	}
	cmds, _ = Parse(`airflow tasks test orders load 2026-01-14 -m`)
	if a := cmds[0].Airflow; a.MarkSuccess != nil {
		t.Errorf("tasks test -m (post-mortem) read as mark success")
	}
	cmds, _ = Parse(`airflow dags backfill --re dag`)
	if a := cmds[0].Airflow; a.ResetDagRuns != nil {
		t.Errorf("--re is ambiguous (--reset-dagruns, --rerun-failed-tasks)")
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in    string
		want  time.Time
		zoned bool
		bad   bool
	}{
		{in: "2026-01-14", want: day("2026-01-14")},
		{in: "2026-01-14T05:30", want: day("2026-01-14").Add(5*time.Hour + 30*time.Minute)},
		{in: "2026-01-14 05:30:15.5", want: day("2026-01-14").Add(5*time.Hour + 30*time.Minute + 15500*time.Millisecond)},
		{in: "2026-01-14T00:00:00Z", want: day("2026-01-14"), zoned: true},
		{in: "2026-01-14T00:00:00+0530", want: day("2026-01-13").Add(18*time.Hour + 30*time.Minute), zoned: true},
		{in: "2026-01-14T00:00:00-05", want: day("2026-01-14").Add(5 * time.Hour), zoned: true},
		{in: "2026-02-29", bad: true},
		{in: "2026-13-01", bad: true},
		{in: "2026-01-14T24:00", bad: true},
		{in: "yesterday", bad: true},
		{in: "2026-01", bad: true},
		{in: "2026-01-14T00:00+25:00", bad: true},
	}
	for _, tt := range tests {
		got, zoned, err := ParseTime(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseTime(%q) = %v, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) || zoned != tt.zoned {
			t.Errorf("ParseTime(%q) = %v %v %v, want %v %v", tt.in, got, zoned, err, tt.want, tt.zoned)
		}
	}
}

func TestSelectTerms(t *testing.T) {
	words := []Word{{Value: "+fct_orders 2+int_orders revenue_daily+ marts.revenue_monthly+1"}, {Value: "tag:nightly a,b path/x @orders *_v1 0+plain"}, {Value: "$MODELS", Dynamic: true}}
	got := SelectTerms(words)
	want := []SelectTerm{
		{Name: "fct_orders", Parents: -1},
		{Name: "int_orders", Parents: 2},
		{Name: "revenue_daily", Children: -1},
		{Name: "marts.revenue_monthly", Children: 1},
		{Name: "plain"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("SelectTerms = %+v, want %+v", got, want)
	}
}

func TestEventTimeValue(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), "2026-07-01"},
		{time.Date(2026, 7, 1, 5, 0, 0, 0, time.UTC), "2026-07-01T05:00:00"},
		// An instant given in another zone is written in UTC, as dbt reads it.
		{time.Date(2026, 7, 1, 2, 0, 0, 0, time.FixedZone("CEST", 2*3600)), "2026-07-01"},
	} {
		if got := EventTimeValue(c.t); got != c.want {
			t.Errorf("EventTimeValue(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}
