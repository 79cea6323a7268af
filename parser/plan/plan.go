// Package plan reads backfill plan files (format version 1) into typed values
// that keep the position of every key and value.
package plan

import (
	"path"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
)

// Short names for the position-carrying value types of yamlx.
type (
	Field      = yamlx.Field
	String     = yamlx.String
	Int        = yamlx.Int
	Bool       = yamlx.Bool
	StringList = yamlx.StringList
)

// Plan is one backfill plan: one target dataset over one contiguous range.
// A nil section was absent from the file.
type Plan struct {
	Field
	Version       Int            `yaml:"bflint"`
	ID            String         `yaml:"id"`
	Target        String         `yaml:"target"`
	Owner         String         `yaml:"owner"`
	Reason        String         `yaml:"reason"`
	After         StringList     `yaml:"after"`
	Range         *Range         `yaml:"range"`
	Rerun         *Rerun         `yaml:"rerun"`
	Compute       *Compute       `yaml:"compute"`
	Run           *Run           `yaml:"run"`
	Staging       *Staging       `yaml:"staging"`
	Validation    *Validation    `yaml:"validation"`
	Publish       *Publish       `yaml:"publish"`
	Rollback      *Rollback      `yaml:"rollback"`
	Trial         *Trial         `yaml:"trial"`
	Downstream    *Downstream    `yaml:"downstream"`
	Communication *Communication `yaml:"communication"`
	Data          *Data          `yaml:"data"`
	Approval      *Approval      `yaml:"approval"`

	// Readable is false when the file is not a YAML mapping at all; then
	// nothing but the reason is worth reporting.
	Readable bool `yaml:"-"`
	// File is the plan file itself.
	File *source.File `yaml:"-"`
	// Problems are the defects found while reading (rule BF001).
	Problems []yamlx.Problem `yaml:"-"`
	// OmittedProblems counts the problems past yamlx.MaxProblems, counted
	// but not described.
	OmittedProblems int `yaml:"-"`
	// Paths are the file references of the plan, resolved (rule BF003).
	Paths []*PathRef `yaml:"-"`
	// Origin is set for a plan an adapter read from another tool's
	// format; nil for a bflint plan file.
	Origin *Origin `yaml:"-"`
}

// Origin says which format a plan was read from and what of bflint's
// rules that format can answer: a rule whose section the format has no
// place for would fire on every plan of it.
type Origin struct {
	Format string // "bqetl"
	// Rules are the codes of the rules that apply.
	Rules map[string]bool
	// Entry is the adapter's own reading of the plan, for the rules
	// written for that format.
	Entry any
	// Sources are the files other than the plan's own that its values
	// come from (a bqetl table's metadata.yaml): findings may point there.
	Sources []*source.File
}

// Range answers "which range".
type Range struct {
	Field
	Start           Date      `yaml:"start"`
	End             Date      `yaml:"end"`
	Grain           String    `yaml:"grain" enum:"hour,day,week,month"`
	Timezone        String    `yaml:"timezone"`
	PartitionColumn String    `yaml:"partition_column"`
	PipelineOwns    Int       `yaml:"pipeline_owns"`
	Boundary        *Boundary `yaml:"boundary"`
}

// Boundary records how the start of the range was found.
type Boundary struct {
	Field
	Candidate    Date   `yaml:"candidate"`
	IntroducedBy String `yaml:"introduced_by"`
	Confirmed    Date   `yaml:"confirmed"`
	Evidence     String `yaml:"evidence"`
}

// Rerun answers "is the re-run safe".
type Rerun struct {
	Field
	Write           String     `yaml:"write" enum:"merge,replace_partition,append,overwrite"`
	Key             StringList `yaml:"key"`
	UniquenessCheck String     `yaml:"uniqueness_check"`
	Tested          *RerunTest `yaml:"tested"`
}

// RerunTest is the run-twice test against a populated copy.
type RerunTest struct {
	Field
	Partition Date `yaml:"partition"`
	Identical Bool `yaml:"identical"`
}

// Compute answers "where does the compute go".
type Compute struct {
	Field
	Environment    String `yaml:"environment" enum:"isolated,shared"`
	MaxConcurrency Int    `yaml:"max_concurrency"`
	Window         String `yaml:"window"`
}

// Run is how the recompute is executed.
type Run struct {
	Field
	Command String `yaml:"command"`
}

// Staging is where the recompute writes.
type Staging struct {
	Field
	Relation String `yaml:"relation"`
	Build    String `yaml:"build"`
}

// Validation answers "how do we validate".
type Validation struct {
	Field
	Checks []Check `yaml:"checks"`
}

// Check is one validation query with its numeric pass criterion.
type Check struct {
	Field
	Name    String  `yaml:"name"`
	SQL     String  `yaml:"sql"`
	Pass    String  `yaml:"pass"`
	Control *Period `yaml:"control"`
}

// Period is a span of partitions, such as a control period.
type Period struct {
	Field
	Start Date `yaml:"start"`
	End   Date `yaml:"end"`
}

// Publish answers "how do we publish".
type Publish struct {
	Field
	Mode      String `yaml:"mode" enum:"whole_range,per_partition"`
	Mechanism String `yaml:"mechanism" enum:"merge,partition_swap,snapshot_swap,view_swap,insert_overwrite"`
	SQL       String `yaml:"sql"`
	Progress  String `yaml:"progress"`
}

// Rollback is the undo of the publish.
type Rollback struct {
	Field
	Mechanism     String `yaml:"mechanism" enum:"restore_copy,time_travel,snapshot_restore"`
	Location      String `yaml:"location"`
	RetainedUntil Date   `yaml:"retained_until"`
	RestorableBy  String `yaml:"restorable_by"`
	RestoreTime   String `yaml:"restore_time"`
	Capture       String `yaml:"capture"`
	SQL           String `yaml:"sql"`
	Tested        Bool   `yaml:"tested"`
}

// Trial is the one partition run end to end first.
type Trial struct {
	Field
	Partition Date `yaml:"partition"`
}

// Downstream is what is derived from the target.
type Downstream struct {
	Field
	Manifest String      `yaml:"manifest"`
	Rebuild  RebuildList `yaml:"rebuild"`
	Notify   StringList  `yaml:"notify"`
	Skip     []Skip      `yaml:"skip"`
}

// Skip is a derived node deliberately not rebuilt.
type Skip struct {
	Field
	Node   String `yaml:"node"`
	Reason String `yaml:"reason"`
}

// Communication is what consumers are told.
type Communication struct {
	Field
	Consumers      StringList `yaml:"consumers"`
	ExpectedChange String     `yaml:"expected_change"`
}

// Data describes the personal data handling.
type Data struct {
	Field
	ContainsPII Bool   `yaml:"contains_pii"`
	Suppression String `yaml:"suppression"`
	Grants      String `yaml:"grants"`
}

// Approval is who authorised the restatement.
type Approval struct {
	Field
	Required   Bool   `yaml:"required"`
	ApprovedBy String `yaml:"approved_by"`
}

// IsPlaceholder reports whether a plan value is one left for a person to
// write, as bflint init leaves them: TODO, a TODO followed by what to
// write, or a file named TODO_... that is yet to be written.
func IsPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	return v == "TODO" || strings.HasPrefix(v, "TODO ") || strings.HasPrefix(path.Base(v), "TODO_")
}
