// Package bqetlreplay replays the review of bigquery-etl backfill entries:
// each entry is linted on the tree of the first commit of the branch that
// held it (the state its pull request was merged into), its file as it
// stood then with its status Initiate and the entries after it gone, and
// the clock on its entry date, so that what bflint would have told its
// reviewer can be judged. scripts/bqetl-replay.sh runs it.
//
//	bqetlreplay -bflint BIN -git GITDIR [-ref generated-sql] -out DIR [-judged FILE] [-sample N]
//
// GITDIR is the git directory of a bigquery-etl clone or mirror, whose
// generated-sql branch holds every query bqetl runs. The commits are
// checked out into DIR/tree with an index of their own; the clone's work
// tree and index are not touched. In DIR it writes findings.tsv (every
// finding of every replayed entry), clean.tsv (the entries with none)
// and, with -sample N, sample.tsv: N findings spread over the rules,
// ready to be judged. With -judged FILE (rows of sample.tsv with a
// verdict, and clean entries judged clean) it prints how many judged
// findings are still reported and accepted, and any finding on an entry
// judged clean.
package bqetlreplay

import (
	"regexp"
	"strings"
)

// entryKey is a top-level key of a backfill.yaml: an entry's date.
var entryKey = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}):\s*(#.*)?$`)

// statusLine is an entry's status key, indented under its date.
var statusLine = regexp.MustCompile(`^(\s+status:\s*)(\S.*?)\s*$`)

// Entry is one entry of a backfill.yaml: its date and its lines, 1-based
// and inclusive, in the file.
type Entry struct {
	Date        string
	First, Last int
}

// Entries lists a backfill.yaml's entries in file order.
func Entries(text string) []Entry {
	lines := strings.Split(text, "\n")
	var out []Entry
	for i, line := range lines {
		if m := entryKey.FindStringSubmatch(line); m != nil {
			if len(out) > 0 {
				out[len(out)-1].Last = i
			}
			out = append(out, Entry{Date: m[1], First: i + 1})
		}
	}
	if len(out) > 0 {
		last := len(lines)
		if lines[last-1] == "" {
			last--
		}
		out[len(out)-1].Last = last
	}
	return out
}

// AtReview is the file as it stood when entry date was reviewed: the
// entries dated after it left out, its status Initiate. Lines maps a line
// of the result to its line in text; First and Last are the entry's lines
// in the result. ok is false when the file has no entry of that date.
type AtReview struct {
	Text        string
	Lines       []int // Lines[i] is the line of text that line i+1 of Text was
	First, Last int
}

// Review builds the file as it stood when the entry of date was reviewed.
func Review(text, date string) (AtReview, bool) {
	entries := Entries(text)
	lines := strings.Split(text, "\n")
	keep := make([]bool, len(lines))
	for i := range keep {
		keep[i] = true
	}
	found := false
	var target Entry
	for _, e := range entries {
		if e.Date > date {
			for l := e.First; l <= e.Last; l++ {
				keep[l-1] = false
			}
		}
		if e.Date == date {
			found, target = true, e
		}
	}
	if !found {
		return AtReview{}, false
	}
	var r AtReview
	var b strings.Builder
	for i, line := range lines {
		if !keep[i] {
			continue
		}
		n := i + 1
		if n >= target.First && n <= target.Last {
			if m := statusLine.FindStringSubmatch(line); m != nil {
				line = m[1] + "Initiate"
			}
		}
		if len(r.Lines) > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		r.Lines = append(r.Lines, n)
		if n == target.First {
			r.First = len(r.Lines)
		}
		if n == target.Last {
			r.Last = len(r.Lines)
		}
	}
	r.Text = b.String()
	return r, true
}
