package jinja

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Block tags: {% if %}, {% for %}, {% set %}, {% macro %} and the rest,
// matched up and resolved into edits per variant.

// block is a {% if %} ... {% endif %} (or for, set, macro ...) with the
// tags that open, divide and close it.
type block struct {
	kind        string          // if, for, set, macro, call, snapshot, ...
	tags        []sqltext.Token // opening, elif/else, closing tag
	incremental bool            // an if on is_incremental()
	negated     bool            // {% if not is_incremental() %}
	// known is the value of an if's test when bflint knows it
	// (knownTests), -1 otherwise.
	known    int
	dropBody bool // a call block whose body runs apart from the model's SQL
}

type blockSet struct {
	src    string
	blocks []*block
	loose  []sqltext.Token // tags that open and close nothing ({% do %}, single {% set %})
}

// closers lists the Jinja tags that open a block and the tag that ends it.
var closers = map[string]string{
	"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall",
	"snapshot": "endsnapshot", "materialization": "endmaterialization",
	"filter": "endfilter", "test": "endtest", "docs": "enddocs",
}

// knownTests are the if tests whose value bflint knows: a test of loop
// position when the loop body is read once, and bigquery-etl's is_init(),
// true only when a table is first created: the scheduled runs and every
// backfill run the other branch.
var knownTests = map[string]int{
	"loop.first": 1, "loop.last": 1, "not loop.first": 0, "not loop.last": 0,
	"loop.index == 1": 1, "loop.index0 == 0": 1, "loop.index > 1": 0, "loop.index0 > 0": 0,
	"loop.index != 1": 0, "loop.index0 != 0": 0,
	"is_init()": 0, "not is_init()": 1,
}

func parseBlocks(src string, toks []sqltext.Token) (*blockSet, bool, []sqltext.Problem) {
	bs := &blockSet{src: src}
	var stack []*block
	var problems []sqltext.Problem
	hasIncremental := false
	for _, t := range toks {
		if t.Kind != sqltext.JinjaTag {
			continue
		}
		text := t.Text(src)
		m := tagWord.FindStringSubmatch(text)
		if m == nil {
			bs.loose = append(bs.loose, t)
			continue
		}
		word := m[1]
		inner := jinjaInner(text)
		switch {
		case word == "raw" || word == "endraw":
			// What a raw block holds is written out as it stands, so its
			// text is the SQL's and any tags in it are the output's own:
			// bigquery-etl's generators write {% raw %}{% if is_init() %}
			// {% endraw %} for bqetl to read when it runs the query. The
			// raw tags go and what they enclose is read as a template in
			// turn, blocks matched across them.
			bs.loose = append(bs.loose, t)
		case word == "set" && !strings.Contains(inner, "="):
			stack = append(stack, &block{kind: "set", tags: []sqltext.Token{t}, known: -1})
		case closers[word] != "":
			b := &block{kind: word, tags: []sqltext.Token{t}, known: -1}
			if word == "if" {
				if im := incremental.FindStringSubmatch(inner); im != nil {
					b.incremental, b.negated = true, im[1] != ""
					hasIncremental = true
				} else if v, ok := knownTests[strings.Join(strings.Fields(strings.TrimPrefix(inner, "if")), " ")]; ok {
					b.known = v
				}
			}
			stack = append(stack, b)
		case word == "elif" || word == "else":
			if len(stack) == 0 || (stack[len(stack)-1].kind != "if" && stack[len(stack)-1].kind != "for") {
				problems = append(problems, sqltext.Problem{Offset: int(t.Start), Msg: fmt.Sprintf("Jinja {%% %s %%} outside any {%% if %%}", word)})
				bs.loose = append(bs.loose, t)
				continue
			}
			top := stack[len(stack)-1]
			top.tags = append(top.tags, t)
		case strings.HasPrefix(word, "end"):
			open := strings.TrimPrefix(word, "end")
			if len(stack) == 0 || stack[len(stack)-1].kind != open {
				problems = append(problems, sqltext.Problem{Offset: int(t.Start), Msg: fmt.Sprintf("Jinja {%% %s %%} closes no {%% %s %%}", word, open)})
				bs.loose = append(bs.loose, t)
				continue
			}
			top := stack[len(stack)-1]
			top.tags = append(top.tags, t)
			stack = stack[:len(stack)-1]
			bs.blocks = append(bs.blocks, top)
		default:
			bs.loose = append(bs.loose, t)
		}
	}
	for _, b := range stack {
		problems = append(problems, sqltext.Problem{Offset: int(b.tags[0].Start), Msg: fmt.Sprintf("Jinja {%% %s %%} is never closed with {%% end%s %%}", b.kind, b.kind)})
		bs.loose = append(bs.loose, b.tags...)
	}
	return bs, hasIncremental, problems
}

// nonSQLBlocks are the blocks whose body is never SQL of the model.
var nonSQLBlocks = wordSet("macro", "set", "test", "docs", "materialization")

// settleCalls decides what each {% call %} block's body is. The body of
// call statement(...) or set_sql_header(...) is a query dbt runs apart
// from the model, so it is left out when the model has SQL of its own;
// a call block that is all the statement holds is that statement.
func (bs *blockSet) settleCalls(tp *jinjaTemplate) {
	var never []sqltext.Edit
	for _, b := range bs.blocks {
		if nonSQLBlocks[b.kind] {
			never = append(never, sqltext.Edit{Start: int(b.tags[0].Start), End: int(b.tags[len(b.tags)-1].End)})
		}
	}
	never = spanUnion(never)
	for _, b := range bs.blocks {
		if b.kind != "call" {
			continue
		}
		open, close := b.tags[0], b.tags[len(b.tags)-1]
		from, to := int(open.Start), int(close.End)
		p := sort.Search(len(tp.pieces), func(i int) bool { return tp.pieces[i].End > int(open.Start) })
		if p < len(tp.pieces) {
			from = min(from, tp.pieces[p].Start)
		}
		if p = sort.Search(len(tp.pieces), func(i int) bool { return tp.pieces[i].End >= int(close.End) }); p < len(tp.pieces) {
			to = max(to, tp.pieces[p].End)
		}
		for i := sort.Search(len(tp.code), func(i int) bool { return int(tp.code[i].Start) >= from }); i < len(tp.code) && int(tp.code[i].End) <= to; i++ {
			t := tp.code[i]
			if (t.Start >= open.Start && t.End <= close.End) || t.Kind == sqltext.JinjaTag ||
				(t.Kind == sqltext.Punct && tp.src[t.Start] == ';') || isConfig(tp.src, t) || inSpans(never, t) {
				continue
			}
			b.dropBody = true
			break
		}
	}
}

func isConfig(src string, t sqltext.Token) bool {
	if t.Kind != sqltext.JinjaExpr {
		return false
	}
	name, _, ok := callHead(jinjaInner(t.Text(src)))
	return ok && name == "config"
}

func inSpans(spans []sqltext.Edit, t sqltext.Token) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > int(t.Start) })
	return i < len(spans) && spans[i].Start <= int(t.Start)
}

// spans returns the bodies of the blocks of a kind, sorted and disjoint.
func (bs *blockSet) spans(kind string) []sqltext.Edit {
	var out []sqltext.Edit
	for _, b := range bs.blocks {
		if b.kind == kind {
			out = append(out, sqltext.Edit{Start: int(b.tags[0].End), End: int(b.tags[len(b.tags)-1].Start)})
		}
	}
	return spanUnion(out)
}

// edits blanks every tag and the text of the branches this reading drops:
// for an is_incremental() test the branch that matches incremental; for a
// test whose value is known (knownTests) the branch it selects; for other ifs the
// first branch (a template's main path); for macro and set blocks their
// whole body, which is not SQL of this statement. Loops keep their body
// once and drop their {% else %}, which runs only for an empty sequence.
func (bs *blockSet) edits(incremental bool) []sqltext.Edit {
	var out []sqltext.Edit
	for _, t := range bs.loose {
		out = append(out, sqltext.Edit{Start: int(t.Start), End: int(t.End), Text: " "})
	}
	for _, b := range bs.blocks {
		first, last := b.tags[0], b.tags[len(b.tags)-1]
		switch {
		case b.kind == "if":
			keep := 0 // the first branch
			if (b.incremental && incremental == b.negated) || b.known == 0 {
				keep = 1 // the else branch, when there is one
			}
			for i := 0; i+1 < len(b.tags); i++ {
				if i == keep {
					out = append(out, sqltext.Edit{Start: int(b.tags[i].Start), End: int(b.tags[i].End), Text: " "})
				} else {
					out = append(out, sqltext.Edit{Start: int(b.tags[i].Start), End: int(b.tags[i+1].Start), Text: " "})
				}
			}
			out = append(out, sqltext.Edit{Start: int(last.Start), End: int(last.End), Text: " "})
		case b.kind == "for" && len(b.tags) > 2:
			out = append(out, sqltext.Edit{Start: int(first.Start), End: int(first.End), Text: " "}, sqltext.Edit{Start: int(b.tags[1].Start), End: int(last.End), Text: " "})
		case nonSQLBlocks[b.kind] || b.dropBody:
			out = append(out, sqltext.Edit{Start: int(first.Start), End: int(last.End), Text: " "})
		default:
			for _, t := range b.tags {
				out = append(out, sqltext.Edit{Start: int(t.Start), End: int(t.End), Text: " "})
			}
		}
	}
	return out
}
