package load

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/source"
	"github.com/bmatcuk/doublestar/v4"
)

// skippedDirs are never descended into: version control, installed
// packages and dbt's build output (a manifest in target/ is read only when
// a plan or the configuration names it).
var skippedDirs = map[string]bool{".git": true, "node_modules": true, "target": true}

// UsageError is a problem with how bflint was called (exit code 2), as
// opposed to a problem in a linted file (a finding).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ProjectRoot is the nearest folder at or above path holding .git, else
// the folder of path itself. The result is absolute with symlinks resolved.
func ProjectRoot(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	start := abs
	if info, err := os.Stat(abs); err == nil && !info.IsDir() {
		start = filepath.Dir(abs)
	}
	for dir := start; ; {
		if isRepositoryRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start, nil
		}
		dir = parent
	}
}

// Discovered are the files a run lints, as absolute paths.
type Discovered struct {
	Plans []string
	SQL   []string
	// Context are the project's other plans, found when a path argument
	// is a file, as pre-commit and editors pass them, and the project root
	// holds .git: a SQL file that one
	// of them references is linted with that plan, and the plan-set rules
	// (BF801, BF804, BF807) compare the linted plans with all of them, as
	// a run over the whole project would. A context plan that lints no
	// given file is read, never reported on.
	Context []string
	// PythonQueries are the bigquery-etl tables under the linted folders
	// whose query is Python (query.py): bflint does not read what they
	// write.
	PythonQueries []string
}

// PlanFormat says how plan files are told apart: Auto (""), bflint's own
// plans and bigquery-etl backfill.yaml files by their names and places;
// FormatBflint, every plan is bflint's; FormatBqetl, every plan file not
// named *.backfill.yaml is bigquery-etl entries, wherever it stands.
type PlanFormat string

const (
	Auto         PlanFormat = ""
	FormatBflint PlanFormat = "bflint"
	FormatBqetl  PlanFormat = "bqetl"
)

// Discover walks paths (files or folders) below root and returns the plans
// and SQL files to lint, skipping excluded ones (doublestar globs relative
// to root). A path argument that does not exist is a usage error.
func Discover(paths []string, root string, exclude []string, format PlanFormat) (*Discovered, error) {
	for _, pat := range exclude {
		if !doublestar.ValidatePattern(pat) {
			return nil, &UsageError{fmt.Sprintf("exclude pattern %q is not a valid glob", pat)}
		}
	}
	d := &Discovered{}
	// A file is listed once, whatever the names it is found under: a link
	// to a plan counted beside the plan would make it overlap itself.
	seen := map[string]bool{}
	add := func(list *[]string, p string) {
		key := p
		if info, err := os.Lstat(p); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				key = real
			}
		}
		if !seen[key] {
			seen[key] = true
			*list = append(*list, p)
		}
	}
	w := walker{root: root, exclude: exclude, format: format}
	fileArgs := false
	for _, arg := range paths {
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		info, err := os.Stat(abs)
		if err != nil {
			return nil, &UsageError{fmt.Sprintf("%s: no such file or folder", arg)}
		}
		if !info.IsDir() {
			fileArgs = true
			switch kind := classify(abs, true, format); kind {
			case "plan":
				add(&d.Plans, abs)
			case "sql":
				add(&d.SQL, abs)
			default:
				return nil, &UsageError{fmt.Sprintf("%s: not a backfill plan or SQL file", arg)}
			}
			continue
		}
		found, skippedYAML := 0, 0
		err = w.walk(abs, func(kind, p string) {
			switch kind {
			case "python query":
				d.PythonQueries = append(d.PythonQueries, p)
			case "plan":
				found++
				add(&d.Plans, p)
			case "sql", "unreadable":
				// An unreadable folder or file is listed so that the run
				// reports it instead of hiding it.
				found++
				add(&d.SQL, p)
			case "yaml":
				skippedYAML++
			}
		})
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		if found == 0 {
			return nil, &UsageError{nothingToLint(arg, skippedYAML)}
		}
	}
	if fileArgs && isRepositoryRoot(root) {
		// Without .git the project has no known extent (the root is then
		// the folder of the first path, perhaps a home folder), so no
		// context is read. A folder that cannot be read here is reported
		// only when it is linted itself: the context is a help, not
		// something to lint.
		err := w.walk(root, func(kind, p string) {
			if kind == "plan" {
				add(&d.Context, p)
			}
		})
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
	}
	if fileArgs {
		// A bigquery-etl entry is compared with the entries of its whole
		// tree (BF801), which is known even outside a git repository.
		trees := map[string]bool{}
		for _, p := range d.Plans {
			if !isBqetlPlan(p, format) {
				continue
			}
			if tree, ok := bqetl.Root(filepath.Dir(p)); ok && !trees[tree] {
				trees[tree] = true
				others, _ := filepath.Glob(filepath.Join(tree, "*", "*", "*", bqetl.FileName))
				for _, o := range others {
					add(&d.Context, o)
				}
			}
		}
	}
	sort.Strings(d.Plans)
	sort.Strings(d.SQL)
	sort.Strings(d.Context)
	return d, nil
}

// nothingToLint says why a folder argument gave no file to lint, so that
// a mistyped path fails a check instead of passing it with no findings.
func nothingToLint(arg string, skippedYAML int) string {
	msg := fmt.Sprintf("%s: nothing to lint: no backfill plan (*.backfill.yaml, a YAML file with a top-level bflint: key, a bigquery-etl backfill.yaml beside a metadata.yaml) and no SQL file in it", arg)
	switch {
	case skippedYAML == 1:
		msg += "; its 1 other YAML file has no top-level bflint: key"
	case skippedYAML > 1:
		msg += fmt.Sprintf("; its %d other YAML files have no top-level bflint: key", skippedYAML)
	}
	return msg
}

func isRepositoryRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// walker lists what lies under a folder of the project, leaving out the
// skipped folders and the configuration's excludes.
type walker struct {
	root    string
	exclude []string
	format  PlanFormat
}

func (w walker) excluded(abs string) bool {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pat := range w.exclude {
		if ok, _ := doublestar.Match(pat, rel); ok {
			return true
		}
	}
	return false
}

// walk calls visit with "plan", "sql" or "unreadable" for each file of
// dir that is one, "yaml" for another YAML file, which is not linted, and
// "python query" for a bigquery-etl table's query.py, which is not read.
func (w walker) walk(dir string, visit func(kind, path string)) error {
	// A YAML file is a plan when its text says so, and a dbt or bqetl
	// repository holds thousands: they are read in parallel once the walk
	// has listed them, and visited in the walk's order.
	type entry struct {
		kind, path string
		readYAML   bool
	}
	var entries []entry
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p != dir && !w.excluded(p) {
				entries = append(entries, entry{kind: "unreadable", path: p})
			}
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if p != dir && (skippedDirs[e.Name()] || w.excluded(p)) {
				return fs.SkipDir
			}
			return nil
		}
		if w.excluded(p) {
			return nil
		}
		switch kind, readHead := classifyName(p, false, w.format); {
		case readHead:
			entries = append(entries, entry{kind: "yaml", path: p, readYAML: true})
		case kind != "":
			entries = append(entries, entry{kind: kind, path: p})
		case e.Name() == "query.py":
			if _, inTree := bqetl.Root(filepath.Dir(p)); inTree {
				entries = append(entries, entry{kind: "python query", path: p})
			}
		}
		return nil
	})
	var yaml []int
	for i, e := range entries {
		if e.readYAML {
			yaml = append(yaml, i)
		}
	}
	parallel.For(len(yaml), func(k int) {
		if e := &entries[yaml[k]]; declaresPlan(e.path) {
			e.kind = "plan"
		}
	})
	for _, e := range entries {
		visit(e.kind, e.path)
	}
	return err
}

// classify says whether a file is a plan, SQL or neither. A YAML file that
// is not named *.backfill.yaml is a plan when a top-level "bflint:" key is
// present; explicit says the user named the file, so any YAML counts.
func classify(path string, explicit bool, format PlanFormat) string {
	kind, readHead := classifyName(path, explicit, format)
	if readHead && declaresPlan(path) {
		return "plan"
	}
	return kind
}

// classifyName is classify as far as the file's name (and, for a
// bigquery-etl backfill.yaml, the folder around it) tells; readHead is set
// for a YAML file that is a plan only if its text says so (declaresPlan).
func classifyName(path string, explicit bool, format PlanFormat) (kind string, readHead bool) {
	name := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(name, ".backfill.yaml"), strings.HasSuffix(name, ".backfill.yml"):
		return "plan", false
	case strings.HasSuffix(name, ".sql"):
		return "sql", false
	case name == bqetl.FileName && isBqetlPlan(path, format):
		return "plan", false
	case strings.HasSuffix(name, ".yaml"), strings.HasSuffix(name, ".yml"):
		if explicit {
			return "plan", false
		}
		return "", name != ".bflint.yaml"
	}
	return "", false
}

// declaresPlan reports whether the YAML file at path has a top-level
// bflint: key in its first MiB.
func declaresPlan(path string) bool {
	head, err := readHead(path, 1<<20)
	return err == nil && hasBflintKey(head)
}

// hasBflintKey reports whether a line of the YAML starts with the key
// bflint, which makes the file a plan. A plain search finds it several
// times faster than a multi-line regular expression, on the thousands of
// YAML files of a dbt or bqetl repository.
func hasBflintKey(yaml []byte) bool {
	for at := 0; ; {
		i := bytes.Index(yaml[at:], []byte("bflint"))
		if i < 0 {
			return false
		}
		i += at
		if i == 0 || yaml[i-1] == '\n' {
			rest := bytes.TrimLeft(yaml[i+len("bflint"):], " \t")
			if len(rest) > 0 && rest[0] == ':' {
				return true
			}
		}
		at = i + len("bflint")
	}
}

// readHead reads at most n bytes from the start of the file, allocating
// for what the file holds rather than for n: most YAML files are small.
func readHead(path string, n int64) ([]byte, error) {
	f, info, err := source.OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from the file, so that it is read in one call and a second
	// that meets its end: io.ReadAll starts at 512 bytes and reads again
	// each time it grows.
	buf := make([]byte, 0, min(info.Size(), n)+1)
	r := io.LimitReader(f, n)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
