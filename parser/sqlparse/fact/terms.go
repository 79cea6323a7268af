package fact

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// ColumnRef is a column a condition uses: the last part of its qualifier
// ("" for none) and its name, both in lower case.
type ColumnRef struct{ Qualifier, Name string }

// TermKind says what a conjunct tests.
type TermKind int

const (
	// TermOther is anything below.
	TermOther TermKind = iota
	// TermCompare is Operands[0] Op Operands[1].
	TermCompare
	// TermBetween is Operands[0] BETWEEN Operands[1] AND Operands[2].
	TermBetween
	// TermOr holds its arms in Arms.
	TermOr
	// TermColumn is a column used as the condition: WHERE is_current.
	TermColumn
	// TermIsTrue is Operands[0] IS TRUE.
	TermIsTrue
	// TermIsNull is Operands[0] IS NULL.
	TermIsNull
)

// Term is one conjunct of a condition.
type Term struct {
	Kind TermKind
	// Op is a comparison's operator as written: <, >=, =, <>, ...
	Op string
	// Operands are what the predicate compares or tests, in the order of
	// its Kind.
	Operands []Operand
	// Arms are the alternatives of an OR.
	Arms []Term
	// NullTested are the operands of every IS NULL in the predicate, at
	// any depth, subqueries included.
	NullTested []Operand
	// Columns are the columns it uses outside subqueries, whose columns
	// are their own; t.* and an unqualified SYSDATE are not columns.
	Columns []ColumnRef
	// AllColumns are the columns it uses at any depth.
	AllColumns []ColumnRef
}

// Operand is one side of a comparison.
type Operand struct {
	// Column is set when the operand is a column as written, with no cast.
	Column *ColumnRef
	// OrderedBy are the columns whose order the operand keeps, in the order
	// they appear: the column itself, through casts, through each argument
	// of a date conversion (date(col), date_trunc('day', col)), and through
	// the first argument of COALESCE and its warehouse spellings (Coalesced
	// is then set, since NULL was given a value).
	OrderedBy []OrderedColumn
	// Columns are the columns it uses outside subqueries, as in Term.
	Columns []ColumnRef
	// Literal is the text of a date, timestamp or string constant, through
	// casts and date conversions; HasLiteral says there is one.
	Literal    string
	HasLiteral bool
	// Truthy is set for a constant that sets a flag: TRUE, 1, 'Y'; Spelling
	// is how a message writes it.
	Truthy   bool
	Spelling string
	// Now is set when it uses the time the statement runs.
	Now bool
}

// OrderedColumn is a column an operand keeps the order of.
type OrderedColumn struct {
	ColumnRef
	Coalesced bool
}

// terms reads the conjuncts of a condition.
func terms(conjuncts []*pg_query.Node) []Term {
	out := make([]Term, 0, len(conjuncts))
	for _, c := range conjuncts {
		if arms, ok := negatedOr(c); ok {
			// NOT (a OR b) is NOT a AND NOT b: each arm is a conjunct,
			// a comparison with its operator turned round, as in
			// NOT (d >= v.valid_to OR d <= v.valid_from).
			for _, arm := range arms {
				p := negatedTerm(termOf(arm))
				p.AllColumns = allColumns(arm)
				p.Columns = outerColumns(arm)
				out = append(out, p)
			}
			continue
		}
		p := termOf(c)
		tree.Walk(c, func(m proto.Message) bool {
			switch x := m.(type) {
			case *pg_query.NullTest:
				if x.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
					p.NullTested = append(p.NullTested, operandOf(x.GetArg()))
				}
			case *pg_query.ColumnRef:
				if col := RefOf(x); col.Name != "" {
					p.AllColumns = append(p.AllColumns, col)
				}
			}
			return true
		})
		p.Columns = outerColumns(c)
		out = append(out, p)
	}
	return out
}

// negatedOr returns the arms of a NOT (a OR b ...).
func negatedOr(n *pg_query.Node) ([]*pg_query.Node, bool) {
	not := n.GetBoolExpr()
	if not == nil || not.GetBoolop() != pg_query.BoolExprType_NOT_EXPR || len(not.GetArgs()) != 1 {
		return nil, false
	}
	or := not.GetArgs()[0].GetBoolExpr()
	if or == nil || or.GetBoolop() != pg_query.BoolExprType_OR_EXPR {
		return nil, false
	}
	return or.GetArgs(), true
}

// negations are the comparison operators that hold where each does not
// (for values that are not NULL).
var negations = map[string]string{"<": ">=", ">=": "<", ">": "<=", "<=": ">", "=": "<>", "<>": "=", "!=": "="}

// negatedTerm is the term that holds where t does not: a comparison with
// its operator turned round; anything else is no term a rule reads.
func negatedTerm(t Term) Term {
	if op, ok := negations[t.Op]; ok && t.Kind == TermCompare {
		t.Op = op
		return t
	}
	return Term{}
}

// allColumns are the columns n uses at any depth.
func allColumns(n *pg_query.Node) []ColumnRef {
	var out []ColumnRef
	tree.Walk(n, func(m proto.Message) bool {
		if x, ok := m.(*pg_query.ColumnRef); ok {
			if col := RefOf(x); col.Name != "" {
				out = append(out, col)
			}
		}
		return true
	})
	return out
}

func termOf(n *pg_query.Node) Term {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_BoolExpr:
		if x.BoolExpr.GetBoolop() != pg_query.BoolExprType_OR_EXPR {
			break
		}
		p := Term{Kind: TermOr}
		for _, arm := range x.BoolExpr.GetArgs() {
			p.Arms = append(p.Arms, termOf(arm))
		}
		return p
	case *pg_query.Node_AExpr:
		e := x.AExpr
		switch e.GetKind() {
		case pg_query.A_Expr_Kind_AEXPR_OP:
			return Term{Kind: TermCompare, Op: tree.OpName(e), Operands: []Operand{operandOf(e.GetLexpr()), operandOf(e.GetRexpr())}}
		case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
			if ends := e.GetRexpr().GetList().GetItems(); len(ends) == 2 {
				return Term{Kind: TermBetween, Operands: []Operand{operandOf(e.GetLexpr()), operandOf(ends[0]), operandOf(ends[1])}}
			}
		}
	case *pg_query.Node_ColumnRef:
		return Term{Kind: TermColumn, Operands: []Operand{operandOf(n)}}
	case *pg_query.Node_BooleanTest:
		if x.BooleanTest.GetBooltesttype() == pg_query.BoolTestType_IS_TRUE {
			return Term{Kind: TermIsTrue, Operands: []Operand{operandOf(x.BooleanTest.GetArg())}}
		}
	case *pg_query.Node_NullTest:
		if x.NullTest.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
			return Term{Kind: TermIsNull, Operands: []Operand{operandOf(x.NullTest.GetArg())}}
		}
	}
	return Term{}
}

func operandOf(n *pg_query.Node) Operand {
	op := Operand{OrderedBy: orderedBy(n, nil, false), Columns: outerColumns(n), Now: len(ClockCallsIn(n, true)) > 0}
	if c := n.GetColumnRef(); c != nil {
		col := RefOf(c)
		op.Column = &col
	}
	op.Literal, op.HasLiteral = literalText(n)
	op.Truthy = truthy(n)
	if op.Truthy {
		op.Spelling = constOrTrue(n)
	}
	return op
}

// orderedBy appends the columns n keeps the order of to out.
func orderedBy(n *pg_query.Node, out []OrderedColumn, coalesced bool) []OrderedColumn {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return orderedBy(x.TypeCast.GetArg(), out, coalesced)
	case *pg_query.Node_CoalesceExpr:
		if args := x.CoalesceExpr.GetArgs(); len(args) > 0 {
			return orderedBy(args[0], out, true)
		}
	case *pg_query.Node_FuncCall:
		args := x.FuncCall.GetArgs()
		name := tree.FuncName(x.FuncCall)
		switch {
		case len(args) == 0:
		case CoalesceFunctions[name]:
			return orderedBy(args[0], out, true)
		case orderKeepingConversions[name]:
			for _, a := range args {
				out = orderedBy(a, out, coalesced)
			}
		}
	case *pg_query.Node_ColumnRef:
		return append(out, OrderedColumn{ColumnRef: RefOf(x.ColumnRef), Coalesced: coalesced})
	}
	return out
}

// outerColumns are the columns n uses outside subqueries.
func outerColumns(n *pg_query.Node) []ColumnRef {
	var out []ColumnRef
	tree.Walk(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			if col := RefOf(x); col.Name != "" && (col.Qualifier != "" || !tree.NowColumns[col.Name]) {
				out = append(out, col)
			}
		}
		return true
	})
	return out
}

// RefOf reads a column reference by the last part of its qualifier;
// Name is "" for t.*.
func RefOf(c *pg_query.ColumnRef) ColumnRef {
	qual, col := tree.ColumnName(c)
	return ColumnRef{Qualifier: tree.LastPart(qual), Name: col}
}

var (
	// CoalesceFunctions give a NULL a value; COALESCE itself parses as
	// CoalesceExpr, the warehouses' spellings as calls.
	CoalesceFunctions = map[string]bool{"coalesce": true, "ifnull": true, "nvl": true, "isnull": true, "zeroifnull": true}
	// orderKeepingConversions keep a column's order, so a bound on
	// date(col) bounds col.
	orderKeepingConversions = map[string]bool{"date": true, "to_date": true, "date_trunc": true, "trunc": true, "timestamp": true, "to_timestamp": true, "datetime": true, "timestamp_trunc": true, "datetime_trunc": true}
)

// literalText returns the text of a date, timestamp or string constant:
// '9999-12-31', DATE '9999-12-31', '9999-12-31'::timestamp,
// to_date('9999-12-31').
func literalText(n *pg_query.Node) (string, bool) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return literalText(x.TypeCast.GetArg())
	case *pg_query.Node_AConst:
		if s := x.AConst.GetSval(); s != nil {
			return s.GetSval(), true
		}
	case *pg_query.Node_FuncCall:
		if args := x.FuncCall.GetArgs(); len(args) > 0 && orderKeepingConversions[tree.FuncName(x.FuncCall)] {
			return literalText(args[0])
		}
	}
	return "", false
}

// truthy reports whether n is a constant that sets a flag: TRUE, 1, 'Y'.
func truthy(n *pg_query.Node) bool {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().GetArg()
	}
	c := n.GetAConst()
	switch {
	case c == nil:
		return false
	case c.GetBoolval() != nil:
		return c.GetBoolval().GetBoolval()
	case c.GetIval() != nil:
		return c.GetIval().GetIval() == 1
	case c.GetSval() != nil:
		switch strings.ToLower(c.GetSval().GetSval()) {
		case "y", "yes", "t", "true", "1":
			return true
		}
	}
	return false
}

// constOrTrue spells a truthy constant for a message.
func constOrTrue(n *pg_query.Node) string {
	if text, ok := literalText(n); ok {
		return "'" + text + "'"
	}
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().GetArg()
	}
	if n.GetAConst().GetIval() != nil {
		return "1"
	}
	return "TRUE"
}
