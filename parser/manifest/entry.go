package manifest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"slices"
	"sync/atomic"
)

// A cache entry's payload holds a manifest in the shape it has in memory,
// so that reading it builds little: the ids, their kinds and the edges as
// positions are read at once, and each node is decoded from its record
// only when first asked for (a lint run looks at a few hundred of tens of
// thousands). Every string is an index into one table, whose first strings
// are those the records use most, so that most indexes take a byte; every
// number is a varint.
//
//	payload  = strings metadata ids undefined kinds children parents records
//	strings  = count, each length, then all the bytes
//	metadata = schema URL, dbt version, project name, adapter type, schema version
//	ids      = count, then each id (ascending)
//	undefined= count, then positions as differences from the previous one
//	kinds    = each id's resource type ("" for undefined ones)
//	children = for each id, a count, then positions as differences
//	parents  = likewise
//	records  = each id's record length (0 for undefined ones), then the
//	           records: a node's strings but its id and kind (nodeStrings),
//	           its unique_key and its depends_on.nodes as positions
//
// A list is its length plus one, 0 for nil (encoding/json tells a missing
// list from an empty one, and so must the cache), then its elements.

// recordStrings counts a Node's string fields.
const recordStrings = 32

// nodeStrings lists the string fields of a Node, the id and the kind first;
// TestNodeStringsCoverNode keeps it complete.
func nodeStrings(n *Node) [recordStrings]*string {
	c := &n.Config
	meta := &c.SnapshotMetaColumnNames
	return [...]*string{
		&n.UniqueID, &n.ResourceType, &n.Name, &n.PackageName, &n.Database, &n.Schema,
		&n.Alias, &n.Identifier, &n.Relation, &n.OriginalFilePath,
		&n.Checksum.Name, &n.Checksum.Checksum, (*string)(&n.Version), (*string)(&n.LatestVersion),
		&c.Materialized, &c.IncrementalStrategy, &c.EventTime, &c.BatchSize, &c.Strategy,
		&c.PartitionBy.Field, &c.PartitionBy.DataType, &c.PartitionBy.Granularity,
		&meta.ValidFrom, &meta.ValidTo, &meta.SCDID, &meta.UpdatedAt, &meta.IsDeleted,
		&c.DBTValidToCurrent, &n.Owner.Name, &n.Owner.Email, &n.Type, &n.Union,
	}
}

type encoder struct {
	refs  map[string]uint64
	table []string
}

func (e *encoder) ref(out []byte, s string) []byte {
	i, ok := e.refs[s]
	if !ok {
		i = uint64(len(e.table))
		e.refs[s] = i
		e.table = append(e.table, s)
	}
	return binary.AppendUvarint(out, i)
}

func (e *encoder) list(out []byte, l []string) []byte {
	if l == nil {
		return binary.AppendUvarint(out, 0)
	}
	out = binary.AppendUvarint(out, uint64(len(l))+1)
	for _, s := range l {
		out = e.ref(out, s)
	}
	return out
}

// appendPositions writes ascending positions, counted.
func appendPositions(out []byte, positions []int32) []byte {
	return appendDifferences(binary.AppendUvarint(out, uint64(len(positions))), positions)
}

// appendDifferences writes ascending positions as differences from the
// previous one, which keeps them small.
func appendDifferences(out []byte, positions []int32) []byte {
	prev := int32(0)
	for _, p := range positions {
		out = binary.AppendUvarint(out, uint64(p-prev))
		prev = p
	}
	return out
}

// encoded is an entry's payload in the pieces marshalManifest builds it
// in, so that writing it copies none of them.
type encoded struct {
	table   []byte   // the count and lengths of the strings
	strings []string // their bytes
	body    []byte   // the rest but the records
	records []byte
}

func (p *encoded) writeTo(w *bufio.Writer) {
	w.Write(p.table)
	for _, s := range p.strings {
		w.WriteString(s)
	}
	w.Write(p.body)
	w.Write(p.records)
}

// marshalManifest encodes m; false when m is not in the shape build leaves
// a manifest in (a depends_on id missing from its ids).
func marshalManifest(m *Manifest) (*encoded, bool) {
	// Ids and names account for most strings; a map sized for them grows
	// little.
	e := &encoder{refs: make(map[string]uint64, 2*len(m.ids))}
	// The records go first into the table, so that their common strings
	// get the small indexes.
	var records []byte
	lengths := make([]int, len(m.ids))
	var positions []int32
	for i := range m.ids {
		n := m.NodeAt(i)
		if n == nil {
			continue
		}
		start := len(records)
		fields := nodeStrings(n)
		for _, s := range fields[2:] {
			records = e.ref(records, *s)
		}
		records = e.list(records, n.Config.UniqueKey)
		positions = positions[:0]
		for _, id := range n.DependsOn.Nodes {
			p, found := slices.BinarySearch(m.ids, id)
			if !found {
				return nil, false
			}
			positions = append(positions, int32(p))
		}
		if n.DependsOn.Nodes == nil {
			records = binary.AppendUvarint(records, 0)
		} else {
			records = binary.AppendUvarint(records, uint64(len(positions))+1)
			records = appendDifferences(records, positions)
		}
		lengths[i] = len(records) - start
	}

	var body []byte
	for _, s := range []string{m.SchemaURL, m.DBTVersion, m.ProjectName, m.AdapterType} {
		body = e.ref(body, s)
	}
	body = binary.AppendUvarint(body, uint64(m.SchemaVersion))
	body = binary.AppendUvarint(body, uint64(len(m.ids)))
	for _, id := range m.ids {
		body = e.ref(body, id)
	}
	body = appendPositions(body, m.undefined)
	for _, kind := range m.kinds {
		body = e.ref(body, kind)
	}
	for _, a := range []adjacency{m.children, m.parents} {
		for i := range m.ids {
			body = appendPositions(body, a.of(i))
		}
	}
	for _, n := range lengths {
		body = binary.AppendUvarint(body, uint64(n))
	}

	return &encoded{table: e.tableBytes(), strings: e.table, body: body, records: records}, true
}

// tableBytes is the head of the string table: the count and lengths of the
// strings, whose bytes follow it.
func (e *encoder) tableBytes() []byte {
	out := binary.AppendUvarint(nil, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	return out
}

var errBadEntry = errors.New("malformed cache entry")

// decoder reads varints. The first malformed one sets bad and makes every
// later read return 0, so callers check bad once.
type decoder struct {
	data []byte
	bad  bool
}

func (d *decoder) fail() uint64 {
	d.bad, d.data = true, nil
	return 0
}

func (d *decoder) uint() uint64 {
	// Most numbers of an entry fit in a byte.
	if len(d.data) > 0 && d.data[0] < 0x80 {
		v := uint64(d.data[0])
		d.data = d.data[1:]
		return v
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		return d.fail()
	}
	d.data = d.data[n:]
	return v
}

// below reads a number that must be less than limit.
func (d *decoder) below(limit uint64) uint64 {
	if v := d.uint(); v < limit {
		return v
	}
	return d.fail()
}

// count reads a number of elements that each take at least one more byte,
// so that a corrupt count cannot make the decoder allocate without bound.
func (d *decoder) count() int {
	return int(d.below(uint64(len(d.data)) + 1))
}

func (d *decoder) take(n uint64) []byte {
	if n > uint64(len(d.data)) {
		d.fail()
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

// positions reads a counted list of ascending positions below limit.
func (d *decoder) positions(limit int, into []int32) []int32 {
	return d.differences(d.count(), limit, into)
}

// differences reads n ascending positions below limit.
func (d *decoder) differences(n, limit int, into []int32) []int32 {
	p := uint64(0)
	for j := range n {
		delta := d.uint()
		p += delta
		if d.bad || j > 0 && delta == 0 || p >= uint64(limit) {
			d.fail()
			break
		}
		into = append(into, int32(p))
	}
	return into
}

func (d *decoder) adjacency(ids int) adjacency {
	a := adjacency{start: make([]int32, ids+1)}
	for i := range ids {
		a.list = d.positions(ids, a.list)
		a.start[i+1] = int32(len(a.list))
	}
	return a
}

// table is the string table of an entry.
type table struct {
	blob string
	ends []uint32 // string i is blob[ends[i-1]:ends[i]], from 0 for i == 0
}

func (t *table) at(i uint64) string {
	start := uint32(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.blob[start:t.ends[i]]
}

// str reads a reference to t.
func (d *decoder) str(t *table) string {
	i := d.below(uint64(len(t.ends)))
	if d.bad {
		return ""
	}
	return t.at(i)
}

// unmarshalManifest reads a payload; the manifest keeps it (its strings and
// records) for the nodes it decodes later, so payload must not change.
func unmarshalManifest(payload []byte) (*Manifest, error) {
	d := &decoder{data: payload}
	t := d.table()
	if d.bad {
		return nil, errBadEntry
	}

	m := &Manifest{SchemaURL: d.str(t), DBTVersion: d.str(t), ProjectName: d.str(t), AdapterType: d.str(t)}
	m.SchemaVersion = int(d.below(1 << 31))
	ids := d.count()
	m.ids = make([]string, ids)
	for i := range m.ids {
		m.ids[i] = d.str(t)
		if i > 0 && m.ids[i-1] >= m.ids[i] {
			d.fail()
		}
	}
	m.undefined = d.positions(ids, nil)
	m.kinds = make([]string, ids)
	for i := range m.kinds {
		m.kinds[i] = d.str(t)
	}
	m.children = d.adjacency(ids)
	m.parents = d.adjacency(ids)
	starts := make([]uint32, ids+1)
	for i := range ids {
		n := d.below(1 << 32)
		if m.defined(i) != (n > 0) {
			d.fail()
		}
		starts[i+1] = starts[i] + uint32(n)
		if uint64(starts[i+1]) < n {
			d.fail()
		}
	}
	data := d.take(uint64(starts[ids]))
	if d.bad || len(d.data) != 0 {
		return nil, errBadEntry
	}
	r := &records{table: t, m: m, data: data, starts: starts}
	// Records are checked now, so that decoding one later cannot fail.
	for i := range ids {
		if m.defined(i) && !r.valid(i) {
			return nil, errBadEntry
		}
	}
	m.nodes = make([]atomic.Pointer[Node], ids)
	m.records = r
	return m, nil
}

// records are the nodes of an entry, each decoded on demand.
type records struct {
	*table
	m      *Manifest // for the ids and kinds, which records leave out
	data   []byte
	starts []uint32 // the record of position i is data[starts[i]:starts[i+1]]
}

func (r *records) of(i int) *decoder {
	return &decoder{data: r.data[r.starts[i]:r.starts[i+1]]}
}

// decode fills n from a record valid has accepted.
func (r *records) decode(i int, n *Node) {
	d := r.of(i)
	fields := nodeStrings(n)
	*fields[0], *fields[1] = r.m.ids[i], r.m.kinds[i]
	for _, s := range fields[2:] {
		*s = d.str(r.table)
	}
	if size := d.count(); size > 0 {
		n.Config.UniqueKey = make(StringList, size-1)
		for j := range n.Config.UniqueKey {
			n.Config.UniqueKey[j] = d.str(r.table)
		}
	}
	if size := d.count(); size > 0 {
		n.DependsOn.Nodes = make([]string, size-1)
		p := uint64(0)
		for j := range n.DependsOn.Nodes {
			p += d.uint()
			n.DependsOn.Nodes[j] = r.m.ids[p]
		}
	}
}

// valid checks that the record of position i is whole and refers only to
// strings of the table and positions of the ids.
func (r *records) valid(i int) bool {
	d := r.of(i)
	strs := uint64(len(r.ends))
	for range recordStrings - 2 {
		d.below(strs)
	}
	if n := d.count(); n > 0 {
		for range n - 1 {
			d.below(strs)
		}
	}
	if n := d.count(); n > 0 {
		d.differences(n-1, len(r.m.ids), nil)
	}
	return !d.bad && len(d.data) == 0
}
