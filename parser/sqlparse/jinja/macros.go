package jinja

import (
	"regexp"
	"slices"
	"strings"
)

// A project's own macros, read from their definitions: what a macro emits
// decides how a model that calls it is read, and its position in the
// model alone cannot always tell (a macro before "parsed AS (" writes the
// head of a WITH list; one before "stagename AS stage_name," writes
// select-list items).

// Macro is what bflint reads of a project macro's definition.
type Macro struct {
	Shape MacroShape
	// Incremental is set when the body tests is_incremental() itself: a
	// model that hands its query to the macro gets the incremental filter,
	// or none, from it.
	Incremental bool
}

// MacroShape is what a project macro's body writes.
type MacroShape int

const (
	// MacroUnknown: the body's shape could not be told.
	MacroUnknown MacroShape = iota
	// MacroQuery: a query, SELECT ... (GitLab's dbt_audit writes the final
	// SELECT of a model).
	MacroQuery
	// MacroWithHead: the head of a WITH list, WITH a AS (...), b AS (...),
	// which the model continues.
	MacroWithHead
	// MacroSelectItems: select-list items followed by a comma, which the
	// model's list continues.
	MacroSelectItems
)

var (
	macroDef         = regexp.MustCompile(`(?s)\{%-?\s*macro\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(.*?\)\s*-?%\}(.*?)\{%-?\s*endmacro\s*-?%\}`)
	jinjaTags        = regexp.MustCompile(`(?s)\{%.*?%\}|\{#.*?#\}`)
	jinjaExprs       = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	lineComment      = regexp.MustCompile(`--[^\n]*`)
	testsIncremental = regexp.MustCompile(`\{%-?\+?\s*(?:if|elif)\b[^%]*\bis_incremental\s*\(`)
)

// ReadMacros reads the macro definitions of a file of a project's macros
// folder, by name: the shape of what each writes and whether it tests
// is_incremental(). A macro of which neither is known is left out.
func ReadMacros(src string, into map[string]Macro) {
	for _, m := range macroDef.FindAllStringSubmatch(src, -1) {
		macro := Macro{Shape: bodyShape(m[2]), Incremental: testsIncremental.MatchString(m[2])}
		if macro != (Macro{}) {
			into[m[1]] = macro
		}
	}
}

// varRead matches var('name') and var("name", default) in Jinja.
var varRead = regexp.MustCompile(`\bvar\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]`)

// MacroVars returns the vars the macro name, defined in src, reads with
// var(), each once in the order first read; nil when src does not define
// it or it reads none.
func MacroVars(src, name string) []string {
	var out []string
	for _, m := range macroDef.FindAllStringSubmatch(src, -1) {
		if m[1] != name {
			continue
		}
		for _, v := range varRead.FindAllStringSubmatch(m[2], -1) {
			if !slices.Contains(out, v[1]) {
				out = append(out, v[1])
			}
		}
	}
	return out
}

// bodyShape classifies a macro body by its SQL with the Jinja tags taken
// out and expressions kept as words.
func bodyShape(body string) MacroShape {
	text := jinjaTags.ReplaceAllString(body, " ")
	text = jinjaExprs.ReplaceAllString(text, " x ")
	text = strings.TrimSpace(lineComment.ReplaceAllString(text, ""))
	upper := strings.ToUpper(text)
	first, _, _ := strings.Cut(strings.Join(strings.Fields(upper), " "), " ")
	switch {
	case first == "WITH" && strings.HasSuffix(text, ","):
		return MacroWithHead
	case first == "SELECT":
		return MacroQuery
	case strings.HasSuffix(text, ",") && !strings.Contains(upper, "SELECT") && !strings.Contains(upper, " FROM "):
		return MacroSelectItems
	}
	return MacroUnknown
}
