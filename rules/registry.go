package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/suggest"
)

// Registry is the set of known rules, each code and name declared once.
type Registry struct {
	rules  []*Rule
	byCode map[string]*Rule
	byName map[string]*Rule
}

// NewRegistry builds a registry and panics on a malformed rule or a code or
// name declared twice: both are programming errors caught by any test run.
func NewRegistry(rs ...*Rule) *Registry {
	reg := &Registry{byCode: map[string]*Rule{}, byName: map[string]*Rule{}}
	for _, r := range rs {
		if err := r.validate(); err != nil {
			panic(err)
		}
		if _, dup := reg.byCode[r.Code]; dup {
			panic("duplicate rule code " + r.Code)
		}
		if _, dup := reg.byName[r.Name]; dup {
			panic("duplicate rule name " + r.Name)
		}
		reg.byCode[r.Code] = r
		reg.byName[r.Name] = r
		reg.rules = append(reg.rules, r)
	}
	sort.Slice(reg.rules, func(i, j int) bool { return reg.rules[i].Code < reg.rules[j].Code })
	return reg
}

// All returns the rules ordered by code.
func (reg *Registry) All() []*Rule { return reg.rules }

// TokenReaders are the codes of the rules that also check statements read
// from their tokens, in order.
func (reg *Registry) TokenReaders() []string {
	var out []string
	for _, r := range reg.rules {
		if r.ReadsTokens {
			out = append(out, r.Code)
		}
	}
	return out
}

// CodeGroups writes a sorted list of rule codes for a message, three or
// more consecutive codes as a range: BF102, BF201, BF701-BF704.
func CodeGroups(codes []string) []string {
	var out []string
	for i := 0; i < len(codes); {
		j := i
		for j+1 < len(codes) && consecutive(codes[j], codes[j+1]) {
			j++
		}
		switch {
		case j-i >= 2:
			out = append(out, codes[i]+"-"+codes[j])
		default:
			out = append(out, codes[i:j+1]...)
		}
		i = j + 1
	}
	return out
}

func consecutive(a, b string) bool {
	var x, y int
	_, errA := fmt.Sscanf(a, "BF%d", &x)
	_, errB := fmt.Sscanf(b, "BF%d", &y)
	return errA == nil && errB == nil && y == x+1
}

// Lookup finds a rule by code or name, case-insensitively for codes.
func (reg *Registry) Lookup(codeOrName string) *Rule {
	if r, ok := reg.byCode[strings.ToUpper(codeOrName)]; ok {
		return r
	}
	return reg.byName[strings.ToLower(codeOrName)]
}

// UnknownError says that a code or name is not a rule and suggests the
// closest one.
func (reg *Registry) UnknownError(codeOrName string) error {
	var names []string
	for _, r := range reg.rules {
		names = append(names, r.Code, r.Name)
	}
	if s := suggest.Closest(codeOrName, names); s != "" {
		return fmt.Errorf("%q is not a bflint rule; did you mean %q?", codeOrName, s)
	}
	return fmt.Errorf("%q is not a bflint rule (see `bflint rules`)", codeOrName)
}
