package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// padded copies data into a buffer with the zero bytes scan needs after it.
func padded(data []byte) []byte {
	buf := make([]byte, len(data), len(data)+padding)
	copy(buf, data)
	return buf
}

// sameAsStream checks that whatever the scanner decodes, the stream
// decoder decodes to the same Manifest. It reports whether the scanner
// decoded data.
func sameAsStream(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := scanBytes(padded(data), MaxSize)
	if !ok {
		return false
	}
	slow, err := decodeStream(bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatalf("%s: the scanner decoded what the stream decoder refuses: %v\n%s", name, err, data)
	}
	if !sameManifest(fast, slow) {
		t.Fatalf("%s: the scanner and the stream decoder differ:\nscan   %s\nstream %s", name, describe(fast), describe(slow))
	}
	return true
}

// sameManifest compares everything a Manifest holds, nodes decoded.
func sameManifest(a, b *Manifest) bool {
	return describe(a) == describe(b)
}

// describe prints everything a Manifest holds.
func describe(m *Manifest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %q %d %q %q %q\n", m.Path, m.SchemaURL, m.SchemaVersion, m.DBTVersion, m.ProjectName, m.AdapterType)
	for i, id := range m.IDs() {
		kind, defined := m.ResourceTypeAt(i)
		fmt.Fprintf(&b, "%d %q %q %v children %v parents %v\n", i, id, kind, defined, m.ChildrenAt(i), m.parents.of(i))
		if n := m.NodeAt(i); n != nil {
			fmt.Fprintf(&b, "  %#v\n", *n)
		}
	}
	fmt.Fprintf(&b, "unresolved %q\n", m.Unresolved())
	return b.String()
}

// TestScanMatchesStream decodes every real manifest, the hand-made ones and
// a synthetic one both ways: the scanner must take all of them and agree.
func TestScanMatchesStream(t *testing.T) {
	paths := corpusManifests(t)
	for _, name := range []string{"duplicate_edges.json", "no_child_map.json", "versioned.json", "configs.json"} {
		paths = append(paths, handmade+name)
	}
	paths = append(paths, "../../testdata/lineage/shop/target/manifest.json", "../../testdata/lineage/cycle/manifest.json")
	synthetic := filepath.Join(t.TempDir(), "manifest.json")
	if _, err := benchgen.WriteManifest(synthetic, 1<<20, 3); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, synthetic)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsStream(t, path, data) {
			t.Errorf("%s: the scanner left a valid manifest to the stream decoder", path)
		}
	}
}

// TestScanSemantics covers what encoding/json does with values of the
// fields the manifest keeps: nulls, repeated keys, escapes, numbers. take
// says whether the scanner must decode the input itself rather than leave
// it to the stream decoder.
func TestScanSemantics(t *testing.T) {
	for _, tc := range []struct {
		name, node string
		take       bool
	}{
		{"null node", `null`, true},
		{"null strings keep the earlier value", `{"name": "a", "name": null, "alias": null, "schema": "s", "schema": "t"}`, true},
		{"config merges", `{"resource_type": "model", "config": {"materialized": "table"}, "config": {"unique_key": "id"}, "config": null}`, true},
		{"unique_key forms", `{"config": {"unique_key": ["a", null, "", "b"]}}`, true},
		{"unique_key empty string", `{"config": {"unique_key": ""}}`, true},
		{"unique_key replaced", `{"config": {"unique_key": ["a"], "unique_key": null}}`, true},
		{"versions", `{"version": 2.50, "latest_version": "v3"}`, true},
		{"version exponent", `{"version": -1e+3, "latest_version": null}`, true},
		{"checksum string", `{"checksum": "abc"}`, true},
		{"checksum replaced", `{"checksum": {"name": "sha256", "checksum": "x"}, "checksum": {"checksum": "y"}}`, true},
		{"checksum null", `{"checksum": {"name": "sha256"}, "checksum": null}`, true},
		{"depends_on null list", `{"depends_on": {"nodes": null, "macros": ["m"]}}`, true},
		{"depends_on empty list", `{"depends_on": {"nodes": []}}`, true},
		{"depends_on null id", `{"depends_on": {"nodes": [null, "model.a.b"]}}`, true},
		{"depends_on repeated", `{"depends_on": {"nodes": ["model.a.b", "model.a.c"]}, "depends_on": {"nodes": [null]}}`, false},
		{"escaped values", `{"name": "caf\u00e9 \"x\"", "alias": "tab\there", "identifier": "\ud83d\ude00 \ud800"}`, true},
		{"invalid UTF-8", "{\"name\": \"a\xffb\", \"schema\": \"\xc3\"}", true},
		{"unknown keys skipped", `{"columns": {"a": {"name": "A", "tags": [1, 2.5e-3, true, false, null, {}, []]}}, "meta": {"Name": "x"}}`, true},
		{"case-insensitive field", `{"Name": "b"}`, false},
		{"case-insensitive nested field", `{"config": {"MATERIALIZED": "table"}}`, false},
		{"kelvin sign folds to k", "{\"unique_\u212aey\": 1, \"config\": {\"unique_\u212aey\": \"id\"}}", false},
		{"escaped key", `{"n\u0061me": "b"}`, false},
		{"owner and type", `{"owner": {"name": null, "email": "e"}, "owner": {"name": "n"}, "type": "dashboard"}`, true},
		{"snapshot columns", `{"config": {"snapshot_meta_column_names": {"dbt_valid_to": "ended_at", "dbt_scd_id": null}, "snapshot_meta_column_names": {"dbt_valid_from": "started_at"}}}`, true},
		{"partition_by object", `{"config": {"partition_by": {"field": "session_date", "data_type": "date", "granularity": "day", "range": {"start": 0}}}}`, true},
		{"partition_by odd values", `{"config": {"partition_by": {"field": 3, "data_type": null, "granularity": "month"}}}`, true},
		{"partition_by forms", `{"config": {"partition_by": ["event_date"]}, "config": {"partition_by": "day"}}`, true},
		{"partition_by several columns", `{"config": {"partition_by": ["a", "b"]}}`, true},
		{"partition_by list of one non-string", `{"config": {"partition_by": [1]}}`, true},
		{"partition_by replaced", `{"config": {"partition_by": {"field": "d"}, "partition_by": 7}}`, true},
		{"deep nesting", `{"meta": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "dbt_version": null, "adapter_type": "duckdb"}, "nodes": {"model.a.b": ` + tc.node + `, "model.a.c": {}}, "child_map": {"model.a.b": ["model.a.c", null], "model.a.b": [], "model.a.x": null, "model.a.c": []}}`
			if took := sameAsStream(t, tc.name, []byte(input)); took != tc.take {
				t.Errorf("the scanner took the input: %v, want %v", took, tc.take)
			}
			m, err := Decode(strings.NewReader(input))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			slow, _ := decodeStream(strings.NewReader(input), MaxSize)
			if !sameManifest(m, slow) {
				t.Errorf("Decode differs from the stream decoder")
			}
		})
	}
}

// TestScanOnEveryChange cuts and changes a hand-made manifest at every
// byte: whatever the scanner still decodes must match the stream decoder
// (what it refuses goes to the stream decoder anyway).
func TestScanOnEveryChange(t *testing.T) {
	data, err := os.ReadFile(handmade + "versioned.json")
	if err != nil {
		t.Fatal(err)
	}
	took := 0
	for n := range len(data) {
		sameAsStream(t, "prefix", data[:n])
	}
	for i := range data {
		for _, b := range []byte{'"', ',', '}', '\\', '0', 'A', 0} {
			changed := bytes.Clone(data)
			changed[i] = b
			if sameAsStream(t, fmt.Sprintf("byte %d set to %q", i, b), changed) {
				took++
			}
		}
	}
	if took == 0 {
		t.Error("the scanner decoded none of the changed manifests")
	}
}

// FuzzScan extends TestScanOnEveryChange to arbitrary input.
func FuzzScan(f *testing.F) {
	for _, name := range []string{"duplicate_edges.json", "no_child_map.json", "versioned.json", "configs.json", "truncated.json", "nodes_list.json"} {
		data, err := os.ReadFile(handmade + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsStream(t, "fuzz input", data)
	})
}
