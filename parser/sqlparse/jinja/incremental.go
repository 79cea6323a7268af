package jinja

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// What an incremental run of a dbt model reads that a full run does not:
// its {% if is_incremental() %} branches, in the model or in the project
// macros it calls, which decide the partitions a run computes.

// Filter is the incremental filter of a model.
type Filter struct {
	// Text is the SQL of its is_incremental() branches (the else branch
	// of an is_incremental() test that is negated), rendered: the project
	// macros it calls read with their arguments bound, whatever their
	// size; a value from the run's clock as ClockText; a var() as VarText;
	// {{ this }} as ThisText.
	Text string
	// Found is set when the model, or a macro it calls, tests
	// is_incremental().
	Found bool
	// At is where the filter stands in the model: its first
	// is_incremental() block, else the call of the macro that holds it;
	// -1 when it has none.
	At int
	// Unread is set, with the reason, when a macro holding it could not
	// be read (its SQL depends on a query it runs).
	Unread string
}

// ThisText is how the model itself renders in a Filter's text.
const ThisText = "__this__"

// IncrementalFilter reads the incremental filter of a model's template.
func IncrementalFilter(src string, opts Options) Filter {
	f := Filter{At: -1}
	opts.Resolve = func(kind string, args []string) string { return kind + "_" + strings.Join(args, "_") }
	x := &expander{opts: opts, incremental: true, keepIncremental: true, filterOnly: true, limit: 4 << 20, memo: opts.Memo}
	env := x.withCalls(Env{Resolve: opts.Resolve, Vars: opts.Vars, This: ThisText, MarkVars: true})
	text, _, ok := x.render(parseTemplate(src), env)
	if !ok {
		f.Unread = x.unread
	}
	// The output holds no block tags but the is_incremental() tests
	// kept, and the if blocks of Jinja that could not be evaluated.
	type block struct {
		test, negated bool
		branch        int
	}
	var stack []block
	kept := func() bool {
		for _, bl := range stack {
			if bl.test && (bl.branch == 0) != bl.negated {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	at := 0
	for _, r := range Regions(text) {
		if kept() {
			b.WriteString(text[at:r.Start])
		}
		at = r.End
		if !r.Tag {
			if kept() {
				b.WriteString(text[r.Start:r.End])
			}
			continue
		}
		switch word, rest := tagWords(r.Inner); word {
		case "if":
			m := incremental.FindStringSubmatch("if " + rest)
			stack = append(stack, block{test: m != nil, negated: m != nil && m[1] != ""})
			f.Found = f.Found || m != nil
		case "else", "elif":
			if len(stack) > 0 {
				stack[len(stack)-1].branch++
			}
		case "endif":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	f.Text = b.String()
	f.At = filterAt(src, opts)
	return f
}

// filterAt is where a model's incremental filter stands: its first
// is_incremental() block, else the first call of a project macro that
// tests is_incremental(); -1 when neither is there.
func filterAt(src string, opts Options) int {
	regions := Regions(src)
	// bodyAt is the first line of the branch after regions[i].
	bodyAt := func(i int) int {
		if i+1 < len(regions) {
			body := skipComments(src[regions[i].End:regions[i+1].Start])
			return regions[i+1].Start - len(body)
		}
		return regions[i].Start
	}
	negated := -1
	for i, r := range regions {
		if !r.Tag {
			continue
		}
		word, rest := tagWords(r.Inner)
		if word != "if" && word != "elif" {
			continue
		}
		m := incremental.FindStringSubmatch("if " + rest)
		switch {
		case m == nil:
		case m[1] == "":
			return bodyAt(i)
		case negated < 0:
			negated = i
		}
	}
	if negated >= 0 {
		// {% if not is_incremental() %}: an incremental run takes its
		// else branch.
		depth := 0
		for i := negated + 1; i < len(regions); i++ {
			if !regions[i].Tag {
				continue
			}
			switch word, _ := tagWords(regions[i].Inner); word {
			case "if", "for", "macro", "call", "filter":
				depth++
			case "endif", "endfor", "endmacro", "endcall", "endfilter":
				if depth == 0 {
					return regions[negated].Start
				}
				depth--
			case "else", "elif":
				if depth == 0 {
					return bodyAt(i)
				}
			}
		}
		return regions[negated].Start
	}
	testsIncremental := func(name string) bool { return TestsIncremental(opts.Macros, name) }
	if calls := CallsOf(src, regions, testsIncremental); len(calls) > 0 {
		return calls[0].Offset
	}
	return -1
}

// skipComments drops the blanks, SQL comments and Jinja comments text
// starts with: a
// filter's first line is its first line of SQL, not a comment about it.
func skipComments(text string) string {
	for {
		text = strings.TrimLeft(text, " \t\r\n")
		switch {
		case strings.HasPrefix(text, "--"), strings.HasPrefix(text, "//"):
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				text = text[i+1:]
				continue
			}
			return "" // a comment to the end
		case strings.HasPrefix(text, "/*"), strings.HasPrefix(text, "{#"):
			closer := "*/"
			if text[1] == '#' {
				closer = "#}" // a Jinja comment, which dbt drops
			}
			if i := strings.Index(text, closer); i >= 0 {
				text = text[i+2:]
				continue
			}
			return text
		}
		return text
	}
}

// bound records a name a set tag binds, for filterOnly.
func (x *expander) bound(name string) {
	if !x.filterOnly {
		return
	}
	if x.setNames == nil {
		x.setNames = map[string]bool{}
	}
	x.setNames[name] = true
}

// carriesTags reports whether a value holds Jinja tags, as a block set
// holding a kept is_incremental() block does.
func carriesTags(v Value) bool {
	if strings.Contains(v.Text, "{%") {
		return true
	}
	return slices.ContainsFunc(v.Items, carriesTags)
}

// callsIncremental reports whether an expression may write an
// is_incremental() test: it calls a macro that tests one (a word followed
// by "(" naming it), or uses a name a set tag bound.
func callsIncremental(expr string, macros map[string]Macro, set map[string]bool) bool {
	start := -1
	for i := 0; i <= len(expr); i++ {
		c := byte(0)
		if i < len(expr) {
			c = expr[i]
		}
		word := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			name := expr[start:i]
			if j := strings.LastIndexByte(name, '.'); j >= 0 {
				name = name[j+1:]
			}
			if set[expr[start:i]] {
				return true
			}
			rest := strings.TrimLeft(expr[i:], " \t\n")
			if strings.HasPrefix(rest, "(") && TestsIncremental(macros, name) {
				return true
			}
			start = -1
		}
	}
	return false
}

// incrementalArm returns the elif arm of an if block that tests
// is_incremental() (not negated).
func incrementalArm(n *tnode) (arm, bool) {
	for _, a := range n.arms[1:] {
		if m := incremental.FindStringSubmatch("if " + strings.TrimSpace(a.test)); m != nil && m[1] == "" {
			return a, true
		}
	}
	return arm{}, false
}

// incrementalBlock writes an {% if is_incremental() %} block out into b,
// each branch rendered.
func (x *expander) incrementalBlock(b *bytes.Buffer, n *tnode, env Env) bool {
	for i, a := range n.arms {
		switch {
		case i == 0:
			writeTag(b, "{% if "+a.test+" %}")
		case a.test == "":
			writeTag(b, "{% else %}")
		default:
			writeTag(b, "{% elif "+a.test+" %}")
		}
		x.inBlock++
		r, ok := x.renderTo(b, a.body, env)
		x.inBlock--
		if !ok || r != nil {
			x.unread = cmp.Or(x.unread, "it returns from inside an is_incremental() test")
			return false
		}
	}
	writeTag(b, "{% endif %}")
	return true
}

// writeTag writes a block tag kept for the model's reading. dbt renders
// Jinja before SQL is read, so a tag whose whitespace control joined it to
// a line comment still counts; the reading lexes SQL first, and would
// take it for part of the comment: it goes on a line of its own.
func writeTag(b *bytes.Buffer, tag string) {
	text := b.Bytes()
	if bytes.Contains(text[bytes.LastIndexByte(text, '\n')+1:], []byte("--")) {
		b.WriteByte('\n')
	}
	b.WriteString(tag)
}
