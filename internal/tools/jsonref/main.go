//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command jsonref is the yardstick of target B in docs/benchmarks.md: the
// plainest way to read what bflint lineage needs from a dbt manifest,
// encoding/json decoding the whole file into typed structs that hold
// only those fields. It prints the number of nodes it read.
//
//	jsonref manifest.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

type node struct {
	UniqueID     string `json:"unique_id"`
	ResourceType string `json:"resource_type"`
	Name         string `json:"name"`
	DependsOn    struct {
		Nodes []string `json:"nodes"`
	} `json:"depends_on"`
}

type manifest struct {
	Nodes     map[string]node     `json:"nodes"`
	Sources   map[string]node     `json:"sources"`
	Exposures map[string]node     `json:"exposures"`
	ParentMap map[string][]string `json:"parent_map"`
	ChildMap  map[string][]string `json:"child_map"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsonref manifest.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonref:", err)
		os.Exit(1)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		fmt.Fprintln(os.Stderr, "jsonref:", err)
		os.Exit(1)
	}
	fmt.Printf("%d nodes\n", len(m.Nodes)+len(m.Sources)+len(m.Exposures))
}
