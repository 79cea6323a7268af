// Package suggest finds the "did you mean" for a misspelt key, rule, file
// or model name.
package suggest

import "strings"

// Closest returns the candidate closest to s by edit distance, or "" when
// none is close enough to be a plausible typo. A lineage graph offers
// hundreds of thousands of candidates, so a candidate is dropped as soon as
// it cannot beat the best so far.
func Closest(s string, candidates []string) string {
	limit := min(len(s)/3+1, 3)
	ls := strings.ToLower(s)
	best, bestDist := "", limit+1
	var rows [2][]int
	for _, c := range candidates {
		if d := len(c) - len(s); d >= bestDist || -d >= bestDist {
			continue
		}
		if d := distanceWithin(ls, c, bestDist-1, &rows); d < bestDist {
			best, bestDist = c, d
			if d == 0 {
				break
			}
		}
	}
	return best
}

// distanceWithin is the Levenshtein edit distance between a and b (b
// compared in lower case, by bytes) when it is at most max, and max+1
// otherwise: once every cell of a row exceeds max, no later row can come
// back under it. rows are reused from call to call.
func distanceWithin(a, b string, max int, rows *[2][]int) int {
	if cap(rows[0]) < len(b)+1 {
		rows[0], rows[1] = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == lower(b[j-1]) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], max+1)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
