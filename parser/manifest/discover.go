package manifest

import (
	"bufio"
	"github.com/bflint/bflint/parser/source"
	"os"
	"path/filepath"
	"strings"
)

// Discover finds the manifest of the dbt project that holds dir: the
// nearest folder at or above dir (up to stop, "" for the filesystem root)
// with dbt_project.yml, and in it target/manifest.json, or the target-path
// that dbt_project.yml sets. found is false when no dbt_project.yml is
// there; the manifest itself may still be missing.
func Discover(dir, stop string) (path string, found bool) {
	project, found := ProjectDir(dir, stop)
	if !found {
		return "", false
	}
	return InProject(project), true
}

// InProject is where dbt writes the manifest of the project in folder
// project: target/manifest.json, or under the target-path its
// dbt_project.yml sets.
func InProject(project string) string {
	target := targetPath(filepath.Join(project, "dbt_project.yml"))
	if !filepath.IsAbs(target) {
		target = filepath.Join(project, target)
	}
	return filepath.Join(target, "manifest.json")
}

// ProjectDir returns the folder of the dbt project that holds dir: the
// nearest folder at or above dir (up to stop) with dbt_project.yml.
func ProjectDir(dir, stop string) (string, bool) {
	for {
		if HoldsProject(dir) {
			return dir, true
		}
		if dir == stop || filepath.Dir(dir) == dir {
			return "", false
		}
		dir = filepath.Dir(dir)
	}
}

// HoldsProject reports whether folder dir holds a dbt_project.yml.
func HoldsProject(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, "dbt_project.yml"))
	return err == nil && info.Mode().IsRegular()
}

// targetPath reads target-path from dbt_project.yml. It is a top-level
// scalar, so its own line suffices, and the rest of the file (often full of
// Jinja) need not parse. A value dbt would render from Jinja cannot be known
// here and falls back to dbt's default.
func targetPath(project string) string {
	f, _, err := source.OpenRegular(project, 0)
	if err != nil {
		return "target"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		value, ok := strings.CutPrefix(sc.Text(), "target-path:")
		if !ok {
			continue
		}
		value, _, _ = strings.Cut(value, " #")
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		if value != "" && !strings.Contains(value, "{{") {
			return filepath.FromSlash(value)
		}
	}
	return "target"
}
