// Package sqlvet is the analysis.Analyzer behind bflint-vet: it finds SQL
// that Go code hands to a database as a constant string and runs bflint's
// standalone SQL rules on it, so the same backfill mistakes are caught
// whether the SQL lives in a .sql file or in a Go program.
//
// A call is checked when its method is named Exec, Query or QueryRow, or
// one of their Context forms, and either
//
//   - the method belongs to database/sql's DB, Tx or Conn (decided from the
//     method's receiver type, so a wrapper that embeds *sql.DB, as sqlx's
//     DB does, is matched through the promoted method), or
//   - its parameters have database/sql's shape: an optional context.Context,
//     the SQL as a string, then variadic arguments of type any. This admits
//     sqlx-style and pgx-style clients and interfaces over them, and leaves
//     out unrelated methods that merely share a name.
//
// database/sql's Stmt has these method names too, but its SQL was given to
// Prepare, so its calls carry no SQL to check.
package sqlvet

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"sync"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/all"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports bflint findings in constant SQL passed to a database.
var Analyzer = &analysis.Analyzer{
	Name:     "bflint",
	Doc:      "report backfill hazards (bflint's SQL rules) in constant SQL passed to database/sql and look-alike clients",
	URL:      "https://github.com/bflint/bflint",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

var queryMethods = map[string]bool{
	"Exec": true, "ExecContext": true,
	"Query": true, "QueryContext": true,
	"QueryRow": true, "QueryRowContext": true,
}

var sqlTypes = map[string]bool{"DB": true, "Tx": true, "Conn": true}

// sqlRegistry holds the rules that need no plan: SQL in Go code has none.
var sqlRegistry = sync.OnceValue(func() *rules.Registry {
	var rs []*rules.Rule
	for _, r := range all.Registry().All() {
		if r.Scope == rules.ScopeSQL {
			rs = append(rs, r)
		}
	}
	return rules.NewRegistry(rs...)
})

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		arg := sqlArgument(pass.TypesInfo, call)
		if arg == nil {
			return
		}
		tv, ok := pass.TypesInfo.Types[arg]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return
		}
		check(pass, arg, constant.StringVal(tv.Value))
	})
	return nil, nil
}

// sqlArgument returns the expression holding the SQL of a call that sends
// SQL to a database, or nil.
func sqlArgument(info *types.Info, call *ast.CallExpr) ast.Expr {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !queryMethods[sel.Sel.Name] {
		return nil
	}
	selection := info.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return nil
	}
	fn, ok := selection.Obj().(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	i, ok := sqlParam(sig)
	if !ok || i >= len(call.Args) || !(isDatabaseSQL(sig.Recv()) || lookalike(sig, i)) {
		return nil
	}
	return call.Args[i]
}

// sqlParam finds the SQL string among a signature's parameters: the first,
// or the second after a context.Context.
func sqlParam(sig *types.Signature) (int, bool) {
	params := sig.Params()
	i := 0
	if params.Len() > 0 && isNamed(params.At(0).Type(), "context", "Context") {
		i = 1
	}
	if i >= params.Len() {
		return 0, false
	}
	b, ok := params.At(i).Type().(*types.Basic)
	return i, ok && b.Kind() == types.String
}

// lookalike reports whether the parameters end like database/sql's, with
// "args ...any" right after the SQL at index i.
func lookalike(sig *types.Signature, i int) bool {
	params := sig.Params()
	return sig.Variadic() && params.Len() == i+2 && isAnySlice(params.At(i+1).Type())
}

func isDatabaseSQL(recv *types.Var) bool {
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "database/sql" && sqlTypes[n.Obj().Name()]
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isAnySlice(t types.Type) bool {
	s, ok := t.(*types.Slice)
	if !ok {
		return false
	}
	it, ok := s.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

// check lints one SQL string as if it were a standalone .sql file.
func check(pass *analysis.Pass, arg ast.Expr, sql string) {
	fset := token.NewFileSet()
	f := source.Add(fset, "query.sql", []byte(sql))
	sf := &rules.SQLFile{Source: f, Parsed: sqlparse.Parse(sql, sqlparse.Options{})}
	unit := &rules.Unit{File: f, SQL: []*rules.SQLFile{sf}, Directives: rules.SQLDirectives(sf)}
	res := rules.Run(fset, []*rules.Unit{unit}, &rules.Settings{
		Registry: sqlRegistry(), Config: &config.Config{}, Now: time.Now(), Jobs: 1,
	})
	at := positioner(arg)
	for _, fd := range res.Findings {
		if fd.Suppressed != nil {
			continue
		}
		pass.Reportf(at(f.Offset(fd.Pos)), "%s %s: %s", fd.Rule.Code, fd.Rule.Name, fd.Message)
	}
	for _, e := range res.Errors {
		// A crashing rule is bflint's bug; saying so beats a silent pass.
		pass.Reportf(arg.Pos(), "bflint internal error: %s", firstLine(e.Message))
	}
}

// positioner maps an offset in the SQL to a position in the Go source. Only
// a literal whose bytes are the SQL's bytes (no escapes, no carriage
// returns, which raw strings drop) maps exactly; anything else, such as a
// concatenation or a named constant, reports at the expression's start.
func positioner(arg ast.Expr) func(offset int) token.Pos {
	start := arg.Pos()
	lit, ok := ast.Unparen(arg).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return func(int) token.Pos { return start }
	}
	raw := lit.Value
	exact := (raw[0] == '`' && !strings.Contains(raw, "\r")) || (raw[0] == '"' && !strings.Contains(raw, `\`))
	if !exact {
		return func(int) token.Pos { return lit.Pos() }
	}
	return func(offset int) token.Pos { return lit.Pos() + 1 + token.Pos(offset) }
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
