package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBashCompletion runs the generated script in bash and asks it what
// it completes, as bash does on Tab.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this machine")
	}
	var script, stderr bytes.Buffer
	if code := run([]string{"completion", "bash"}, &script, &stderr); code != 0 {
		t.Fatalf("completion bash: exit %d: %s", code, stderr.String())
	}
	path := filepath.Join(t.TempDir(), "bflint.bash")
	if err := os.WriteFile(path, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words string // the command line, the last word being completed
		want  []string
	}{
		{"bflint explain BF60", []string{"BF601", "BF602", "BF603", "BF604"}},
		{"bflint --fail", []string{"--fail-on"}},
		{"bflint --format sa", []string{"sarif"}},
		{"bflint --disable BF80", []string{"BF801", "BF802", "BF803", "BF804", "BF805", "BF806", "BF807", "BF808", "BF809"}},
		{"bflint init --gr", []string{"--grain"}},
		{"bflint init --grain mo", []string{"month"}},
		{"bflint completion z", []string{"zsh"}},
		{"bflint lin", []string{"lint", "lineage"}},
		{"bflint rules --f", []string{"--format"}},
	} {
		words := strings.Fields(c.words)
		probe := "source " + path + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n_bflint\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", probe)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.words, err, out)
		}
		if got := strings.Fields(string(out)); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q completes to %q, want %q", c.words, got, c.want)
		}
	}
}
