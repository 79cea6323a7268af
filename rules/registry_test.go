package rules

import (
	"strings"
	"testing"
)

func TestCodeGroups(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"BF102", "BF102"},
		{"BF201 BF202", "BF201,BF202"},
		{"BF102 BF201 BF204 BF302 BF504 BF701 BF702 BF703 BF704", "BF102,BF201,BF204,BF302,BF504,BF701-BF704"},
		{"BF101 BF102 BF103 BF105", "BF101-BF103,BF105"},
	}
	for _, tt := range tests {
		if got := strings.Join(CodeGroups(strings.Fields(tt.in)), ","); got != tt.want {
			t.Errorf("CodeGroups(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
