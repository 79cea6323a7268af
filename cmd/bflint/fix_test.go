package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// e2eFolder is absolute, for tests that run a second scenario from the
// first one's folder.
var e2eFolder, _ = filepath.Abs("../../testdata/e2e")

// fixScenario unpacks an e2e scenario into a fresh project, runs its args
// there and returns the folder, the exit code and stderr.
func fixScenario(t *testing.T, name string, prepare func(dir string)) (string, int, string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join(e2eFolder, name+".txtar"))
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

// The fixed plan keeps the byte-order mark and the CRLF line endings it
// was saved with; before, a BOM made --fix refuse the plan as "changed
// while bflint read it", and CRLF came back mixed with LF.
func TestFixKeepsEncoding(t *testing.T) {
	golden, err := os.ReadFile("../../testdata/golden/fix_rebuild.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	dir, code, stderr := fixScenario(t, "fix_rebuild", func(dir string) {
		p := filepath.Join(dir, "p.backfill.yaml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append([]byte("\xef\xbb\xbf"), crlf(b)...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "p.backfill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte("\xef\xbb\xbf"), crlf(golden)...); !bytes.Equal(got, want) {
		t.Errorf("the fixed plan is not the golden with its BOM and CRLF endings:\n%q", got)
	}
}

// A UTF-16 plan is linted, and --fix says why it leaves it alone.
func TestFixRefusesUTF16(t *testing.T) {
	var before []byte
	dir, code, stderr := fixScenario(t, "fix_rebuild", func(dir string) {
		p := filepath.Join(dir, "p.backfill.yaml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		before = []byte{0xff, 0xfe}
		for _, r := range string(b) {
			before = append(before, byte(r), byte(r>>8))
		}
		if err := os.WriteFile(p, before, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if code != exitUsage || !strings.Contains(stderr, "p.backfill.yaml is UTF-16 text") {
		t.Errorf("exit %d, stderr %q; want 2 saying the plan is UTF-16", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "p.backfill.yaml")); !bytes.Equal(after, before) {
		t.Errorf("the UTF-16 plan changed")
	}
}

// A plan that is a link is fixed at its target when the target is inside
// the project, and the link stays; a link out of the project is refused.
func TestFixSymlinkedPlan(t *testing.T) {
	golden, err := os.ReadFile("../../testdata/golden/fix_rebuild.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	moveTo := func(dir, target string) {
		p := filepath.Join(dir, "p.backfill.yaml")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, target); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	var inside string
	dir, code, stderr := fixScenario(t, "fix_rebuild", func(dir string) {
		inside = filepath.Join(dir, "real.yaml")
		moveTo(dir, inside)
	})
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(filepath.Join(dir, "p.backfill.yaml")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v", err)
	}
	if got, _ := os.ReadFile(inside); !bytes.Equal(got, golden) {
		t.Errorf("the link's target was not fixed:\n%s", got)
	}

	// A link found in a folder, to a plan out of the project.
	outside := filepath.Join(t.TempDir(), "elsewhere.yaml")
	if err := os.Rename(inside, outside); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "p.backfill.yaml")
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, bytes.ReplaceAll(golden, []byte("    - model.shop.customer_ltv\n"), nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(outside)
	var stdout, errOut bytes.Buffer
	code = run([]string{"--now", "2026-11-30T09:00:00Z", "--fix", "."}, &stdout, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "outside the project; no file was changed") {
		t.Errorf("a link out of the project: exit %d, stderr %q\n%s", code, errOut.String(), stdout.String())
	}
	if got, _ := os.ReadFile(outside); !bytes.Equal(got, before) {
		t.Errorf("the file outside the project was changed")
	}
}
