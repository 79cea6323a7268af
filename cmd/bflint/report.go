package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/reporters/github"
	jsonreport "github.com/bflint/bflint/reporters/json"
	"github.com/bflint/bflint/reporters/markdown"
	"github.com/bflint/bflint/reporters/rdjsonl"
	"github.com/bflint/bflint/reporters/sarif"
	"github.com/bflint/bflint/reporters/text"
	"github.com/bflint/bflint/rules"
	"github.com/mattn/go-isatty"
)

// writeReports writes every requested format to its destination. Files are
// written whole through a temporary file, so a reader never sees half a
// report.
func writeReports(res *rules.Result, o *lintOptions, root string, stdout, stderr io.Writer) error {
	for _, t := range o.formats {
		dest := t.path
		if dest == "" {
			dest = o.output
		}
		w, ok := standardStream(dest, stdout, stderr)
		if ok {
			if err := writeReport(w, t.format, res, o, root, isTerminal(w)); err != nil {
				return internalErrorf("writing %s report: %v", t.format, err)
			}
			if dest == "" && t.format == "text" && annotateForActions(o) {
				if err := github.WriteAnnotations(stdout, res, github.StepLimit); err != nil {
					return internalErrorf("writing GitHub Actions annotations: %v", err)
				}
			}
			continue
		}
		if err := writeReportFile(dest, t.format, res, o, root); err != nil {
			return inputErrorf("writing %s report to %s: %v", t.format, dest, err)
		}
	}
	return nil
}

// annotateForActions says whether the text report on stdout is followed by
// workflow-command annotations: on a GitHub Actions runner, a plain run then
// marks the diff without any setup, while a run that asked for the github
// format already gets them and must not get them twice.
func annotateForActions(o *lintOptions) bool {
	if os.Getenv("GITHUB_ACTIONS") != "true" {
		return false
	}
	for _, t := range o.formats {
		if t.format == "github" {
			return false
		}
	}
	return true
}

// writeReportFile writes one report to path the way outfile does: a
// regular file replaced whole, keeping its mode, owner and links; a device
// or pipe written in place.
func writeReportFile(path, format string, res *rules.Result, o *lintOptions, root string) error {
	return outfile.WriteFunc(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := writeReport(bw, format, res, o, root, false); err != nil {
			return err
		}
		return bw.Flush()
	})
}

func writeReport(w io.Writer, format string, res *rules.Result, o *lintOptions, root string, terminal bool) error {
	switch format {
	case "text":
		return text.Write(w, res, text.Options{Color: useColor(o, terminal), Verdict: o.quiet, VerdictLabel: strings.Join(o.paths, " "), PathOf: fromWorkingDir(root)})
	case "json":
		return jsonreport.Write(w, res, jsonreport.Options{ToolVersion: version()})
	case "sarif":
		return sarif.Write(w, res, sarif.Options{ToolVersion: version()})
	case "github":
		return github.Write(w, res, github.Options{})
	case "rdjsonl":
		return rdjsonl.Write(w, res, rdjsonl.Options{})
	case "markdown":
		return markdown.Write(w, res, markdown.Options{})
	}
	return fmt.Errorf("unknown format %q", format)
}

// useColor is the one switch for colour: never with --no-color or NO_COLOR
// set, and only when the text goes to a terminal.
func useColor(o *lintOptions, terminal bool) bool {
	if o.noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	return terminal
}

func isTerminal(w io.Writer) bool {
	if r, ok := w.(*readerAware); ok {
		w = r.w
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// fromWorkingDir returns how the text report names a file shown below
// root: by its path from the working directory, as compilers and linters
// print it, so that it opens from the shell and in an editor's problem
// matcher. Machine formats keep names from the root, which their
// consumers (code scanning, review tools) resolve against the repository.
// nil when the two are the same.
func fromWorkingDir(root string) func(string) string {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	absRoot, err := filepath.Abs(root)
	if err != nil || absRoot == wd {
		return nil
	}
	return func(name string) string {
		local := filepath.FromSlash(name)
		if !filepath.IsLocal(local) {
			return name
		}
		abs := filepath.Join(absRoot, local)
		// As the go command does, the shorter of the path from the
		// working directory and the absolute one.
		if rel, err := filepath.Rel(wd, abs); err == nil && len(rel) < len(abs) {
			return filepath.ToSlash(rel)
		}
		return filepath.ToSlash(abs)
	}
}
