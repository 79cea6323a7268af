package sqlparse
