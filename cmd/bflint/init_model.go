package main

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

var configCall = regexp.MustCompile(`^config\s*\(`)

// modelSQL is the SQL a full run of a dbt model executes, read from its
// file: config() left out, ref() and source() replaced by the relations
// the lineage records, {{ this }} by the target, and of an
// is_incremental() test only the branch a first build (and a build into
// an empty staging table) takes. A model with any other Jinja (a macro, a
// variable, a loop) renders to what only dbt can say: the SQL dbt
// compiled is read instead (compiledSQL, from where compiled says) when the
// model never tests is_incremental(), itself or through the project's
// macros; otherwise ok is false and init leaves the build to the author.
func modelSQL(m *manifest.Manifest, g *lineage.Graph, node *manifest.Node, macros map[string]jinja.Macro, projectDir, manifestPath, target string) (sql string, compiled compiledFrom, ok bool) {
	if node == nil || projectDir == "" || node.OriginalFilePath == "" {
		return "", compiledFrom{}, false
	}
	content, err := source.ReadRegular(filepath.Join(projectDir, filepath.FromSlash(node.OriginalFilePath)), source.MaxFileSize)
	if err != nil {
		return "", compiledFrom{}, false
	}
	if sql, ok := renderModel(m, g, string(content), target); ok {
		return sql, compiledFrom{}, true
	}
	if jinja.IncrementalFilter(string(content), jinja.Options{Macros: macros}).Found {
		// The compiled SQL holds the branch of whichever run compiled
		// it last, which init cannot tell.
		return "", compiledFrom{}, false
	}
	return compiledSQL(manifestPath, node)
}

// compiledFrom is where the SQL dbt compiled for a model was read: the
// manifest's compiled_code, or a file under target/compiled. Its path is
// "" when bflint rendered the model's own SQL.
type compiledFrom struct {
	path       string
	inManifest bool
}

// describe names the source for a reader of the plan, with the path
// relative to the project when it lies inside it.
func (c compiledFrom) describe(projectDir string) string {
	p := c.path
	if rel, err := filepath.Rel(projectDir, p); err == nil && filepath.IsLocal(rel) {
		p = rel
	}
	p = filepath.ToSlash(p)
	if c.inManifest {
		return "compiled_code in " + p
	}
	return p
}

// compiledSQL is the model's SQL as dbt compiled it: the manifest's
// compiled_code for the node, else the compiled/PACKAGE/PATH file dbt
// writes beside the manifest.
func compiledSQL(manifestPath string, node *manifest.Node) (string, compiledFrom, bool) {
	if manifestPath == "" {
		return "", compiledFrom{}, false
	}
	if code, ok, err := manifest.CompiledCode(manifestPath, node.UniqueID); err == nil && ok && strings.TrimSpace(code) != "" {
		return strings.TrimRight(strings.TrimSpace(code), ";"), compiledFrom{manifestPath, true}, true
	}
	if node.PackageName == "" || node.OriginalFilePath == "" {
		return "", compiledFrom{}, false
	}
	path := filepath.Join(filepath.Dir(manifestPath), "compiled", node.PackageName, filepath.FromSlash(node.OriginalFilePath))
	content, err := source.ReadRegular(path, source.MaxFileSize)
	if err != nil || len(strings.TrimSpace(string(content))) == 0 {
		return "", compiledFrom{}, false
	}
	return strings.TrimRight(strings.TrimSpace(string(content)), ";"), compiledFrom{path: path}, true
}

// renderModel is modelSQL of the model's source text src.
func renderModel(m *manifest.Manifest, g *lineage.Graph, src, target string) (string, bool) {
	regions := jinja.Regions(src)
	calls := jinja.RelationCalls(src, regions, jinja.Env{})
	var b strings.Builder
	last := 0
	// inBlock is set inside an is_incremental() test, between its if and
	// its endif; skipping is set in the branch an incremental run takes,
	// which a first build (and a build into an empty table) leaves out.
	inBlock, skipping := false, false
	for _, r := range regions {
		if !skipping {
			b.WriteString(src[last:r.Start])
		}
		last = r.End
		inner := r.Inner
		negated, isTest := jinja.IncrementalTest(inner)
		switch {
		case r.Tag && isTest && !inBlock:
			inBlock, skipping = true, !negated
		case r.Tag && inner == "else" && inBlock:
			skipping = !skipping
		case r.Tag && inner == "endif" && inBlock:
			inBlock, skipping = false, false
		case !r.Tag && skipping:
			// left out with the branch that holds it
		case r.Tag:
			return "", false
		case configCall.MatchString(inner):
		case inner == "this":
			b.WriteString(target)
		default:
			rel, ok := relationOf(m, g, calls, r)
			if !ok {
				return "", false
			}
			b.WriteString(rel)
		}
	}
	if inBlock {
		return "", false
	}
	b.WriteString(src[last:])
	return strings.TrimRight(strings.TrimSpace(b.String()), ";"), true
}

// relationOf resolves the ref() or source() call that is all of region r.
func relationOf(m *manifest.Manifest, g *lineage.Graph, calls []jinja.RelationCall, r jinja.Region) (string, bool) {
	for _, c := range calls {
		// The call must be the whole region: {{ ref('x') }}, not an
		// expression around one.
		if c.Offset < r.Start || c.Offset >= r.End || !c.Known || !strings.HasPrefix(r.Inner, c.Kind) || !strings.HasSuffix(r.Inner, ")") || strings.Count(r.Inner, "(") != 1 {
			continue
		}
		var id string
		switch {
		case c.Kind == "ref" && len(c.Args) > 0:
			var err error
			if id, err = g.Resolve(c.Args[len(c.Args)-1]); err != nil {
				return "", false
			}
		case c.Kind == "source" && len(c.Args) == 2:
			suffix := "." + c.Args[0] + "." + c.Args[1]
			for _, candidate := range m.IDs() {
				if strings.HasPrefix(candidate, "source.") && strings.HasSuffix(candidate, suffix) {
					id = candidate
					break
				}
			}
		}
		name := m.RelationName(m.Node(id))
		return name, name != ""
	}
	return "", false
}
