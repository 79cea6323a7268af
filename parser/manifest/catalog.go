package manifest

import (
	"cmp"
	"fmt"
	"github.com/bflint/bflint/parser/source"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Catalog holds the column names dbt's catalog.json recorded for each model,
// seed, snapshot and source, as the warehouse reported them when the
// documentation was generated. It lets the SCD2 rules recognise a type-2
// dimension by its validity columns when no snapshot declares it.
type Catalog struct {
	columns map[string][]string
}

// LoadCatalog reads the catalog.json at path. Errors about the content are
// *Error, located like Load's.
func LoadCatalog(path string) (*Catalog, error) {
	f, _, err := source.OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkSize(f, MaxSize); err != nil {
		return nil, locate(err, path)
	}
	c, err := decodeCatalog(f, MaxSize)
	if err != nil {
		return nil, locate(err, path)
	}
	return c, nil
}

// DecodeCatalog reads a catalog.json from r, at most MaxSize bytes of it.
func DecodeCatalog(r io.Reader) (*Catalog, error) { return decodeCatalog(r, MaxSize) }

// Columns returns the relation's column names, lower-cased (warehouses
// differ in the case they report), in the table's column order; nil when
// the catalog does not have the unique_id.
func (c *Catalog) Columns(id string) []string { return slices.Clone(c.columns[id]) }

// IDs returns the unique_ids the catalog has columns for, sorted.
func (c *Catalog) IDs() []string {
	ids := make([]string, 0, len(c.columns))
	for id := range c.columns {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

type catalogEntry struct {
	Columns map[string]struct {
		Name  string `json:"name"`
		Index int    `json:"index"`
	} `json:"columns"`
}

func decodeCatalog(r io.Reader, limit int64) (*Catalog, error) {
	s := newStream(r, limit)
	c := &Catalog{columns: map[string][]string{}}
	const top = "the catalog"
	ok, err := s.object(top, "an object (a dbt catalog.json)")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &Error{Offset: 0, Msg: "the catalog is null, expected an object (a dbt catalog.json)"}
	}
	for s.dec.More() {
		key, err := s.key(top)
		if err != nil {
			return nil, err
		}
		switch key {
		case "metadata":
			err = catalogMetadata(s)
		case "nodes", "sources":
			err = c.section(s, key)
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
	return c, nil
}

// catalogMetadata refuses a manifest or other artifact passed as the
// catalog: its nodes would read as relations without columns.
func catalogMetadata(s *stream) error {
	_, at := s.dataStart()
	var meta metadata
	if err := s.value(&meta, "metadata", ""); err != nil {
		return err
	}
	if kind, _ := schemaOf(meta.SchemaURL); kind != "" && kind != "catalog" {
		return &Error{Offset: at, Msg: fmt.Sprintf("metadata.dbt_schema_version is %q: this is a dbt %s file, not a catalog", meta.SchemaURL, strings.ReplaceAll(kind, "-", " "))}
	}
	return nil
}

func (c *Catalog) section(s *stream, section string) error {
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
		var e catalogEntry
		if err := s.value(&e, section, id); err != nil {
			return err
		}
		type column struct {
			name  string
			index int
		}
		cols := make([]column, 0, len(e.Columns))
		for key, col := range e.Columns {
			cols = append(cols, column{strings.ToLower(cmp.Or(col.Name, key)), col.Index})
		}
		slices.SortFunc(cols, func(a, b column) int {
			return cmp.Or(cmp.Compare(a.index, b.index), strings.Compare(a.name, b.name))
		})
		names := make([]string, len(cols))
		for i, col := range cols {
			names[i] = col.name
		}
		c.columns[id] = names
	}
	return s.end(what)
}
