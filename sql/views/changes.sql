-- changes: the current run's changed cells since its baseline (the previous finished run
--          of the same portfolio, or the run's --baseline), most telling first.
-- Inputs:  cell_changes (lake table), current_run (one row: the run the views show).
-- Intent:  "what changed since last night" as one SELECT; fetch failures sort first, so a
--          failed night reads as failures before any value change.
CREATE VIEW changes AS
SELECT x.asset_id, x.section, x.field, x.endpoint, x.population, x.arm, x.change,
       x.old_status, x.new_status, x.old_value, x.new_value, x.old_unit, x.new_unit,
       x.old_source_id, x.new_source_id, x.old_cutoff, x.new_cutoff, x.family, x.detail,
       x.baseline_run_id, x.run_id
FROM cell_changes x
JOIN current_run r ON r.run_id = x.run_id
ORDER BY CASE x.change WHEN 'fetch_failed' THEN 0 WHEN 'value_changed' THEN 1
                       WHEN 'status_changed' THEN 2 WHEN 'conflict_opened' THEN 3
                       WHEN 'conflict_resolved' THEN 4 WHEN 'added' THEN 5
                       WHEN 'removed' THEN 6 ELSE 7 END,
         x.asset_id, x.field, x.endpoint, x.arm
