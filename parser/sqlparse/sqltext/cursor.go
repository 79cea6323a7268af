package sqltext

import "strings"

// Cursor reads code tokens by index, the way every scanner of SQL text
// does: a word upper-cased, a punctuation mark, an operator, the partner
// of a bracket. An index outside the tokens reads as nothing, so scanners
// look ahead and behind without bounds checks of their own.
type Cursor struct {
	// Src and Code are set once, by NewCursor.
	Src  string
	Code []Token
}

// NewCursor reads code, tokens of src without space and comments (Code).
func NewCursor(src string, code []Token) Cursor { return Cursor{Src: src, Code: code} }

// Word returns code token i in upper case when it is a word, else "".
func (c *Cursor) Word(i int) string {
	if i < 0 || i >= len(c.Code) || c.Code[i].Kind != Word {
		return ""
	}
	// Not cached: two words in three that scanners ask for are keywords,
	// which upperWord gives from the keyword table without a copy, and a
	// cache as long as the file's tokens cost more than the rest saved.
	return upperWord(c.Code[i].Text(c.Src))
}

// Kind returns the kind of code token i, and Space, which no code token
// has, outside the tokens.
func (c *Cursor) Kind(i int) TokenKind {
	if i < 0 || i >= len(c.Code) {
		return Space
	}
	return c.Code[i].Kind
}

// Punct reports whether code token i is the punctuation mark p.
func (c *Cursor) Punct(i int, p byte) bool {
	return i >= 0 && i < len(c.Code) && c.Code[i].Kind == Punct && c.Src[c.Code[i].Start] == p
}

// Op returns code token i when it is an operator, else "".
func (c *Cursor) Op(i int) string {
	if i < 0 || i >= len(c.Code) || c.Code[i].Kind != Operator {
		return ""
	}
	return c.Code[i].Text(c.Src)
}

// Table holds an index per code token (the bracket that closes or opens
// it, the bracket open around it), -1 where there is none. Its entries
// are 32 bits, as a Token's offsets are: a large file's tables are the
// larger part of what reading it needs at once.
type Table []int32

// At returns entry i.
func (t Table) At(i int) int { return int(t[i]) }

// Brackets returns, for each code token, the index of the bracket that
// closes or opens it, ( with ) and [ with ]; -1 for any other token and
// for a bracket without a partner.
func (c *Cursor) Brackets() Table { return c.BracketsInto(make(Table, len(c.Code))) }

// BracketsInto is Brackets filling match, which has the code's length.
func (c *Cursor) BracketsInto(match Table) Table {
	var open []int32
	for k := range c.Code {
		match[k] = -1
		switch {
		case c.Punct(k, '(') || c.Punct(k, '['):
			open = append(open, int32(k))
		case (c.Punct(k, ')') || c.Punct(k, ']')) && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			match[o], match[k] = int32(k), o
		}
	}
	return match
}

// EndsSelectList reports whether an upper-cased word can follow a select
// list: the clauses after it, a set operation, SELECT ... INTO.
func EndsSelectList(word string) bool { return selectListEnds[word] }

var selectListEnds = map[string]bool{
	"FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true, "WINDOW": true, "ORDER": true,
	"LIMIT": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true, "INTO": true,
}

// Keyword returns code token i in upper case when it is a word of the
// keyword table (IsKeyword), else "". Unlike Word it neither allocates nor
// caches: a scan that compares every word with a set of keywords asks it
// first, and skips the names, most words of a file, at no cost.
func (c *Cursor) Keyword(i int) string {
	if i < 0 || i >= len(c.Code) || c.Code[i].Kind != Word {
		return ""
	}
	w := c.Code[i].Text(c.Src)
	if len(w) > maxKeywordLen {
		return ""
	}
	var buf [maxKeywordLen]byte
	for k := 0; k < len(w); k++ {
		switch b := w[k]; {
		case b >= utf8RuneSelf:
			// Unicode upper-cases some letters into ASCII ones, as
			// Word does.
			return keywords[strings.ToUpper(w)]
		case 'a' <= b && b <= 'z':
			buf[k] = b - ('a' - 'A')
		default:
			buf[k] = b
		}
	}
	return keywords[string(buf[:len(w)])]
}

// IsKeyword reports whether an upper-case word is in the keyword table.
func IsKeyword(upper string) bool { return keywords[upper] != "" }

// upperWord is strings.ToUpper for a word, without a copy for the words
// scanners compare against: a lower-case SQL file would otherwise
// allocate its every keyword, and does so for its names only.
func upperWord(w string) string {
	hasLower := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= utf8RuneSelf:
			return strings.ToUpper(w)
		case 'a' <= c && c <= 'z':
			hasLower = true
		}
	}
	if !hasLower {
		return w
	}
	if len(w) <= maxKeywordLen {
		var buf [maxKeywordLen]byte
		for i := 0; i < len(w); i++ {
			c := w[i]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			buf[i] = c
		}
		if k, ok := keywords[string(buf[:len(w)])]; ok {
			return k
		}
	}
	return strings.ToUpper(w)
}

const utf8RuneSelf = 0x80

// maxKeywordLen is the length of the longest word in keywords.
const maxKeywordLen = 24

// keywords are the words SQL is mostly made of, each its own upper case.
var keywords = func() map[string]string {
	words := strings.Fields(`
		ALL ALTER ANALYZE AND ANY ARRAY AS ASC ASSERT ASYMMETRIC AT BEFORE BEGIN
		BETWEEN BIGINT BOOLEAN BOTH BY CALL CASE CAST CHAR CHECK CLUSTER COALESCE
		COLUMN COMMIT CONFIG CONNECT CONNECT_BY_ROOT CONSTRAINT COPY COUNT CREATE
		CROSS CURRENT CURRENT_CATALOG CURRENT_DATE CURRENT_ROLE CURRENT_TIME
		CURRENT_TIMESTAMP CURRENT_USER DATA DATE DATEADD DATEDIFF DATETIME
		DATE_ADD DATE_DIFF DATE_SUB DATE_TRUNC DAY DECIMAL DECLARE DEFAULT
		DEFERRABLE DELETE DESC DISTINCT DO DOUBLE DROP ELIF ELSE ELSEIF END ENDFOR
		ENDIF ENDMACRO ENDSET ESCAPE EXCEPT EXECUTE EXISTS EXTRACT FALSE FILTER
		FIRST FLOAT FOLLOWING FOR FOREIGN FORMAT FROM FULL FUNCTION GROUP HAVING
		HOUR IF IFNULL IGNORE ILIKE IMMEDIATE IN INITIALLY INNER INSERT INT INT64
		INTEGER INTERSECT INTERVAL INTO IS IS_INCREMENTAL JOIN JSON_EXTRACT_SCALAR
		KEEP KEY LAG LAST LATERAL LEAD LEADING LEFT LIKE LIMIT LOCALTIME
		LOCALTIMESTAMP MACRO MAP MATCHED MAX MERGE MIN MINUS MINUTE MONTH NATURAL
		NOT NOW NULL NULLIF NULLS NUMERIC OFFSET OMIT ON ONLY OPTIMIZE OR ORDER
		ORDINAL OUTER OVER OVERLAPS OVERWRITE PARTITION PIVOT PLACING PRECEDING
		PRIMARY PRIOR QUALIFY QUARTER RANGE RECURSIVE REF REFERENCES REGEXP REPLACE
		RESPECT RETURN RETURNING RETURNS RIGHT RLIKE ROW ROWS SAFE_CAST
		SAFE_OFFSET SAFE_ORDINAL SECOND SELECT SESSION_USER SET SOME SOURCE START
		STRING STRUCT SUM SYMMETRIC SYSTEM_TIME SYSTEM_VERSION TABLE TEMP TEMPORARY
		THEN THIS TIME TIMESTAMP TO TRAILING TRUE TRUNCATE TRY_CAST UINT256
		UNBOUNDED UNION UNIQUE UNNEST UNPIVOT UPDATE USE USER USING VACUUM VALUES
		VAR VARCHAR VARIADIC VERSION VIEW WEEK WHEN WHERE WINDOW WITH WITHIN YEAR
		ZONE
	`)
	m := make(map[string]string, len(words))
	for _, w := range words {
		m[w] = w
	}
	return m
}()
