package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Guess guesses the warehouse a SQL file is written for, for the
// coverage report; bflint never reads SQL by it. A file with Jinja is
// "dbt". Otherwise each of "bigquery", "snowflake" and "databricks" counts
// the distinct constructs of the file that only it writes, and the one
// with most wins (ties in that order); with none, "postgres".
//
//   - bigquery: a "#" comment, a back-ticked name with a dot or a dash
//     (`project.dataset.table`), OPTIONS(...), arr[SAFE_OFFSET(n)] and its
//     kin, FOR SYSTEM_TIME, DECLARE, a TEMP FUNCTION, COUNTIF, SAFE.f()
//   - snowflake: COPY INTO with FILE_FORMAT or an @stage, INSERT OVERWRITE
//     INTO, IFF, FLATTEN, EXCLUDE, TRANSIENT, CLONE, $1 stage columns,
//     SWAP WITH, ZEROIFNULL
//   - databricks: INSERT OVERWRITE without INTO, INSERT INTO TABLE,
//     REPLACE WHERE, LATERAL VIEW, back-ticked names without dots
//     (`db`.`t`), USING DELTA, TBLPROPERTIES, ZORDER, SCHEMA EVOLUTION,
//     explode(), STRUCT<name: type>, SHALLOW or DEEP CLONE, RESTORE TABLE,
//     COPY INTO's FILEFORMAT and COPY_OPTIONS
//
// QUALIFY, :: casts, col:field paths and ARRAY<...> are left out: more
// than one of them writes those.
func Guess(src string) string {
	lexed := sqltext.LexPooled(src)
	defer lexed.Release()
	toks := lexed.Tokens
	if jinja.Contains(toks) {
		return "dbt"
	}
	seen := map[string]map[string]bool{"bigquery": {}, "snowflake": {}, "databricks": {}}
	mark := func(dialect, construct string) { seen[dialect][construct] = true }
	for _, t := range toks {
		if t.Kind == sqltext.LineComment && src[t.Start] == '#' {
			mark("bigquery", "#")
		}
	}
	code := lexed.Code
	cur := sqltext.NewCursor(src, code)
	word := cur.Word
	is := func(i int, s string) bool { return i >= 0 && i < len(code) && code[i].Text(src) == s }
	for i, t := range code {
		switch t.Kind {
		case sqltext.Backtick:
			if strings.ContainsAny(t.Text(src), ".-") {
				mark("bigquery", "`a.b`")
			} else {
				mark("databricks", "`a`")
			}
		case sqltext.Param:
			switch text := t.Text(src); {
			case text[0] == '$':
				mark("snowflake", "$1")
			case text[0] == '@' && word(i-1) == "FROM":
				mark("snowflake", "@stage")
			}
		}
		switch w := word(i); w {
		case "OPTIONS", "COUNTIF", "IFF", "FLATTEN", "ZEROIFNULL", "EXPLODE", "POSEXPLODE":
			if is(i+1, "(") {
				mark(map[string]string{"OPTIONS": "bigquery", "COUNTIF": "bigquery", "IFF": "snowflake", "FLATTEN": "snowflake",
					"ZEROIFNULL": "snowflake", "EXPLODE": "databricks", "POSEXPLODE": "databricks"}[w], w)
			}
		case "SAFE_OFFSET", "SAFE_ORDINAL", "ORDINAL", "OFFSET":
			if is(i-1, "[") {
				mark("bigquery", w)
			}
		case "SAFE":
			if is(i+1, ".") {
				mark("bigquery", w)
			}
		case "SYSTEM_TIME", "DECLARE":
			mark("bigquery", w)
		case "FUNCTION":
			if w := word(i - 1); w == "TEMP" || w == "TEMPORARY" {
				mark("bigquery", "TEMP FUNCTION")
			}
		case "FILE_FORMAT", "EXCLUDE", "TRANSIENT":
			mark("snowflake", w)
		case "CLONE":
			if w := word(i - 1); w == "SHALLOW" || w == "DEEP" {
				mark("databricks", "SHALLOW CLONE")
			} else {
				mark("snowflake", w)
			}
		case "SWAP":
			if word(i+1) == "WITH" {
				mark("snowflake", "SWAP WITH")
			}
		case "OVERWRITE":
			if word(i-1) == "INSERT" && word(i+1) == "INTO" {
				mark("snowflake", "INSERT OVERWRITE INTO")
			} else if word(i-1) == "INSERT" {
				mark("databricks", "INSERT OVERWRITE")
			}
		case "TABLE":
			switch word(i - 1) {
			case "INTO":
				if word(i-2) == "INSERT" {
					mark("databricks", "INSERT INTO TABLE")
				}
			case "RESTORE":
				mark("databricks", "RESTORE TABLE")
			}
		case "TBLPROPERTIES", "ZORDER", "FILEFORMAT", "COPY_OPTIONS":
			mark("databricks", w)
		case "STRUCT":
			if is(i+1, "<") && is(i+3, ":") {
				mark("databricks", "STRUCT<name: type>")
			}
		default:
			if a, ok := afterWord[w]; ok && word(i-1) == a.prev {
				mark(a.dialect, a.prev+" "+w)
			}
		}
	}
	best, most := "postgres", 0
	for _, d := range []string{"bigquery", "snowflake", "databricks"} {
		if n := len(seen[d]); n > most {
			best, most = d, n
		}
	}
	return best
}

// afterWord are the words that show a dialect when the word before them
// is prev: REPLACE WHERE, LATERAL VIEW, USING DELTA, SCHEMA EVOLUTION.
var afterWord = map[string]struct{ prev, dialect string }{
	"WHERE": {"REPLACE", "databricks"}, "VIEW": {"LATERAL", "databricks"},
	"DELTA": {"USING", "databricks"}, "EVOLUTION": {"SCHEMA", "databricks"},
}
