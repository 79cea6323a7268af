package manifest

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// nodeSections are the top-level keys whose entries are graph nodes. All
// share the Node shape; each entry's resource_type tells them apart.
var nodeSections = map[string]bool{
	"nodes":           true,
	"sources":         true,
	"exposures":       true,
	"metrics":         true,
	"semantic_models": true,
	"saved_queries":   true,
	"unit_tests":      true,
	"functions":       true,
}

// Load reads the manifest at path. Errors about the content are *Error,
// with the line and column of the failure when there is an offset.
func Load(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkSize(f, MaxSize); err != nil {
		return nil, locate(err, path)
	}
	m, err := decode(f, MaxSize)
	if err != nil {
		return nil, locate(err, path)
	}
	m.Path = path
	return m, nil
}

// Decode reads a manifest from r, at most MaxSize bytes of it. Errors about
// the content are *Error with a byte offset but no line.
func Decode(r io.Reader) (*Manifest, error) { return decode(r, MaxSize) }

type metadata struct {
	SchemaURL   string `json:"dbt_schema_version"`
	DBTVersion  string `json:"dbt_version"`
	ProjectName string `json:"project_name"`
	AdapterType string `json:"adapter_type"`
}

// artifactURL matches the schema URLs dbt writes, such as
// https://schemas.getdbt.com/dbt/manifest/v12.json, capturing the artifact
// kind and version.
var artifactURL = regexp.MustCompile(`/([a-z_-]+)/v([0-9]+)\.json$`)

// schemaOf returns the artifact kind and version a schema URL names, or ""
// and 0 when it is in no form dbt uses.
func schemaOf(url string) (kind string, version int) {
	sub := artifactURL.FindStringSubmatch(url)
	if sub == nil {
		return "", 0
	}
	v, err := strconv.Atoi(sub[2])
	if err != nil {
		return "", 0
	}
	return sub[1], v
}

// builder collects what the stream yields; edges are kept as read until
// every node is known, since child_map may come before or after nodes.
type builder struct {
	m         *Manifest
	childMap  map[string][]string
	parentMap map[string][]string
}

func decode(r io.Reader, limit int64) (*Manifest, error) {
	s := newStream(r, limit)
	b := &builder{m: &Manifest{nodes: map[string]*Node{}}}
	const top = "the manifest"
	ok, err := s.object(top, "an object (a dbt manifest.json)")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &Error{Offset: 0, Msg: "the manifest is null, expected an object (a dbt manifest.json)"}
	}
	sawNodes := false
	for s.dec.More() {
		key, err := s.key(top)
		if err != nil {
			return nil, err
		}
		switch {
		case key == "metadata":
			err = b.metadata(s)
		case nodeSections[key]:
			sawNodes = sawNodes || key == "nodes"
			err = b.section(s, key)
		case key == "child_map":
			b.childMap, err = edges(s, key, b.childMap)
		case key == "parent_map":
			b.parentMap, err = edges(s, key, b.parentMap)
		default:
			err = s.skip(strconv.Quote(key))
		}
		if err != nil {
			return nil, err
		}
	}
	if err := s.end(top); err != nil {
		return nil, err
	}
	if err := s.finish(top); err != nil {
		return nil, err
	}
	if !sawNodes {
		return nil, &Error{Offset: -1, Msg: `the file has no "nodes" section: it is not a dbt manifest.json`}
	}
	b.build()
	return b.m, nil
}

// metadata records the project facts and refuses another dbt artifact
// (catalog.json, run_results.json) passed by mistake, which would
// otherwise read as a manifest with no edges.
func (b *builder) metadata(s *stream) error {
	_, at := s.dataStart()
	var meta metadata
	if err := s.value(&meta, "metadata", ""); err != nil {
		return err
	}
	kind, version := schemaOf(meta.SchemaURL)
	if kind != "" && kind != "manifest" {
		return &Error{Offset: at, Msg: fmt.Sprintf("metadata.dbt_schema_version is %q: this is a dbt %s file, not a manifest", meta.SchemaURL, strings.ReplaceAll(kind, "-", " "))}
	}
	m := b.m
	m.SchemaURL, m.SchemaVersion = meta.SchemaURL, version
	m.DBTVersion, m.ProjectName, m.AdapterType = meta.DBTVersion, meta.ProjectName, meta.AdapterType
	return nil
}

func (b *builder) section(s *stream, section string) error {
	what := strconv.Quote(section)
	ok, err := s.object(what, "an object keyed by unique_id")
	if err != nil || !ok {
		return err
	}
	for s.dec.More() {
		id, err := s.key(what)
		if err != nil {
			return err
		}
		n := new(Node)
		if err := s.value(n, section, id); err != nil {
			return err
		}
		n.UniqueID = id
		if n.ResourceType == "" {
			n.ResourceType, _, _ = strings.Cut(id, ".")
		}
		b.m.nodes[id] = n
	}
	return s.end(what)
}

// edges reads child_map or parent_map into into, allocating it on first
// use. A null map stays nil: absent, to be derived from depends_on.
func edges(s *stream, section string, into map[string][]string) (map[string][]string, error) {
	what := strconv.Quote(section)
	ok, err := s.object(what, "an object keyed by unique_id")
	if err != nil || !ok {
		return into, err
	}
	if into == nil {
		into = map[string][]string{}
	}
	for s.dec.More() {
		id, err := s.key(what)
		if err != nil {
			return nil, err
		}
		var ids []string
		if err := s.value(&ids, section, id); err != nil {
			return nil, err
		}
		into[id] = append(into[id], ids...)
	}
	return into, s.end(what)
}

// build turns the edges into sets and fills the derived indexes. Ids are
// replaced by the node's own copy of the string so that the many copies the
// decoder allocated for repeated ids can be freed.
func (b *builder) build() {
	m := b.m
	canon := func(id string) string {
		if n := m.nodes[id]; n != nil {
			return n.UniqueID
		}
		return id
	}
	set := func(ids []string) []string {
		for i, id := range ids {
			ids[i] = canon(id)
		}
		slices.Sort(ids)
		return slices.Clip(slices.Compact(ids))
	}
	for _, n := range m.nodes {
		n.DependsOn.Nodes = set(n.DependsOn.Nodes)
	}

	m.parents = make(map[string][]string, len(m.nodes))
	if b.parentMap != nil {
		for id, ids := range b.parentMap {
			m.parents[canon(id)] = set(ids)
		}
	} else {
		for id, n := range m.nodes {
			if len(n.DependsOn.Nodes) > 0 {
				m.parents[id] = n.DependsOn.Nodes
			}
		}
	}

	// Fusion manifests may lack child_map; parents hold the same edges.
	m.children = make(map[string][]string, len(m.nodes))
	if b.childMap != nil {
		for id, ids := range b.childMap {
			m.children[canon(id)] = set(ids)
		}
	} else {
		for id, ps := range m.parents {
			for _, p := range ps {
				m.children[p] = append(m.children[p], id)
			}
		}
		for p, cs := range m.children {
			slices.Sort(cs)
			m.children[p] = slices.Clip(cs)
		}
	}

	m.sorted = make([]*Node, 0, len(m.nodes))
	for _, n := range m.nodes {
		m.sorted = append(m.sorted, n)
	}
	slices.SortFunc(m.sorted, func(a, b *Node) int { return strings.Compare(a.UniqueID, b.UniqueID) })

	unknown := map[string]bool{}
	note := func(id string) {
		if m.nodes[id] == nil {
			unknown[id] = true
		}
	}
	for _, edges := range []map[string][]string{m.parents, m.children} {
		for id, ids := range edges {
			note(id)
			for _, other := range ids {
				note(other)
			}
		}
	}
	for _, n := range m.nodes {
		for _, id := range n.DependsOn.Nodes {
			note(id)
		}
	}
	for id := range unknown {
		m.unresolved = append(m.unresolved, id)
	}
	slices.Sort(m.unresolved)
}
