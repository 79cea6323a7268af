package jinja

import (
	"regexp"
	"testing"
)

// The call and keyword scanners replace two regular expressions; they must
// read every input as the expressions did.
func TestScannersReadAsTheExpressions(t *testing.T) {
	head := regexp.MustCompile(`^([A-Za-z_][\w.]*)\s*\(`)
	kw := regexp.MustCompile(`(?s)^(\w+)\s*=([^=].*)$`)
	inputs := []string{
		"", "(", "ref('a')", "ref ('a')", "ref\n\t(x)", "dbt_utils.star(from=ref('a'))", "_x(", "9a(", ".a(", "a.(",
		"a b(", "é(", "config(materialized='table')", "x", "x=", "x=1", "x = 1", "x==1", "x =\n'a'", "x\f=y", "=1",
		"unique_key = ['a', 'b']", "a.b=1", "x=  ", "x= =", "ab_9=='z'", "x\v=1", "x=\n",
	}
	for _, in := range inputs {
		name, end, ok := callHead(in)
		if m := head.FindStringSubmatchIndex(in); (m != nil) != ok || ok && (in[m[2]:m[3]] != name || m[1] != end) {
			t.Errorf("callHead(%q) = %q, %d, %v; the expression matched %v", in, name, end, ok, m)
		}
		key, value, ok := kwarg(in)
		if m := kw.FindStringSubmatch(in); (m != nil) != ok || ok && (m[1] != key || m[2] != value) {
			t.Errorf("kwarg(%q) = %q, %q, %v; the expression matched %q", in, key, value, ok, m)
		}
	}
}

func TestSetAssignmentReadsAsTheExpression(t *testing.T) {
	set := regexp.MustCompile(`(?s)^([A-Za-z_]\w*)\s*=\s*(.+)$`)
	for _, in := range []string{
		"", "x", "x=", "x=1", "x = 1", "x ==1", "x== 1", "x = ", "x =\n\t", "9x = 1", "_a=b", "a b = 1", "x=\n[1,\n2]",
		"days = var('days', 3)", "x = = 1", "é = 1", "x\t=\t'a'", "=1", "x =  \n",
	} {
		name, value, ok := setAssignment(in)
		if m := set.FindStringSubmatch(in); (m != nil) != ok || ok && (m[1] != name || m[2] != value) {
			t.Errorf("setAssignment(%q) = %q, %q, %v; the expression matched %q", in, name, value, ok, m)
		}
	}
}
