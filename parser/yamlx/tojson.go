package yamlx

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// ToJSON decodes one YAML document into the values encoding/json would
// produce for the same data, which is what a JSON Schema validator expects.
// It goes through yaml.Node rather than decoding into any, because yaml.v3
// turns an unquoted 2026-01-14 into a time.Time; the plan format (and the
// YAML 1.2 data model editors use) treats it as the string it was written as.
func ToJSON(data []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		return nil, nil // empty input
	}
	return nodeToJSON(&doc)
}

func nodeToJSON(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeToJSON(n.Content[0])
	case yaml.AliasNode:
		return nodeToJSON(n.Alias)
	case yaml.MappingNode:
		obj := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: mapping key is not a scalar", k.Line)
			}
			val, err := nodeToJSON(v)
			if err != nil {
				return nil, err
			}
			obj[k.Value] = val
		}
		return obj, nil
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			val, err := nodeToJSON(item)
			if err != nil {
				return nil, err
			}
			arr = append(arr, val)
		}
		return arr, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!timestamp", "!!str", "!!binary":
			return n.Value, nil
		case "!!null":
			return nil, nil
		}
		// !!int, !!float, !!bool: let yaml.v3 parse the literal (0x1f,
		// 1e3, true ...) and keep the Go value it picks.
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		if _, isTime := v.(time.Time); isTime {
			return n.Value, nil
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node kind %v", n.Line, n.Kind)
}
