package sqlparse

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	"github.com/bflint/bflint/parser/sqlparse/tokenread"
)

// shapeDifferences are the statements of the corpora whose shape the token
// reader knowingly reads otherwise than the parse tree, keyed by
// "file:line:col of the statement" and the part that differs, with why. A
// listed difference that no longer occurs fails the test, so the list stays
// true.
var shapeDifferences = map[string]string{}

// TestReadersAgreeOnShape reads every statement of the SQL corpora and of
// the rule fixtures that parses a second time from its tokens, and compares
// the whole shape the rules read: writes, what it joins (each relation with
// its FROM clause, every ON and WHERE conjunct as a Term, the WITH queries
// it is joined through with their renames, the qualified columns), and its
// conditions (the bounds and clock calls of every conjunct).
func TestReadersAgreeOnShape(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	var paths []string
	for _, dir := range []string{"sql", "rules"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".sql") {
				paths = append(paths, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	compared := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		rel, _ := filepath.Rel(root, path)
		for _, st := range Parse(src, Options{}).Statements {
			if st.Node == nil {
				continue
			}
			compared++
			tree, tokens := treeShape(src, st), tokenShape(src, st)
			for _, part := range []string{"writes", "joined", "conditions", "guards", "clock"} {
				if tree[part] == tokens[part] {
					continue
				}
				key := fmt.Sprintf("%s:%s %s", filepath.ToSlash(rel), facttest.At(src, st.Start), part)
				if _, ok := shapeDifferences[key]; ok {
					seen[key] = true
					continue
				}
				t.Errorf("%s: the readers disagree\nfrom tokens:\n  %s\nfrom the tree:\n  %s", key,
					strings.ReplaceAll(tokens[part], "\n", "\n  "), strings.ReplaceAll(tree[part], "\n", "\n  "))
			}
		}
	}
	if compared < 500 {
		t.Errorf("compared %d statements; the corpora should give at least 500", compared)
	}
	for key, why := range shapeDifferences {
		if !seen[key] {
			t.Errorf("listed difference %s no longer occurs (%s): remove it", key, why)
		}
	}
}

func treeShape(src string, st *Statement) map[string]string {
	var writes []string
	for _, w := range st.Writes() {
		writes = append(writes, describeWrite(src, fact.Write{Kind: w.Kind, Target: w.Target, Temporary: w.Temporary, Partitioned: w.Partitioned, Offset: w.Offset}))
	}
	var conds []string
	for _, c := range st.Conditions() {
		for _, cj := range c.Conjuncts() {
			conds = append(conds, describeCondition(src, cj))
		}
	}
	var guards []string
	for _, w := range st.Writes() {
		guards = append(guards, describeGuards(w.Target, st.treeGuards(w.Target)))
	}
	return map[string]string{"writes": strings.Join(writes, "\n"), "joined": describeJoined(src, st.Joined()), "conditions": sorted(conds),
		"guards": strings.Join(guards, "\n"), "clock": describeClock(src, st.ClockDecisions())}
}

func tokenShape(src string, st *Statement) map[string]string {
	tf := st.TokenFacts()
	var writes []string
	for _, w := range tf.Writes {
		writes = append(writes, describeWrite(src, w))
	}
	var conds []string
	for _, c := range tf.Conds {
		for i := range c.Conjuncts {
			cond := Condition{Statement: st, Tokens: &c.Conjuncts[i]}
			if n := c.Conjuncts[i].Node; n != nil {
				cond = Condition{Statement: st, Node: n}
			}
			conds = append(conds, describeCondition(src, cond))
		}
	}
	for _, c := range st.withReplaceWhere(nil) {
		for _, cj := range c.Conjuncts() {
			conds = append(conds, describeCondition(src, cj))
		}
	}
	var guards []string
	for _, w := range tf.Writes {
		guards = append(guards, describeGuards(w.Target, tokenread.Guards(&st.Source, st.TokenFacts(), w.Target)))
	}
	return map[string]string{"writes": strings.Join(writes, "\n"), "joined": describeJoined(src, tf.Joined()), "conditions": sorted(conds),
		"guards": strings.Join(guards, "\n"), "clock": describeClock(src, st.tokenClockDecisions())}
}

func describeGuards(rel sqlname.Relation, kinds []fact.GuardKind) string {
	var s []string
	for _, k := range kinds {
		s = append(s, k.String())
	}
	return rel.Name() + ": " + strings.Join(s, ",")
}

func describeClock(src string, cs []ClockDecision) string {
	var s []string
	for _, c := range cs {
		s = append(s, fmt.Sprintf("%s@%s on %s", c.Call, facttest.At(src, c.Offset), strings.ToLower(c.Column)))
	}
	return sorted(s)
}

func describeCondition(src string, c Condition) string {
	return fmt.Sprintf("bounds[%s] now[%s]", facttest.Bounds(src, c.Bounds()), facttest.Offsets(src, c.NowCalls()))
}

// describeJoined describes what a statement joins. Of its columns, only
// those of the joined relations' aliases are compared: that is all a rule
// reads of them, and the token reader also counts as columns qualified
// names no rule asks about (SET t.col of the written relation, session
// settings such as SET spark.sql.x, @@error.message, loop variables).
func describeJoined(src string, j fact.Joined) string {
	var out []string
	aliases := map[string]bool{}
	for _, r := range j.Relations {
		aliases[strings.ToLower(r.Alias)] = true
	}
	for _, r := range j.Relations {
		s := fmt.Sprintf("%s %s@%s inner=%v clause{items=%d first=%s target=%v scalar=%v}", r.Relation.Name(), r.Alias, facttest.At(src, r.Offset), r.Inner,
			r.Clause.Items, atOrNone(src, r.Clause.First), r.Clause.Target, r.Clause.Scalar)
		if len(r.Via) > 0 {
			var renames []string
			for k, v := range r.Renames {
				renames = append(renames, k+"="+v)
			}
			sort.Strings(renames)
			s += fmt.Sprintf(" via=%s renames=%s", strings.Join(r.Via, ","), strings.Join(renames, ","))
		}
		for _, t := range r.On {
			s += "\n    on " + describeTerm(t)
		}
		for _, t := range r.Where {
			s += "\n    where " + describeTerm(t)
		}
		out = append(out, s)
	}
	var quals []string
	for q, cols := range j.Columns {
		if !aliases[q] {
			continue
		}
		var names []string
		for c := range cols {
			names = append(names, c)
		}
		sort.Strings(names)
		quals = append(quals, q+"("+strings.Join(names, ",")+")")
	}
	sort.Strings(quals)
	return strings.Join(out, "\n") + "\ncolumns " + strings.Join(quals, " ")
}

func describeTerm(t fact.Term) string {
	s := fmt.Sprintf("%d%s", t.Kind, t.Op)
	for _, o := range t.Operands {
		s += " [" + describeOperand(o) + "]"
	}
	for _, a := range t.Arms {
		s += " or(" + describeTerm(a) + ")"
	}
	for _, o := range t.NullTested {
		s += " null(" + describeOperand(o) + ")"
	}
	return s + " cols=" + describeRefs(t.Columns) + " all=" + describeRefs(t.AllColumns)
}

func describeOperand(o fact.Operand) string {
	var s []string
	if o.Column != nil {
		s = append(s, "col="+o.Column.Qualifier+"."+o.Column.Name)
	}
	for _, c := range o.OrderedBy {
		s = append(s, fmt.Sprintf("by=%s.%s/%v", c.Qualifier, c.Name, c.Coalesced))
	}
	if o.HasLiteral {
		s = append(s, "lit="+o.Literal)
	}
	if o.Truthy {
		s = append(s, "truthy="+o.Spelling)
	}
	if o.Now {
		s = append(s, "now")
	}
	return strings.Join(s, " ") + " cols=" + describeRefs(o.Columns)
}

func describeRefs(refs []fact.ColumnRef) string {
	var s []string
	for _, r := range refs {
		s = append(s, r.Qualifier+"."+r.Name)
	}
	return strings.Join(s, ",")
}

func atOrNone(src string, off int) string {
	if off < 0 {
		return "-"
	}
	return facttest.At(src, off)
}

func sorted(lines []string) string {
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
