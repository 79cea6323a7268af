//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command modproxy lays out the module in the current folder, as committed
// at HEAD, as a file-system Go module proxy serving one version, so that
// "go install github.com/bflint/bflint/cmd/bflint@VERSION" can be tried as
// a user would run it, before the version is published:
//
//	go run ./internal/tools/modproxy/main.go -version v0.0.0-... -out DIR
//	GOPROXY=file://DIR,https://proxy.golang.org GONOSUMDB=github.com/bflint go install github.com/bflint/bflint/cmd/bflint@v0.0.0-...
package main

import (
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	version := flag.String("version", "", "the version to serve, e.g. v0.1.0 or a pseudo-version")
	out := flag.String("out", "", "the proxy folder to write")
	commitTime := flag.String("time", "", "the version's time, RFC 3339 (default: now)")
	flag.Parse()
	if *version == "" || *out == "" {
		log.Fatal("modproxy: -version and -out are required")
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		log.Fatal(err)
	}
	path := modfile.ModulePath(gomod)
	mv := module.Version{Path: path, Version: *version}
	if err := module.Check(mv.Path, mv.Version); err != nil {
		log.Fatal(err)
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		log.Fatal(err)
	}
	dir := filepath.Join(*out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	when := time.Now().UTC()
	if *commitTime != "" {
		if when, err = time.Parse(time.RFC3339, *commitTime); err != nil {
			log.Fatal(err)
		}
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{*version, when})
	if err != nil {
		log.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, *version+".zip"))
	if err != nil {
		log.Fatal(err)
	}
	// From git, so the zip holds what a tag would: committed files only.
	if err := zip.CreateFromVCS(zf, mv, ".", "HEAD", ""); err != nil {
		log.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		log.Fatal(err)
	}
	for name, data := range map[string][]byte{
		*version + ".mod":  gomod,
		*version + ".info": info,
		"list":             []byte(*version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
