-- 20_standing: which candidates another candidate of the same cell beats, and how.
-- Inputs:  candidates (10).
-- Output:  view standing = candidates + beaten_by_cutoff, beaten_by_rank, undefeated (0/1).
-- Intent:  candidates compete only within one cell: same run, asset, field, endpoint,
--          population and arm. B beats A when both cutoffs are known and B's is later
--          (rule 2), or when the cutoffs are equal or either is unknown and B's family ranks
--          higher (rule 3). Nothing else beats anything: same family and same cutoff means
--          both stay undefeated (rule 4).
CREATE VIEW standing AS
WITH beats AS (
    SELECT c.run_id, c.asset_id, c.claim_id,
           MAX(CASE WHEN o.cutoff_date IS NOT NULL AND c.cutoff_date IS NOT NULL
                         AND o.cutoff_date > c.cutoff_date THEN 1 ELSE 0 END) AS by_cutoff,
           MAX(CASE WHEN (o.cutoff_date IS NULL OR c.cutoff_date IS NULL
                          OR o.cutoff_date = c.cutoff_date)
                         AND o.family_rank < c.family_rank THEN 1 ELSE 0 END) AS by_rank
    FROM candidates c
    JOIN candidates o
      ON o.run_id = c.run_id AND o.asset_id = c.asset_id AND o.field = c.field
     AND o.endpoint = c.endpoint AND o.population = c.population AND o.arm = c.arm
     AND o.claim_id <> c.claim_id
    GROUP BY c.run_id, c.asset_id, c.claim_id
)
SELECT c.*,
       COALESCE(b.by_cutoff, 0) AS beaten_by_cutoff,
       COALESCE(b.by_rank, 0) AS beaten_by_rank,
       CASE WHEN COALESCE(b.by_cutoff, 0) = 0 AND COALESCE(b.by_rank, 0) = 0 THEN 1 ELSE 0 END
           AS undefeated
FROM candidates c
LEFT JOIN beats b ON b.run_id = c.run_id AND b.asset_id = c.asset_id AND b.claim_id = c.claim_id;
