package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// fixScenario unpacks an e2e scenario into a fresh project, runs its args
// there and returns the folder, the exit code and stderr.
func fixScenario(t *testing.T, name string, prepare func(dir string)) (string, int, string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("../../testdata/e2e", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "stdout" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var args []string
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "args:"); ok {
			args = strings.Fields(v)
		}
	}
	if prepare != nil {
		prepare(dir)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return dir, code, stderr.String()
}

// TestFixGolden compares the plans --fix rewrites with their goldens: the
// missing model added, the list reordered, comments and layout kept.
func TestFixGolden(t *testing.T) {
	for _, name := range []string{"fix_rebuild", "fix_rebuild_absent"} {
		t.Run(name, func(t *testing.T) {
			golden, err := filepath.Abs(filepath.Join("../../testdata/golden", name+".backfill.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			dir, code, stderr := fixScenario(t, name, nil)
			if code != exitClean {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got, err := os.ReadFile(filepath.Join(dir, "p.backfill.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(filepath.Join(dir, "p.backfill.yaml"))
			if err != nil || info.Mode().Perm() != 0o644 {
				t.Errorf("the rewritten plan lost its mode: %v %v", info.Mode(), err)
			}
			if leftovers, _ := filepath.Glob(filepath.Join(dir, ".p.backfill.yaml.bflint-*")); len(leftovers) > 0 {
				t.Errorf("temporary files left behind: %v", leftovers)
			}
			if *updateE2E {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("rewritten plan differs from %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

func TestFixLeavesBrokenPlan(t *testing.T) {
	ar, err := txtar.ParseFile("../../testdata/e2e/fix_parse_error.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir, code, _ := fixScenario(t, "fix_parse_error", nil)
	if code != exitFindings {
		t.Errorf("exit %d, want 1", code)
	}
	got, err := os.ReadFile(filepath.Join(dir, "p.backfill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "p.backfill.yaml" && !bytes.Equal(got, f.Data) {
			t.Errorf("--fix changed a plan with a parse error:\n%s", got)
		}
	}
}

func TestFixReadOnlyPlan(t *testing.T) {
	var before []byte
	dir, code, stderr := fixScenario(t, "fix_rebuild", func(dir string) {
		p := filepath.Join(dir, "p.backfill.yaml")
		var err error
		if before, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o444); err != nil {
			t.Fatal(err)
		}
	})
	if code != exitUsage || !strings.Contains(stderr, "p.backfill.yaml is read-only") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the read-only plan", code, stderr)
	}
	after, err := os.ReadFile(filepath.Join(dir, "p.backfill.yaml"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the read-only plan changed: %v\n%s", err, after)
	}
}
