-- Analyst views: short names for the questions asked every day.
-- Inputs:  profile_cells, conflicts, catalog (lake tables); current_run (one row: the run
--          the views show, the latest finished run unless `dossier sql --run ID` pins one).
-- Output:  views profile, profile_conflicts, efficacy, status_counts.
-- Intent:  one asset's profile is `SELECT * FROM profile WHERE asset_id = 'x'`, with each
--          cell's source title and retrieval date from the catalog beside its citation.
--          Portable SQL: DuckDB runs this file too, given a current_run table.

CREATE VIEW profile AS
SELECT c.asset_id, c.section, c.field, c.endpoint, c.population, c.arm,
       c.value, c.value_num, c.value_date, c.value_usd,
       c.unit, c.label, c.status, c.detail, c.family, c.source_id, c.url,
       c.quote, c.cutoff_date, k.title AS source_title, k.retrieved_at,
       c.run_id, c.snapshot_id, c.claim_id, c.dedup_key
FROM profile_cells c
JOIN current_run r ON r.run_id = c.run_id
LEFT JOIN catalog k ON k.snapshot_id = c.snapshot_id AND k.source_id = c.source_id;

CREATE VIEW profile_conflicts AS
SELECT x.asset_id, x.field, x.endpoint, x.population, x.arm, x.resolution,
       x.winner_value, x.winner_unit, x.winner_family, x.winner_cutoff,
       w.url AS winner_url,
       x.other_value, x.other_unit, x.other_family, x.other_cutoff,
       o.url AS other_url,
       x.winner_source_id, x.other_source_id, x.run_id,
       w.title AS winner_title, w.retrieved_at AS winner_retrieved_at,
       o.title AS other_title, o.retrieved_at AS other_retrieved_at
FROM conflicts x
JOIN current_run r ON r.run_id = x.run_id
LEFT JOIN catalog w ON w.snapshot_id = r.snapshot_id AND w.source_id = x.winner_source_id
LEFT JOIN catalog o ON o.snapshot_id = r.snapshot_id AND o.source_id = x.other_source_id;

-- efficacy reads profile_cells itself: none of its columns comes from the catalog, and a
-- join to it that no column needs is work an engine may not drop
CREATE VIEW efficacy AS
SELECT c.asset_id, c.endpoint, c.population, c.arm, c.field, c.value, c.value_num, c.unit,
       c.label, c.status, c.cutoff_date, c.url, c.quote
FROM profile_cells c
JOIN current_run r ON r.run_id = c.run_id
WHERE c.section = 'efficacy';

CREATE VIEW status_counts AS
SELECT asset_id, section, status, COUNT(*) AS cells
FROM profile
GROUP BY asset_id, section, status;
