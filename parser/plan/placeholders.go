package plan

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/bflint/bflint/parser/yamlx"
)

// checkPlaceholders reports the answers still left as TODO, as bflint init
// writes them, in the keys no other check reads: an owner, a reason, a
// rollback location or a restore time left as TODO would otherwise pass
// unnoticed. A key another check already holds to its form is left to it,
// so that one TODO gives one finding: enumerations (an unknown value),
// files (BF003), the timezone (not a zone) and pass criteria (BF402).
func (p *Plan) checkPlaceholders() {
	files := map[*String]bool{}
	for _, ref := range p.References() {
		files[ref.Value] = true
	}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
			return
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
			return
		case reflect.Struct:
		default:
			return
		}
		switch x := v.Addr().Interface().(type) {
		case *String:
			if x.Set && isTODO(x.V) && !files[x] {
				p.problem(x.Field, "%s is still TODO: the plan does not answer it yet\nhelp: %s", path, todoHelp(path))
			}
			return
		case *StringList:
			for i := range x.Items {
				if isTODO(x.Items[i].V) {
					p.problem(x.Items[i].Field, "%s[%d] is still TODO: the plan does not answer it yet\nhelp: %s", path, i, todoHelp(path))
				}
			}
			return
		case *yamlx.Field, *Date, *Int, *Bool:
			return
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" || f.Tag.Get("enum") != "" || name == "timezone" || name == "pass" {
				continue
			}
			key := name
			if path != "" {
				key = path + "." + name
			}
			walk(v.Field(i), key)
		}
	}
	walk(reflect.ValueOf(p).Elem(), "")
}

// isTODO reports whether a free-text value is a TODO left to answer; a
// file named TODO_... is BF003's, as it does not exist.
func isTODO(v string) bool {
	v = strings.TrimSpace(v)
	return v == "TODO" || strings.HasPrefix(v, "TODO ")
}

// todoHelp says what to write in place of a TODO: what the key means, as
// the plan schema (and so an editor) describes it.
func todoHelp(path string) string {
	d := strings.TrimSuffix(Describe(path), ".")
	if d == "" {
		return "replace the TODO with the answer"
	}
	return "replace the TODO with " + strings.ToLower(d[:1]) + d[1:]
}
