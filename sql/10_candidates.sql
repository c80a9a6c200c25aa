-- 10_candidates: every accepted claim of the run with its family's rank.
-- Inputs:  accepted (one row per accepted claim: run_id, asset_id, section, field, endpoint,
--          population, arm, value, unit, label, family, claim_id, source_id, url, quote,
--          locator, cutoff_date; key columns are '' rather than NULL),
--          family_rank (family, rank; lower wins; from jobs/family_rank.csv).
-- Output:  view candidates = accepted + family_rank.
-- Intent:  a family missing from the rank table (and a claim with no source family, such
--          as a derived value) ranks after every listed family, never before.
CREATE VIEW candidates AS
SELECT a.*, COALESCE(r.rank, 1000) AS family_rank
FROM accepted a
LEFT JOIN family_rank r ON a.family = r.family;
