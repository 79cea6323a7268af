//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command actionscripts writes the shell of each "run:" step of a composite
// action to its own file, so that shellcheck can read it: actionlint checks
// the scripts of workflows, not those of action.yml.
//
//	go run ./internal/tools/actionscripts/main.go action.yml OUTDIR
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: actionscripts ACTION.yml OUTDIR")
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct {
				Name  string `yaml:"name"`
				Shell string `yaml:"shell"`
				Run   string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		log.Fatalf("%s: %v", os.Args[1], err)
	}
	if err := os.MkdirAll(os.Args[2], 0o755); err != nil {
		log.Fatal(err)
	}
	for i, s := range action.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell != "bash" {
			log.Fatalf("step %q: shell %q; the action's scripts are bash", s.Name, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			// An expression in a script is pasted in before the shell
			// reads it: a value with a quote in it becomes code.
			log.Fatalf("step %q: an expression inside run:; pass it through env: instead", s.Name)
		}
		name := filepath.Join(os.Args[2], fmt.Sprintf("step%02d.sh", i+1))
		script := "#!/usr/bin/env bash\n# " + s.Name + "\n" + s.Run
		if err := os.WriteFile(name, []byte(script), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
