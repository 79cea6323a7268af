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
