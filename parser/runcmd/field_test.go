package runcmd

import (
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

func TestFieldPositions(t *testing.T) {
	tests := []struct {
		name, yaml string
		// at is the text the end date's position must start with in the
		// file.
		at string
	}{
		{"plain", "run:\n  command: dbt run --event-time-end 2026-07-01  # comment\n", "2026-07-01  #"},
		{"double quoted", "run:\n  command: \"dbt run --event-time-end 2026-07-01\"\n", "2026-07-01\""},
		{"single quoted", "run:\n  command: 'dbt run --event-time-end \"2026-07-01\"'\n", "\"2026-07-01\"'"},
		{"escaped", "run:\n  command: \"dbt run --event-time-end \\\"2026-07-01\\\"\"\n", "\"dbt run"},
		{"block", "run:\n  command: |\n    dbt run \\\n      --event-time-end 2026-07-01\n", "2026-07-01\n"},
		{"folded block", "run:\n  command: >-\n    dbt run --select m\n    --event-time-end 2026-07-01\n", "2026-07-01\n"},
		{"folded block, one line", "run:\n  command: >-\n    dbt run --event-time-end 2026-07-01\n", "2026-07-01\n"},
		{"folded plain", "run:\n  command: dbt run\n    --event-time-end 2026-07-01\n", "2026-07-01\n"},
		// Escapes change the value: every offset points at the value's start.
		{"escaped over lines", "run:\n  command: \"dbt run\\t\n    --event-time-end 2026-07-01\"\n", "\"dbt run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "bflint: 1\nid: a\ntarget: t\n" + tt.yaml
			f := source.Add(token.NewFileSet(), "p.backfill.yaml", []byte(src))
			p := plan.Parse(f)
			fd := Read(f, p.Run.Command)
			if fd == nil || fd.Err != nil || len(fd.Commands) != 1 {
				t.Fatalf("Read: %+v", fd)
			}
			end := fd.Commands[0].DBT.EventTimeEnd
			if !end.Known() {
				t.Fatalf("end not read: %+v", end)
			}
			if got := src[f.Offset(fd.Pos(end.Value.Offset)):]; !strings.HasPrefix(got, tt.at) {
				t.Errorf("the end date points at %q, want %q", got, tt.at)
			}
		})
	}
	f := source.Add(token.NewFileSet(), "p.backfill.yaml", []byte("run:\n  command: dbt run -s 'x\n"))
	p := plan.Parse(f)
	fd := Read(f, p.Run.Command)
	if fd.Err == nil || f.Offset(fd.Pos(fd.Err.Offset)) != strings.Index(string(f.Content), "'x") {
		t.Errorf("an unterminated quote is reported at %+v", fd.Err)
	}
	if Read(f, plan.String{}) != nil {
		t.Errorf("a plan without run.command has a field")
	}
}

// FuzzRead checks that every offset of a command read from a plan maps
// into the plan file, and that each line piece of a command spread over
// lines holds exactly the bytes of the value it stands for.
func FuzzRead(f *testing.F) {
	f.Add("run:\n  command: >-\n    dbt run --select m\n    --event-time-end 2026-07-01\n")
	f.Add("run:\n  command: |\n    dbt run \\\n      -s m\n")
	f.Add("run:\n  command: dbt run\n    --vars '{a: 1}'\n")
	f.Fuzz(func(t *testing.T, doc string) {
		src := "bflint: 1\nid: a\ntarget: t\n" + doc
		file := source.Add(token.NewFileSet(), "p.backfill.yaml", []byte(src))
		p := plan.Parse(file)
		if p.Run == nil || !p.Run.Command.Set {
			return
		}
		fd := Read(file, p.Run.Command)
		value := p.Run.Command.V
		for off := 0; off <= len(value); off++ {
			if pos := fd.Pos(off); !file.Contains(pos) {
				t.Fatalf("offset %d of %q maps outside the file", off, value)
			}
		}
		for _, pc := range fd.pieces {
			if src[pc.file:pc.file+pc.n] != value[pc.value:pc.value+pc.n] {
				t.Fatalf("piece %+v of %q holds %q", pc, value, src[pc.file:pc.file+pc.n])
			}
		}
	})
}
