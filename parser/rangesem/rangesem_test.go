package rangesem

import (
	"testing"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

func TestModel(t *testing.T) {
	incremental := manifest.Config{Materialized: "incremental", UniqueKey: manifest.StringList{"id"}}
	macros := map[string]jinja.Macro{}
	jinja.ReadMacros(`{% macro today() %}{% if var('day', none) %}'{{ var("day") }}'{% else %}current_date(){% endif %}{% endmacro %}`, macros)
	tests := []struct {
		name string
		src  string
		cfg  manifest.Config
		want Kind
	}{
		{"table", "select * from t where d < current_date", manifest.Config{Materialized: "table"}, Whole},
		{"microbatch", "select * from t", manifest.Config{Materialized: "incremental", IncrementalStrategy: "microbatch"}, Parameter},
		{"no filter", "select *, current_timestamp() as loaded_at from t", incremental, Whole},
		{"clock", "select * from t {% if is_incremental() %} where d >= current_date - 3 {% endif %}", incremental, Clock},
		{"sysdate call", "select * from t {% if is_incremental() %} where d >= dateadd(day, -7, sysdate()) {% endif %}", incremental, Clock},
		{"run_started_at", "select * from t {% if is_incremental() %} where d >= '{{ run_started_at.strftime(\"%Y-%m-%d\") }}' {% endif %}", incremental, Clock},
		{"strict watermark", "select * from t {% if is_incremental() %} where ts > (select max(ts) from {{ this }}) {% endif %}", incremental, Watermark},
		{"anti-join", "select * from t {% if is_incremental() %} where id not in (select id from {{ this }}) {% endif %}", incremental, Watermark},
		{"vars", "select * from t {% if is_incremental() %} where d between '{{ var(\"start\") }}' and '{{ var(\"end\") }}' {% endif %}", incremental, Parameter},
		{"audit column beside vars", "select *, current_timestamp() as loaded_at from t {% if is_incremental() %} where d = '{{ var(\"day\") }}' {% endif %}", incremental, Parameter},
		{"macro default today", "select * from t {% if is_incremental() %} where d = {{ today() }} {% endif %}", incremental, Clock},
		{"negated else branch", "select * from t {% if not is_incremental() %} where d > '2020-01-01' {% else %} where d > current_date - 1 {% endif %}", incremental, Clock},
		{"first build only", "select * from t {% if not is_incremental() %} where d < current_date {% endif %}", incremental, Whole},
		{"elif after a dev var", "select * from t {% if var('dev_dates', false) %} where d >= current_date - 3 {% elif is_incremental() %} where d >= now() - interval '1' day {% endif %}", incremental, Clock},
		{"other filter", "select * from t {% if is_incremental() %} where status = 'open' {% endif %}", incremental, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Model(tt.src, jinja.Options{Macros: macros}, tt.cfg)
			if got.Kind != tt.want {
				t.Errorf("Model = %s (%s), want %s", got.Kind, got.Why, tt.want)
			}
			if got.Why == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestClassifyWatermarkCappedByClock(t *testing.T) {
	if got := Classify("where d > (select max(d) from __this__) and d < current_date"); got.Kind != Watermark {
		t.Errorf("a high-water mark capped by the clock = %s, want watermark", got.Kind)
	}
	if got := Classify("where d > 'current_timestamp' and (d >= (select max(d) from __this__) or id in (select id from x))"); got.Kind != Clock {
		t.Errorf("a clock lower bound beside a high-water mark = %s, want clock", got.Kind)
	}
}
