package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/parser/source"
)

// standardStream is the run's own stdout or stderr when dest names it:
// no destination, or /dev/stdout, /dev/stderr and the like. They are
// written as the streams they are, so that a closed stdout is noticed
// and a stream no other user may open again is still written.
func standardStream(dest string, stdout, stderr io.Writer) (io.Writer, bool) {
	if dest == "" {
		return stdout, true
	}
	switch fd, ok := outfile.Descriptor(dest); {
	case ok && fd == 1:
		return stdout, true
	case ok && fd == 2:
		return stderr, true
	}
	return nil, false
}

// outputFiles are the files a lint run writes, by the flag that names
// each: reports, and the baseline.
func (o *lintOptions) outputFiles() map[string]string {
	out := map[string]string{}
	add := func(path, flagText string) {
		if path != "" {
			out[flagText] = path
		}
	}
	for _, t := range o.formats {
		switch {
		case t.path != "":
			add(t.path, "--format "+t.format+"="+t.path)
		case o.output != "":
			add(o.output, "--output "+o.output+" (--format "+t.format+")")
		}
	}
	add(o.writeBaseline, "--write-baseline "+o.writeBaseline)
	return out
}

// checkOutputs refuses a run that would write a file it reads, which would
// lose the input, or write two outputs to one file, of which only the
// last would survive. Devices and pipes (/dev/null, /dev/stdout) may take
// several outputs, and are never inputs. The baseline read may be the one
// written, which refreshes it; no report may overwrite it.
func checkOutputs(outputs map[string]string, inputs []string, baseline string) error {
	var names []string
	for name := range outputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, a := range names {
		if !replaceable(outputs[a]) {
			continue
		}
		for _, b := range names[i+1:] {
			if sameFile(outputs[a], outputs[b]) {
				return usageErrorf("%s and %s write the same file: give each output a file of its own", a, b)
			}
		}
		reads := inputs
		if baseline != "" && !strings.HasPrefix(a, "--write-baseline ") {
			reads = append(slices.Clip(inputs), baseline)
		}
		isOutput := sameFileAs(outputs[a])
		for _, in := range reads {
			if isOutput(in) {
				return usageErrorf("%s would overwrite %s, a file this run reads: name another file for the output", a, outputs[a])
			}
		}
	}
	return nil
}

// refuseReadOutputs refuses outputs that would replace a file the run has
// read. The files discovered are refused before the run (checkOutputs);
// those read on the way (a table's metadata.yaml and query, a manifest
// or catalog found beside a project, a project's macros and properties)
// are known once they are read, and nothing is written before this
// check. The baseline a run reads may be the one it writes.
func refuseReadOutputs(outputs map[string]string, baseline string) error {
	var names []string
	for name := range outputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := outputs[name]
		if strings.HasPrefix(name, "--write-baseline ") && baseline != "" && sameFile(path, baseline) {
			continue
		}
		if source.WasRead(path) {
			return usageErrorf("%s would overwrite %s, a file this run reads: name another file for the output", name, path)
		}
	}
	return nil
}

// rootPath is the path of a file shown by its name below root, or as it
// was given when it lies outside.
func rootPath(root, name string) string {
	if filepath.IsLocal(filepath.FromSlash(name)) {
		return filepath.Join(root, filepath.FromSlash(name))
	}
	return name
}

// replaceable reports whether path is a regular file or none yet: an
// output there replaces what it holds.
func replaceable(path string) bool {
	info, err := os.Stat(path)
	return err != nil || info.Mode().IsRegular()
}

// sameFile reports whether two paths name one file: the same file on disk
// (through links, hard or symbolic) or, for files not written yet, the same
// absolute path.
func sameFile(a, b string) bool { return sameFileAs(a)(b) }

// sameFileAs is sameFile with a fixed: a is looked at once, however many
// files it is compared with, which matters for an output compared with
// every input of a large repository.
func sameFileAs(a string) func(b string) bool {
	ia, errA := os.Stat(a)
	absA, errAbsA := filepath.Abs(a)
	return func(b string) bool {
		if errA == nil {
			if ib, err := os.Stat(b); err == nil {
				return os.SameFile(ia, ib)
			}
		}
		absB, err := filepath.Abs(b)
		return errAbsA == nil && err == nil && absA == absB
	}
}
