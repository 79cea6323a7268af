package scd2

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/rules"
)

// snapshot is a dbt snapshot as the project describes it: its relation,
// the names of its validity columns, and dbt_valid_to_current, the
// expression its current rows carry instead of NULL ("" when its config
// sets none).
type snapshot struct {
	rel                sqlname.Relation
	validFrom, validTo string
	validToCurrent     string
}

// cataloged is a relation catalog.json shows with validity columns.
type cataloged struct {
	rel                sqlname.Relation
	validFrom, validTo string
}

// dimensions knows which relations of a pass are type-2 dimensions.
type dimensions struct {
	// snapshots are the project's dbt snapshots, from the unit's manifest.
	// They are the most precise source (their own validity names and
	// dbt_valid_to_current) and are consulted first.
	snapshots []snapshot
	// cataloged are relations whose catalog.json columns include both a
	// valid-from and a valid-to name.
	cataloged []cataloged
	// byName indexes snapshots by lastKey.
	byName map[string][]int
	// patterns are scd2.relations: doublestar globs over lower-cased names.
	patterns []string
	// validFrom and validTo are the configured validity column names.
	validFrom, validTo names
}

func newDimensions(pass *rules.Pass) *dimensions {
	from, to := pass.Config.ValidityColumns()
	ds := &dimensions{
		patterns:  pass.Config.SCD2Relations(),
		validFrom: names(lower(from)),
		validTo:   names(lower(to)),
	}
	m, catalog := pass.Unit.Manifest(), pass.Unit.Catalog()
	if m == nil {
		return ds
	}
	// What the manifest and catalog say is the same for every file of a
	// project: read once per run, not once per file.
	k := knownKey{m, catalog, strings.Join(ds.validFrom, ","), strings.Join(ds.validTo, ",")}
	kn := pass.Shared(k, func() any { return readKnown(k, ds.validFrom, ds.validTo) }).(*known)
	ds.snapshots, ds.cataloged, ds.byName = kn.snapshots, kn.cataloged, kn.byName
	return ds
}

// knownKey names the type-2 relations a manifest and catalog describe,
// with the validity names catalog columns are read by.
type knownKey struct {
	m        *manifest.Manifest
	catalog  *manifest.Catalog
	from, to string
}

type known struct {
	snapshots []snapshot
	cataloged []cataloged
	byName    map[string][]int
}

func readKnown(k knownKey, validFrom, validTo names) *known {
	kn := &known{byName: map[string][]int{}}
	m := k.m
	if k.catalog != nil {
		for _, id := range k.catalog.IDs() {
			n := m.Node(id)
			if n == nil || m.RelationName(n) == "" {
				continue
			}
			if from, to := validityPair(k.catalog.Columns(id), validFrom, validTo); from != "" {
				kn.cataloged = append(kn.cataloged, cataloged{sqlname.Parse(m.RelationName(n)), from, to})
			}
		}
	}
	for _, n := range m.Snapshots() {
		name := m.RelationName(n)
		if name == "" {
			continue
		}
		vf, vt := n.ValidityColumns()
		rel := sqlname.Parse(name)
		kn.byName[lastKey(rel)] = append(kn.byName[lastKey(rel)], len(kn.snapshots))
		if name := strings.ToLower(n.Name); name != lastKey(rel) && name != "" {
			// ref() names the node; an alias names the relation. Only
			// mayJoin reads this entry: lookup matches relations.
			kn.byName[name] = append(kn.byName[name], -1)
		}
		kn.snapshots = append(kn.snapshots, snapshot{
			rel:            rel,
			validFrom:      vf,
			validTo:        vt,
			validToCurrent: n.Config.DBTValidToCurrent,
		})
	}
	return kn
}

// lastKey is a relation's last part in lower case: two names that match
// share it.
func lastKey(r sqlname.Relation) string {
	if len(r.Parts) == 0 {
		return ""
	}
	return strings.ToLower(r.Parts[len(r.Parts)-1])
}

// mayJoin reports whether SQL text can hold a join this family reads.
// With no relation known to be type-2, a join is one only through the
// validity or current-flag columns the SQL uses, and those are written out
// in the file (Jinja only adds relation names), so a file that names none
// of them has no such join and its statements' joins need not be read.
func (ds *dimensions) mayJoin(text string) bool {
	if len(ds.cataloged) > 0 || len(ds.patterns) > 0 {
		return true
	}
	text = lowerForNames(text, ds.byName)
	if len(ds.byName) > 0 && namesAny(text, ds.byName) {
		// A snapshot is named in the file (ref('orders_snapshot')).
		return true
	}
	for _, word := range columnWords(ds.validFrom, ds.validTo) {
		if word.in(text) {
			return true
		}
	}
	return false
}

// lowerForNames lowers text to match the names against: ASCII letters
// only, unless a name has other letters. strings.ToLower reads every rune
// of a text that holds one non-ASCII byte (a comment's dash or emoji),
// which made lowering most of what this check cost; eight bytes are
// lowered at a time.
func lowerForNames(text string, names map[string][]int) string {
	for name := range names {
		for i := range len(name) {
			if name[i] >= 0x80 {
				return strings.ToLower(text)
			}
		}
	}
	return lowerASCII(text)
}

// lowerASCII lowers the ASCII letters of text. Each 8-byte word is lowered
// at once: a byte's high bit marks it 'A'-'Z' when it is at least 'A',
// not above 'Z' and itself ASCII, and that bit shifted to 0x20 lowers it.
func lowerASCII(text string) string {
	const ones = 0x0101010101010101
	b := make([]byte, len(text))
	i := 0
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(text[i : i+8]))
		low := x & (0x7f * ones)
		atLeastA := low + (0x80-'A')*ones
		aboveZ := low + (0x80-'Z'-1)*ones
		upper := atLeastA &^ aboveZ &^ x & (0x80 * ones)
		binary.LittleEndian.PutUint64(b[i:], x|upper>>2)
	}
	for ; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// rarity orders bytes by how seldom SQL text holds them, rarest first.
const rarity = "zqxjkvywgbfphmucdlosnritae_"

// columnWord is a word mayJoin looks for, and the index of its rarest
// byte: strings.Index finds a word by its first byte, and a first byte as
// common as the e of effective_from or the i of is_current stops it every
// few bytes of a file; looking for the rest from the rarest byte does not.
type columnWord struct {
	word   string
	anchor int
}

func newColumnWord(w string) columnWord {
	best, bestRank := 0, len(rarity)
	for i := 0; i < len(w); i++ {
		r := strings.IndexByte(rarity, w[i])
		if r < 0 {
			r = len(rarity)
		}
		if r < bestRank {
			best, bestRank = i, r
		}
	}
	return columnWord{w, best}
}

// in reports whether text holds the word, as strings.Contains does.
func (c columnWord) in(text string) bool {
	head, tail := c.word[:c.anchor], c.word[c.anchor:]
	for off := 0; ; {
		i := strings.Index(text[off:], tail)
		if i < 0 {
			return false
		}
		p := off + i
		if p >= len(head) && text[p-len(head):p] == head {
			return true
		}
		off = p + 1
	}
}

// columnWords are the words SQL using a validity or current-flag column
// holds, less those that hold another (a text holding is_current_version
// holds is_current), for each set of validity names a run uses.
func columnWords(from, to names) []columnWord {
	key := strings.Join(from, ",") + "|" + strings.Join(to, ",")
	if w, ok := columnWordsOf.Load(key); ok {
		return w.([]columnWord)
	}
	var all []string
	for _, ns := range []names{from, to, currentFlagNames} {
		all = append(all, ns.words()...)
	}
	var out []columnWord
	for _, w := range all {
		redundant := slices.ContainsFunc(all, func(o string) bool { return o != w && strings.Contains(w, o) })
		if !redundant && !slices.ContainsFunc(out, func(c columnWord) bool { return c.word == w }) {
			out = append(out, newColumnWord(w))
		}
	}
	columnWordsOf.Store(key, out)
	return out
}

var columnWordsOf sync.Map

// namesAny reports whether a word of text (lower case) is a key of names.
func namesAny(text string, names map[string][]int) bool {
	if len(names) <= 16 {
		// A few names are found faster by searching for each than by
		// looking every word of the text up.
		for name := range names {
			if containsWord(text, name) {
				return true
			}
		}
		return false
	}
	start := -1
	for i := 0; i <= len(text); i++ {
		word := i < len(text) && (text[i] == '_' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= '0' && text[i] <= '9' || text[i] >= 0x80)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if _, ok := names[text[start:i]]; ok {
				return true
			}
			start = -1
		}
	}
	return false
}

// containsWord reports whether word stands in text (lower case) as a
// whole word, as namesAny reads words.
func containsWord(text, word string) bool {
	isWord := func(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }
	for i := range len(word) {
		if !isWord(word[i]) {
			return false // no word of text holds it
		}
	}
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 || word == "" {
			return false
		}
		start, end := from+i, from+i+len(word)
		if (start == 0 || !isWord(text[start-1])) && (end == len(text) || !isWord(text[end])) {
			return true
		}
		from = start + 1
	}
}

// dimension is what is known about a joined relation that may be type-2.
type dimension struct {
	validFrom, validTo names
	// known is set when a snapshot or a configured pattern names the
	// relation, so it is type-2 whatever the statement does with it; via
	// says which, for messages.
	known bool
	via   string
	// snap is the relation's dbt snapshot, when one describes it.
	snap *snapshot
}

// lookup returns what the pass knows about rel before reading the
// statement: a snapshot, a configured pattern, or only the configured
// validity names, which the statement must then show it uses.
func (ds *dimensions) lookup(rel sqlname.Relation) dimension {
	for _, i := range ds.byName[lastKey(rel)] {
		if i < 0 {
			continue
		}
		if s := &ds.snapshots[i]; rel.Matches(s.rel) {
			return dimension{validFrom: names{strings.ToLower(s.validFrom)}, validTo: names{strings.ToLower(s.validTo)}, known: true, via: "a dbt snapshot", snap: s}
		}
	}
	for _, c := range ds.cataloged {
		if rel.Matches(c.rel) {
			return dimension{validFrom: names{c.validFrom}, validTo: names{c.validTo}, known: true, via: "catalog.json lists its validity columns"}
		}
	}
	d := dimension{validFrom: ds.validFrom, validTo: ds.validTo}
	if rules.MatchesAny(ds.patterns, rel) {
		d.known, d.via = true, "listed in scd2.relations"
	}
	return d
}

// dropsCurrentRows reports whether the dimension's current rows have NULL
// in the valid_to column named to. A known snapshot says so by lacking
// dbt_valid_to_current. Without one, the dbt_valid_to name is taken as the
// sign of a dbt snapshot with dbt's defaults, whose current rows are NULL;
// other names are assumed to close current rows with a far-future date.
func (d dimension) dropsCurrentRows(to string) bool {
	if d.snap != nil {
		return d.snap.validToCurrent == ""
	}
	return to == "dbt_valid_to"
}

// isCurrentValue reports whether text is the valid_to value that marks a
// current row: the snapshot's dbt_valid_to_current, or a far-future date.
func (d dimension) isCurrentValue(text string) bool {
	if d.snap != nil && d.snap.validToCurrent != "" && text != "" && strings.Contains(d.snap.validToCurrent, text) {
		return true
	}
	return farFuture(text)
}

// farFuture reports whether a date or timestamp literal lies in the year
// 2099 or later: no real version ends there, so it is a sentinel for "still
// current" ('9999-12-31', '2999-12-31 23:59:59').
func farFuture(text string) bool {
	text = strings.TrimSpace(text)
	if len(text) < 10 || text[4] != '-' {
		return false
	}
	year := 0
	for _, c := range text[:4] {
		if c < '0' || c > '9' {
			return false
		}
		year = year*10 + int(c-'0')
	}
	return year >= 2099
}

// pair chooses the validity names a message shows: those the statement
// uses, else the counterpart at the same place in the other list (valid_from
// goes with valid_to, dbt_valid_from with dbt_valid_to), else the first.
func (d dimension) pair(usedFrom, usedTo string) (from, to string) {
	from, to = usedFrom, usedTo
	if from != "" && to == "" {
		to = d.validFrom.counterpart(from, d.validTo)
	}
	if to != "" && from == "" {
		from = d.validTo.counterpart(to, d.validFrom)
	}
	if from == "" {
		from = d.validFrom.first()
	}
	if to == "" {
		to = d.validTo.first()
	}
	return from, to
}

func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// validityPair finds a valid-from and a valid-to name among a relation's
// columns; both are empty unless both are there.
func validityPair(columns []string, from, to names) (string, string) {
	var f, t string
	for _, c := range columns {
		if f == "" && from.has(c) {
			f = c
		}
		if t == "" && to.has(c) {
			t = c
		}
	}
	if f == "" || t == "" {
		return "", ""
	}
	return f, t
}
