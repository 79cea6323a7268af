package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/bflint/bflint/parser/source"
)

// Fingerprint identifies a finding without its line or column, so that it
// survives edits elsewhere in the file: code, file and message, plus the
// occurrence index that keeps identical findings in one file apart. The
// message is the whole text, headline and help joined (Finding.Text), as
// findings were worded before they had a help line, so that baselines
// recorded then still match.
func Fingerprint(code, file, message string, occurrence int) string {
	h := sha256.New()
	for _, part := range []string{code, file, message} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write([]byte(strconv.Itoa(occurrence)))
	return hex.EncodeToString(h.Sum(nil))
}

// Fingerprints returns the fingerprint of every finding, index for index.
// Occurrences are counted over all findings, suppressed ones included, in
// the driver's position order: the json format drops suppressed findings
// and SARIF keeps them, and both must still name each finding alike.
func Fingerprints(findings []Finding) []string {
	type triple struct{ code, file, message string }
	seen := map[triple]int{}
	out := make([]string, len(findings))
	for i, f := range findings {
		k := triple{code: codeOf(f.Rule), file: nameOf(f.File), message: f.Text()}
		out[i] = Fingerprint(k.code, k.file, k.message, seen[k])
		seen[k]++
	}
	return out
}

// codeOf and nameOf name the rule and file of a finding built without one
// (a CLI-level failure, a test) instead of crashing.
func codeOf(r *Rule) string {
	if r == nil {
		return ""
	}
	return r.Code
}

func nameOf(f *source.File) string {
	if f == nil {
		return ""
	}
	return f.Name
}
