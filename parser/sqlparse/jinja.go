package sqlparse

import (
	"fmt"
	"regexp"
	"strings"
)

// Model is what a dbt model's {{ config(...) }} says about how it writes.
type Model struct {
	Offset              int // where the config() call stands
	Materialized        string
	IncrementalStrategy string
	UniqueKey           []string
}

// variant is one reading of a Jinja template: which branches of
// {% if is_incremental() %} it keeps, as edits over the original text.
type variant struct {
	name  string
	edits []edit
}

// placeholder stands where Jinja produced text bflint cannot know: an
// identifier is valid SQL wherever a relation, a column or an expression
// is expected.
const placeholder = "__jinja__"

func hasJinja(toks []Token) bool {
	for _, t := range toks {
		if t.Kind == JinjaExpr || t.Kind == JinjaTag || t.Kind == JinjaNote {
			return true
		}
	}
	return false
}

var (
	tagWord     = regexp.MustCompile(`^\{%-?\s*(\w+)`)
	refCall     = regexp.MustCompile(`^ref\(\s*(['"][^'"]+['"])\s*(?:,\s*(['"][^'"]+['"])\s*)?(?:,\s*\w+\s*=\s*[^)]*)?\)$`)
	sourceCall  = regexp.MustCompile(`^source\(\s*(['"][^'"]+['"])\s*,\s*(['"][^'"]+['"])\s*\)$`)
	configKwarg = regexp.MustCompile(`(\w+)\s*=\s*('[^']*'|"[^"]*"|\[[^\]]*\]|[\w.]+)`)
	quotedWord  = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)
	incremental = regexp.MustCompile(`^if\s+(not\s+)?is_incremental\(\s*\)\s*$`)
)

// jinjaInner returns the text inside a Jinja token without its delimiters
// and whitespace-control dashes.
func jinjaInner(text string) string {
	inner := text[2 : len(text)-2]
	inner = strings.TrimPrefix(inner, "-")
	inner = strings.TrimSuffix(inner, "-")
	return strings.TrimSpace(inner)
}

// jinja reads the templating of a dbt model: config() is recorded and
// removed, ref(), source() and this become relation names, other
// expressions become placeholders, and block tags are resolved. A template
// with {% if is_incremental() %} yields two variants, one per branch, so
// both the incremental and the full-refresh SQL are analysed.
func jinja(src string, toks []Token, opts Options) ([]variant, *Model, []Problem) {
	var model *Model
	exprEdits := make([]edit, 0)
	for _, t := range toks {
		if t.Kind != JinjaExpr {
			continue
		}
		inner := jinjaInner(t.Text(src))
		text := " " + placeholder + " "
		switch {
		case strings.HasPrefix(inner, "config("):
			model = readConfig(inner, t.Start)
			text = " "
		case inner == "this":
			text = " " + thisName(opts) + " "
		default:
			if m := refCall.FindStringSubmatch(inner); m != nil {
				args := []string{unquote(m[1])}
				if m[2] != "" {
					args = append(args, unquote(m[2]))
				}
				text = " " + resolve(opts, "ref", args) + " "
			} else if m := sourceCall.FindStringSubmatch(inner); m != nil {
				text = " " + resolve(opts, "source", []string{unquote(m[1]), unquote(m[2])}) + " "
			}
		}
		exprEdits = append(exprEdits, edit{t.Start, t.End, text})
	}
	blocks, hasIncremental, problems := parseBlocks(src, toks)
	if !hasIncremental {
		return []variant{{edits: append(exprEdits, blocks.edits(false)...)}}, model, problems
	}
	return []variant{
		{name: "incremental", edits: append(append([]edit(nil), exprEdits...), blocks.edits(true)...)},
		{name: "full", edits: append(append([]edit(nil), exprEdits...), blocks.edits(false)...)},
	}, model, problems
}

func thisName(opts Options) string {
	if opts.ModelName != "" {
		return quoteIfNeeded(opts.ModelName)
	}
	return "__this__"
}

func resolve(opts Options, kind string, args []string) string {
	if opts.Resolve != nil {
		if name := opts.Resolve(kind, args); name != "" {
			return name
		}
	}
	if kind == "source" {
		return quoteIfNeeded(args[0]) + "." + quoteIfNeeded(args[1])
	}
	return quoteIfNeeded(args[len(args)-1])
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func quoteIfNeeded(name string) string {
	if plainIdent.MatchString(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func unquote(s string) string { return s[1 : len(s)-1] }

func readConfig(inner string, offset int) *Model {
	m := &Model{Offset: offset}
	for _, kv := range configKwarg.FindAllStringSubmatch(inner, -1) {
		value := kv[2]
		var words []string
		for _, q := range quotedWord.FindAllStringSubmatch(value, -1) {
			words = append(words, q[1]+q[2])
		}
		first := ""
		if len(words) > 0 {
			first = words[0]
		}
		switch kv[1] {
		case "materialized":
			m.Materialized = first
		case "incremental_strategy":
			m.IncrementalStrategy = first
		case "unique_key":
			m.UniqueKey = words
		}
	}
	return m
}

// block is a {% if %} ... {% endif %} (or for, set, macro ...) with the
// tags that open, divide and close it.
type block struct {
	kind        string  // if, for, set, macro, call, snapshot, ...
	tags        []Token // opening, elif/else, closing tag
	incremental bool    // an if on is_incremental()
	negated     bool    // {% if not is_incremental() %}
}

type blockSet struct {
	src    string
	blocks []*block
	loose  []Token // tags that open and close nothing ({% do %}, single {% set %})
}

// closers lists the Jinja tags that open a block and the tag that ends it.
var closers = map[string]string{
	"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall",
	"snapshot": "endsnapshot", "materialization": "endmaterialization",
	"filter": "endfilter", "raw": "endraw", "test": "endtest", "docs": "enddocs",
}

func parseBlocks(src string, toks []Token) (*blockSet, bool, []Problem) {
	bs := &blockSet{src: src}
	var stack []*block
	var problems []Problem
	hasIncremental := false
	for _, t := range toks {
		if t.Kind != JinjaTag {
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
		case word == "set" && !strings.Contains(inner, "="):
			stack = append(stack, &block{kind: "set", tags: []Token{t}})
		case closers[word] != "":
			b := &block{kind: word, tags: []Token{t}}
			if im := incremental.FindStringSubmatch(inner); word == "if" && im != nil {
				b.incremental, b.negated = true, im[1] != ""
				hasIncremental = true
			}
			stack = append(stack, b)
		case word == "elif" || word == "else":
			if len(stack) == 0 || (stack[len(stack)-1].kind != "if" && stack[len(stack)-1].kind != "for") {
				problems = append(problems, Problem{t.Start, fmt.Sprintf("Jinja {%% %s %%} outside any {%% if %%}", word)})
				bs.loose = append(bs.loose, t)
				continue
			}
			top := stack[len(stack)-1]
			top.tags = append(top.tags, t)
		case strings.HasPrefix(word, "end"):
			open := strings.TrimPrefix(word, "end")
			if len(stack) == 0 || stack[len(stack)-1].kind != open {
				problems = append(problems, Problem{t.Start, fmt.Sprintf("Jinja {%% %s %%} closes no {%% %s %%}", word, open)})
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
		problems = append(problems, Problem{b.tags[0].Start, fmt.Sprintf("Jinja {%% %s %%} is never closed with {%% end%s %%}", b.kind, b.kind)})
		bs.loose = append(bs.loose, b.tags...)
	}
	return bs, hasIncremental, problems
}

// edits blanks every tag and the text of the branches this reading drops:
// for an is_incremental() test the branch that matches incremental; for
// other ifs the first branch (a template's main path); for macro and set
// blocks their whole body, which is not SQL of this statement. Loops keep
// their body once.
func (bs *blockSet) edits(incremental bool) []edit {
	var out []edit
	for _, t := range bs.loose {
		out = append(out, edit{t.Start, t.End, " "})
	}
	for _, b := range bs.blocks {
		switch b.kind {
		case "if":
			keep := 0 // the first branch
			if b.incremental && incremental == b.negated {
				keep = 1 // the else branch, when there is one
			}
			for i := 0; i+1 < len(b.tags); i++ {
				if i == keep {
					out = append(out, edit{b.tags[i].Start, b.tags[i].End, " "})
				} else {
					out = append(out, edit{b.tags[i].Start, b.tags[i+1].Start, " "})
				}
			}
			last := b.tags[len(b.tags)-1]
			out = append(out, edit{last.Start, last.End, " "})
		case "macro", "set", "test", "docs", "materialization", "raw":
			first, last := b.tags[0], b.tags[len(b.tags)-1]
			out = append(out, edit{first.Start, last.End, " "})
		default:
			for _, t := range b.tags {
				out = append(out, edit{t.Start, t.End, " "})
			}
		}
	}
	return out
}
