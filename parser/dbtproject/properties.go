package dbtproject

import (
	"bytes"
	"os"
	"strings"
	"sync"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/parser/source"
	"go.yaml.in/yaml/v3"
)

// properties is what the project's properties files say: config by node
// name (models, snapshots and seeds share dbt's name space for ref()), the
// sources, the exposures and the snapshots defined in YAML.
type properties struct {
	config    map[string]config
	sources   []sourceTable
	exposures []exposure
	snapshots []yamlSnapshot
}

type sourceTable struct {
	source, table                string
	database, schema, identifier string
	enabled                      bool
	file                         string
}

type exposure struct {
	name, kind  string
	owner       [2]string // name, email
	dependsOn   []string  // the ref() and source() calls as written
	file        string
	line        int
	enabledFlag bool
}

type yamlSnapshot struct {
	name, relation string
	file           string
}

// lineageYAML are the keys that make a properties file worth parsing for
// the lineage beside the nodes' config: most files describe columns and
// tests, which bflint does not need, and a project may declare every table
// of its warehouse as a source. For the config, the lineage and the nodes
// alone both parse a file that configures an entry (nodeConfig), so that
// the two readings give a model the same config; a test's config: (most
// of a project's) makes no file worth parsing.
var lineageYAML = [][]byte{[]byte("sources:"), []byte("exposures:")}

// nodeConfig reports whether a properties file may configure a model,
// snapshot or seed as bflint reads it: a snapshots: section, or a config:
// key whose parent is a "- name:" entry and that sets a key of
// configKeys. A config: of a test (severity, where), or one that sets
// only tags and meta, is not one, and most files hold only those.
func nodeConfig(b []byte) bool {
	if bytes.Contains(b, []byte("snapshots:")) {
		return true
	}
	// Only the lines holding config: are looked at, with the lines above
	// and below them that decide: most of a file is never split.
	for from := 0; ; {
		at := bytes.Index(b[from:], []byte("config:"))
		if at < 0 {
			return false
		}
		at += from
		from = at + len("config:")
		start := lineStart(b, at)
		line := lineAt(b, start)
		key := bytes.TrimLeft(line, " ")
		if !bytes.HasPrefix(key, []byte("config:")) && !bytes.HasPrefix(key, []byte("- config:")) {
			continue
		}
		indent := len(line) - len(key)
		if entryConfig(b, start, indent) && setsConfigKey(b, start, indent) {
			return true
		}
	}
}

// lineStart is where the line holding offset at starts.
func lineStart(b []byte, at int) int { return bytes.LastIndexByte(b[:at], '\n') + 1 }

// lineAt is the line starting at start, without its line break.
func lineAt(b []byte, start int) []byte {
	if end := bytes.IndexByte(b[start:], '\n'); end >= 0 {
		return b[start : start+end]
	}
	return b[start:]
}

// entryConfig reports whether the config: on the line starting at start
// belongs to a "- name:" entry.
func entryConfig(b []byte, start, indent int) bool {
	for start > 0 {
		start = lineStart(b, start-1)
		line := lineAt(b, start)
		parent := bytes.TrimLeft(line, " ")
		if len(bytes.TrimSpace(parent)) == 0 || parent[0] == '#' || len(line)-len(parent) >= indent {
			continue
		}
		return bytes.HasPrefix(parent, []byte("- name:"))
	}
	return false
}

// setsConfigKey reports whether the config: block on the line starting at
// start (inline, or the lines indented below it) sets a key bflint reads.
func setsConfigKey(b []byte, start, indent int) bool {
	line := lineAt(b, start)
	if mentionsConfigKey(line) {
		return true
	}
	for next := start + len(line) + 1; next < len(b); {
		line = lineAt(b, next)
		next += len(line) + 1
		text := bytes.TrimLeft(line, " ")
		if len(bytes.TrimSpace(text)) == 0 || text[0] == '#' {
			continue
		}
		if len(line)-len(text) <= indent {
			return false
		}
		if mentionsConfigKey(text) {
			return true
		}
	}
	return false
}

// configKeys are the config keys whose values bflint reads from
// properties files.
var configKeys = []string{"materialized", "incremental_strategy", "unique_key", "enabled", "alias", "schema", "database",
	"partition_by", "event_time", "batch_size", "strategy", "target_schema", "target_database", "snapshot_meta_column_names",
	"dbt_valid_to_current"}

// mentionsConfigKey reports whether a line of YAML sets one of configKeys:
// as its key, or inside a flow mapping ({materialized: table}).
func mentionsConfigKey(line []byte) bool {
	text := bytes.TrimPrefix(bytes.TrimLeft(line, " "), []byte("- "))
	key, _, found := bytes.Cut(text, []byte(":"))
	for _, k := range configKeys {
		if found && string(bytes.Trim(key, ` "'`)) == k {
			return true
		}
		if bytes.Contains(line, []byte("{")) && (bytes.Contains(line, []byte(k+":")) || bytes.Contains(line, []byte(k+`":`))) {
			return true
		}
	}
	return false
}

// readProperties reads every .yml and .yaml file below the resource
// folders, in parallel: a project has hundreds. A file several projects
// share (spellbook's subprojects read one folder of sources) is parsed
// once per run.
func (r *reader) readProperties(dirs []string) *properties {
	var files []string
	seen := map[string]bool{}
	for _, dir := range dirs {
		r.p.walk(dir, []string{".yml", ".yaml"}, func(path string) {
			if !seen[path] {
				seen[path] = true
				files = append(files, path)
			}
		})
	}
	relevant := nodeConfig
	if r.edges {
		relevant = func(b []byte) bool {
			for _, key := range lineageYAML {
				if bytes.Contains(b, key) {
					return true
				}
			}
			return nodeConfig(b)
		}
	}
	read := make([]*properties, len(files))
	problems := make([]*Problem, len(files))
	parallel.For(len(files), func(i int) { read[i], problems[i] = propertiesOf(files[i], relevant) })
	props := &properties{config: map[string]config{}}
	for i, fp := range read {
		if problems[i] != nil {
			r.p.Problems = append(r.p.Problems, *problems[i])
		}
		if fp == nil {
			continue
		}
		for name, c := range fp.config {
			if props.config[name] == nil {
				props.config[name] = config{}
			}
			props.config[name].merge(c)
		}
		props.sources = append(props.sources, fp.sources...)
		props.exposures = append(props.exposures, fp.exposures...)
		props.snapshots = append(props.snapshots, fp.snapshots...)
	}
	return props
}

// parsed holds the properties of the files read in this run, by path,
// with the size and time of the version read.
var parsed sync.Map

type parsedFile struct {
	size  int64
	mtime int64
	props *properties
}

// propertiesOf reads one properties file that is relevant, or returns
// what an earlier read of the same version found.
func propertiesOf(path string, relevant func([]byte) bool) (*properties, *Problem) {
	info, err := os.Stat(path)
	if err == nil {
		if v, ok := parsed.Load(path); ok {
			if pf := v.(parsedFile); pf.size == info.Size() && pf.mtime == info.ModTime().UnixNano() {
				return pf.props, nil
			}
		}
	}
	root, problem := parseProperties(path, relevant)
	if root == nil {
		return nil, problem
	}
	props := &properties{config: map[string]config{}}
	props.read(root, path)
	if err == nil {
		parsed.Store(path, parsedFile{info.Size(), info.ModTime().UnixNano(), props})
	}
	return props, nil
}

func parseProperties(path string, relevant func([]byte) bool) (*yaml.Node, *Problem) {
	b, err := source.ReadRegular(path, maxFile)
	if err != nil {
		return nil, &Problem{File: path, Msg: "cannot be read: " + source.Cause(err).Error()}
	}
	if !relevant(b) {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Problem{File: path, Msg: "is not valid YAML: " + err.Error()}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	return doc.Content[0], nil
}

func (props *properties) read(root *yaml.Node, file string) {
	for _, kind := range []string{"models", "snapshots", "seeds"} {
		for _, entry := range items(section(root, kind)) {
			name := scalar(entry, "name")
			if name == "" {
				continue
			}
			if c := section(entry, "config"); c != nil {
				if props.config[name] == nil {
					props.config[name] = config{}
				}
				props.config[name].merge(readFolder(c, file).config)
			}
			if kind == "snapshots" {
				if rel := scalar(entry, "relation"); rel != "" {
					props.snapshots = append(props.snapshots, yamlSnapshot{name: name, relation: rel, file: file})
				}
			}
		}
	}
	for _, src := range items(section(root, "sources")) {
		name := scalar(src, "name")
		if name == "" {
			continue
		}
		srcEnabled := readFolder(section(src, "config"), file).config.enabled()
		for _, t := range items(section(src, "tables")) {
			table := scalar(t, "name")
			if table == "" {
				continue
			}
			st := sourceTable{
				source: name, table: table,
				database:   first(scalar(t, "database"), scalar(src, "database")),
				schema:     first(scalar(t, "schema"), scalar(src, "schema"), name),
				identifier: first(scalar(t, "identifier"), table),
				enabled:    srcEnabled && readFolder(section(t, "config"), file).config.enabled(),
				file:       file,
			}
			props.sources = append(props.sources, st)
		}
	}
	for _, e := range items(section(root, "exposures")) {
		name := scalar(e, "name")
		if name == "" {
			continue
		}
		ex := exposure{name: name, kind: scalar(e, "type"), file: file, line: e.Line, enabledFlag: readFolder(section(e, "config"), file).config.enabled()}
		if o := section(e, "owner"); o != nil {
			ex.owner = [2]string{scalar(o, "name"), scalar(o, "email")}
		}
		for _, d := range items(section(e, "depends_on")) {
			if d.Kind == yaml.ScalarNode {
				ex.dependsOn = append(ex.dependsOn, d.Value)
			}
		}
		props.exposures = append(props.exposures, ex)
	}
}

// items are a sequence's entries; nil for anything else.
func items(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// scalar is a mapping's scalar value under key, "" when it has none or
// Jinja would render it.
func scalar(m *yaml.Node, key string) string {
	n := section(m, key)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" || strings.Contains(n.Value, "{{") {
		return ""
	}
	return n.Value
}

func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
