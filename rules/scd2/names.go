package scd2

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// names are the names a column role goes by: exact names, or patterns in
// which * stands for any run of characters (*_valid_from names
// dbt_valid_from and lineage_valid_from), all in lower case.
type names []string

// index returns the position of the first name or pattern that matches
// name, -1 when none does.
func (ns names) index(name string) int {
	for i, n := range ns {
		if n == name {
			return i
		}
		if strings.Contains(n, "*") {
			if ok, _ := path.Match(n, name); ok {
				return i
			}
		}
	}
	return -1
}

func (ns names) has(name string) bool { return ns.index(name) >= 0 }

// firstUsed returns the name of used that the earliest pattern matches,
// "" when none does.
func (ns names) firstUsed(used map[string]bool) string {
	keys := make([]string, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best, bestAt := "", len(ns)
	for _, k := range keys {
		if i := ns.index(k); i >= 0 && i < bestAt {
			best, bestAt = k, i
		}
	}
	return best
}

// counterpart returns the name of the other end of a validity interval
// for name, one of ns: the name at the same place of other, with the
// part * matched carried over (lineage_valid_from gives lineage_valid_to).
func (ns names) counterpart(name string, other names) string {
	i := ns.index(name)
	if i < 0 || i >= len(other) {
		return ""
	}
	pat, mate := ns[i], other[i]
	before, after, starred := strings.Cut(pat, "*")
	if !starred {
		return strings.ReplaceAll(mate, "*", "")
	}
	stem := strings.TrimSuffix(strings.TrimPrefix(name, before), after)
	return strings.Replace(mate, "*", stem, 1)
}

// words are the literal parts of the names, which SQL using one of them
// holds.
func (ns names) words() []string {
	var out []string
	for _, n := range ns {
		for _, w := range strings.Split(n, "*") {
			if w = strings.Trim(w, "_"); w != "" && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// first is the first plain name, for messages that must name the column
// without knowing which the SQL uses.
func (ns names) first() string {
	for _, n := range ns {
		if !strings.Contains(n, "*") {
			return n
		}
	}
	if len(ns) > 0 {
		return strings.ReplaceAll(ns[0], "*", "")
	}
	return ""
}
