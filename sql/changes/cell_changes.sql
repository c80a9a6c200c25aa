-- cell_changes: what changed in each cell from a baseline run to a run.
-- Inputs:  old_cells, new_cells (profile_cells rows of the baseline and of the run),
--          old_conflicts, new_conflicts (their conflicts rows).
-- Output:  view cell_changes_out: asset_id, section, field, endpoint, population, arm,
--          change, old_/new_ status, value, unit, quote, source_id, cutoff; family, detail.
-- Intent:  a cell is its key (asset, section, field, endpoint, population, arm; NULL key
--          parts compare equal). Exactly one change per changed cell, the first that holds:
--          added, removed, fetch_failed (the run could not fetch what the cell came from:
--          a failed night reads as fetch failures, not as values that vanished),
--          status_changed (e.g. not_yet_published -> value when a trial posts results),
--          value_changed (value or unit), recited (same value, another record version).
--          Conflicts opened or resolved are rows of their own, one per competing value.
--          The rows of a cell that is conflicting in both runs pair by value.
CREATE VIEW raw_pairs AS
SELECT COALESCE(n.asset_id, o.asset_id) AS asset_id,
       COALESCE(n.section, o.section) AS section,
       COALESCE(n.field, o.field) AS field,
       COALESCE(n.endpoint, o.endpoint) AS endpoint,
       COALESCE(n.population, o.population) AS population,
       COALESCE(n.arm, o.arm) AS arm,
       CASE
         WHEN o.asset_id IS NULL THEN 'added'
         WHEN n.asset_id IS NULL THEN 'removed'
         WHEN n.status = 'fetch_failed' AND o.status <> 'fetch_failed' THEN 'fetch_failed'
         WHEN n.status <> o.status THEN 'status_changed'
         WHEN (n.value IS DISTINCT FROM o.value) OR (n.unit IS DISTINCT FROM o.unit)
           THEN 'value_changed'
         WHEN n.source_id IS DISTINCT FROM o.source_id THEN 'recited'
       END AS change,
       o.status AS old_status, n.status AS new_status,
       o.value AS old_value, n.value AS new_value,
       o.unit AS old_unit, n.unit AS new_unit,
       o.quote AS old_quote, n.quote AS new_quote,
       o.source_id AS old_source_id, n.source_id AS new_source_id,
       o.cutoff_date AS old_cutoff, n.cutoff_date AS new_cutoff,
       COALESCE(n.family, o.family) AS family,
       COALESCE(n.detail, o.detail) AS detail
FROM old_cells o
FULL OUTER JOIN new_cells n
  ON o.asset_id = n.asset_id AND o.section = n.section AND o.field = n.field
 AND (o.endpoint IS NOT DISTINCT FROM n.endpoint)
 AND (o.population IS NOT DISTINCT FROM n.population)
 AND (o.arm IS NOT DISTINCT FROM n.arm)
 -- a conflicting cell is one row per competing value: its rows pair by value, so two
 -- runs with the same competing values are no change (and not one per cross pair)
 AND ((o.status <> 'conflicting') OR (n.status <> 'conflicting')
      OR (o.value IS NOT DISTINCT FROM n.value));

-- A field with nothing to show is one field-level row (no endpoint, population or arm)
-- with its status; with values it is one row per endpoint, population and arm. So a
-- study that posts results turns one `not_yet_published` row into many value rows, and a
-- family that fails to fetch turns many value rows into one `fetch_failed` row. Those
-- are status changes of each value row, not rows added and removed.
CREATE VIEW raw_flagged AS
SELECT *,
       endpoint IS NULL AND population IS NULL AND arm IS NULL
         AND COALESCE(new_status, old_status) NOT IN ('value', 'conflicting') AS placeholder
FROM raw_pairs;

CREATE VIEW gone_placeholders AS
SELECT asset_id, section, field, old_status AS status FROM raw_flagged
WHERE change = 'removed' AND placeholder;

CREATE VIEW new_placeholders AS
SELECT asset_id, section, field, new_status AS status, detail FROM raw_flagged
WHERE change = 'added' AND placeholder;

CREATE VIEW keyed_added AS
SELECT DISTINCT asset_id, section, field FROM raw_flagged
WHERE change = 'added' AND NOT placeholder;

CREATE VIEW keyed_removed AS
SELECT DISTINCT asset_id, section, field FROM raw_flagged
WHERE change = 'removed' AND NOT placeholder;

CREATE VIEW cell_pairs AS
SELECT r.asset_id, r.section, r.field, r.endpoint, r.population, r.arm,
       CASE
         WHEN r.change = 'added' AND gp.field IS NOT NULL THEN 'status_changed'
         WHEN r.change = 'removed' AND np.field IS NOT NULL AND np.status = 'fetch_failed'
           THEN 'fetch_failed'
         WHEN r.change = 'removed' AND np.field IS NOT NULL THEN 'status_changed'
         ELSE r.change
       END AS change,
       COALESCE(r.old_status, gp.status) AS old_status,
       COALESCE(r.new_status, np.status) AS new_status,
       r.old_value, r.new_value, r.old_unit, r.new_unit, r.old_quote, r.new_quote,
       r.old_source_id, r.new_source_id, r.old_cutoff, r.new_cutoff, r.family,
       COALESCE(np.detail, r.detail) AS detail
FROM raw_flagged r
LEFT JOIN gone_placeholders gp
  ON r.change = 'added' AND NOT r.placeholder
 AND gp.asset_id = r.asset_id AND gp.section = r.section AND gp.field = r.field
LEFT JOIN new_placeholders np
  ON r.change = 'removed' AND NOT r.placeholder
 AND np.asset_id = r.asset_id AND np.section = r.section AND np.field = r.field
LEFT JOIN keyed_added ka
  ON r.change = 'removed' AND r.placeholder
 AND ka.asset_id = r.asset_id AND ka.section = r.section AND ka.field = r.field
LEFT JOIN keyed_removed kr
  ON r.change = 'added' AND r.placeholder
 AND kr.asset_id = r.asset_id AND kr.section = r.section AND kr.field = r.field
WHERE ka.field IS NULL AND kr.field IS NULL;

-- A competing value is the same in both runs when its cell and its own source and
-- value are (NULLs equal).
CREATE VIEW conflict_pairs AS
SELECT o.asset_id AS old_asset, n.asset_id AS new_asset,
       COALESCE(n.asset_id, o.asset_id) AS asset_id, COALESCE(n.field, o.field) AS field,
       COALESCE(n.endpoint, o.endpoint) AS endpoint,
       COALESCE(n.population, o.population) AS population, COALESCE(n.arm, o.arm) AS arm,
       COALESCE(n.winner_value, o.winner_value) AS winner_value,
       COALESCE(n.other_value, o.other_value) AS other_value,
       COALESCE(n.other_unit, o.other_unit) AS other_unit,
       COALESCE(n.other_source_id, o.other_source_id) AS other_source_id,
       COALESCE(n.other_family, o.other_family) AS other_family,
       COALESCE(n.resolution, o.resolution) AS resolution
FROM old_conflicts o
FULL OUTER JOIN new_conflicts n
  ON o.asset_id = n.asset_id AND o.field = n.field
 AND (o.endpoint IS NOT DISTINCT FROM n.endpoint)
 AND (o.population IS NOT DISTINCT FROM n.population)
 AND (o.arm IS NOT DISTINCT FROM n.arm)
 AND (o.other_source_id IS NOT DISTINCT FROM n.other_source_id)
 AND (o.other_value IS NOT DISTINCT FROM n.other_value);

CREATE VIEW conflict_changes AS
SELECT asset_id, CAST(NULL AS VARCHAR) AS section, field, endpoint, population, arm,
       CASE WHEN old_asset IS NULL THEN 'conflict_opened' ELSE 'conflict_resolved' END
         AS change,
       CAST(NULL AS VARCHAR) AS old_status, CAST(NULL AS VARCHAR) AS new_status,
       other_value AS old_value, winner_value AS new_value,
       other_unit AS old_unit, CAST(NULL AS VARCHAR) AS new_unit,
       CAST(NULL AS VARCHAR) AS old_quote, CAST(NULL AS VARCHAR) AS new_quote,
       other_source_id AS old_source_id, CAST(NULL AS VARCHAR) AS new_source_id,
       CAST(NULL AS VARCHAR) AS old_cutoff, CAST(NULL AS VARCHAR) AS new_cutoff,
       other_family AS family,
       CASE WHEN old_asset IS NULL
            THEN 'competing value ' || COALESCE(other_value, '') || ' (' || resolution || ')'
            ELSE 'no longer competing: ' || COALESCE(other_value, '')
       END AS detail
FROM conflict_pairs
WHERE old_asset IS NULL OR new_asset IS NULL;

CREATE VIEW cell_changes_out AS
SELECT * FROM cell_pairs WHERE change IS NOT NULL
UNION ALL
SELECT * FROM conflict_changes;
