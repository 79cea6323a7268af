package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/all"
)

// lintOptions are the parsed lint flags.
type lintOptions struct {
	formats    []formatTarget
	output     string
	now        time.Time
	configPath string
	manifest   string
	failOn     rules.Severity // SeverityDefault means never
	enable     []string
	disable    []string
	noColor    bool
	quiet      bool // -q: the text report's verdict line only
	stats      bool
	jobs       int
	paths      []string
	// Adoption on an existing repository; see docs/adoption.md.
	writeBaseline string
	baseline      string
	newFromRev    string
	planFormat    string
	// fix applies the safe fixes before the report; see docs/authoring.md.
	fix bool
}

// formatTarget is one requested report: a format and where it goes ("" is
// --output, or stdout).
type formatTarget struct {
	format string
	path   string
}

var formats = []string{"text", "json", "sarif", "github", "rdjsonl", "markdown"}

// listFlag collects a repeatable or comma-separated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// lintFlagValues are the lint flags read as text, checked after parsing.
type lintFlagValues struct {
	formatList, enable, disable listFlag
	nowText, failOn             string
}

// declareLintFlags declares the lint flags on fs, writing into o and v.
func declareLintFlags(fs *flag.FlagSet, o *lintOptions, v *lintFlagValues) {
	fs.Var(&v.formatList, "format", "output `FORMAT`: text, json, sarif, github, rdjsonl or markdown; repeat, or give format=FILE, to write several")
	fs.StringVar(&o.output, "output", "", "write the report to `FILE` instead of stdout")
	fs.StringVar(&v.nowText, "now", "", "the clock for date rules (`TIME`), as RFC 3339, or a date alone for noon UTC that day (default: the current time)")
	fs.StringVar(&o.configPath, "config", "", "configuration `FILE` (default: .bflint.yaml found walking up to the project root)")
	fs.StringVar(&o.manifest, "manifest", "", "dbt manifest.json `FILE` for plans that name none")
	fs.StringVar(&v.failOn, "fail-on", "error", "exit 1 when a finding is at or above this `SEVERITY`: error, warning or never")
	fs.Var(&v.enable, "enable", "run these rules (`CODE`s or names, comma-separated) even if configuration disables them")
	fs.Var(&v.disable, "disable", "do not run these rules (`CODE`s or names, comma-separated)")
	fs.BoolVar(&o.noColor, "no-color", false, "never colour the text report")
	const quietUsage = "print only the verdict line of the text report (the paths linted, the counts and what was linted), not the findings; other formats are written whole"
	fs.BoolVar(&o.quiet, "q", false, quietUsage)
	fs.BoolVar(&o.quiet, "quiet", false, quietUsage)
	fs.BoolVar(&o.stats, "stats", false, "after the report, print to stderr how many SQL statements were parsed, analysed from tokens, or not analysed, per dialect")
	fs.IntVar(&o.jobs, "j", 0, "lint `N` files at once (default: the number of CPUs)")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record the run's active findings in the baseline `FILE` and exit 0; the report is still written")
	fs.StringVar(&o.baseline, "baseline", "", "hide the findings recorded in the baseline `FILE`, and say on stderr which of its entries match nothing")
	fs.BoolVar(&o.fix, "fix", false, "first apply the safe fixes (BF801: add missing models to downstream.rebuild; BF802: reorder it) to the plans, say on stderr what each changed, then report what remains")
	fs.StringVar(&o.planFormat, "plan-format", "", "read plan files as `FORMAT`: auto (by name and place), bflint, or bqetl (every backfill.yaml, and every plan file given that is not *.backfill.yaml, holds bigquery-etl entries); default: the configuration's plan_format, else auto")
	fs.StringVar(&o.newFromRev, "new-from-rev", "", "report only findings in plans and SQL files changed since the git revision `REV`, counting a plan as changed when any file it references is")
}

func parseLintFlags(args []string, stdout io.Writer) (*lintOptions, error) {
	fs := flag.NewFlagSet("bflint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		o lintOptions
		v lintFlagValues
	)
	declareLintFlags(fs, &o, &v)
	// Flags may follow paths, as in "bflint examples/ --format json".
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeMainHelp(stdout, fs)
			return nil, &exitError{code: exitClean}
		}
		return nil, usageErrorf("%v", err)
	}
	o.paths = paths
	if len(o.paths) == 0 {
		o.paths = []string{"."}
	}
	if len(v.formatList) == 0 {
		v.formatList = listFlag{"text"}
	}
	toStdout := 0
	for _, f := range v.formatList {
		name, path, _ := strings.Cut(f, "=")
		if !contains(formats, name) {
			return nil, usageErrorf("--format %q: unknown format; use one of %s", name, strings.Join(formats, ", "))
		}
		if path == "" && o.output == "" {
			toStdout++
		}
		o.formats = append(o.formats, formatTarget{format: name, path: path})
	}
	if toStdout > 1 {
		return nil, usageErrorf("several formats would go to stdout: give the others a file, as --format sarif=bflint.sarif")
	}
	o.now = time.Now()
	if v.nowText != "" {
		t, err := parseNow(v.nowText)
		if err != nil {
			return nil, usageErrorf("--now %q is not an RFC 3339 time such as 2026-11-30T09:00:00Z, or a date such as 2026-11-30", v.nowText)
		}
		o.now = t
	}
	switch v.failOn {
	case "error":
		o.failOn = rules.SeverityError
	case "warning":
		o.failOn = rules.SeverityWarning
	case "never":
		o.failOn = rules.SeverityDefault
	default:
		return nil, usageErrorf("--fail-on %q: use error, warning or never", v.failOn)
	}
	if strings.HasPrefix(o.newFromRev, "-") {
		return nil, usageErrorf("--new-from-rev %q looks like a flag, not a git revision: name a branch, tag or commit, as --new-from-rev origin/main", o.newFromRev)
	}
	if o.jobs < 0 {
		return nil, usageErrorf("-j must be at least 1")
	}
	o.enable, o.disable = v.enable, v.disable
	return &o, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// planFormat is --plan-format, else the configuration's plan_format.
func planFormat(flagValue string, cfg *config.Config) (load.PlanFormat, error) {
	v := flagValue
	if v == "" && cfg != nil && cfg.PlanFormat.Set {
		v = cfg.PlanFormat.V
	}
	switch v {
	case "", "auto":
		return load.Auto, nil
	case "bflint":
		return load.FormatBflint, nil
	case "bqetl":
		return load.FormatBqetl, nil
	}
	return "", usageErrorf("--plan-format %q: use auto, bflint or bqetl", v)
}

func lintCommand(args []string, stdout, stderr io.Writer) error {
	o, err := parseLintFlags(args, stdout)
	if err != nil {
		return err
	}
	root, err := load.ProjectRoot(o.paths[0])
	if err != nil {
		return inputErrorf("%v", err)
	}
	adopt, err := prepareAdoption(o, root)
	if err != nil {
		return err
	}
	ls, err := openLint(o, root)
	if err != nil {
		return err
	}
	if o.newFromRev != "" {
		// prepareAdoption has checked that the revision exists.
		if ls.loadOpts.Previous, err = previousFiles(ls.root, o.newFromRev, adopt.changed); err != nil {
			return inputErrorf("--new-from-rev %s: %v", o.newFromRev, err)
		}
	}
	settings := ls.settings
	units, res := ls.lint()
	for round := 0; o.fix && round < maxFixRounds; round++ {
		changed, err := applyFixes(res, root, stderr)
		if err != nil {
			return err
		}
		if changed == 0 {
			break
		}
		units, res = ls.lint()
	}
	if err := refuseReadOutputs(o.outputFiles(), o.baseline); err != nil {
		return err
	}
	units = rules.Linted(units)
	stale, err := adopt.process(res, units, settings, o, stderr)
	if err != nil {
		return err
	}
	if err := writeReports(res, o, root, stdout, stderr); err != nil {
		return err
	}
	reportStale(stderr, o.baseline, stale)
	// On stderr, whatever the format, so machine-read reports stay clean.
	if o.stats {
		if err := writeStats(stderr, res.Coverage, settings.Registry.TokenReaders(), fromWorkingDir(root)); err != nil {
			return internalErrorf("writing --stats: %v", err)
		}
	}
	if len(res.Errors) > 0 {
		return &exitError{code: exitInternal, msg: fmt.Sprintf("%d internal error(s): a rule crashed; the findings above are incomplete. Please report this as a bflint bug.", len(res.Errors))}
	}
	// Recording a baseline accepts the findings it records, so they do not
	// fail the run that records them.
	if o.writeBaseline == "" && failing(res, o.failOn) {
		return &exitError{code: exitFindings}
	}
	return nil
}

// lintSession is what a run reads before it lints: the project, its
// configuration, the rules to run and the files found. The lint and brief
// commands share it, so that a brief reports exactly what lint would.
type lintSession struct {
	root     string
	fset     *token.FileSet
	settings *rules.Settings
	loadOpts load.Options
	disc     *load.Discovered
}

// openLint reads the configuration of the project at root and finds the
// files the paths of o name, refusing outputs that would overwrite one of
// them.
func openLint(o *lintOptions, root string) (*lintSession, error) {
	fset := token.NewFileSet()
	cfg, problems, err := loadConfig(fset, o, root)
	if err != nil {
		return nil, err
	}
	settings, err := buildSettings(all.Registry(), cfg, fset, o, problems)
	if err != nil {
		return nil, err
	}
	loadOpts := load.Options{Root: root, Config: cfg, Streamed: true, CacheDir: manifest.CacheDir(), History: gitHistoryOf}
	if o.manifest != "" {
		f, _, err := source.OpenRegular(o.manifest, 0)
		if err != nil {
			return nil, inputErrorf("--manifest %s: %v", o.manifest, source.Cause(err))
		}
		f.Close()
		if loadOpts.Manifest, err = filepath.Abs(o.manifest); err != nil {
			return nil, inputErrorf("--manifest %s: %v", o.manifest, err)
		}
	}
	format, err := planFormat(o.planFormat, cfg)
	if err != nil {
		return nil, err
	}
	loadOpts.PlanFormat = format
	disc, err := load.Discover(o.paths, root, cfg.Exclude.Values(), format)
	if err != nil {
		var ue *load.UsageError
		if errors.As(err, &ue) {
			return nil, inputErrorf("%s", ue.Msg)
		}
		return nil, err
	}
	inputs := slices.Concat(disc.Plans, disc.SQL, disc.Context)
	if cfg.File != nil {
		inputs = append(inputs, rootPath(root, cfg.File.Name))
	}
	for _, p := range []string{o.configPath, o.manifest} {
		if p != "" {
			inputs = append(inputs, p)
		}
	}
	if err := checkOutputs(o.outputFiles(), inputs, o.baseline); err != nil {
		return nil, err
	}
	return &lintSession{root: root, fset: fset, settings: settings, loadOpts: loadOpts, disc: disc}, nil
}

// lint loads the files and runs the rules on them.
func (ls *lintSession) lint() ([]*rules.Unit, *rules.Result) {
	units := load.Units(ls.fset, ls.disc, ls.loadOpts)
	// Before the run, which lets go of each file's project once it is
	// linted.
	problems := projectProblems(ls.root, units)
	res := rules.Run(ls.fset, units, ls.settings)
	res.Coverage.PythonQueries = len(ls.disc.PythonQueries)
	res.Coverage.ProjectProblems = problems
	return units, res
}

// projectProblems lists, once per project, the dbt project files the
// units' SQL files were read with that bflint could not read as dbt
// would, named from root.
func projectProblems(root string, units []*rules.Unit) []rules.ProjectProblem {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		absRoot = root
	}
	seen := map[*dbtproject.Project]bool{}
	var out []rules.ProjectProblem
	for _, u := range units {
		for _, f := range u.SQL {
			p := f.Project
			if p == nil || seen[p] {
				continue
			}
			seen[p] = true
			for _, pr := range p.Problems {
				name := pr.File
				if rel, err := filepath.Rel(absRoot, pr.File); err == nil && filepath.IsLocal(rel) {
					name = filepath.ToSlash(rel)
				}
				out = append(out, rules.ProjectProblem{File: name, Line: pr.Line, Msg: pr.Msg})
			}
		}
	}
	slices.SortFunc(out, func(a, b rules.ProjectProblem) int {
		return cmp.Or(strings.Compare(a.File, b.File), a.Line-b.Line, strings.Compare(a.Msg, b.Msg))
	})
	return out
}

// failing reports whether an active finding is at or above the threshold.
func failing(res *rules.Result, threshold rules.Severity) bool {
	if threshold == rules.SeverityDefault {
		return false
	}
	for _, f := range res.Findings {
		if f.Suppressed == nil && f.Severity >= threshold {
			return true
		}
	}
	return false
}

// loadConfig reads --config, or the .bflint.yaml found walking up from the
// first path to the project root; without one, defaults apply. Problems in
// the file are returned with those buildSettings finds, so the user sees
// every one of them at once.
func loadConfig(fset *token.FileSet, o *lintOptions, root string) (*config.Config, []string, error) {
	path := o.configPath
	if path == "" {
		start, err := filepath.Abs(o.paths[0])
		if err != nil {
			return nil, nil, inputErrorf("%v", err)
		}
		if real, err := filepath.EvalSymlinks(start); err == nil {
			start = real
		}
		if info, err := os.Stat(start); err == nil && !info.IsDir() {
			start = filepath.Dir(start)
		}
		path = config.Find(start, root)
		if path == "" {
			return &config.Config{}, nil, nil
		}
	}
	name := path
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	}
	cfg, errs := config.Load(fset, path, name)
	if cfg == nil {
		return nil, nil, inputErrorf("%v", errs[0])
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return cfg, msgs, nil
}

// buildSettings resolves which rules run and at which severity: the
// configuration first, then the command line, which has the last word.
func buildSettings(reg *rules.Registry, cfg *config.Config, fset *token.FileSet, o *lintOptions, problems []string) (*rules.Settings, error) {
	configPos := func(p token.Pos) string {
		pos := fset.Position(p)
		return fmt.Sprintf("%s:%d:%d: ", pos.Filename, pos.Line, pos.Column)
	}
	configWhere := func(items []yamlx.String) func(int) string {
		return func(i int) string { return configPos(items[i].Value) }
	}
	s := &rules.Settings{Registry: reg, Config: cfg, Now: o.now, Jobs: o.jobs, Enabled: map[string]bool{}, Severity: map[string]rules.Severity{}, CoverageByDialect: o.stats}
	if s.Jobs == 0 {
		s.Jobs = defaultJobs()
	}
	for _, r := range reg.All() {
		s.Enabled[r.Code] = true
	}
	set := func(names []string, on bool, where func(i int) string) {
		for i, n := range names {
			r := reg.Lookup(n)
			if r == nil {
				problems = append(problems, where(i)+reg.UnknownError(n).Error())
				continue
			}
			s.Enabled[r.Code] = on
		}
	}
	if rc := cfg.Rules; rc != nil {
		set(rc.Disable.Values(), false, configWhere(rc.Disable.Items))
		set(rc.Enable.Values(), true, configWhere(rc.Enable.Items))
		for _, e := range rc.Severity.Entries {
			r := reg.Lookup(e.Key.V)
			where := configPos(e.Key.Key)
			if r == nil {
				problems = append(problems, where+reg.UnknownError(e.Key.V).Error())
				continue
			}
			if strings.EqualFold(e.Value.V, "off") {
				s.Enabled[r.Code] = false
				continue
			}
			sev, err := rules.ParseSeverity(e.Value.V)
			if err != nil {
				problems = append(problems, configPos(e.Value.Value)+err.Error()+" (or off)")
				continue
			}
			s.Severity[r.Code] = sev
		}
	}
	for _, n := range o.enable {
		if contains(o.disable, n) {
			return nil, usageErrorf("rule %s is both enabled and disabled on the command line", n)
		}
	}
	flagWhere := func(flag string) func(int) string { return func(int) string { return flag + ": " } }
	set(o.disable, false, flagWhere("--disable"))
	set(o.enable, true, flagWhere("--enable"))
	if len(problems) > 0 {
		return nil, inputErrorf("invalid configuration:\n  %s", strings.Join(problems, "\n  "))
	}
	return s, nil
}

// parseNow reads --now: an RFC 3339 time, or a date alone, taken as noon
// UTC, which is that same date in every time zone from UTC-11 to UTC+11,
// so that a plan's local "today" is the date the user typed.
func parseNow(text string) (time.Time, error) {
	if day, err := time.Parse(time.DateOnly, text); err == nil {
		return day.Add(12 * time.Hour), nil
	}
	return time.Parse(time.RFC3339, text)
}
