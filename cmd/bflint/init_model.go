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

var (
	isIncrementalTag = regexp.MustCompile(`^if\s+is_incremental\(\s*\)$`)
	configCall       = regexp.MustCompile(`^config\s*\(`)
)

// modelSQL is the SQL a full run of a dbt model executes, read from its
// file: config() left out, ref() and source() replaced by the relations
// the lineage records, {{ this }} by the target, and of an
// is_incremental() block only its else branch, as a first build (and a
// build into an empty staging table) runs it. ok is false for a model
// with any other Jinja (a macro, a variable, a loop): what it renders to
// needs dbt, so the SQL dbt compiled is read instead when there is some
// to trust (compiledSQL), and compiled names its file; otherwise init
// leaves the build to the author.
func modelSQL(m *manifest.Manifest, g *lineage.Graph, node *manifest.Node, projectDir, manifestPath, target string) (sql, compiled string, ok bool) {
	if node == nil || projectDir == "" || node.OriginalFilePath == "" {
		return "", "", false
	}
	content, err := source.ReadRegular(filepath.Join(projectDir, filepath.FromSlash(node.OriginalFilePath)), source.MaxFileSize)
	if err != nil {
		return "", "", false
	}
	if sql, ok := renderModel(m, g, string(content), target); ok {
		return sql, "", true
	}
	return compiledSQL(manifestPath, node, content)
}

// compiledSQL is the model's SQL as dbt compiled it: the manifest's
// compiled_code for the node, else the compiled/PACKAGE/PATH file dbt
// writes beside the manifest; from names which. Only for a model whose
// SQL renders the same for a first build as for an incremental run (no
// is_incremental() in it): of one that has, the compiled SQL holds the
// branch of whatever run compiled it last, which init cannot tell.
func compiledSQL(manifestPath string, node *manifest.Node, raw []byte) (sql, from string, ok bool) {
	if manifestPath == "" || node == nil || isIncrementalCall.Match(raw) {
		return "", "", false
	}
	if code, ok, err := manifest.CompiledCode(manifestPath, node.UniqueID); err == nil && ok && strings.TrimSpace(code) != "" {
		return strings.TrimRight(strings.TrimSpace(code), ";"), "compiled_code in " + manifestPath, true
	}
	if node.PackageName == "" || node.OriginalFilePath == "" {
		return "", "", false
	}
	path := filepath.Join(filepath.Dir(manifestPath), "compiled", node.PackageName, filepath.FromSlash(node.OriginalFilePath))
	content, err := source.ReadRegular(path, source.MaxFileSize)
	if err != nil || len(strings.TrimSpace(string(content))) == 0 {
		return "", "", false
	}
	return strings.TrimRight(strings.TrimSpace(string(content)), ";"), path, true
}

var isIncrementalCall = regexp.MustCompile(`is_incremental\s*\(`)

// renderModel is modelSQL of the model's source text src.
func renderModel(m *manifest.Manifest, g *lineage.Graph, src, target string) (string, bool) {
	regions := jinja.Regions(src)
	calls := jinja.RelationCalls(src, regions, jinja.Env{})
	var b strings.Builder
	last := 0
	// incremental is 0 outside an is_incremental() block, 1 in its if
	// branch (left out), 2 in its else branch (kept).
	incremental := 0
	for _, r := range regions {
		if incremental != 1 {
			b.WriteString(src[last:r.Start])
		}
		last = r.End
		inner := r.Inner
		switch {
		case r.Tag && isIncrementalTag.MatchString(inner) && incremental == 0:
			incremental = 1
		case r.Tag && inner == "else" && incremental == 1:
			incremental = 2
		case r.Tag && inner == "endif" && incremental != 0:
			incremental = 0
		case !r.Tag && incremental == 1:
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
	if incremental != 0 {
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
