{# Unions the feeds a model names; on an incremental run it keeps only
   rows loaded after the newest the model already holds. #}
{% macro union_feeds(feeds) %}
  {%- if is_incremental() %}
  WITH newest AS (SELECT MAX(loaded_at) AS loaded_at FROM {{ this }})
  {%- endif %}
  {% for feed in feeds %}
  SELECT f.* FROM {{ source('raw', feed) }} AS f
  {%- if is_incremental() %}
  JOIN newest ON f.loaded_at > newest.loaded_at
  {%- endif %}
  {% if not loop.last %}UNION ALL{% endif %}
  {% endfor %}
{% endmacro %}

{# Unions the feeds whatever the run. #}
{% macro union_all_feeds(feeds) %}
  {% for feed in feeds %}
  SELECT * FROM {{ source('raw', feed) }}
  {% if not loop.last %}UNION ALL{% endif %}
  {% endfor %}
{% endmacro %}

{# Reloads the feeds from the newest day the model holds: the boundary day
   is inserted again on every run. #}
{% macro reload_feeds(feeds, ts='loaded_at') %}
  {% for feed in feeds %}
  SELECT f.* FROM {{ source('raw', feed) }} AS f
  {%- if is_incremental() %}
  WHERE f.{{ ts }} >= (SELECT MAX({{ ts }}) FROM {{ this }})
  {%- endif %}
  {% if not loop.last %}UNION ALL{% endif %}
  {% endfor %}
{% endmacro %}

{# Leaves out the ids the model holds. #}
{% macro new_feed_rows(feed) %}
  SELECT f.* FROM {{ source('raw', feed) }} AS f
  {% if is_incremental() %}
  WHERE f.event_id NOT IN (SELECT event_id FROM {{ this }})
  {% endif %}
{% endmacro %}
