-- 30_cell_values: one row per distinct value (value_key and unit) of each cell.
-- Inputs:  standing (20).
-- Output:  table cell_values: the value's best candidate (undefeated first, then latest
--          cutoff, then family rank, then source id), claims_agreeing (how many accepted
--          claims state this value), value_undefeated (1 when any of them is undefeated),
--          live_values (undefeated values of the cell), values_total (distinct values of
--          the cell). Materialized once; 40 and 50 both read it.
-- Intent:  identical values from several sources (the same value_key: names that differ
--          only in case, punctuation or company form) are one value, cited by its best
--          source, and never a conflict.
CREATE TABLE cell_values AS
SELECT t.*,
       SUM(t.value_undefeated) OVER (PARTITION BY t.cell_id) AS live_values,
       COUNT(*) OVER (PARTITION BY t.cell_id) AS values_total
FROM (
    SELECT s.*,
           ROW_NUMBER() OVER (PARTITION BY s.cell_id, s.value_key, s.unit
                              ORDER BY s.undefeated DESC, s.cutoff_date DESC NULLS LAST,
                                       s.family_rank, s.source_id, s.claim_id) AS pick,
           COUNT(*) OVER (PARTITION BY s.cell_id, s.value_key, s.unit) AS claims_agreeing,
           MAX(s.undefeated) OVER (PARTITION BY s.cell_id, s.value_key, s.unit) AS value_undefeated
    FROM standing s
) t
WHERE t.pick = 1;
