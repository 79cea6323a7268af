package json

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// encode writes doc exactly as encoding/json would with two-space indent
// and HTML escaping off, a newline after it. Written out by hand it takes
// 3.7 ms for 2,000 findings where reflection and the indent pass take 14 ms
// (BenchmarkEncode), time the user waits for after linting is done.
func (doc *document) encode() []byte {
	e := &encoder{}
	// Sized once: a buffer doubled up to a report of 2,000 findings copied
	// it again at every step, most of the time the encoding took.
	e.Grow(doc.sizeHint())
	e.WriteString("{\n  \"version\": ")
	e.int(doc.Version)
	e.WriteString(",\n  \"tool\": {\n    \"name\": ")
	e.str(doc.Tool.Name)
	e.WriteString(",\n    \"version\": ")
	e.str(doc.Tool.Version)
	e.WriteString("\n  },\n  \"findings\": [")
	for i, f := range doc.Findings {
		e.item(i)
		e.field("code", f.Code, true)
		e.field("name", f.Name, false)
		e.field("severity", f.Severity, false)
		e.field("message", f.Message, false)
		if f.Help != "" {
			e.field("help", f.Help, false)
		}
		e.field("file", f.File, false)
		e.intField("line", f.Line)
		e.intField("column", f.Column)
		if f.EndLine != 0 {
			e.intField("end_line", f.EndLine)
		}
		if f.EndColumn != 0 {
			e.intField("end_column", f.EndColumn)
		}
		e.field("fingerprint", f.Fingerprint, false)
		if f.Analysis != "" {
			e.field("analysis", f.Analysis, false)
		}
		if f.Inventory {
			e.WriteString(",\n      \"inventory\": true")
		}
		if len(f.Related) > 0 {
			e.WriteString(",\n      \"related\": [")
			for j, r := range f.Related {
				if j > 0 {
					e.WriteByte(',')
				}
				e.WriteString("\n        {\n          \"file\": ")
				e.str(r.File)
				e.WriteString(",\n          \"line\": ")
				e.int(r.Line)
				e.WriteString(",\n          \"column\": ")
				e.int(r.Column)
				e.WriteString(",\n          \"message\": ")
				e.str(r.Message)
				e.WriteString("\n        }")
			}
			e.WriteString("\n      ]")
		}
		e.WriteString("\n    }")
	}
	e.end(len(doc.Findings))
	e.WriteString(",\n  \"errors\": [")
	for i, ie := range doc.Errors {
		e.item(i)
		e.field("code", ie.Code, true)
		e.field("file", ie.File, false)
		e.field("message", ie.Message, false)
		e.WriteString("\n    }")
	}
	e.end(len(doc.Errors))
	e.counts("summary", []namedCount{
		{"errors", doc.Summary.Errors}, {"warnings", doc.Summary.Warnings},
		{"infos", doc.Summary.Infos}, {"suppressed", doc.Summary.Suppressed},
	})
	e.WriteString("\n  }")
	e.counts("coverage", []namedCount{
		{"sql_files", doc.Coverage.SQLFiles}, {"statements", doc.Coverage.Statements}, {"parsed", doc.Coverage.Parsed},
		{"from_tokens", doc.Coverage.FromTokens}, {"not_read", doc.Coverage.NotRead},
		{"macro_calls_read", doc.Coverage.MacroCallsRead}, {"macros_unread", doc.Coverage.MacrosUnread},
		{"filters_unread", doc.Coverage.FiltersUnread}, {"python_queries", doc.Coverage.PythonQueries},
	})
	e.WriteString(",\n    \"unparsed\": ")
	if doc.Coverage.Unparsed == nil {
		e.WriteString("null")
	} else {
		e.unparsed(doc.Coverage.Unparsed)
	}
	e.WriteString(",\n    \"project_problems\": ")
	if doc.Coverage.ProjectProblems == nil {
		e.WriteString("null")
	} else {
		e.projectProblems(doc.Coverage.ProjectProblems)
	}
	e.WriteString("\n  }")
	e.counts("inputs", []namedCount{
		{"plans", doc.Inputs.Plans}, {"bqetl_entries", doc.Inputs.BqetlEntries},
		{"dbt_manifests", doc.Inputs.DBTManifests}, {"dbt_projects", doc.Inputs.DBTProjects}, {"bqetl_trees", doc.Inputs.BqetlTrees},
	})
	e.WriteString("\n  }\n}\n")
	return e.Bytes()
}

// unparsed writes the coverage's list of statements that did not parse.
func (e *encoder) unparsed(list []unparsed) {
	e.WriteByte('[')
	for i, u := range list {
		if i > 0 {
			e.WriteByte(',')
		}
		e.WriteString("\n      {\n        \"file\": ")
		e.str(u.File)
		e.WriteString(",\n        \"line\": ")
		e.int(u.Line)
		e.WriteString(",\n        \"column\": ")
		e.int(u.Column)
		e.WriteString(",\n        \"read\": ")
		e.str(u.Read)
		e.WriteString(",\n        \"construct\": ")
		e.str(u.Construct)
		e.WriteString(",\n        \"statements\": ")
		e.int(u.Statements)
		e.WriteString("\n      }")
	}
	if len(list) > 0 {
		e.WriteString("\n    ")
	}
	e.WriteByte(']')
}

// projectProblems writes the coverage's list of dbt project files not
// read as dbt reads them.
func (e *encoder) projectProblems(list []projectProblem) {
	e.WriteByte('[')
	for i, pr := range list {
		if i > 0 {
			e.WriteByte(',')
		}
		e.WriteString("\n      {\n        \"file\": ")
		e.str(pr.File)
		e.WriteString(",\n        \"line\": ")
		e.int(pr.Line)
		e.WriteString(",\n        \"message\": ")
		e.str(pr.Message)
		e.WriteString("\n      }")
	}
	if len(list) > 0 {
		e.WriteString("\n    ")
	}
	e.WriteByte(']')
}

// namedCount is one member of an object of counts.
type namedCount struct {
	name string
	n    int
}

// counts writes ",\n  \"name\": {" and the counts, one per line, leaving
// the object open.
func (e *encoder) counts(name string, members []namedCount) {
	e.WriteString(",\n  \"" + name + "\": {")
	for i, m := range members {
		if i > 0 {
			e.WriteByte(',')
		}
		e.WriteString("\n    \"" + m.name + "\": ")
		e.int(m.n)
	}
}

type encoder struct {
	bytes.Buffer
	scratch bytes.Buffer
	strings *json.Encoder
}

// item opens the i-th object of an array.
func (e *encoder) item(i int) {
	if i > 0 {
		e.WriteByte(',')
	}
	e.WriteString("\n    {")
}

// end closes an array of n items; encoding/json writes an empty one as [].
func (e *encoder) end(n int) {
	if n > 0 {
		e.WriteString("\n  ")
	}
	e.WriteByte(']')
}

func (e *encoder) field(name, value string, first bool) {
	if !first {
		e.WriteByte(',')
	}
	e.WriteString("\n      \"")
	e.WriteString(name)
	e.WriteString("\": ")
	e.str(value)
}

func (e *encoder) intField(name string, value int) {
	e.WriteString(",\n      \"")
	e.WriteString(name)
	e.WriteString("\": ")
	e.int(value)
}

func (e *encoder) int(v int) {
	e.Write(strconv.AppendInt(e.AvailableBuffer(), int64(v), 10))
}

// str writes s as a JSON string. Printable ASCII other than the quote and
// the backslash is written as it is; anything else goes through
// encoding/json, so escapes (control characters, invalid UTF-8, U+2028)
// stay exactly its own.
func (e *encoder) str(s string) {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		e.WriteByte('"')
		e.WriteString(s)
		e.WriteByte('"')
		return
	}
	if e.strings == nil {
		e.strings = json.NewEncoder(&e.scratch)
		e.strings.SetEscapeHTML(false)
	}
	e.scratch.Reset()
	// Encoding a string cannot fail.
	_ = e.strings.Encode(s)
	e.Write(bytes.TrimSuffix(e.scratch.Bytes(), []byte("\n")))
}

// sizeHint is about the length of doc encoded: the text of its findings
// and their fields' names and indentation, which escaping rarely adds to.
func (doc *document) sizeHint() int {
	const perFinding, perRelated, perEntry = 320, 120, 160
	n := 1024
	for _, f := range doc.Findings {
		n += perFinding + len(f.Message) + len(f.Help) + len(f.File) + len(f.Fingerprint)
		for _, r := range f.Related {
			n += perRelated + len(r.File) + len(r.Message)
		}
	}
	n += len(doc.Errors)*perEntry + len(doc.Coverage.Unparsed)*perEntry + len(doc.Coverage.ProjectProblems)*perEntry
	return n
}
