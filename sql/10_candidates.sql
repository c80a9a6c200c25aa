-- 10_candidates: every accepted claim of the run, with the columns precedence needs and
--                its family's rank (15_agreement.sql then keys its value).
-- Inputs:  accepted (one row per accepted claim: run_id, asset_id, section, field, endpoint,
--          population, arm, value, unit, label, family, claim_id, source_id, url, quote,
--          locator, cutoff_date; key columns are '' rather than NULL; cutoff_date is ISO
--          YYYY-MM-DD or NULL when unknown),
--          family_rank (family, rank; lower wins; from jobs/family_rank.csv).
-- Output:  table claim_cells: run_id, asset_id, claim_id, value, unit, family, source_id,
--          cutoff_date, value_key (names folded; 15 keys numbers and entities),
--          numeric_value (1 when the value is a plain decimal number) and its decimals,
--          entity_name (1 for a
--          sponsor's, holder's or condition's name), family_rank and cell_id, a number per
--          distinct cell key (run, asset, field, endpoint, population, arm). The key's text
--          columns and the claim's text (quote, url...) stay in `accepted`; 40 and 50 join
--          them back by claim. Materialized once, so cell_id is numbered once. cell_id
--          numbers the distinct keys in no particular order (no sort of every claim by six
--          text columns): it is only ever grouped and joined on, never shown or ordered by.
-- Intent:  rule 1, match first: candidates compete only when run, asset, field, endpoint,
--          population and arm are all equal, which is what cell_id numbers; every later
--          rule groups and joins on it (one integer instead of six text columns). A family
--          missing from the rank table (and a claim with no source family, such as a derived value) ranks after every listed family, never before.
--          value_key is what "the same value" means: the value itself, except for names
--          (identity fields and a trial's sponsor), where letter case, punctuation and a
--          trailing company form (Inc, Ltd, GmbH...) do not make another value:
--          "HALCYON THERAPEUTICS" and "Halcyon Therapeutics" agree, "Halcyon Biopharma"
--          does not. A biomarker's spellings ("V600E", "BRAF V600E") are one value: its
--          cell's endpoint, the biomarker with its cut-off.
CREATE TABLE claim_cells AS
WITH cells AS (
    SELECT k.*, ROW_NUMBER() OVER () AS cell_id
    FROM (SELECT DISTINCT run_id, asset_id, field, endpoint, population, arm FROM accepted) k
)
SELECT a.run_id, a.asset_id, a.claim_id, a.value, a.unit, a.family, a.source_id,
       a.cutoff_date,
       CASE WHEN a.field = 'identity.biomarkers' THEN a.endpoint
            WHEN a.field LIKE 'identity.%' OR a.field = 'trials.sponsor'
            THEN trim(regexp_replace(
                     regexp_replace(lower(a.value), '[^a-z0-9]+', ' ', 'g'),
                     '( (inc|incorporated|corp|corporation|co|company|ltd|limited|llc|plc|gmbh|ag|sa|nv|bv|spa|srl|kk))+ *$',
                     '', 'g'))
            ELSE a.value
       END AS value_key,
       CASE WHEN a.value <> '' AND translate(a.value, '0123456789.-', '') = ''
                 AND TRY_CAST(a.value AS DOUBLE) IS NOT NULL
            THEN 1 ELSE 0 END AS numeric_value,
       CASE WHEN strpos(a.value, '.') > 0 THEN length(a.value) - strpos(a.value, '.')
            ELSE 0 END AS decimals,
       CASE WHEN a.field IN ('identity.sponsor', 'identity.labeler', 'identity.indication',
                             'trials.sponsor')
            THEN 1 ELSE 0 END AS entity_name,
       COALESCE(r.rank, 1000) AS family_rank,
       c.cell_id
FROM accepted a
JOIN cells c
  ON (c.run_id IS NOT DISTINCT FROM a.run_id) AND (c.asset_id IS NOT DISTINCT FROM a.asset_id)
 AND (c.field IS NOT DISTINCT FROM a.field) AND (c.endpoint IS NOT DISTINCT FROM a.endpoint)
 AND (c.population IS NOT DISTINCT FROM a.population) AND (c.arm IS NOT DISTINCT FROM a.arm)
LEFT JOIN family_rank r ON a.family = r.family;
