-- A file of fragments, as a SQL formatter's test input holds: each piece
-- is its own statement and none is a query. One finding at the first
-- rejected statement notes the others, so the file is one line of the
-- report; a statement that parses or is read from its tokens is left out.
AND;  -- want BF002:warning "cannot parse this statement at \"AND\": .*, nor the 2 other statements of this file the parser rejected \\(noted below\\)"

SELECT 1;

OR;  -- related BF002 "the parser also rejected this statement, at \"OR\""

-- A directive governs its own statement only: that one is suppressed, and
-- the directive is not reported as suppressing nothing.
-- bflint:ignore BF002 a fragment kept to show the formatter's handling of WHERE
WHERE;

GROUP BY;  -- related BF002 "the parser also rejected this statement, at \"GROUP\""
