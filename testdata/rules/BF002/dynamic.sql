-- Dynamic SQL: a statement assembled from values when the script runs is
-- in no text bflint can read, so it says so rather than guessing. SQL
-- written out as a literal is read in place.
DECLARE target STRING DEFAULT 'shop_ops.daily_totals';

EXECUTE IMMEDIATE CONCAT('TRUNCATE TABLE ', target);  -- want BF002 "EXECUTE IMMEDIATE runs SQL built when the script runs"

EXECUTE IMMEDIATE "DELETE FROM " || target || " WHERE day < @cutoff";  -- want BF002 "EXECUTE IMMEDIATE runs SQL built when the script runs"

EXECUTE IMMEDIATE "DELETE FROM `shop-prod.ops.daily_totals` WHERE day < @cutoff" USING DATE '2026-01-01' AS cutoff;
