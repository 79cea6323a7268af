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
	// Params are the macro's parameters in order, each with the text of
	// its default ("" when it has none).
	Params []Param
	// Body is the template between the macro's tags.
	Body string

	// template is Body parsed, and queries is set when the body calls
	// something whose result is data (run_query and the like): both are
	// read once, for the many calls of a macro.
	template []*tnode
	regions  []Region
	queries  bool
	// callees are the names the body calls.
	callees []string
}

// Param is a macro parameter.
type Param struct {
	Name, Default string
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
	jinjaTags        = regexp.MustCompile(`(?s)\{%.*?%\}|\{#.*?#\}`)
	jinjaExprs       = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	lineComment      = regexp.MustCompile(`--[^\n]*`)
	testsIncremental = regexp.MustCompile(`\{%-?\+?\s*(?:if|elif)\b[^%]*\bis_incremental\s*\(`)
)

// bodyRegions are the Jinja regions of the body, read once by ReadMacros
// for the many calls of a macro.
func (m Macro) bodyRegions() []Region {
	if m.regions == nil {
		return Regions(m.Body)
	}
	return m.regions
}

// ReadMacros reads the macro definitions of a file of a project's macros
// folder, by name: the shape of what each writes, whether it tests
// is_incremental(), its parameters and its body.
func ReadMacros(src string, into map[string]Macro) {
	for _, d := range macroDefinitions(src) {
		body := d.body
		macro := Macro{Shape: bodyShape(body), Incremental: testsIncremental.MatchString(body), Body: body,
			template: parseTemplate(body), regions: Regions(body), queries: dataDependent.MatchString(body)}
		// Only the names are wanted: no call's arguments are read.
		CallsOf(body, macro.regions, func(name string) bool {
			if !slices.Contains(macro.callees, name) {
				macro.callees = append(macro.callees, name)
			}
			return false
		})
		for _, p := range splitJinja(d.params, ',') {
			name, def, _ := strings.Cut(p, "=")
			if name = strings.TrimSpace(name); name != "" {
				macro.Params = append(macro.Params, Param{Name: name, Default: strings.TrimSpace(def)})
			}
		}
		into[d.name] = macro
	}
}

// TestsIncremental reports whether the project macro name tests
// is_incremental(), itself or through the project macros it calls.
func TestsIncremental(macros map[string]Macro, name string) bool {
	return testsIncrementalAt(macros, name, 0)
}

func testsIncrementalAt(macros map[string]Macro, name string, depth int) bool {
	m, ok := macros[name]
	if !ok || depth > maxExpansionDepth {
		return false
	}
	if m.Incremental {
		return true
	}
	for _, c := range m.callees {
		if c != name && testsIncrementalAt(macros, c, depth+1) {
			return true
		}
	}
	return false
}

type macroDefinition struct {
	name, params, body string
}

// macroHead matches the inside of {% macro name(params) %}.
var macroHead = regexp.MustCompile(`(?s)^macro\s+([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)$`)

// macroDefinitions lists the top-level macros a file defines, each body
// running to the {% endmacro %} that closes it.
func macroDefinitions(src string) []macroDefinition {
	if !strings.Contains(src, "macro") {
		return nil
	}
	var out []macroDefinition
	var open *macroDefinition
	bodyStart, depth := 0, 0
	for _, r := range Regions(src) {
		if !r.Tag {
			continue
		}
		switch word, _ := tagWords(r.Inner); {
		case word == "macro":
			if depth == 0 {
				if m := macroHead.FindStringSubmatch(r.Inner); m != nil {
					open = &macroDefinition{name: m[1], params: m[2]}
					bodyStart = r.End
				}
			}
			depth++
		case word == "endmacro":
			if depth--; depth == 0 && open != nil {
				open.body = src[bodyStart:r.Start]
				out = append(out, *open)
				open = nil
			}
			depth = max(depth, 0)
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
