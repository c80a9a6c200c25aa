-- 40_profile_cells: the profile's cells.
-- Inputs:  cell_values (30), accepted (the cited claim's text columns), empty_cells
--          (fields of an asset with no accepted claim, with the status and detail the run
--          computed: not_yet_published, source_empty, skipped, fetch_failed).
-- Output:  view profile_cells (without snapshot_id and dedup_key, which the run adds).
-- Intent:  one undefeated value makes a `value` cell; several undefeated values all stay, as
--          `conflicting` rows, never one picked quietly; a cell whose candidates beat each
--          other in a cycle (possible with unknown cutoffs) is `conflicting` too.
CREATE VIEW profile_cells AS
SELECT a.run_id, a.asset_id, a.section, a.field, a.endpoint, a.population, a.arm, a.value,
       a.unit, a.label,
       CASE WHEN v.live_values = 1 THEN 'value' ELSE 'conflicting' END AS status,
       CASE
           WHEN v.live_values <> 1
               THEN CAST(v.values_total AS VARCHAR) || ' values survive precedence; all kept'
           WHEN v.values_total > 1 AND v.claims_agreeing > 1
               THEN CAST(v.claims_agreeing AS VARCHAR) || ' claims agree; won over '
                    || CAST(v.values_total - 1 AS VARCHAR) || ' other value(s); see conflicts'
           WHEN v.values_total > 1
               THEN 'won over ' || CAST(v.values_total - 1 AS VARCHAR) || ' other value(s); see conflicts'
           WHEN v.claims_agreeing > 1
               THEN CAST(v.claims_agreeing AS VARCHAR) || ' claims agree'
           ELSE ''
       END AS detail,
       a.family, a.claim_id, a.source_id, a.url, a.quote, a.locator, a.cutoff_date
FROM cell_values v
JOIN accepted a ON a.run_id = v.run_id AND a.asset_id = v.asset_id AND a.claim_id = v.claim_id
WHERE v.value_undefeated = 1 OR v.live_values = 0
UNION ALL
SELECT run_id, asset_id, section, field, '' AS endpoint, '' AS population, '' AS arm,
       CAST(NULL AS VARCHAR) AS value, CAST(NULL AS VARCHAR) AS unit,
       CAST(NULL AS VARCHAR) AS label, status, detail,
       CAST(NULL AS VARCHAR) AS family, CAST(NULL AS VARCHAR) AS claim_id,
       CAST(NULL AS VARCHAR) AS source_id, CAST(NULL AS VARCHAR) AS url,
       CAST(NULL AS VARCHAR) AS quote, CAST(NULL AS VARCHAR) AS locator,
       CAST(NULL AS VARCHAR) AS cutoff_date
FROM empty_cells;
