package sqlparse

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/pgjson"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// The parse through pg_query's JSON (internal/pgjson) must give the trees
// and errors pg_query.Parse gives, on every statement bflint hands it.

// corpusStatements returns the normalised text of every statement of the
// .sql files under dirs, as bflint hands it to the parser.
func corpusStatements(tb testing.TB, dirs ...string) []string {
	tb.Helper()
	var out []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".sql") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, st := range Parse(string(src), Options{}).Statements {
				if st.Text != "" {
					out = append(out, st.Text)
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// TestParseFastMatchesProtobuf compares pgjson.Parse with pg_query.Parse
// on every statement of the corpora, normalised as Parse hands them over.
func TestParseFastMatchesProtobuf(t *testing.T) {
	dirs := []string{filepath.Join("..", "..", "testdata"), filepath.Join("..", "..", "examples")}
	if dir := os.Getenv("BFLINT_PGJSON_CORPUS"); dir != "" {
		dirs = append(dirs, dir)
	}
	stmts := corpusStatements(t, dirs...)
	if len(stmts) < 100 {
		t.Fatalf("only %d corpus statements: is testdata in place?", len(stmts))
	}
	compared, errs := 0, 0
	for _, text := range stmts {
		want, wantErr := pg_query.Parse(text)
		got, gotErr := pgjson.Parse(text)
		if wantErr != nil {
			errs++
			var g, w *pgparser.Error
			same := gotErr != nil && reflect.TypeOf(gotErr) == reflect.TypeOf(wantErr) &&
				(errors.As(gotErr, &g) && errors.As(wantErr, &w) && *g == *w || gotErr.Error() == wantErr.Error())
			if !same {
				t.Errorf("%q: error %v, want %v", text, gotErr, wantErr)
			}
			continue
		}
		compared++
		if gotErr != nil {
			t.Errorf("%q: %v", text, gotErr)
			continue
		}
		if !proto.Equal(want, got) {
			t.Errorf("%q: trees differ\nprotobuf: %s\nfast:     %s", text, prototext.Format(want), prototext.Format(got))
		}
	}
	t.Logf("%d corpus statements: %d trees compared, %d errors compared", len(stmts), compared, errs)
}

// benchStatements are the statements of the realworld corpus, or of the
// corpus under $BFLINT_PGJSON_CORPUS.
func benchStatements(b *testing.B) []string {
	dir := os.Getenv("BFLINT_PGJSON_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "sql", "realworld")
	}
	var out []string
	for _, text := range corpusStatements(b, dir) {
		if _, err := pg_query.Parse(text); err == nil {
			out = append(out, text)
		}
	}
	b.Logf("%d statements, %d bytes", len(out), len(strings.Join(out, "")))
	return out
}

// BenchmarkParseFast and BenchmarkParseProtobuf parse every statement of
// the corpus, through JSON and through protobuf.
func BenchmarkParseFast(b *testing.B) {
	stmts := benchStatements(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range stmts {
			if _, err := pgjson.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParseProtobuf(b *testing.B) {
	stmts := benchStatements(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range stmts {
			if _, err := pg_query.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseToJSON is the parser alone, the part of BenchmarkParseFast
// that is not decoding.
func BenchmarkParseToJSON(b *testing.B) {
	stmts := benchStatements(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range stmts {
			if _, err := pg_query.ParseToJSON(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
