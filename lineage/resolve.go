package lineage

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/yamlx"
)

// NotFoundError is a name that denotes no node of the manifest.
type NotFoundError struct {
	Name string
	// Suggestion is the closest unique_id, name or relation name, in the
	// form the user wrote; "" when none is close enough to be a typo.
	Suggestion string
}

func (e *NotFoundError) Error() string {
	if e.Suggestion == "" {
		return fmt.Sprintf("%q is not in the manifest", e.Name)
	}
	return fmt.Sprintf("%q is not in the manifest; did you mean %q?", e.Name, e.Suggestion)
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

// keySep joins the parts of a relation key; it cannot occur in a name.
const keySep = "\x00"

// nameIndex maps every lower-cased form a user may write a node in to the
// nodes it may denote, so that resolving a name costs a few map look-ups.
type nameIndex struct {
	ids map[string][]int32
	// primary holds the names of models, snapshots and seeds (and
	// name.vN for each model version); secondary the names of every
	// other kind but tests, consulted only when nothing else matches,
	// because dbt projects routinely call a semantic model or exposure
	// after the model it describes.
	primary, secondary map[string][]int32
	// sources holds source_name.table_name.
	sources map[string][]int32
	// suffixes holds every trailing run of two or more parts of a
	// relation name, and full the whole names, so that a short name finds
	// a longer relation and a long name a shorter one (a manifest without
	// a database part).
	suffixes, full map[string][]int32
}

func (g *Graph) nameIndex() *nameIndex {
	g.namesOnce.Do(func() {
		ix := &nameIndex{
			ids:       map[string][]int32{},
			primary:   map[string][]int32{},
			secondary: map[string][]int32{},
			sources:   map[string][]int32{},
			suffixes:  map[string][]int32{},
			full:      map[string][]int32{},
		}
		g.eachNamed(func(v int32, n *manifest.Node, forms names) {
			add := func(m map[string][]int32, key string) { m[key] = append(m[key], v) }
			add(ix.ids, strings.ToLower(n.UniqueID))
			for _, name := range forms.primary {
				add(ix.primary, strings.ToLower(name))
			}
			for _, name := range forms.secondary {
				add(ix.secondary, strings.ToLower(name))
			}
			if forms.source != "" {
				add(ix.sources, strings.ToLower(forms.source))
			}
			for _, rel := range forms.relations {
				key := rel.Key()
				add(ix.full, strings.Join(key, keySep))
				for k := 2; k <= len(key); k++ {
					add(ix.suffixes, strings.Join(key[len(key)-k:], keySep))
				}
			}
		})
		g.names = ix
	})
	return g.names
}

// names are the forms one node answers to besides its unique_id.
type names struct {
	primary, secondary []string
	source             string
	relations          []sqlparse.Relation // of two or more parts
}

// eachNamed calls f, in unique_id order, for every defined node a user may
// name: tests and unit tests are never a plan's subject.
func (g *Graph) eachNamed(f func(v int32, n *manifest.Node, forms names)) {
	for v, id := range g.ids {
		n := g.m.Node(id)
		if n == nil || g.roles[v] == check {
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
			forms.source = sourceName(n)
		default:
			forms.secondary = append(forms.secondary, n.Name)
		}
		forms.relations = g.relations(n)
		f(int32(v), n, forms)
	}
}

// relations returns the relation names of n: relation_name as recorded and
// database.schema.alias, which differ only in quoting on manifests that
// record both. Nodes that build no relation have none, and a recorded
// table function (DuckDB sources read through read_csv('...')) is no name
// a user would write.
func (g *Graph) relations(n *manifest.Node) []sqlparse.Relation {
	recorded := g.m.RelationName(n)
	if recorded == "" {
		return nil
	}
	var out []sqlparse.Relation
	add := func(r sqlparse.Relation) {
		if len(r.Parts) >= 2 && !slices.ContainsFunc(out, func(o sqlparse.Relation) bool { return slices.Equal(o.Key(), r.Key()) }) {
			out = append(out, r)
		}
	}
	if !strings.Contains(recorded, "(") {
		add(sqlparse.ParseRelationName(recorded))
	}
	parts := slices.DeleteFunc([]string{n.Database, n.Schema, cmp.Or(n.Alias, n.Identifier, n.Name)}, func(s string) bool { return s == "" })
	add(sqlparse.Relation{Parts: parts, Offset: -1})
	return out
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
func (g *Graph) Resolve(name string) (string, error) {
	if g.m.Node(name) != nil {
		return name, nil
	}
	parsed := sqlparse.ParseRelationName(name)
	key := parsed.Key()
	if len(key) == 0 || slices.Contains(key, "") {
		return "", &NotFoundError{Name: name}
	}
	ix := g.nameIndex()
	dotted := strings.Join(key, ".")
	if c := ix.ids[dotted]; len(c) > 0 {
		return g.pick(name, c)
	}
	var c []int32
	c = append(c, ix.primary[dotted]...)
	c = append(c, ix.sources[dotted]...)
	if len(key) >= 2 {
		c = append(c, ix.suffixes[strings.Join(key, keySep)]...)
		for k := 2; k < len(key); k++ {
			c = append(c, ix.full[strings.Join(key[len(key)-k:], keySep)]...)
		}
	}
	if len(c) == 0 {
		c = ix.secondary[dotted]
	}
	if len(c) == 0 {
		return "", &NotFoundError{Name: name, Suggestion: g.suggest(parsed.Name())}
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

// suggest returns the known name closest to name. The candidate list is
// built on the first miss only, since most runs resolve every name.
func (g *Graph) suggest(name string) string {
	g.suggestOnce.Do(func() {
		seen := map[string]bool{}
		add := func(s string) {
			if s != "" && !seen[s] {
				seen[s] = true
				g.suggestions = append(g.suggestions, s)
			}
		}
		g.eachNamed(func(_ int32, n *manifest.Node, forms names) {
			add(n.UniqueID)
			for _, s := range slices.Concat(forms.primary, forms.secondary) {
				add(s)
			}
			add(forms.source)
			for _, r := range forms.relations {
				add(r.Name())
				add(sqlparse.Relation{Parts: r.Parts[len(r.Parts)-2:]}.Name())
			}
		})
	})
	// Suggest accepts at most three edits, so longer or shorter names
	// cannot win; skipping them keeps a miss cheap on a large manifest.
	var near []string
	for _, s := range g.suggestions {
		if d := len(s) - len(name); d >= -3 && d <= 3 {
			near = append(near, s)
		}
	}
	return yamlx.Suggest(name, near)
}
