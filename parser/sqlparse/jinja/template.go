package jinja

import (
	"regexp"
	"strings"
)

// tnode is a node of a parsed template.
type tnode struct {
	kind string // text, expr, if, for, set, block, skip
	text string // a text's content, an expression or a tag's inner text
	// arms are an if's tests with their bodies ("" for else), or a for's
	// loop with its body and else.
	arms []arm
	body []*tnode
}

type arm struct {
	test string
	body []*tnode
}

// parseTemplate reads a template into nodes, applying Jinja's whitespace
// control ({%- and -%} strip the blanks beside them).
func parseTemplate(src string) []*tnode {
	regions := Regions(src)
	type item struct {
		text   string
		region *Region
		trimL  bool // the region strips what stands before it
		trimR  bool // the region strips what stands after it
	}
	var seq []item
	at := 0
	for i := range regions {
		r := &regions[i]
		if r.Start > at {
			seq = append(seq, item{text: src[at:r.Start]})
		}
		raw := src[r.Start:r.End]
		seq = append(seq, item{region: r, trimL: len(raw) > 2 && raw[2] == '-', trimR: len(raw) > 2 && raw[len(raw)-3] == '-'})
		at = r.End
	}
	if at < len(src) {
		seq = append(seq, item{text: stripNotes(src[at:])})
	}
	for i := range seq {
		if seq[i].region != nil {
			continue
		}
		if i > 0 && seq[i-1].trimR {
			seq[i].text = strings.TrimLeft(seq[i].text, " \t\r\n")
		}
		if i+1 < len(seq) && seq[i+1].trimL {
			seq[i].text = strings.TrimRight(seq[i].text, " \t\r\n")
		}
	}
	// Build the tree with a stack of open blocks.
	root := &tnode{kind: "block"}
	stack := []*tnode{root}
	add := func(n *tnode) {
		top := stack[len(stack)-1]
		if len(top.arms) > 0 {
			last := &top.arms[len(top.arms)-1]
			last.body = append(last.body, n)
			return
		}
		top.body = append(top.body, n)
	}
	for _, it := range seq {
		if it.region == nil {
			if it.text != "" {
				add(&tnode{kind: "text", text: stripNotes(it.text)})
			}
			continue
		}
		r := it.region
		if !r.Tag {
			add(&tnode{kind: "expr", text: r.Inner})
			continue
		}
		word, rest := tagWords(r.Inner)
		top := stack[len(stack)-1]
		switch word {
		case "if":
			n := &tnode{kind: "if", arms: []arm{{test: rest}}}
			add(n)
			stack = append(stack, n)
		case "elif":
			if top.kind == "if" {
				top.arms = append(top.arms, arm{test: rest})
			}
		case "else":
			if top.kind == "if" || top.kind == "for" {
				top.arms = append(top.arms, arm{test: ""})
			}
		case "for":
			n := &tnode{kind: "for", arms: []arm{{test: rest}}}
			add(n)
			stack = append(stack, n)
		case "set":
			if strings.Contains(rest, "=") {
				add(&tnode{kind: "set", text: rest})
				continue
			}
			n := &tnode{kind: "setblock", text: rest}
			add(n)
			stack = append(stack, n)
		case "raw", "endraw":
			// What a raw block holds is written as it stands; read as a
			// template in turn, as the model's own raw blocks are.
		case "macro", "call", "filter", "materialization", "test", "docs", "snapshot":
			n := &tnode{kind: "skip", text: word}
			if word == "call" || word == "filter" {
				n.kind = "opaque"
			}
			add(n)
			stack = append(stack, n)
		case "endif", "endfor", "endset", "endmacro", "endcall", "endfilter", "endmaterialization", "endtest", "enddocs", "endsnapshot":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case "do":
			add(&tnode{kind: "do", text: rest})
		}
	}
	return root.body
}

var noteSpan = regexp.MustCompile(`(?s)\{#.*?#\}`)

func stripNotes(s string) string {
	if !strings.Contains(s, "{#") {
		return s
	}
	return noteSpan.ReplaceAllString(s, "")
}
