// Package config reads .bflint.yaml, the project's bflint configuration.
package config

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
)

// FileName is the name of the configuration file bflint looks for.
const FileName = ".bflint.yaml"

// Config is the typed content of .bflint.yaml. Every key is optional.
type Config struct {
	yamlx.Field
	Rules            *Rules           `yaml:"rules"`
	Exclude          yamlx.StringList `yaml:"exclude"`
	Staging          yamlx.StringList `yaml:"staging"`
	SCD2             *SCD2            `yaml:"scd2"`
	PartitionColumns yamlx.StringList `yaml:"partition_columns"`
	ReportingCycle   yamlx.String     `yaml:"reporting_cycle"`
	Manifest         yamlx.String     `yaml:"manifest"`
	Dialect          yamlx.String     `yaml:"dialect" enum:"auto,postgres"`
	PlanFormat       yamlx.String     `yaml:"plan_format" enum:"auto,bflint,bqetl"`

	// File is the configuration file; nil for the built-in defaults.
	File *source.File `yaml:"-"`
}

// Rules turns rules on or off and changes their severity. Rules are named by
// code (BF601) or name (rollback-missing).
type Rules struct {
	yamlx.Field
	Enable   yamlx.StringList `yaml:"enable"`
	Disable  yamlx.StringList `yaml:"disable"`
	Severity yamlx.StringMap  `yaml:"severity"`
}

// SCD2 says which relations are type-2 dimensions and how their validity
// columns are named.
type SCD2 struct {
	yamlx.Field
	Relations yamlx.StringList `yaml:"relations"`
	ValidFrom yamlx.StringList `yaml:"valid_from"`
	ValidTo   yamlx.StringList `yaml:"valid_to"`
}

// Defaults used when the configuration is silent.
var (
	DefaultStaging        = []string{"backfill_staging.*", "*_staging.*", "staging_*.*"}
	DefaultReportingCycle = 35 * 24 * time.Hour
	// DefaultPartitionColumns are the names that count as a partition
	// column in SQL whose table declares none: the commonest spellings
	// measured in real projects that rarely name anything else. A table's
	// declared partition field counts whatever its name.
	DefaultPartitionColumns = []string{"ds", "dt", "date", "*_date", "*_day", "*_hour", "*_month", "event_time"}
	// DefaultValidFrom and DefaultValidTo name the columns where a version
	// of a type-2 dimension starts and ends, in the spellings measured in
	// real projects; * stands for any run of characters (dbt_valid_from,
	// _valid_from, lineage_valid_from), and the names at one position of
	// the two lists go together.
	DefaultValidFrom = []string{"valid_from", "*_valid_from", "effective_from", "effective_date"}
	DefaultValidTo   = []string{"valid_to", "*_valid_to", "effective_to", "expiry_date"}
)

// Load reads the configuration at path. fset receives the file so positions
// in problems can be shown; name is how the file is shown to the user.
func Load(fset *token.FileSet, path, name string) (*Config, []error) {
	content, err := source.ReadRegular(path, source.MaxFileSize)
	if err != nil {
		return nil, []error{fmt.Errorf("%s: cannot read configuration: %v", name, err)}
	}
	f := source.Add(fset, name, content)
	cfg := &Config{File: f}
	root, problems := yamlx.Parse(f)
	if root != nil {
		dec := &yamlx.Decoder{File: f, RootName: "the configuration"}
		dec.Decode(root, "", cfg)
		problems = append(problems, dec.Problems...)
	}
	var errs []error
	report := func(p yamlx.Problem) {
		pos := fset.Position(p.Pos)
		errs = append(errs, fmt.Errorf("%s:%d:%d: %s", name, pos.Line, pos.Column, p.Message))
	}
	for _, p := range problems {
		report(p)
	}
	if cfg.ReportingCycle.Set {
		if _, err := ParseCycle(cfg.ReportingCycle.V); err != nil {
			report(yamlx.Problem{Pos: cfg.ReportingCycle.At(), Message: err.Error()})
		}
	}
	return cfg, errs
}

// Find walks up from dir to root (both absolute) and returns the first
// configuration file found, or "".
func Find(dir, root string) string {
	for {
		candidate := filepath.Join(dir, FileName)
		if _, err := os.Stat(candidate); err == nil {
			// Found, whatever it is: one that is not a file is an error
			// Load names, not a configuration to pass over in silence.
			return candidate
		}
		if dir == root {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

var cyclePattern = regexp.MustCompile(`^(\d+)\s*(d|w|day|days|week|weeks)?$`)

// ParseCycle reads a reporting cycle such as "35d", "5w" or "35".
func ParseCycle(s string) (time.Duration, error) {
	m := cyclePattern.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("reporting_cycle %q must be a number of days or weeks, such as 35d or 5w", s)
	}
	n, _ := strconv.Atoi(m[1])
	unit := 24 * time.Hour
	if m[2] != "" && m[2][0] == 'w' {
		unit *= 7
	}
	return time.Duration(n) * unit, nil
}

// StagingPatterns returns the configured staging relation patterns or the
// defaults.
func (c *Config) StagingPatterns() []string {
	if c != nil && c.Staging.Set {
		return c.Staging.Values()
	}
	return DefaultStaging
}

// Cycle returns the reporting cycle (35 days unless configured).
func (c *Config) Cycle() time.Duration {
	if c != nil && c.ReportingCycle.Set {
		if d, err := ParseCycle(c.ReportingCycle.V); err == nil {
			return d
		}
	}
	return DefaultReportingCycle
}

// PartitionColumnPatterns returns the globs over column names that count as
// partition columns in SQL no plan describes.
func (c *Config) PartitionColumnPatterns() []string {
	if c != nil && c.PartitionColumns.Set {
		return c.PartitionColumns.Values()
	}
	return DefaultPartitionColumns
}

// SCD2Relations returns the globs over relation names of type-2 dimensions.
func (c *Config) SCD2Relations() []string {
	if c != nil && c.SCD2 != nil && c.SCD2.Relations.Set {
		return c.SCD2.Relations.Values()
	}
	return nil
}

// ValidityColumns returns the names of the columns where a type-2 version
// starts and ends.
func (c *Config) ValidityColumns() (from, to []string) {
	from, to = DefaultValidFrom, DefaultValidTo
	if c != nil && c.SCD2 != nil {
		if c.SCD2.ValidFrom.Set {
			from = c.SCD2.ValidFrom.Values()
		}
		if c.SCD2.ValidTo.Set {
			to = c.SCD2.ValidTo.Values()
		}
	}
	return from, to
}
