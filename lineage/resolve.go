package lineage

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/suggest"
)

// NotFoundError is a name that denotes no node of the lineage.
type NotFoundError struct {
	Name    string
	suggest func() string
	once    sync.Once
	near    string
}

// Suggestion is the closest unique_id, name or relation name, in the form
// the user wrote; "" when none is close enough to be a typo. It is looked
// for when asked: on a large manifest that costs more than the lookup, and
// most callers only need to know the name is unknown.
func (e *NotFoundError) Suggestion() string {
	e.once.Do(func() {
		if e.suggest != nil {
			e.near = e.suggest()
		}
	})
	return e.near
}

func (e *NotFoundError) Error() string {
	if s := e.Suggestion(); s != "" {
		return fmt.Sprintf("%q is not in the lineage; did you mean %q?", e.Name, s)
	}
	return fmt.Sprintf("%q is not in the lineage", e.Name)
}

// AmbiguousError is a name that denotes several nodes.
type AmbiguousError struct {
	Name       string
	Candidates []string // unique_ids, sorted
}

// maxListed keeps the message of a very common name readable.
const maxListed = 10

func (e *AmbiguousError) Error() string {
	quoted := make([]string, 0, maxListed)
	for _, c := range e.Candidates[:min(len(e.Candidates), maxListed)] {
		quoted = append(quoted, strconv.Quote(c))
	}
	list := strings.Join(quoted, ", ")
	if more := len(e.Candidates) - maxListed; more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("%q is ambiguous: it names %s; write the unique_id", e.Name, list)
}

// nameIndex maps every lower-cased form a user may write a node in to the
// nodes it may denote, so that resolving a name costs a few map look-ups.
type nameIndex struct {
	// folded holds the unique_ids that differ from their lower-case form,
	// by that form; the others are found through the manifest's index.
	folded map[string][]int32
	// primary holds the names of models, snapshots and seeds (and
	// name.vN for each model version); secondary the names of every
	// other kind but tests, consulted only when nothing else matches,
	// because dbt projects routinely call a semantic model or exposure
	// after the model it describes.
	primary, secondary map[string][]int32
	// sources holds source_name.table_name.
	sources map[string][]int32
	// relations holds every relation name by its last part, so that a
	// short name finds a longer relation and a long name a shorter one (a
	// manifest without a database part) among the few that end alike.
	relations map[string][]relationOf
	// named lists the nodes a user may name, in unique_id order, for
	// suggestions.
	named []namedNode
}

// soleRelation returns the relation whose last part is last when one node
// alone has such relations.
func (ix *nameIndex) soleRelation(last string, ids []string) (keyedRelation, bool) {
	rels := ix.relations[last]
	if len(rels) == 0 || slices.ContainsFunc(rels, func(r relationOf) bool { return r.v != rels[0].v }) {
		return keyedRelation{}, false
	}
	id := ids[rels[0].v]
	i, found := slices.BinarySearchFunc(ix.named, id, func(nn namedNode, id string) int { return strings.Compare(ids[nn.v], id) })
	if !found {
		return keyedRelation{}, false
	}
	for _, r := range ix.named[i].forms.relations {
		if slices.Equal(r.key, rels[0].key) {
			return r, true
		}
	}
	return keyedRelation{}, false
}

type relationOf struct {
	v   int32
	key []string
}

type namedNode struct {
	v     int32
	forms names
}

func (g *Graph) nameIndex() *nameIndex {
	g.namesOnce.Do(func() {
		named := g.named()
		ix := &nameIndex{
			folded:    map[string][]int32{},
			primary:   make(map[string][]int32, len(named)),
			secondary: map[string][]int32{},
			sources:   map[string][]int32{},
			relations: make(map[string][]relationOf, len(named)),
			named:     named,
		}
		for _, nn := range named {
			v, id := nn.v, g.ids[nn.v]
			add := func(m map[string][]int32, key string) { m[key] = append(m[key], v) }
			if folded := strings.ToLower(id); folded != id {
				add(ix.folded, folded)
			}
			for _, name := range nn.forms.primary {
				add(ix.primary, strings.ToLower(name))
			}
			for _, name := range nn.forms.secondary {
				add(ix.secondary, strings.ToLower(name))
			}
			if nn.forms.source != "" {
				add(ix.sources, strings.ToLower(nn.forms.source))
			}
			for _, rel := range nn.forms.relations {
				last := rel.key[len(rel.key)-1]
				ix.relations[last] = append(ix.relations[last], relationOf{v, rel.key})
			}
		}
		g.names = ix
	})
	return g.names
}

// names are the forms one node answers to besides its unique_id.
type names struct {
	primary, secondary []string
	source             string
	relations          []keyedRelation // of two or more parts
}

type keyedRelation struct {
	sqlname.Relation
	key []string // Relation.Key
}

// named lists, in unique_id order, every defined node a user may name, with
// its forms: tests and unit tests are never a plan's subject. It peeks at
// the nodes: of a manifest read from the cache, a run needs few whole.
func (g *Graph) named() []namedNode {
	// The kind alone tells the nodes whose role is check.
	nameable := func(v int) bool {
		switch g.kind(int32(v)) {
		case manifest.Test, manifest.UnitTest:
			return false
		}
		return true
	}
	count := 0
	for v := range g.ids {
		if nameable(v) {
			count++
		}
	}
	out := make([]namedNode, 0, count)
	// Databases and schemas repeat from node to node: each is lowered once.
	lowered := map[string]string{}
	for v := range g.ids {
		if !nameable(v) {
			continue
		}
		n, ok := g.m.Peek(v)
		if !ok {
			continue
		}
		var forms names
		switch n.ResourceType {
		case manifest.Model, manifest.Snapshot, manifest.Seed:
			forms.primary = append(forms.primary, n.Name)
			if n.Version != "" {
				forms.primary = append(forms.primary, n.Name+"."+versionSuffix(n.Version))
			}
		case manifest.Source:
			forms.source = sourceName(&n)
		default:
			forms.secondary = append(forms.secondary, n.Name)
		}
		forms.relations = g.relations(&n, lowered)
		out = append(out, namedNode{int32(v), forms})
	}
	return out
}

// relations returns the relation names of n: relation_name as recorded and
// database.schema.alias, which differ only in quoting on manifests that
// record both. Nodes that build no relation have none, and a recorded
// table function (DuckDB sources read through read_csv('...')) is no name
// a user would write. lowered caches the lower-case form of the parts
// before the last.
func (g *Graph) relations(n *manifest.Node, lowered map[string]string) []keyedRelation {
	recorded := g.m.RelationName(n)
	if recorded == "" {
		return nil
	}
	out := make([]keyedRelation, 0, 2)
	add := func(parts []string) {
		if len(parts) < 2 {
			return
		}
		// sqlname.Relation.Key, with the leading parts shared.
		key := make([]string, len(parts))
		for i, p := range parts[:len(parts)-1] {
			l, ok := lowered[p]
			if !ok {
				l = strings.ToLower(p)
				lowered[p] = l
			}
			key[i] = l
		}
		key[len(key)-1] = strings.ToLower(parts[len(parts)-1])
		if !slices.ContainsFunc(out, func(o keyedRelation) bool { return slices.Equal(o.key, key) }) {
			out = append(out, keyedRelation{sqlname.Relation{Parts: parts, Offset: -1}, key})
		}
	}
	if !strings.Contains(recorded, "(") {
		add(relationParts(recorded))
	}
	var parts []string
	for _, p := range [...]string{n.Database, n.Schema, cmp.Or(n.Alias, n.Identifier, n.Name)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	// Usually the same relation as recorded, but for quoting.
	if !slices.ContainsFunc(out, func(o keyedRelation) bool { return isKeyOf(o.key, parts) }) {
		add(parts)
	}
	return out
}

// isKeyOf reports whether key is sqlname.Relation.Key of parts, without
// building that.
func isKeyOf(key, parts []string) bool {
	if len(key) != len(parts) {
		return false
	}
	for i, p := range parts {
		if !isLowerOf(key[i], p) {
			return false
		}
	}
	return true
}

// isLowerOf reports whether lower is strings.ToLower(s).
func isLowerOf(lower, s string) bool {
	if len(lower) != len(s) {
		return strings.ToLower(s) == lower
	}
	for i := range len(s) {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(s) == lower
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// relationParts splits a relation name as sqlname.Parse does,
// but into substrings of it when the name needs no unquoting beyond quotes
// around whole parts (as dbt writes relation names), rather than building
// each part anew.
func relationParts(name string) []string {
	if name == "" || strings.ContainsAny(name, " \t\n\r`") {
		return sqlname.Parse(name).Parts
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if !strings.Contains(p, `"`) {
			continue
		}
		inner, quoted := strings.CutPrefix(p, `"`)
		inner, closed := strings.CutSuffix(inner, `"`)
		if !quoted || !closed || strings.Contains(inner, `"`) {
			return sqlname.Parse(name).Parts
		}
		parts[i] = inner
	}
	return parts
}

// hasSuffix reports whether the parts of name end with those of suffix.
func hasSuffix(name, suffix []string) bool {
	return len(suffix) <= len(name) && slices.Equal(name[len(name)-len(suffix):], suffix)
}

// versionSuffix is how dbt selectors name a model version: name.v2.
func versionSuffix(v manifest.ModelVersion) string {
	s := string(v)
	if strings.HasPrefix(s, "v") {
		return s
	}
	return "v" + s
}

// sourceName returns source_name.table_name, read from the unique_id
// (source.package.source_name.table_name) because the table part may itself
// hold dots; "" when the id is not in that shape.
func sourceName(n *manifest.Node) string {
	rest, ok := strings.CutPrefix(n.UniqueID, "source."+n.PackageName+".")
	if !ok {
		return ""
	}
	src, ok := strings.CutSuffix(rest, "."+n.Name)
	if !ok || src == "" {
		return ""
	}
	return src + "." + n.Name
}

// Resolve returns the unique_id of the node name denotes. name may be a
// unique_id; a model, snapshot or seed name (a versioned model's bare name
// is its latest version, name.v1 a given one); source_name.table_name; a
// relation as schema.table or database.schema.table, compared without
// regard to case or quotes, a shorter name matching the trailing parts of
// a longer one; or, when none of those match, the name of an exposure,
// metric, semantic model or other non-test node. A name that denotes no node
// is a *NotFoundError, one that denotes several an *AmbiguousError.
//
// Answers are kept: the rules of a run ask about a plan's target many
// times, and a miss, whose suggestion compares the name with every other,
// costs the most.
func (g *Graph) Resolve(name string) (string, error) {
	if r, ok := g.resolved.Load(name); ok {
		r := r.(resolution)
		return r.id, r.err
	}
	id, err := g.resolve(name)
	g.resolved.Store(name, resolution{id, err})
	return id, err
}

// resolution is an answer of Resolve.
type resolution struct {
	id  string
	err error
}

func (g *Graph) resolve(name string) (string, error) {
	if g.m.Node(name) != nil {
		return name, nil
	}
	parsed := sqlname.Parse(name)
	key := parsed.Key()
	if len(key) == 0 || slices.Contains(key, "") {
		return "", &NotFoundError{Name: name}
	}
	ix := g.nameIndex()
	dotted := strings.Join(key, ".")
	// The slices of the index are shared: appending must not write into
	// their spare room.
	c := slices.Clip(ix.folded[dotted])
	if v, ok := g.index(dotted); ok && g.role(v) != check && g.m.NodeAt(int(v)) != nil {
		c = append(c, v)
	}
	if len(c) > 0 {
		return g.pick(name, c)
	}
	c = append(c, ix.primary[dotted]...)
	c = append(c, ix.sources[dotted]...)
	if len(key) >= 2 {
		for _, rel := range ix.relations[key[len(key)-1]] {
			// The name is the relation's last parts, or the relation is
			// the name's last parts.
			if hasSuffix(rel.key, key) || len(rel.key) < len(key) && hasSuffix(key, rel.key) {
				c = append(c, rel.v)
			}
		}
	}
	if len(c) == 0 {
		c = ix.secondary[dotted]
	}
	if len(c) == 0 {
		return "", &NotFoundError{Name: name, suggest: func() string { return g.suggest(parsed.Name()) }}
	}
	return g.pick(name, c)
}

// pick settles the candidates of a name, which may list a node twice (two
// forms of one relation): one node, or the latest version of one versioned
// model, or else ambiguity.
func (g *Graph) pick(name string, cands []int32) (string, error) {
	cands = slices.Clone(cands)
	slices.Sort(cands)
	cands = slices.Compact(cands)
	if len(cands) == 1 {
		return g.ids[cands[0]], nil
	}
	if latest := g.latestVersion(cands); latest >= 0 {
		return g.ids[latest], nil
	}
	return "", &AmbiguousError{Name: name, Candidates: g.idsOf(cands)}
}

// latestVersion returns, when every candidate is a version of one model,
// the version marked latest_version, else the highest (dbt's rule when a
// model declares no latest); -1 otherwise.
func (g *Graph) latestVersion(cands []int32) int32 {
	first := g.m.Node(g.ids[cands[0]])
	best := int32(-1)
	for _, v := range cands {
		n := g.m.Node(g.ids[v])
		if n.ResourceType != manifest.Model || n.Version == "" || n.PackageName != first.PackageName || !strings.EqualFold(n.Name, first.Name) {
			return -1
		}
		if n.Version == n.LatestVersion {
			return v
		}
		if best < 0 || compareVersions(n.Version, g.m.Node(g.ids[best]).Version) > 0 {
			best = v
		}
	}
	return best
}

// compareVersions orders numeric versions by value (so 10 follows 9) and
// any others as text.
func compareVersions(a, b manifest.ModelVersion) int {
	x, errA := strconv.ParseFloat(strings.TrimPrefix(string(a), "v"), 64)
	y, errB := strconv.ParseFloat(strings.TrimPrefix(string(b), "v"), 64)
	if errA == nil && errB == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(string(a), string(b))
}

// suggest returns the known name closest to name. Suggest accepts at most
// three edits, so longer or shorter names cannot win: only names within
// three bytes of name's length are built and compared, which keeps a miss
// cheap on a large manifest. A name listed twice cannot change what Suggest
// picks (the first of the closest), so none is dropped.
func (g *Graph) suggest(name string) string {
	// A name whose last part is one node's relation (the schema or the
	// database is wrong) most likely means that node, given in as many
	// parts as the name has; finding it takes
	// one lookup where the edit distance to every name of a large project
	// takes hundreds of milliseconds.
	if key := sqlname.Parse(name).Key(); len(key) >= 2 {
		if rel, ok := g.nameIndex().soleRelation(key[len(key)-1], g.ids); ok {
			n := min(len(key), len(rel.Parts))
			return sqlname.Relation{Parts: rel.Parts[len(rel.Parts)-n:]}.Name()
		}
	}
	var near []string
	consider := func(length int, build func() string) {
		if d := length - len(name); length > 0 && d >= -3 && d <= 3 {
			near = append(near, build())
		}
	}
	plain := func(s string) { consider(len(s), func() string { return s }) }
	relation := func(parts []string) {
		r := sqlname.Relation{Parts: parts}
		consider(nameLength(parts), r.Name)
	}
	for _, nn := range g.nameIndex().named {
		plain(g.ids[nn.v])
		for _, s := range slices.Concat(nn.forms.primary, nn.forms.secondary) {
			plain(s)
		}
		plain(nn.forms.source)
		for _, r := range nn.forms.relations {
			relation(r.Parts)
			relation(r.Parts[len(r.Parts)-2:])
		}
	}
	return suggest.Closest(name, near)
}

// nameLength is the length of sqlname.Relation.Name for the parts, without
// building it.
func nameLength(parts []string) int {
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
		if strings.ContainsAny(p, ".\"`") {
			n += 2 + strings.Count(p, `"`)
		}
	}
	return n
}
