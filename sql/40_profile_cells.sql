-- 40_profile_cells: the profile's cells.
-- Inputs:  cell_values (30), empty_cells (fields of an asset with no accepted claim, with the
--          status and detail the run computed: not_yet_published, source_empty, skipped,
--          fetch_failed).
-- Output:  view profile_cells (without snapshot_id and dedup_key, which the run adds).
-- Intent:  one undefeated value makes a `value` cell; several undefeated values all stay, as
--          `conflicting` rows, never one picked quietly; a cell whose candidates beat each
--          other in a cycle (possible with unknown cutoffs) is `conflicting` too.
CREATE VIEW profile_cells AS
SELECT run_id, asset_id, section, field, endpoint, population, arm, value, unit, label,
       CASE WHEN live_values = 1 THEN 'value' ELSE 'conflicting' END AS status,
       CASE
           WHEN live_values <> 1
               THEN CAST(values_total AS VARCHAR) || ' values survive precedence; all kept'
           WHEN values_total > 1
               THEN 'won over ' || CAST(values_total - 1 AS VARCHAR) || ' other value(s); see conflicts'
           WHEN sources_agreeing > 1
               THEN CAST(sources_agreeing AS VARCHAR) || ' sources agree'
           ELSE ''
       END AS detail,
       family, claim_id, source_id, url, quote, locator, cutoff_date
FROM cell_values
WHERE value_undefeated = 1 OR live_values = 0
UNION ALL
SELECT run_id, asset_id, section, field, '' AS endpoint, '' AS population, '' AS arm,
       CAST(NULL AS VARCHAR) AS value, CAST(NULL AS VARCHAR) AS unit,
       CAST(NULL AS VARCHAR) AS label, status, detail,
       CAST(NULL AS VARCHAR) AS family, CAST(NULL AS VARCHAR) AS claim_id,
       CAST(NULL AS VARCHAR) AS source_id, CAST(NULL AS VARCHAR) AS url,
       CAST(NULL AS VARCHAR) AS quote, CAST(NULL AS VARCHAR) AS locator,
       CAST(NULL AS VARCHAR) AS cutoff_date
FROM empty_cells;
