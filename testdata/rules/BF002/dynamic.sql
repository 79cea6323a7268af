-- Dynamic SQL: a statement assembled from values when the script runs is
-- in no text bflint can read, so it says so rather than guessing. SQL
-- written out as a literal is read in place, and so is SQL concatenated
-- from literals when the literals name what it writes.
DECLARE target STRING DEFAULT 'shop_ops.daily_totals';

EXECUTE IMMEDIATE CONCAT('TRUNCATE TABLE ', target);  -- want BF002 "EXECUTE IMMEDIATE runs SQL built when the script runs"

EXECUTE IMMEDIATE "DELETE FROM " || target || " WHERE day < @cutoff";  -- want BF002 "EXECUTE IMMEDIATE runs SQL built when the script runs"

-- A value glued to a word of the name ('daily_' || suffix) builds the name.
EXECUTE IMMEDIATE 'INSERT INTO shop_ops.daily_' || suffix || ' SELECT 1';  -- want BF002 "EXECUTE IMMEDIATE runs SQL built when the script runs"

EXECUTE IMMEDIATE "DELETE FROM `shop-prod.ops.daily_totals` WHERE day < @cutoff" USING DATE '2026-01-01' AS cutoff;

EXECUTE IMMEDIATE CONCAT("DELETE FROM `shop-prod.ops.daily_totals` WHERE region = '", region, "'");
