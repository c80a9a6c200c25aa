-- 20_standing: which candidates another candidate of the same cell beats, and how.
-- Inputs:  candidates (10).
-- Output:  table standing = candidates + latest_cutoff, best_rank, best_rank_unknown_cutoff,
--          best_rank_same_cutoff (the cell's figures the rules compare against),
--          beaten_by_cutoff, beaten_by_rank, undefeated (0/1), and pref: every candidate's
--          place in one order of preference (undefeated first, then latest cutoff, then
--          family rank, then source id, then claim id), which 30 uses to pick a value's
--          best candidate.
-- Intent:  within one cell, B beats A when both cutoffs are known and B's is later (rule 2),
--          or when the cutoffs are equal or either is unknown and B's family ranks higher
--          (rule 3). Nothing else beats anything: same family and same cutoff leaves both
--          undefeated (rule 4). So A is beaten on cutoff when the cell's latest known cutoff
--          is later than A's, and on rank when a better rank sits at A's own cutoff, at an
--          unknown cutoff, or anywhere in the cell when A's own cutoff is unknown. A
--          candidate never beats itself. The cell's figures are grouped aggregates joined
--          back by cell_id (no self-join of candidates, no window per cell: a portfolio
--          has hundreds of thousands of cells, and one grouped pass serves them all).
CREATE TABLE standing AS
WITH per_cell AS (
    SELECT cell_id,
           MAX(cutoff_date) AS latest_cutoff,
           MIN(family_rank) AS best_rank,
           MIN(CASE WHEN cutoff_date IS NULL THEN family_rank END) AS best_rank_unknown_cutoff
    FROM candidates
    GROUP BY cell_id
),
per_cutoff AS (
    SELECT cell_id, cutoff_date, MIN(family_rank) AS best_rank_same_cutoff
    FROM candidates
    WHERE cutoff_date IS NOT NULL
    GROUP BY cell_id, cutoff_date
),
beaten AS (
    SELECT c.*, p.latest_cutoff, p.best_rank, p.best_rank_unknown_cutoff,
           q.best_rank_same_cutoff,
           CASE WHEN c.cutoff_date IS NOT NULL AND p.latest_cutoff > c.cutoff_date
                THEN 1 ELSE 0 END AS beaten_by_cutoff,
           CASE WHEN (c.cutoff_date IS NULL AND p.best_rank < c.family_rank)
                  OR (c.cutoff_date IS NOT NULL AND p.best_rank_unknown_cutoff < c.family_rank)
                  OR (c.cutoff_date IS NOT NULL AND q.best_rank_same_cutoff < c.family_rank)
                THEN 1 ELSE 0 END AS beaten_by_rank
    FROM candidates c
    JOIN per_cell p ON p.cell_id = c.cell_id
    LEFT JOIN per_cutoff q ON q.cell_id = c.cell_id AND q.cutoff_date = c.cutoff_date
),
judged AS (
    SELECT b.*,
           CASE WHEN b.beaten_by_cutoff = 0 AND b.beaten_by_rank = 0 THEN 1 ELSE 0 END AS undefeated
    FROM beaten b
)
SELECT j.*,
       ROW_NUMBER() OVER (ORDER BY j.undefeated DESC, j.cutoff_date DESC NULLS LAST,
                                   j.family_rank, j.source_id, j.claim_id, j.cell_id) AS pref
FROM judged j;
