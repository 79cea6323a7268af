package manifest

import (
	"bytes"
	"fmt"
	"github.com/bflint/bflint/parser/source"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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
	f, _, err := source.OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkSize(f, MaxSize); err != nil {
		return nil, locate(err, path)
	}
	m, err := decodeFile(f, MaxSize)
	if err != nil {
		return nil, locate(err, path)
	}
	m.Path = path
	return m, nil
}

// Decode reads a manifest from r, at most MaxSize bytes of it, into memory
// and decodes it. Errors about the content are *Error with a byte offset
// but no line.
func Decode(r io.Reader) (*Manifest, error) { return decode(r, MaxSize) }

// decodeFile decodes f with the scanner as it reads it, which is several
// times faster than the stream decoder on a large manifest. Input the
// scanner leaves alone (anything that is not a valid manifest, and a few
// rare constructs) is read again from the start by the stream decoder,
// which words every error and has the last word on what is valid. A file
// that cannot be read twice (a pipe) is read into memory first.
func decodeFile(f *os.File, limit int64) (*Manifest, error) {
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return decode(f, limit)
	}
	m, ok, err := scanFile(f, info.Size(), limit)
	switch {
	case err != nil:
		return nil, readError(err)
	case ok:
		return m, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, readError(err)
	}
	return decodeStream(f, limit)
}

// decode reads all of r, at most limit bytes, into memory and decodes it
// as decodeFile does.
func decode(r io.Reader, limit int64) (*Manifest, error) {
	data, err := readAll(r, limit)
	if err != nil {
		return nil, readError(err)
	}
	if m, ok := scanBytes(data, limit); ok {
		return m, nil
	}
	return decodeStream(bytes.NewReader(data), limit)
}

func readError(err error) error {
	return &Error{Offset: -1, Msg: fmt.Sprintf("reading the manifest: %v", err), Err: err}
}

// readAll reads r up to the first byte past limit. The result has padding
// zero bytes between its len and its cap, as scanBytes needs.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	size := scanWindow
	if sized, ok := r.(interface{ Len() int }); ok {
		// One more byte, so that the read that meets the end finds room.
		size = int(min(int64(sized.Len()), limit)) + 1
	}
	buf := make([]byte, 0, size+padding)
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf)-padding {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := r.Read(buf[len(buf) : cap(buf)-padding])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	// A reader may use all of the slice it is given as scratch space.
	clear(buf[len(buf) : len(buf)+padding])
	return buf, nil
}

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
	nodes     map[string]*Node
	childMap  map[string][]string
	parentMap map[string][]string
}

func newBuilder() *builder {
	return &builder{m: &Manifest{}, nodes: map[string]*Node{}}
}

// decodeStream is the reference decoder: encoding/json reads each entry
// of a section into its struct, and its errors carry an offset.
func decodeStream(r io.Reader, limit int64) (*Manifest, error) {
	s := newStream(r, limit)
	b := newBuilder()
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
		b.nodes[id] = n
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

// build turns the edges into sets and fills the indexes. Ids are replaced
// by the node's own copy of the string so that the many copies the decoder
// allocated for repeated ids can be freed; every id an edge mentions passes
// through that replacement, which so finds the ones no section defines.
func (b *builder) build() {
	unknown := map[string]bool{}
	canon := func(id string) string {
		if n := b.nodes[id]; n != nil {
			return n.UniqueID
		}
		unknown[id] = true
		return id
	}
	set := func(ids []string) []string {
		for i, id := range ids {
			ids[i] = canon(id)
		}
		slices.Sort(ids)
		return slices.Clip(slices.Compact(ids))
	}
	for _, n := range b.nodes {
		n.DependsOn.Nodes = set(n.DependsOn.Nodes)
	}

	parents := b.parentMap
	if parents != nil {
		for id, ids := range parents {
			canon(id)
			parents[id] = set(ids)
		}
	} else {
		parents = make(map[string][]string, len(b.nodes))
		for id, n := range b.nodes {
			parents[id] = n.DependsOn.Nodes
		}
	}
	// Fusion manifests may lack child_map; parents hold the same edges.
	children := b.childMap
	if children != nil {
		for id, ids := range children {
			canon(id)
			children[id] = set(ids)
		}
	} else {
		children = make(map[string][]string, len(b.nodes))
		for id, ps := range parents {
			for _, p := range ps {
				children[p] = append(children[p], id)
			}
		}
		for _, cs := range children {
			slices.Sort(cs)
		}
	}

	m := b.m
	m.ids = make([]string, 0, len(b.nodes)+len(unknown))
	for _, n := range b.nodes {
		m.ids = append(m.ids, n.UniqueID)
	}
	for id := range unknown {
		m.ids = append(m.ids, id)
	}
	slices.Sort(m.ids)
	index := make(map[string]int32, len(m.ids))
	m.kinds = make([]string, len(m.ids))
	m.nodes = make([]atomic.Pointer[Node], len(m.ids))
	for i, id := range m.ids {
		index[id] = int32(i)
		if n := b.nodes[id]; n != nil {
			m.nodes[i].Store(n)
			m.kinds[i] = n.ResourceType
		} else {
			m.undefined = append(m.undefined, int32(i))
		}
	}
	m.parents = m.adjacency(parents, index)
	m.children = m.adjacency(children, index)
}

// adjacency turns sets of ids, sorted, into positions.
func (m *Manifest) adjacency(sets map[string][]string, index map[string]int32) adjacency {
	total := 0
	for _, ids := range sets {
		total += len(ids)
	}
	a := adjacency{start: make([]int32, len(m.ids)+1), list: make([]int32, 0, total)}
	for i, id := range m.ids {
		for _, e := range sets[id] {
			a.list = append(a.list, index[e])
		}
		a.start[i+1] = int32(len(a.list))
	}
	return a
}
