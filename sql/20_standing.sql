-- 20_standing: which candidates another candidate of the same cell beats, and how.
-- Inputs:  candidates (10).
-- Output:  view standing = candidates + beaten_by_cutoff, beaten_by_rank, undefeated (0/1).
-- Intent:  within one cell, B beats A when both cutoffs are known and B's is later (rule 2),
--          or when the cutoffs are equal or either is unknown and B's family ranks higher
--          (rule 3). Nothing else beats anything: same family and same cutoff leaves both
--          undefeated (rule 4). So A is beaten on cutoff when the cell's latest known cutoff
--          is later than A's, and on rank when a better rank sits at A's own cutoff, at an
--          unknown cutoff, or anywhere in the cell when A's own cutoff is unknown. A
--          candidate never beats itself. (Window aggregates over cell_id: no self-join.)
CREATE VIEW standing AS
SELECT x.*,
       CASE WHEN x.beaten_by_cutoff = 0 AND x.beaten_by_rank = 0 THEN 1 ELSE 0 END AS undefeated
FROM (
    SELECT w.*,
           CASE WHEN w.cutoff_date IS NOT NULL AND w.latest_cutoff > w.cutoff_date
                THEN 1 ELSE 0 END AS beaten_by_cutoff,
           CASE WHEN (w.cutoff_date IS NULL AND w.best_rank < w.family_rank)
                  OR (w.cutoff_date IS NOT NULL AND w.best_rank_unknown_cutoff < w.family_rank)
                  OR (w.cutoff_date IS NOT NULL AND w.best_rank_same_cutoff < w.family_rank)
                THEN 1 ELSE 0 END AS beaten_by_rank
    FROM (
        SELECT c.*,
               MAX(c.cutoff_date) OVER (PARTITION BY c.cell_id) AS latest_cutoff,
               MIN(c.family_rank) OVER (PARTITION BY c.cell_id) AS best_rank,
               MIN(CASE WHEN c.cutoff_date IS NULL THEN c.family_rank END)
                   OVER (PARTITION BY c.cell_id) AS best_rank_unknown_cutoff,
               MIN(c.family_rank) OVER (PARTITION BY c.cell_id, c.cutoff_date)
                   AS best_rank_same_cutoff
        FROM candidates c
    ) w
) x;
