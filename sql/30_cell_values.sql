-- 30_cell_values: one row per distinct value (value_key and unit) of each cell.
-- Inputs:  standing (20).
-- Output:  table cell_values: the value's best candidate (undefeated first, then latest
--          cutoff, then family rank, then source id: the least `pref` of the value's
--          candidates), claims_agreeing (how many accepted claims state this value),
--          value_undefeated (1 when any of them is undefeated), live_values (undefeated
--          values of the cell), values_total (distinct values of the cell). Materialized
--          once; 40 and 50 both read it.
-- Intent:  identical values from several sources (the same value_key: names that differ
--          only in case, punctuation or company form) are one value, cited by its best
--          source, and never a conflict.
CREATE TABLE cell_values AS
WITH per_value AS (
    SELECT cell_id, value_key, unit,
           MIN(pref) AS best_pref,
           COUNT(*) AS claims_agreeing,
           MAX(undefeated) AS value_undefeated
    FROM standing
    GROUP BY cell_id, value_key, unit
),
per_cell AS (
    SELECT cell_id, SUM(value_undefeated) AS live_values, COUNT(*) AS values_total
    FROM per_value
    GROUP BY cell_id
)
SELECT s.*, v.claims_agreeing, v.value_undefeated, c.live_values, c.values_total
FROM per_value v
JOIN standing s ON s.pref = v.best_pref
JOIN per_cell c ON c.cell_id = v.cell_id;
