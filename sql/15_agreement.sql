-- 15_agreement: what "the same value" means, as value_key.
-- Inputs:  claim_cells (10).
-- Output:  table candidates: run_id, asset_id, claim_id, value, unit, family, source_id,
--          cutoff_date, value_key, family_rank, cell_id. Materialized once: 20 reads it
--          three times.
-- Intent:  value_key is the value itself, except for names (10 folds their case,
--          punctuation and company form), entities named at another length and numbers
--          stated at another precision.
--          Numbers agree at the precision they are stated: a value stated with fewer
--          decimals (a paper's 9.2) is the same value as a finer one of the same cell and
--          unit that lies within half a unit of its last digit (a posted 9.23), and takes
--          the finest such value's key; when finer values that agree with it disagree
--          among themselves (9.2 against 9.17 and 9.23), it keeps its own key and
--          competes. 9.2 and 9.3 are two values, and so are 9.23 and 9.24.
--          An entity's folded name (a sponsor, an application holder, a condition) is the
--          same value as a longer name of the same cell it opens, word for word ("ucb" and
--          "ucb biopharma", from "UCB Biopharma SRL"), and takes the longest such name's
--          key; when the longer names it opens disagree among themselves ("acme" against
--          "acme bio" and "acme pharma"), it keeps its own. "Halcyon Therapeutics" and
--          "Halcyon Biopharma" stay two values.
CREATE TABLE candidates AS
-- only a cell whose numbers are stated at two precisions or more can hold numbers
-- that agree without being equal
WITH multi AS (
    SELECT cell_id
    FROM claim_cells
    WHERE numeric_value = 1
    GROUP BY cell_id
    HAVING MIN(decimals) < MAX(decimals)
),
numbers AS (
    SELECT DISTINCT k.cell_id, k.unit, k.value_key,
           TRY_CAST(k.value_key AS DOUBLE) AS num, k.decimals
    FROM claim_cells k
    JOIN multi m ON m.cell_id = k.cell_id
    WHERE k.numeric_value = 1
),
finer AS (
    SELECT c.cell_id, c.unit, c.value_key AS coarse, f.value_key AS fine, f.decimals
    FROM numbers c
    JOIN numbers f
      ON f.cell_id = c.cell_id AND (f.unit IS NOT DISTINCT FROM c.unit)
     AND f.decimals > c.decimals
     AND abs(f.num - c.num) <= 0.5 * power(CAST(10 AS DOUBLE), CAST(-c.decimals AS DOUBLE)) + 1e-9
),
finest AS (
    SELECT cell_id, unit, coarse, MAX(decimals) AS decimals
    FROM finer
    GROUP BY cell_id, unit, coarse
),
agreed AS (
    SELECT f.cell_id, f.unit, f.coarse, MIN(f.fine) AS fine, COUNT(DISTINCT f.fine) AS n
    FROM finer f
    JOIN finest m
      ON m.cell_id = f.cell_id AND (m.unit IS NOT DISTINCT FROM f.unit)
     AND m.coarse = f.coarse AND m.decimals = f.decimals
    GROUP BY f.cell_id, f.unit, f.coarse
),
names AS (
    SELECT DISTINCT cell_id, unit, value_key
    FROM claim_cells
    WHERE entity_name = 1 AND value_key <> ''
),
longer AS (
    SELECT s.cell_id, s.unit, s.value_key AS short, l.value_key AS long
    FROM names s
    JOIN names l
      ON l.cell_id = s.cell_id AND (l.unit IS NOT DISTINCT FROM s.unit)
     AND length(l.value_key) > length(s.value_key)
     AND starts_with(l.value_key, s.value_key || ' ')
),
longest AS (
    SELECT cell_id, unit, short, MAX(length(long)) AS len
    FROM longer
    GROUP BY cell_id, unit, short
),
name_pick AS (
    SELECT l.cell_id, l.unit, l.short, MIN(l.long) AS long, COUNT(DISTINCT l.long) AS n
    FROM longer l
    JOIN longest m
      ON m.cell_id = l.cell_id AND (m.unit IS NOT DISTINCT FROM l.unit) AND m.short = l.short
     AND length(l.long) = m.len
    GROUP BY l.cell_id, l.unit, l.short
),
-- a longer name that is not itself an opening of the pick: the longer names disagree
name_split AS (
    SELECT o.cell_id, o.unit, o.short, COUNT(*) AS n
    FROM longer o
    JOIN name_pick p
      ON p.cell_id = o.cell_id AND (p.unit IS NOT DISTINCT FROM o.unit) AND p.short = o.short
    WHERE o.long <> p.long AND NOT starts_with(p.long, o.long || ' ')
    GROUP BY o.cell_id, o.unit, o.short
),
-- every value that takes another's key, in one table: one join of every claim
rekey AS (
    SELECT cell_id, unit, coarse AS old_key, fine AS new_key FROM agreed WHERE n = 1
    UNION ALL
    SELECT p.cell_id, p.unit, p.short AS old_key, p.long AS new_key
    FROM name_pick p
    LEFT JOIN name_split x
      ON x.cell_id = p.cell_id AND (x.unit IS NOT DISTINCT FROM p.unit) AND x.short = p.short
    WHERE p.n = 1 AND x.n IS NULL
)
SELECT k.run_id, k.asset_id, k.claim_id, k.value, k.unit, k.family, k.source_id,
       k.cutoff_date, COALESCE(r.new_key, k.value_key) AS value_key,
       k.family_rank, k.cell_id
FROM claim_cells k
LEFT JOIN rekey r
  ON r.cell_id = k.cell_id AND (r.unit IS NOT DISTINCT FROM k.unit) AND r.old_key = k.value_key;
