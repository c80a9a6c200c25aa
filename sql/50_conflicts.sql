-- 50_conflicts: every competition, resolved or not.
-- Inputs:  cell_values (30), accepted (the cell key's text columns).
-- Output:  view conflicts: one row per other value of a contested cell (a cell with more
--          than one distinct value), against the cell's winner (for a conflicting cell, its
--          first surviving value), with resolution `later_cutoff` (the other value's best
--          source was beaten on data cutoff), `family_rank` (beaten on family rank at an
--          equal or unknown cutoff) or `unresolved` (it survived too).
-- Intent:  data teams can audit how each value won, from this table alone.
CREATE VIEW conflicts AS
WITH head AS (
    SELECT *
    FROM (
        SELECT v.*,
               ROW_NUMBER() OVER (PARTITION BY v.cell_id
                                  ORDER BY v.value_undefeated DESC, v.value, v.unit) AS h
        FROM cell_values v
        WHERE v.values_total > 1
    ) x
    WHERE x.h = 1
)
SELECT h.run_id, h.asset_id, a.field, a.endpoint, a.population, a.arm,
       h.value AS winner_value, h.unit AS winner_unit, h.source_id AS winner_source_id,
       h.family AS winner_family, h.cutoff_date AS winner_cutoff,
       o.value AS other_value, o.unit AS other_unit, o.source_id AS other_source_id,
       o.family AS other_family, o.cutoff_date AS other_cutoff,
       CASE
           WHEN o.value_undefeated = 1 OR h.live_values = 0 THEN 'unresolved'
           WHEN o.beaten_by_cutoff = 1 THEN 'later_cutoff'
           ELSE 'family_rank'
       END AS resolution
FROM head h
JOIN cell_values o
  ON o.cell_id = h.cell_id
 AND o.claim_id <> h.claim_id
JOIN accepted a ON a.run_id = h.run_id AND a.asset_id = h.asset_id AND a.claim_id = h.claim_id;
