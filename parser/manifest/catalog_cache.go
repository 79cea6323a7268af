package manifest

import (
	"encoding/binary"
	"path/filepath"
	"unsafe"
)

// LoadCatalogCached is LoadCatalog through the cache in dir, as LoadCached
// is Load: a catalog.json is often a tenth of its manifest's size, too
// much to decode again on every run. "" is LoadCatalog itself.
func LoadCatalogCached(path, dir string) (*Catalog, error) {
	f, before, ok := openForCache(path, dir)
	if !ok {
		return LoadCatalog(path)
	}
	defer f.Close()
	content, err := contentHash(f, before.Size())
	if err != nil {
		return LoadCatalog(path)
	}
	key := entryKey(catalogKind, content)
	entry := filepath.Join(dir, entryName(catalogKind, key))
	if payload, entryKey := readPayload(entry); payload != nil && entryKey == key {
		if c, err := unmarshalCatalog(payload); err == nil {
			touch(entry)
			return c, nil
		}
	}
	c, err := decodeCatalog(f, MaxSize)
	if err != nil {
		return nil, locate(err, path)
	}
	if unchanged(f, before) && writeEntry(dir, entry, key, marshalCatalog(c).writeTo) {
		evict(dir)
	}
	return c, nil
}

// A catalog entry's payload is a string table, as a manifest entry's is,
// then the count of unique_ids, the count of all their columns and, for
// each unique_id in ascending order, its index in the table, its count of
// columns and theirs.

func marshalCatalog(c *Catalog) *encoded {
	e := &encoder{refs: map[string]uint64{}}
	ids := c.IDs()
	total := 0
	for _, columns := range c.columns {
		total += len(columns)
	}
	body := binary.AppendUvarint(nil, uint64(len(ids)))
	body = binary.AppendUvarint(body, uint64(total))
	for _, id := range ids {
		body = e.ref(body, id)
		columns := c.columns[id]
		body = binary.AppendUvarint(body, uint64(len(columns)))
		for _, column := range columns {
			body = e.ref(body, column)
		}
	}
	return &encoded{table: e.tableBytes(), strings: e.table, body: body}
}

// unmarshalCatalog reads a payload; the catalog's strings are its bytes,
// so payload must not change.
func unmarshalCatalog(payload []byte) (*Catalog, error) {
	d := &decoder{data: payload}
	t := d.table()
	if d.bad {
		return nil, errBadEntry
	}
	n := d.count()
	c := &Catalog{columns: make(map[string][]string, n)}
	slab := make([]string, 0, d.count())
	prev := ""
	for i := range n {
		id := d.str(t)
		if i > 0 && id <= prev {
			return nil, errBadEntry
		}
		prev = id
		start := len(slab)
		columns := d.count()
		if columns > cap(slab)-start {
			return nil, errBadEntry
		}
		for range columns {
			slab = append(slab, d.str(t))
		}
		c.columns[id] = slab[start:len(slab):len(slab)]
	}
	if d.bad || len(d.data) != 0 {
		return nil, errBadEntry
	}
	return c, nil
}

// table reads a string table; its strings are the payload's bytes.
func (d *decoder) table() *table {
	t := &table{ends: make([]uint32, d.count())}
	end := uint64(0)
	for i := range t.ends {
		end += d.below(1 << 32)
		if end >= 1<<32 {
			d.fail()
		}
		t.ends[i] = uint32(end)
	}
	blob := d.take(end)
	// The payload is never written again, so its bytes can be the table's
	// strings themselves rather than a copy.
	t.blob = unsafe.String(unsafe.SliceData(blob), len(blob))
	return t
}
