package manifest

import (
	"strings"
	"unicode/utf8"
)

// The manifest's own objects, field by field: metadata, node sections,
// nodes, configs, dependencies, lists, versions, checksums and edges.

func (s *scanner) metadata() bool {
	var meta metadata
	ok := s.structInto(func(key []byte) bool {
		switch string(key) {
		case "dbt_schema_version":
			return s.stringInto(&meta.SchemaURL, s.text)
		case "dbt_version":
			return s.stringInto(&meta.DBTVersion, s.text)
		case "project_name":
			return s.stringInto(&meta.ProjectName, s.text)
		case "adapter_type":
			return s.stringInto(&meta.AdapterType, s.text)
		}
		return s.unknown(key, metadataFields)
	})
	if !ok {
		return false
	}
	kind, version := schemaOf(meta.SchemaURL)
	if kind != "" && kind != "manifest" {
		return false
	}
	s.sawMeta = true
	m := s.b.m
	m.SchemaURL, m.SchemaVersion = meta.SchemaURL, version
	m.DBTVersion, m.ProjectName, m.AdapterType = meta.DBTVersion, meta.ProjectName, meta.AdapterType
	return true
}

func (s *scanner) section() bool {
	if s.null() {
		return true
	}
	if s.buf[s.pos] != '{' {
		return false
	}
	empty, ok := s.open()
	return ok && (empty || s.members(s.entry, s.atSplit))
}

// entry reads the node of a section whose unique_id is key.
func (s *scanner) entry(key []byte) bool {
	// Section keys are unique_ids; escapes in them are decoded.
	id, ok := s.keyText(key)
	if !ok {
		return false
	}
	n := new(Node)
	if !s.null() {
		if s.buf[s.pos] != '{' {
			return false
		}
		s.depNodes = false
		if !s.object(func(key []byte) bool { return s.nodeField(n, key) }) {
			return false
		}
	}
	n.UniqueID = id
	if n.ResourceType == "" {
		n.ResourceType, _, _ = strings.Cut(id, ".")
	}
	s.b.nodes[id] = n
	return true
}

// keyText returns a key as a new string. object has refused keys with
// escapes, so only invalid UTF-8 needs decoding.
func (s *scanner) keyText(key []byte) (string, bool) {
	if utf8.Valid(key) {
		return string(key), true
	}
	return unquote(append(append([]byte{'"'}, key...), '"'))
}

func (s *scanner) nodeField(n *Node, key []byte) bool {
	switch string(key) {
	case "resource_type":
		return s.stringInto(&n.ResourceType, s.shared)
	case "name":
		return s.stringInto(&n.Name, s.text)
	case "package_name":
		return s.stringInto(&n.PackageName, s.shared)
	case "database":
		return s.stringInto(&n.Database, s.shared)
	case "schema":
		return s.stringInto(&n.Schema, s.shared)
	case "alias":
		return s.stringInto(&n.Alias, s.text)
	case "identifier":
		return s.stringInto(&n.Identifier, s.text)
	case "relation_name":
		return s.stringInto(&n.Relation, s.text)
	case "original_file_path":
		return s.stringInto(&n.OriginalFilePath, s.text)
	case "checksum":
		return s.checksum(&n.Checksum)
	case "version":
		return s.modelVersion(&n.Version)
	case "latest_version":
		return s.modelVersion(&n.LatestVersion)
	case "config":
		return s.structInto(func(key []byte) bool { return s.configField(&n.Config, key) })
	case "depends_on":
		return s.structInto(func(key []byte) bool { return s.dependsOnField(&n.DependsOn, key) })
	case "owner":
		return s.structInto(func(key []byte) bool {
			switch string(key) {
			case "name":
				return s.stringInto(&n.Owner.Name, s.shared)
			case "email":
				return s.stringInto(&n.Owner.Email, s.shared)
			}
			return s.unknown(key, ownerFields)
		})
	case "type":
		return s.stringInto(&n.Type, s.shared)
	}
	return s.unknown(key, nodeFields)
}

func (s *scanner) configField(c *Config, key []byte) bool {
	switch string(key) {
	case "materialized":
		return s.stringInto(&c.Materialized, s.shared)
	case "incremental_strategy":
		return s.stringInto(&c.IncrementalStrategy, s.shared)
	case "unique_key":
		return s.stringList(&c.UniqueKey)
	case "event_time":
		return s.stringInto(&c.EventTime, s.shared)
	case "batch_size":
		return s.stringInto(&c.BatchSize, s.shared)
	case "partition_by":
		return s.partitionBy(&c.PartitionBy)
	case "strategy":
		return s.stringInto(&c.Strategy, s.shared)
	case "snapshot_meta_column_names":
		names := &c.SnapshotMetaColumnNames
		return s.structInto(func(key []byte) bool {
			switch string(key) {
			case "dbt_valid_from":
				return s.stringInto(&names.ValidFrom, s.shared)
			case "dbt_valid_to":
				return s.stringInto(&names.ValidTo, s.shared)
			case "dbt_scd_id":
				return s.stringInto(&names.SCDID, s.shared)
			case "dbt_updated_at":
				return s.stringInto(&names.UpdatedAt, s.shared)
			case "dbt_is_deleted":
				return s.stringInto(&names.IsDeleted, s.shared)
			}
			return s.unknown(key, snapshotMetaFields)
		})
	case "dbt_valid_to_current":
		return s.stringInto(&c.DBTValidToCurrent, s.shared)
	}
	return s.unknown(key, configFields)
}

func (s *scanner) dependsOnField(d *DependsOn, key []byte) bool {
	if string(key) != "nodes" {
		return s.unknown(key, dependsOnFields)
	}
	if s.depNodes {
		return false
	}
	s.depNodes = true
	if s.null() {
		d.Nodes = nil
		return true
	}
	ids, ok := s.idList()
	d.Nodes = ids
	return ok
}

// idChunk is how many ids each backing array of the edge lists holds.
const idChunk = 4096

// idList reads a list of unique_ids, a null among them read as "" as
// encoding/json reads it, into the shared backing arrays. The result is
// never nil: encoding/json gives an empty list for [].
func (s *scanner) idList() ([]string, bool) {
	if s.buf[s.pos] != '[' {
		return nil, false
	}
	start := len(s.idSlab)
	ok := s.array(func() bool {
		id := ""
		if !s.null() {
			if s.buf[s.pos] != '"' {
				return false
			}
			var ok bool
			if id, ok = s.id(); !ok {
				return false
			}
		}
		if len(s.idSlab) == cap(s.idSlab) {
			// Lists handed out keep the full array; this one moves.
			list := s.idSlab[start:]
			next := make([]string, len(list), max(idChunk, 2*len(list)))
			copy(next, list)
			s.idSlab, start = next, 0
		}
		s.idSlab = append(s.idSlab, id)
		return true
	})
	if !ok {
		return nil, false
	}
	if start == len(s.idSlab) {
		return []string{}, true
	}
	return s.idSlab[start:len(s.idSlab):len(s.idSlab)], true
}

// stringList reads what StringList.UnmarshalJSON accepts.
func (s *scanner) stringList(dst *StringList) bool {
	var list StringList
	switch s.buf[s.pos] {
	case 'n':
		if !s.null() {
			return false
		}
	case '"':
		v, ok := s.shared()
		if !ok {
			return false
		}
		if v != "" {
			list = StringList{v}
		}
	case '[':
		ok := s.array(func() bool {
			if s.null() {
				return true
			}
			if s.buf[s.pos] != '"' {
				return false
			}
			v, ok := s.shared()
			if v != "" {
				list = append(list, v)
			}
			return ok
		})
		if !ok {
			return false
		}
	default:
		return false
	}
	*dst = list
	return true
}

// partitionBy reads what PartitionBy.UnmarshalJSON accepts, which is any
// value.
func (s *scanner) partitionBy(dst *PartitionBy) bool {
	var p PartitionBy
	// looseString keeps a string and passes over any other value.
	looseString := func(into *string) bool {
		if s.buf[s.pos] == '"' {
			v, ok := s.shared()
			*into = v
			return ok
		}
		return s.skip()
	}
	var ok bool
	switch s.buf[s.pos] {
	case '"':
		ok = looseString(&p.Field)
	case '[':
		var first string
		count, stringItems := 0, 0
		ok = s.array(func() bool {
			count++
			if s.buf[s.pos] == '"' {
				stringItems++
			}
			return looseString(&first)
		})
		if count == 1 && stringItems == 1 {
			p.Field = first
		}
	case '{':
		ok = s.object(func(key []byte) bool {
			switch string(key) {
			case "field":
				return looseString(&p.Field)
			case "data_type":
				return looseString(&p.DataType)
			case "granularity":
				return looseString(&p.Granularity)
			}
			return s.skip()
		})
	default:
		ok = s.skip()
	}
	*dst = p
	return ok
}

// modelVersion reads what ModelVersion.UnmarshalJSON accepts: a number
// becomes its text as written.
func (s *scanner) modelVersion(dst *ModelVersion) bool {
	switch c := s.buf[s.pos]; {
	case c == 'n':
		*dst = ""
		return s.null()
	case c == '"':
		v, ok := s.shared()
		*dst = ModelVersion(v)
		return ok
	case c == '-' || isDigit(c):
		start, ok := s.number()
		*dst = ModelVersion(s.buf[start:s.pos])
		return ok
	}
	return false
}

// checksum reads what Checksum.UnmarshalJSON accepts; each occurrence
// replaces the whole value.
func (s *scanner) checksum(dst *Checksum) bool {
	var c Checksum
	switch s.buf[s.pos] {
	case 'n':
		if !s.null() {
			return false
		}
	case '"':
		v, ok := s.text()
		if !ok {
			return false
		}
		c.Checksum = v
	case '{':
		ok := s.object(func(key []byte) bool {
			switch string(key) {
			case "name":
				return s.stringInto(&c.Name, s.shared)
			case "checksum":
				return s.stringInto(&c.Checksum, s.text)
			}
			return s.unknown(key, checksumFields)
		})
		if !ok {
			return false
		}
	default:
		return false
	}
	*dst = c
	return true
}

// edges reads child_map or parent_map as decode's edges does.
func (s *scanner) edges(into *map[string][]string) bool {
	if s.null() {
		return true
	}
	if s.buf[s.pos] != '{' {
		return false
	}
	if *into == nil {
		*into = map[string][]string{}
	}
	m := *into
	return s.object(func(key []byte) bool {
		id, ok := s.keyID(key)
		if !ok {
			return false
		}
		if s.null() {
			m[id] = m[id]
			return true
		}
		ids, ok := s.idList()
		if !ok {
			return false
		}
		switch {
		case m[id] != nil:
			m[id] = append(m[id], ids...)
		case len(ids) > 0:
			m[id] = ids
		default:
			m[id] = nil
		}
		return true
	})
}

// The JSON names of the fields of each struct the scanner fills, for
// unknown to tell a key that differs from one only in case.
var (
	metadataFields     = []string{"dbt_schema_version", "dbt_version", "project_name", "adapter_type"}
	nodeFields         = []string{"resource_type", "name", "package_name", "database", "schema", "alias", "identifier", "relation_name", "original_file_path", "checksum", "version", "latest_version", "config", "depends_on", "owner", "type"}
	configFields       = []string{"materialized", "incremental_strategy", "unique_key", "event_time", "batch_size", "partition_by", "strategy", "snapshot_meta_column_names", "dbt_valid_to_current"}
	snapshotMetaFields = []string{"dbt_valid_from", "dbt_valid_to", "dbt_scd_id", "dbt_updated_at", "dbt_is_deleted"}
	dependsOnFields    = []string{"nodes"}
	ownerFields        = []string{"name", "email"}
	checksumFields     = []string{"name", "checksum"}
)
