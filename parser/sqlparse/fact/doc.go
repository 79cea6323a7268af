// Package fact holds what bflint knows about one SQL statement, whichever
// reader read it: the relations it writes and how, the relations it joins
// with their conditions and the WITH queries they pass through, the
// bounds and clock calls of its conditions, and the guards that keep a
// re-run from reading back rows it already wrote. The parse-tree reader
// (package sqlparse) and the token reader fill the same types, and rules
// read only these.
package fact
