package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const vetModule = `module example.com/orders

go 1.22
`

const vetSource = `package orders

import "database/sql"

func Load(db *sql.DB) error {
	_, err := db.Exec("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders")
	return err
}
`

// TestGoVetTool builds bflint-vet and runs it the way users do, through
// go vet -vettool, on a module of its own: the finding must be printed at
// the literal and go vet must fail.
func TestGoVetTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs go vet")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "bflint-vet")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	mod := t.TempDir()
	for name, text := range map[string]string{"go.mod": vetModule, "orders.go": vetSource} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command(goTool, "vet", "-vettool="+bin, "./...")
	vet.Dir = mod
	// The module must not pick up this repository's workspace or flags,
	// nor fetch a toolchain for its go line.
	vet.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := vet.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("go vet should fail with a finding; err = %v\n%s", err, out)
	}
	want := `orders.go:6:33: BF201 append-write: INSERT into "analytics.fct_orders" appends`
	if !strings.Contains(string(out), want) {
		t.Errorf("go vet output lacks %q:\n%s", want, out)
	}
}
