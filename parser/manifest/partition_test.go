package manifest

import (
	"encoding/json"
	"testing"
)

func TestPartitionByShapes(t *testing.T) {
	for _, tc := range []struct {
		json string
		want PartitionBy
	}{
		{`{"field": "session_date", "data_type": "date", "granularity": "day"}`, PartitionBy{"session_date", "date", "day"}},
		{`{"field": "created_at", "data_type": "timestamp"}`, PartitionBy{Field: "created_at", DataType: "timestamp"}},
		{`"event_date"`, PartitionBy{Field: "event_date"}},
		{`["event_date"]`, PartitionBy{Field: "event_date"}},
		// Several columns name no single partition column.
		{`["country", "event_date"]`, PartitionBy{}},
		{`null`, PartitionBy{}},
		{`42`, PartitionBy{}},
		{`{"field": ["a"]}`, PartitionBy{}},
	} {
		var got PartitionBy
		if err := json.Unmarshal([]byte(tc.json), &got); err != nil {
			t.Errorf("%s: %v, want no error (partition_by never fails a manifest)", tc.json, err)
		}
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.json, got, tc.want)
		}
	}
}
