package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules/all"
	"golang.org/x/mod/module"
)

// Set at release time (.goreleaser.yaml) with
// -ldflags "-X main.buildVersion=v1.2.3 -X main.buildCommit=... -X main.buildDate=...".
// Without them the build info answers: the module version under
// "go install ...@VERSION", the git revision and its time in a checkout.
var buildVersion, buildCommit, buildDate string

type versionInfo struct {
	Version, Commit, Date string
}

func (v versionInfo) String() string {
	return fmt.Sprintf("bflint %s (commit %s, built %s, %s %s/%s)", v.Version, v.Commit, v.Date, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func currentVersion() versionInfo {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(versionInfo{buildVersion, buildCommit, buildDate}, info)
}

// versionFrom fills what the linker flags left empty from the build info.
func versionFrom(stamped versionInfo, info *debug.BuildInfo) versionInfo {
	v := stamped
	if info != nil {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.time":
				if v.Date == "" {
					v.Date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && stamped.Commit == "" && v.Commit != "" {
			v.Commit += "-dirty"
		}
		// "go install ...@<commit>" builds a pseudo-version, which names
		// the commit and its time.
		if module.IsPseudoVersion(v.Version) {
			if rev, err := module.PseudoVersionRev(v.Version); err == nil && v.Commit == "" {
				v.Commit = rev
			}
			if t, err := module.PseudoVersionTime(v.Version); err == nil && v.Date == "" {
				v.Date = t.UTC().Format(time.RFC3339)
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	if v.Date == "" {
		v.Date = "unknown"
	}
	return v
}

func version() string { return currentVersion().Version }

func defaultJobs() int { return runtime.NumCPU() }

func rulesCommand(args []string, stdout io.Writer) error {
	fs, err := parseCommandFlags(lookupSubcommand("rules"), args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return commandUsageErrorf("rules", "rules takes no arguments besides --format, got %q", fs.Arg(0))
	}
	format := flagValue(fs, "format")
	reg := all.Registry()
	switch format {
	case "json":
		type ruleJSON struct {
			Code     string `json:"code"`
			Name     string `json:"name"`
			Severity string `json:"severity"`
			// Standalone is the severity in SQL files no plan names,
			// omitted when it is Severity.
			Standalone string `json:"standalone_severity,omitempty"`
			Title      string `json:"title"`
		}
		out := []ruleJSON{}
		for _, r := range reg.All() {
			standalone := ""
			if r.Severities() != r.Severity.String() {
				standalone = r.StandaloneSeverity.String()
			}
			out = append(out, ruleJSON{r.Code, r.Name, r.Severity.String(), standalone, r.Doc.Title})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, r := range reg.All() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Code, r.Severities(), r.Name, r.Doc.Title)
		}
		return tw.Flush()
	}
	return commandUsageErrorf("rules", "rules --format %q: use text or json", format)
}

func explainCommand(args []string, stdout io.Writer) error {
	fs, err := parseCommandFlags(lookupSubcommand("explain"), args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return commandUsageErrorf("explain", "explain takes one rule code or name, e.g. bflint explain BF601")
	}
	reg := all.Registry()
	r := reg.Lookup(fs.Arg(0))
	if r == nil {
		return inputErrorf("explain: %v", reg.UnknownError(fs.Arg(0)))
	}
	fmt.Fprintf(stdout, "%s %s (%s)\n%s\n\n%s\nDocumentation: %s\n", r.Code, r.Name, r.Severity, r.Doc.Title, wrapHelp(r.Doc.HelpText(), terminalWidth()), r.URL())
	return nil
}

// wrapHelp wraps the prose paragraphs of a rule's help to width and keeps
// the indented examples as written, since YAML and SQL lines must not be
// broken.
func wrapHelp(text string, width int) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			b.WriteString(line + "\n")
			continue
		}
		b.WriteString(wrap(line, "", width))
	}
	return b.String()
}

// terminalWidth is COLUMNS when the shell exports a usable one, else 80.
func terminalWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 40 {
		return min(n, 120)
	}
	return 80
}

func schemaCommand(args []string, stdout io.Writer) error {
	fs, err := parseCommandFlags(lookupSubcommand("schema"), args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return commandUsageErrorf("schema", "schema takes no arguments besides --config")
	}
	schema := plan.Schema
	if flagValue(fs, "config") == "true" {
		schema = config.Schema
	}
	_, err = stdout.Write(schema)
	return err
}
