-- 30_cell_values: one row per distinct value (value and unit) of each cell.
-- Inputs:  standing (20).
-- Output:  view cell_values = the value's best candidate (undefeated first, then latest
--          cutoff, then family rank, then source id), sources_agreeing (how many accepted
--          claims state this value), live_values (undefeated values of the cell),
--          values_total (distinct values of the cell).
-- Intent:  identical values from several sources are one value, cited by its best source,
--          and never a conflict.
CREATE VIEW cell_values AS
SELECT t.*,
       SUM(t.value_undefeated) OVER (PARTITION BY t.run_id, t.asset_id, t.field, t.endpoint,
                                                  t.population, t.arm) AS live_values,
       COUNT(*) OVER (PARTITION BY t.run_id, t.asset_id, t.field, t.endpoint,
                                   t.population, t.arm) AS values_total
FROM (
    SELECT s.*,
           ROW_NUMBER() OVER (PARTITION BY s.run_id, s.asset_id, s.field, s.endpoint,
                                           s.population, s.arm, s.value, s.unit
                              ORDER BY s.undefeated DESC, s.cutoff_date DESC NULLS LAST,
                                       s.family_rank, s.source_id, s.claim_id) AS pick,
           COUNT(*) OVER (PARTITION BY s.run_id, s.asset_id, s.field, s.endpoint,
                                       s.population, s.arm, s.value, s.unit) AS sources_agreeing,
           MAX(s.undefeated) OVER (PARTITION BY s.run_id, s.asset_id, s.field, s.endpoint,
                                                s.population, s.arm, s.value, s.unit)
               AS value_undefeated
    FROM standing s
) t
WHERE t.pick = 1;
