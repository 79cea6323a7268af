package jinja

import "testing"

// A memo shared by a project's models gives each model the filter it
// would have without one, bound arguments and the reading telling calls
// apart.
func TestIncrementalFilterMemo(t *testing.T) {
	project := macros(t, `
{% macro incremental_predicate(col, days=7) %}
{{ col }} >= current_date - interval '{{ days }}' day
{% endmacro %}
{% macro since_this(col) %}
{% if is_incremental() %} where {{ col }} > (select max({{ col }}) from {{ this }}) {% endif %}
{% endmacro %}`)
	models := []string{
		"select * from t {% if is_incremental() %} where {{ incremental_predicate('block_time') }} {% endif %}",
		"select * from u {% if is_incremental() %} where {{ incremental_predicate('block_time') }} {% endif %}",
		"select * from v {% if is_incremental() %} where {{ incremental_predicate('evt_time', 3) }} {% endif %}",
		"select * from w {% if is_incremental() %} where {{ incremental_predicate(col='block_time', days=3) }} {% endif %}",
		"select * from x {{ since_this('ts') }}",
		"select * from y {{ since_this('ts') }}",
	}
	var memo Memo
	for _, src := range models {
		want := IncrementalFilter(src, Options{Macros: project})
		got := IncrementalFilter(src, Options{Macros: project, Memo: &memo})
		if got != want {
			t.Errorf("%s\nwith a memo: %+v\nwithout:     %+v", src, got, want)
		}
	}
	if n := len(memo.calls); n != 4 {
		t.Errorf("the memo holds %d calls, want 4: block_time with 7 and with 3 days, evt_time with 3, since_this", n)
	}
}
