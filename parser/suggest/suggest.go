// Package suggest finds the "did you mean" for a misspelt key, rule, file
// or model name.
package suggest

import "strings"

// Closest returns the candidate closest to s by edit distance, or "" when
// none is close enough to be a plausible typo.
func Closest(s string, candidates []string) string {
	best, bestDist := "", -1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := distance(ls, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := len(s)/3 + 1
	if limit > 3 {
		limit = 3
	}
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// distance is the Levenshtein edit distance between a and b, by bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
