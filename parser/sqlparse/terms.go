package sqlparse

// A condition in the terms rules judge it by: which columns it compares,
// with what, through which conversions. Built from a parse tree, or from
// the conjuncts a statement read from its tokens parsed on their own, so a
// rule reads one form whichever reader saw the statement.
