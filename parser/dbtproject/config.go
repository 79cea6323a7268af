package dbtproject

import (
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"go.yaml.in/yaml/v3"
)

// config is a node's configuration as one source states it, by key
// without dbt's "+" prefix. Values are Jinja values, whatever wrote them:
// YAML in dbt_project.yml and properties files, config() in SQL.
type config map[string]setting

// setting is a config value and where it was written.
type setting struct {
	value jinja.Value
	file  string // absolute
	line  int
}

// merge sets every key of over on c: dbt merges configs key by key, the
// more specific source winning.
func (c config) merge(over config) {
	for k, v := range over {
		c[k] = v
	}
}

// text is a key's string value; "" when it is not a string, or is one that
// Jinja would still render ("{{ env_var(...) }}"), whose value is unknown.
func (c config) text(key string) string {
	v, ok := c[key]
	if !ok || v.value.Kind != jinja.String || strings.Contains(v.value.Text, "{{") || strings.Contains(v.value.Text, "{%") {
		return ""
	}
	return v.value.Text
}

// enabled is false only when the config says enabled: false.
func (c config) enabled() bool {
	v, ok := c["enabled"]
	if !ok {
		return true
	}
	switch v.value.Kind {
	case jinja.Bool:
		return v.value.Bool
	case jinja.String:
		return !strings.EqualFold(strings.TrimSpace(v.value.Text), "false")
	}
	return true
}

// manifestConfig is the part of a resolved config the manifest's readers
// use, in the manifest's own types.
func (c config) manifestConfig() manifest.Config {
	mc := manifest.Config{
		Materialized:        c.text("materialized"),
		IncrementalStrategy: c.text("incremental_strategy"),
		EventTime:           c.text("event_time"),
		BatchSize:           c.text("batch_size"),
		Strategy:            c.text("strategy"),
		DBTValidToCurrent:   c.text("dbt_valid_to_current"),
	}
	if v, ok := c["unique_key"]; ok {
		mc.UniqueKey = manifest.StringList(v.value.Strings())
	}
	if v, ok := c["partition_by"]; ok {
		switch p := v.value; p.Kind {
		case jinja.String:
			mc.PartitionBy.Field = p.Text
		case jinja.List:
			if s := p.Strings(); len(s) == 1 {
				mc.PartitionBy.Field = s[0]
			}
		case jinja.Dict:
			mc.PartitionBy = manifest.PartitionBy{Field: p.Field("field").Text, DataType: p.Field("data_type").Text, Granularity: p.Field("granularity").Text}
		}
	}
	if v, ok := c["snapshot_meta_column_names"]; ok && v.value.Kind == jinja.Dict {
		names := v.value
		mc.SnapshotMetaColumnNames = manifest.SnapshotMetaColumnNames{
			ValidFrom: names.Field("dbt_valid_from").Text, ValidTo: names.Field("dbt_valid_to").Text,
			SCDID: names.Field("dbt_scd_id").Text, UpdatedAt: names.Field("dbt_updated_at").Text, IsDeleted: names.Field("dbt_is_deleted").Text,
		}
	}
	return mc
}

// Aliases let a few lines of YAML stand for a value without end (&x [*x])
// or of exponential size: a value is read to a bounded depth and from a
// bounded number of nodes, the rest left empty.
const (
	maxYAMLDepth = 64
	maxYAMLNodes = 1 << 16
)

// yamlValue reads a YAML node as the Jinja value it would be in config().
func yamlValue(n *yaml.Node) jinja.Value {
	budget := maxYAMLNodes
	return yamlValueWithin(n, 0, &budget)
}

func yamlValueWithin(n *yaml.Node, depth int, budget *int) jinja.Value {
	if n == nil || depth > maxYAMLDepth || *budget <= 0 {
		return jinja.Value{}
	}
	*budget--
	switch n.Kind {
	case yaml.AliasNode:
		return yamlValueWithin(n.Alias, depth+1, budget)
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!bool":
			return jinja.Value{Kind: jinja.Bool, Bool: strings.EqualFold(n.Value, "true") || strings.EqualFold(n.Value, "yes") || n.Value == "on"}
		case "!!int", "!!float":
			return jinja.Value{Kind: jinja.Number, Text: n.Value}
		case "!!null":
			return jinja.Value{Kind: jinja.None}
		}
		return jinja.Value{Kind: jinja.String, Text: n.Value}
	case yaml.SequenceNode:
		v := jinja.Value{Kind: jinja.List}
		for _, c := range n.Content {
			v.Items = append(v.Items, yamlValueWithin(c, depth+1, budget))
		}
		return v
	case yaml.MappingNode:
		v := jinja.Value{Kind: jinja.Dict}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v.Keys = append(v.Keys, n.Content[i].Value)
			v.Items = append(v.Items, yamlValueWithin(n.Content[i+1], depth+1, budget))
		}
		return v
	}
	return jinja.Value{}
}

// folder is the config dbt_project.yml gives a folder of a resource path
// (models:, snapshots:, seeds:), and its subfolders'.
type folder struct {
	config config
	sub    map[string]*folder
}

// readFolder reads a config tree: keys with "+" are configs, as are keys
// without one whose value is not a mapping (dbt's older spelling); a key
// with a mapping value is a subfolder, or a package at the top.
func readFolder(n *yaml.Node, file string) *folder {
	budget := maxYAMLNodes
	return readFolderWithin(n, file, 0, &budget)
}

// readFolderWithin is readFolder to a bounded depth and number of nodes:
// an alias can make a folder its own subfolder.
func readFolderWithin(n *yaml.Node, file string, depth int, budget *int) *folder {
	f := &folder{config: config{}, sub: map[string]*folder{}}
	if n == nil || n.Kind != yaml.MappingNode || depth > maxYAMLDepth || *budget <= 0 {
		return f
	}
	*budget -= len(n.Content)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		switch key := k.Value; {
		case strings.HasPrefix(key, "+"):
			f.config[key[1:]] = setting{yamlValue(v), file, k.Line}
		case v.Kind == yaml.MappingNode:
			f.sub[key] = readFolderWithin(v, file, depth+1, budget)
		default:
			f.config[key] = setting{yamlValue(v), file, k.Line}
		}
	}
	return f
}

// resolve applies, to c, the config of the tree's root, of the project's
// entry below it and of every folder on the way to the node, shallow to
// deep, then the node's own entry by name: deeper folders win.
func (f *folder) resolve(c config, project string, folders []string, name string) {
	if f == nil {
		return
	}
	c.merge(f.config)
	at := f.sub[project]
	if at == nil {
		return
	}
	c.merge(at.config)
	for _, dir := range folders {
		if at = at.sub[dir]; at == nil {
			return
		}
		c.merge(at.config)
	}
	if own := at.sub[name]; own != nil {
		c.merge(own.config)
	}
}
