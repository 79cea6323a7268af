// Package governance holds the rules about the people around a backfill:
// the trial partition someone inspects, the consumers who are told, the
// personal data that stays protected and the sign-off a restatement needs.
package governance

import (
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// Rules are the governance family.
var Rules = []*rules.Rule{TrialMissing, CommunicationMissing, PIIUnhandled, ApprovalMissing}

// given reports whether a text key holds something; a blank value answers
// the question no better than an absent one.
func given(s plan.String) bool { return s.Set && strings.TrimSpace(s.V) != "" }
