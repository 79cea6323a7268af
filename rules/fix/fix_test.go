package fix

import "testing"

func TestApply(t *testing.T) {
	src := []byte("a\nb\n")
	got, err := Apply(src, []Edit{
		{Start: 2, End: 2, Text: "x\n"},
		{Start: 0, End: 1, Text: "A"},
		{Start: 2, End: 2, Text: "y\n"},
		{Start: 0, End: 1, Text: "A"}, // shared by two findings: applied once
	})
	if err != nil || string(got) != "A\nx\ny\nb\n" {
		t.Errorf("Apply = %q, %v", got, err)
	}
	if _, err := Apply(src, []Edit{{Start: 0, End: 2, Text: "1"}, {Start: 1, End: 3, Text: "2"}}); err == nil {
		t.Error("overlapping edits were applied")
	}
}
