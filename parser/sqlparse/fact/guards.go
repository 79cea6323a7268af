package fact

// GuardKind is how a statement's query keeps out, or tries to keep out,
// the rows a relation already holds.
type GuardKind int

const (
	// GuardWatermark is a strict high-watermark: col > (SELECT MAX(c)
	// FROM rel), or > a column of a WITH query of that maximum joined.
	GuardWatermark GuardKind = iota + 1
	// GuardInclusiveWatermark is the same with >=: it reads the rows at
	// the boundary again, so it keeps none out for sure.
	GuardInclusiveWatermark
	// GuardNotIn is col NOT IN (SELECT ... FROM rel).
	GuardNotIn
	// GuardNotExists is NOT EXISTS (SELECT ... FROM rel ...).
	GuardNotExists
	// GuardAntiJoin is LEFT JOIN rel r ... WHERE r.col IS NULL.
	GuardAntiJoin
)

var guardNames = [...]string{GuardWatermark: "watermark", GuardInclusiveWatermark: "inclusive-watermark",
	GuardNotIn: "not-in", GuardNotExists: "not-exists", GuardAntiJoin: "anti-join"}

func (k GuardKind) String() string {
	if k > 0 && int(k) < len(guardNames) {
		return guardNames[k]
	}
	return "GuardKind(?)"
}

// Excludes reports whether the guard leaves out every row rel holds.
func (k GuardKind) Excludes() bool { return k != GuardInclusiveWatermark }
