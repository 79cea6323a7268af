package files

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/rules"
)

// SQLUnparsed reports SQL that bflint cannot read, so a file is never
// passed over in silence.
var SQLUnparsed = &rules.Rule{
	Code:     "BF002",
	Name:     "sql-unparsed",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A SQL statement cannot be parsed, even after warehouse syntax and dbt Jinja are normalised",
		Why: "Every SQL rule reads the parsed statement: which relation it writes, how, and over which dates. " +
			"A statement bflint cannot parse is a statement those checks cannot fully see, so a green run would say too little about it. " +
			"bflint normalises Snowflake, BigQuery, Databricks and dbt syntax before parsing; what is still unreadable is reported " +
			"at the construct that stopped the parser, so it can be rewritten, or suppressed with a reason. " +
			"Such a statement is then read from its tokens: what it writes and how, what it joins and on which conditions. " +
			"When that finds a relation the statement writes, joins or acts on (ALTER TABLE t, RESTORE TABLE t), the finding is a warning, and the rules that can work from tokens " +
			"(BF102, BF201, BF204, BF302, BF504, BF701-BF704) still check the statement, their findings saying they come from tokens; " +
			"the other SQL rules do not. It stays an error when nothing could be read, and when the lexer stops " +
			"(an unterminated string or comment), since nothing after that point is read at all.",
		Bad: rules.Example{Lang: "sql", Text: `-- an unterminated string swallows the rest of the file
INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date >= '2026-01-14;
`},
		Good: rules.Example{Lang: "sql", Text: `INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';
`},
	},
	Run: func(pass *rules.Pass) error {
		for _, f := range pass.Unit.SQL {
			for _, p := range f.Parsed.Problems {
				pass.Reportf(f.Pos(p.Offset), "cannot read the template: %s; statements around it are still checked", p.Msg)
			}
			for _, st := range f.Parsed.Statements {
				switch {
				case st.Problem == nil:
				case st.Text == "":
					pass.Reportf(f.Pos(st.Problem.Offset), "cannot read the SQL from here to the end of the file: %s; the statements before it are checked, this one and any after it are not", st.Problem.Msg)
				default:
					at := construct(f.Source.Content, st.Problem.Offset, st.End)
					if tf := pass.Tokens(st); tf != nil && tf.Analysed() {
						pass.ReportSeverityf(rules.SeverityWarning, f.Pos(st.Problem.Offset), "cannot parse this statement at %s: %s; %s", at, st.Problem.Msg, readFromTokens(pass.TokenReaders))
						continue
					}
					pass.Reportf(f.Pos(st.Problem.Offset), "cannot parse this statement at %s: %s; nothing it writes or joins could be read from its tokens either, so no SQL rule checks it", at, st.Problem.Msg)
				}
			}
		}
		return nil
	},
}

// readFromTokens says which rules checked a statement read from its
// tokens.
func readFromTokens(codes []string) string {
	groups := rules.CodeGroups(codes)
	switch len(groups) {
	case 0:
		return "it was analysed from its tokens instead, but no enabled rule reads tokens, so no SQL rule checked it"
	case 1:
		return "it was analysed from its tokens instead, so " + groups[0] + " checked what it writes and joins (its findings say so) and the other SQL rules did not"
	}
	list := strings.Join(groups[:len(groups)-1], ", ") + " and " + groups[len(groups)-1]
	return "it was analysed from its tokens instead, so " + list + " checked what it writes and joins (their findings say so) and the other SQL rules did not"
}

// construct names what stands at off, where the parser stopped: a word, a
// quoted name or string, a run of operator characters, one character, or
// the end of the statement when off is at or past end.
func construct(src []byte, off, end int) string {
	end = min(end, len(src))
	for off < end && (src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r') {
		off++
	}
	if off >= end || src[off] == ';' {
		return "the end of the statement"
	}
	i := off + 1
	switch c := src[off]; {
	case isWordByte(c):
		for i < end && isWordByte(src[i]) {
			i++
		}
	case c == '\'' || c == '"' || c == '`':
		for i < end && src[i] != c {
			i++
		}
		i = min(i+1, end)
	case strings.IndexByte(operatorBytes, c) >= 0:
		for i < end && strings.IndexByte(operatorBytes, src[i]) >= 0 {
			i++
		}
	}
	const most = 40
	text := string(src[off:i])
	if len(text) > most {
		text = strings.ToValidUTF8(text[:most], "") + "..."
	}
	return fmt.Sprintf("%q", text)
}

const operatorBytes = "+-*/<>=~!@#%^&|?:"

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}
