package tree

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Flipped is the operator that keeps a comparison true when its sides swap.
var Flipped = map[string]string{">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "<>": "<>", "!=": "!="}

// Scope is the set of WITH queries visible at a point of a statement.
type Scope struct {
	ctes   []string
	defs   []*pg_query.CommonTableExpr
	outer  *Scope // the scope the WITH clause stands in
	parent *Scope
	// recursive marks the queries of a WITH RECURSIVE, which see each
	// other.
	recursive bool
}

// IsCTE reports whether a FROM item names a visible WITH query rather than
// a stored relation; a qualified name never does.
func (sc *Scope) IsCTE(rv *pg_query.RangeVar) bool {
	if rv.GetSchemaname() != "" || rv.GetCatalogname() != "" {
		return false
	}
	for ; sc != nil; sc = sc.parent {
		if slices.Contains(sc.ctes, rv.GetRelname()) {
			return true
		}
	}
	return false
}

func (sc *Scope) with(ctes []*pg_query.CommonTableExpr) *Scope {
	inner := &Scope{parent: sc, outer: sc, defs: ctes}
	for _, c := range ctes {
		inner.ctes = append(inner.ctes, c.GetCtename())
	}
	return inner
}

// Lookup returns the WITH query a FROM item names and the scope its body
// is read in; nil when the name is a stored relation's.
func (sc *Scope) Lookup(rv *pg_query.RangeVar) (*pg_query.CommonTableExpr, *Scope) {
	if rv.GetSchemaname() != "" || rv.GetCatalogname() != "" {
		return nil, nil
	}
	for ; sc != nil; sc = sc.parent {
		for j, name := range sc.ctes {
			if name != rv.GetRelname() || j >= len(sc.defs) {
				continue
			}
			if sc.recursive {
				return sc.defs[j], sc
			}
			return sc.defs[j], sc.outer.with(sc.defs[:j])
		}
	}
	return nil, nil
}

// Inspect calls visit for n and every message below it, parents first,
// fields in declaration order, with the WITH queries visible there; visit
// returns false to skip what lies below a message. A WITH query's body sees
// the queries before it, or all of them under WITH RECURSIVE.
func Inspect(n proto.Message, visit func(proto.Message, *Scope) bool) {
	if !isNil(n) {
		inspectScoped(n, nil, visit)
	}
}

// isNil reports whether m is nil or a nil pointer of a message type.
func isNil(m proto.Message) bool {
	return m == nil || !m.ProtoReflect().IsValid()
}

// inspectScoped is Inspect below a message that is not nil.
func inspectScoped(m proto.Message, sc *Scope, visit func(proto.Message, *Scope) bool) {
	with := withClause(m)
	var ctes []*pg_query.CommonTableExpr
	for _, c := range with.GetCtes() {
		if cte := c.GetCommonTableExpr(); cte != nil {
			ctes = append(ctes, cte)
		}
	}
	outer := sc
	if len(ctes) > 0 {
		sc = outer.with(ctes)
		sc.recursive = with.GetRecursive()
	}
	if !visit(m, sc) {
		return
	}
	EachChild(m, func(child proto.Message) {
		if child != proto.Message(with) {
			inspectScoped(child, sc, visit)
			return
		}
		for j, cte := range ctes {
			body := sc
			if !with.GetRecursive() {
				body = outer.with(ctes[:j])
			}
			if q := cte.GetCtequery(); q != nil {
				inspectScoped(q, body, visit)
			}
		}
	})
}

// Walk calls visit for m and every message below it, parents first; visit
// returns false to skip what lies below a message. Rules use it for the
// questions the typed helpers do not answer.
func Walk(m proto.Message, visit func(proto.Message) bool) {
	if !isNil(m) {
		walkMessage(m, visit)
	}
}

func walkMessage(m proto.Message, visit func(proto.Message) bool) {
	if !visit(m) {
		return
	}
	EachChild(m, func(child proto.Message) {
		walkMessage(child, visit)
	})
}
