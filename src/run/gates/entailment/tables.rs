//! The entailment gate's data, kept as CSV files a data team reads and edits:
//! `jobs/entailment_units.csv` (which spellings name one unit) and
//! `jobs/field_fitness.csv` (which record parts may feed which field). Both are compiled
//! into the binary; a bad row is a build-time test failure, never a silent skip.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::binder::{Kind, Text};

const UNITS_CSV: &str = include_str!("../../../../jobs/entailment_units.csv");
const FITNESS_CSV: &str = include_str!("../../../../jobs/field_fitness.csv");
const ENDPOINTS_CSV: &str = include_str!("../../../../jobs/endpoints.csv");
const CUES_CSV: &str = include_str!("../../../../jobs/field_cues.csv");

/// The gate's four tables, and the sha256 of their texts (part of a run's identity when
/// they are not the shipped ones).
pub struct Tables {
    pub units: Lexicon,
    pub endpoints: Lexicon,
    pub cues: Cues,
    pub fitness: Fitness,
    pub sha256: String,
}

/// The file names of the tables, with their compiled-in texts.
const FILES: [(&str, &str); 4] = [
    ("entailment_units.csv", UNITS_CSV),
    ("endpoints.csv", ENDPOINTS_CSV),
    ("field_cues.csv", CUES_CSV),
    ("field_fitness.csv", FITNESS_CSV),
];

static SHIPPED: LazyLock<Tables> = LazyLock::new(|| {
    Tables::parse(FILES.map(|(_, t)| t.to_string())).expect("the shipped entailment tables parse")
});
static INSTALLED: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();

/// The tables in force: those installed from `--entailment-tables`, else the shipped ones.
pub fn tables() -> &'static Tables {
    INSTALLED.get().unwrap_or(&SHIPPED)
}

impl Tables {
    fn parse(texts: [String; 4]) -> Result<Tables, String> {
        let [units, endpoints, cues, fitness] = &texts;
        Ok(Tables {
            units: Lexicon::parse(units, "unit,alias", "entailment_units.csv")?,
            endpoints: Lexicon::parse(endpoints, "concept,alias", "endpoints.csv")?,
            cues: Cues::parse(cues)?,
            fitness: Fitness::parse(fitness)?,
            sha256: crate::domain::sha256_hex(texts.join("\0").as_bytes()),
        })
    }

    /// The tables of a directory: each of the four files it holds replaces the shipped
    /// one of that name; the others stay. An unreadable or malformed file is an error.
    pub fn load(dir: &std::path::Path) -> Result<Tables, String> {
        if !dir.is_dir() {
            return Err(format!("{} is not a directory", dir.display()));
        }
        let mut texts = FILES.map(|(_, t)| t.to_string());
        for (i, (name, _)) in FILES.iter().enumerate() {
            let p = dir.join(name);
            if p.is_file() {
                texts[i] =
                    std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            }
        }
        Tables::parse(texts).map_err(|e| format!("{}: {e}", dir.display()))
    }

    /// Puts `t` in force for the rest of the process (once, before any claim is judged).
    pub fn install(t: Tables) {
        let _ = INSTALLED.set(t);
    }

    /// Whether the tables in force are the shipped ones.
    pub fn shipped_in_force() -> bool {
        tables().sha256 == SHIPPED.sha256
    }
}

/// A table of spellings: each alias (as tokens) names one canonical term. Units
/// (`jobs/entailment_units.csv`) and endpoint concepts (`jobs/endpoints.csv`) are two.
pub struct Lexicon {
    /// First token of an alias -> (alias tokens, canonical term), longest aliases first.
    by_first: HashMap<String, Vec<(Vec<String>, String)>>,
}

/// Units are a lexicon: `mcg` and `µg` are one unit.
pub type Units = Lexicon;

fn tokens(s: &str) -> Vec<String> {
    Text::new(s)
        .tokens
        .into_iter()
        .map(|t| match t.kind {
            Kind::Word => t.text.to_lowercase(),
            _ => t.lower,
        })
        .collect()
}

impl Lexicon {
    /// Parses `header` (`unit,alias` or `concept,alias`) and its rows.
    pub fn parse(text: &str, header: &str, file: &str) -> Result<Lexicon, String> {
        let mut by_first: HashMap<String, Vec<(Vec<String>, String)>> = HashMap::new();
        for (n, line) in csv_lines(text, header)? {
            let [unit, alias] = line[..] else {
                return Err(format!("{file} line {n}: want {header}"));
            };
            let t = tokens(alias);
            let Some(first) = t.first().cloned() else {
                return Err(format!("{file} line {n}: empty alias"));
            };
            by_first
                .entry(first)
                .or_default()
                .push((t, unit.to_string()));
        }
        for v in by_first.values_mut() {
            v.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        }
        Ok(Lexicon { by_first })
    }

    /// The unit spellings in force (`entailment_units.csv`).
    pub fn shipped() -> &'static Lexicon {
        &tables().units
    }

    /// The endpoint concepts (OS, PFS, ACR20, …) in force (`endpoints.csv`).
    pub fn endpoints() -> &'static Lexicon {
        &tables().endpoints
    }

    /// The term whose alias starts at token `i` of `t`, and its length in tokens.
    pub fn at_len<'u>(&'u self, t: &Text<'_>, i: usize) -> Option<(&'u str, usize)> {
        let first = t.tokens.get(i)?;
        let key = match first.kind {
            Kind::Word => first.text.to_lowercase(),
            _ => first.lower.clone(),
        };
        let cands = self.by_first.get(&key)?;
        'alias: for (alias, unit) in cands {
            for (k, a) in alias.iter().enumerate() {
                match t.tokens.get(i + k) {
                    Some(x) if x.text.eq_ignore_ascii_case(a) || x.lower == *a => {}
                    _ => continue 'alias,
                }
            }
            return Some((unit.as_str(), alias.len()));
        }
        None
    }

    /// The term whose alias starts at token `i` of `t`, longest alias first.
    pub fn at<'u>(&'u self, t: &Text<'_>, i: usize) -> Option<&'u str> {
        self.at_len(t, i).map(|(u, _)| u)
    }

    /// The canonical term a free text names: the first alias found in it, ignoring
    /// leading numbers ("percentage of participants (number)" is `%`).
    pub fn canonical<'u>(&'u self, s: &str) -> Option<&'u str> {
        let spaced = s.replace('_', " ");
        let t = Text::new(&spaced);
        (0..t.tokens.len()).find_map(|i| {
            (t.tokens[i].kind != Kind::Number)
                .then(|| self.at(&t, i))
                .flatten()
        })
    }

    /// The terms an elided list goes on to name after the term of `n` tokens at `i`,
    /// when that term ends in a number: "ACR 20, 50 and 70" also names ACR 50 (at the
    /// token "50") and ACR 70. Each, with the token of its number.
    pub fn elided<'u>(&'u self, t: &Text<'_>, i: usize, n: usize) -> Vec<(usize, &'u str)> {
        let mut out = Vec::new();
        let last = i + n - 1;
        if n < 2 || t.tokens.get(last).is_none_or(|x| x.kind != Kind::Number) {
            return out;
        }
        let key = |x: &super::binder::Token<'_>| match x.kind {
            Kind::Word => x.text.to_lowercase(),
            _ => x.lower.clone(),
        };
        let prefix: Vec<String> = t.tokens[i..last].iter().map(key).collect();
        let Some(cands) = self.by_first.get(&prefix[0]) else {
            return out;
        };
        let mut k = last + 1;
        loop {
            let mut j = k;
            while t
                .tokens
                .get(j)
                .is_some_and(|x| matches!(x.lower.as_str(), "," | "and" | "or" | "/"))
            {
                j += 1;
            }
            let Some(x) = t.tokens.get(j).filter(|x| j > k && x.kind == Kind::Number) else {
                break;
            };
            let found = cands
                .iter()
                .find(|(a, _)| a.len() == n && a[..n - 1] == prefix[..] && a[n - 1] == x.lower);
            let Some((_, term)) = found else {
                break;
            };
            out.push((j, term.as_str()));
            k = j + 1;
        }
        out
    }

    /// Every term named in tokens `r` of `t`, with the token where it starts.
    pub fn all<'u>(&'u self, t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<(usize, &'u str)> {
        let mut out = Vec::new();
        let mut i = r.start;
        while i < r.end {
            match self.at_len(t, i) {
                Some((term, n)) => {
                    out.push((i, term));
                    i += n;
                }
                None => i += 1,
            }
        }
        out
    }
}

/// Field cues: words that, in a quote for a field, show it speaks of something else
/// (`safety.common_adverse_reactions` and "discontinuation"), unless the value says so too.
pub struct Cues {
    rows: Vec<(String, String, String)>,
}

impl Cues {
    pub fn parse(text: &str) -> Result<Cues, String> {
        let mut rows = Vec::new();
        for (n, line) in csv_lines(text, "field,word,why")? {
            let [f, w, why] = line[..] else {
                return Err(format!("field_cues.csv line {n}: want field,word,why"));
            };
            rows.push((f.to_string(), w.to_lowercase(), why.to_string()));
        }
        Ok(Cues { rows })
    }

    /// The field cues in force (`field_cues.csv`).
    pub fn shipped() -> &'static Cues {
        &tables().cues
    }

    /// The first cue of `field` among `quote_words` that `value_words` lack, with its why.
    pub fn find(
        &self,
        field: &str,
        quote_words: &[String],
        value_words: &[String],
    ) -> Option<(&str, &str)> {
        // a cue the text denies ("did not necessitate drug discontinuation") is no cue
        let hit = |pat: &str, ws: &[String]| {
            ws.iter().enumerate().any(|(i, w)| {
                let is = match pat.strip_suffix('*') {
                    Some(p) => w.starts_with(p),
                    None => w == pat,
                };
                is && !ws[i.saturating_sub(3)..i]
                    .iter()
                    .any(|x| matches!(x.as_str(), "not" | "no" | "without" | "never"))
            })
        };
        self.rows
            .iter()
            .filter(|(f, _, _)| match f.strip_suffix('*') {
                Some(p) => field.starts_with(p),
                None => f == field,
            })
            .find(|(_, w, _)| hit(w, quote_words) && !hit(w, value_words))
            .map(|(_, w, why)| (w.as_str(), why.as_str()))
    }
}

/// Whether a word starts a unit alias (used to read lists like "4.8 vs 1.5 months").
pub fn is_unit_word(w: &str) -> bool {
    Units::shipped().by_first.contains_key(w)
}

/// One row of the field fitness table.
#[derive(Debug)]
struct Fit {
    /// A field name, or a prefix ending in `*` (`efficacy.*`).
    field: String,
    family: String,
    /// Locator segments; `*` matches one segment and `name[*]` any index of `name`.
    part: Vec<String>,
    /// `key=VALUE`: the record's sibling field `key` (same parent) must read VALUE;
    /// `key~WORD` (the flag set): a field `key` of the part or an ancestor holds WORD.
    sibling: Option<(String, String, bool)>,
}

/// Which record parts (by locator) may feed which field, per family.
pub struct Fitness {
    rows: Vec<Fit>,
}

/// Why a part does not fit a field.
#[derive(Debug)]
pub enum Unfit {
    /// The field has rows, none for this family.
    Family,
    /// The family has rows for the field; the locator matches none.
    Part,
    /// The part fits, but its sibling field says otherwise (`submission_type` is SUPPL).
    Sibling {
        key: String,
        want: String,
        found: String,
    },
}

impl Fitness {
    pub fn parse(text: &str) -> Result<Fitness, String> {
        let mut rows = Vec::new();
        for (n, line) in csv_lines(text, "field,family,part,where")? {
            let [field, family, part, when] = line[..] else {
                return Err(format!(
                    "field_fitness.csv line {n}: want field,family,part,where"
                ));
            };
            if !part.starts_with('/') && !part.starts_with("html:/") {
                return Err(format!(
                    "field_fitness.csv line {n}: part {part:?} must start with / or html:/"
                ));
            }
            if crate::domain::Family::parse(family).is_none() {
                return Err(format!(
                    "field_fitness.csv line {n}: unknown family {family:?}"
                ));
            }
            let sibling = match when.trim() {
                "" => None,
                w => Some(
                    w.split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string(), false))
                        .or_else(|| {
                            w.split_once('~')
                                .map(|(k, v)| (k.to_string(), v.to_lowercase(), true))
                        })
                        .ok_or_else(|| {
                            format!(
                                "field_fitness.csv line {n}: where {w:?} is not key=VALUE or key~WORD"
                            )
                        })?,
                ),
            };
            rows.push(Fit {
                field: field.to_string(),
                family: family.to_string(),
                part: part
                    .trim_start_matches('/')
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                sibling,
            });
        }
        Ok(Fitness { rows })
    }

    /// The field fitness table in force (`field_fitness.csv`).
    pub fn shipped() -> &'static Fitness {
        &tables().fitness
    }

    /// Whether the part at `locator` of a `family` record may feed `field`. `sibling`
    /// reads a field of the record next to the locator (same parent) by its key.
    pub fn check(
        &self,
        field: &str,
        family: &str,
        locator: &str,
        sibling: impl Fn(&str) -> Option<String>,
    ) -> Result<(), Unfit> {
        let for_field: Vec<&Fit> = self
            .rows
            .iter()
            .filter(|r| match r.field.strip_suffix('*') {
                Some(prefix) => field.starts_with(prefix),
                None => r.field == field,
            })
            .collect();
        if for_field.is_empty() {
            return Ok(());
        }
        let fam: Vec<&&Fit> = for_field.iter().filter(|r| r.family == family).collect();
        if fam.is_empty() {
            return Err(Unfit::Family);
        }
        let segs: Vec<&str> = locator.trim_start_matches('/').split('/').collect();
        // the first sibling key that failed, every value it was wanted to have, and
        // what it held: a part that several rows admit by several values is named with
        // all of them, not with the last one tried
        let mut miss: Option<(&str, bool, Vec<&str>, String)> = None;
        for r in fam {
            if !part_matches(&r.part, &segs) {
                continue;
            }
            match &r.sibling {
                None => return Ok(()),
                Some((k, want, contains)) => {
                    // `^key`: the field `key` of the part or of any ancestor, joined
                    let found = if *contains {
                        sibling(&format!("^{k}")).unwrap_or_default()
                    } else {
                        sibling(k).unwrap_or_default()
                    };
                    let holds = if *contains {
                        found.to_lowercase().contains(want.as_str())
                    } else {
                        found.eq_ignore_ascii_case(want)
                    };
                    if holds {
                        return Ok(());
                    }
                    match &mut miss {
                        Some((key, c, wants, _)) if *key == k.as_str() && *c == *contains => {
                            if !wants.contains(&want.as_str()) {
                                wants.push(want);
                            }
                        }
                        Some(_) => {}
                        None => miss = Some((k, *contains, vec![want], found)),
                    }
                }
            }
        }
        Err(match miss {
            None => Unfit::Part,
            Some((k, contains, wants, found)) => {
                let listed = |quote: bool| {
                    wants
                        .iter()
                        .map(|w| {
                            if quote {
                                format!("{w:?}")
                            } else {
                                w.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                Unfit::Sibling {
                    key: if contains {
                        format!("{k} (its own or an enclosing one's)")
                    } else {
                        k.to_string()
                    },
                    want: match (contains, wants.len()) {
                        (true, 1) => format!("one naming {}", listed(true)),
                        (true, _) => format!("one naming any of {}", listed(true)),
                        (false, 1) => listed(false),
                        (false, _) => format!("one of {}", listed(false)),
                    },
                    found,
                }
            }
        })
    }

    /// The parts that may feed `field` from `family`, as written in the table.
    pub fn parts(&self, field: &str, family: &str) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| {
                r.family == family
                    && match r.field.strip_suffix('*') {
                        Some(p) => field.starts_with(p),
                        None => r.field == field,
                    }
            })
            .map(|r| format!("/{}", r.part.join("/")))
            .collect()
    }

    /// The families that may feed `field` at all.
    pub fn families(&self, field: &str) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .rows
            .iter()
            .filter(|r| match r.field.strip_suffix('*') {
                Some(p) => field.starts_with(p),
                None => r.field == field,
            })
            .map(|r| r.family.as_str())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// A pattern matches a locator that it is a prefix of, segment by segment.
fn part_matches(part: &[String], segs: &[&str]) -> bool {
    if part.len() > segs.len() {
        return false;
    }
    part.iter().zip(segs).all(|(p, s)| {
        if p == "*" {
            return true;
        }
        match p.strip_suffix("[*]") {
            Some(name) => s
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('[') && rest.ends_with(']')),
            // `Abstract` matches `Abstract[1]`: an XML step without its index
            None => {
                p == s
                    || s.strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with('[') && rest.ends_with(']'))
            }
        }
    })
}

/// Data lines of a small CSV (no quoting; `#` comments and blank lines skipped) after
/// the expected header, with their line numbers.
fn csv_lines<'t>(text: &'t str, header: &str) -> Result<Vec<(usize, Vec<&'t str>)>, String> {
    let mut out = Vec::new();
    let mut seen_header = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !seen_header {
            if line != header {
                return Err(format!("line {}: want the header {header:?}", i + 1));
            }
            seen_header = true;
            continue;
        }
        out.push((i + 1, line.split(',').map(str::trim).collect()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_tables_parse() {
        assert!(Units::shipped().by_first.len() > 10);
        assert!(Lexicon::endpoints().by_first.len() > 10);
        assert!(!Cues::shipped().rows.is_empty());
        assert!(!Fitness::shipped().rows.is_empty());
    }

    #[test]
    fn units_take_the_longest_alias_and_canonical_names() {
        let u = Units::shipped();
        let t = Text::new("10 mg/kg every 2 weeks");
        assert_eq!(u.at(&t, 1), Some("mg/kg"));
        assert_eq!(
            u.canonical("percentage of participants (number)"),
            Some("%")
        );
        assert_eq!(u.canonical("Months"), Some("months"));
        assert_eq!(u.canonical("µg"), u.canonical("mcg"));
        assert_ne!(u.canonical("proportion of participants"), Some("%"));
        // an exposure written unit first or time first, with a micro sign or a Greek mu
        assert_eq!(u.canonical("h*µg/mL"), u.canonical("μg·h/mL"));
        assert!(u.canonical("h*µg/mL").is_some());
        assert_ne!(u.canonical("h*ng/mL"), u.canonical("h*µg/mL"));
        assert!(u.canonical("µmol/L").is_some());
        assert_ne!(u.canonical("µmol/L"), u.canonical("mg/dL"));
    }

    #[test]
    fn parts_match_by_prefix_with_wildcards_and_siblings() {
        let f = Fitness::parse(
            "field,family,part,where\nregulatory.original_approval_date,drugsfda,/submissions/*/submission_status_date,submission_type=ORIG\nsafety.*,fda_label,/adverse_reactions,\n",
        )
        .unwrap();
        let orig = |k: &str| (k == "submission_type").then(|| "ORIG".to_string());
        let suppl = |k: &str| (k == "submission_type").then(|| "SUPPL".to_string());
        let d = "regulatory.original_approval_date";
        assert!(
            f.check(d, "drugsfda", "/submissions/3/submission_status_date", orig)
                .is_ok()
        );
        assert!(matches!(
            f.check(
                d,
                "drugsfda",
                "/submissions/3/submission_status_date",
                suppl
            ),
            Err(Unfit::Sibling { .. })
        ));
        assert!(matches!(
            f.check(d, "pubmed", "/x", orig),
            Err(Unfit::Family)
        ));
        let ae = "safety.common_adverse_reactions";
        assert!(
            f.check(ae, "fda_label", "/adverse_reactions/2", orig)
                .is_ok()
        );
        assert!(matches!(
            f.check(ae, "fda_label", "/spl_medguide/0", orig),
            Err(Unfit::Part)
        ));
        assert!(f.check("trials.phase", "ctgov", "/anything", orig).is_ok());
        // a part admitted by several values of one key is refused naming all of them
        let f = Fitness::parse(
            "field,family,part,where\nsafety.x,ctgov,/outcomes,title~adverse\nsafety.x,ctgov,/outcomes,title~platelet\n",
        )
        .unwrap();
        let title = |k: &str| (k == "^title").then(|| "Chronic Lung Disease".to_string());
        match f.check("safety.x", "ctgov", "/outcomes/3", title) {
            Err(Unfit::Sibling { want, found, .. }) => {
                assert_eq!(want, r#"one naming any of "adverse", "platelet""#);
                assert_eq!(found, "Chronic Lung Disease");
            }
            other => panic!("{other:?}"),
        }
        let platelets = |k: &str| (k == "^title").then(|| "Platelet count".to_string());
        assert!(
            f.check("safety.x", "ctgov", "/outcomes/3", platelets)
                .is_ok()
        );
        assert!(part_matches(
            &["outcome[*]".to_string()],
            &["outcome[12]", "measure[1]"]
        ));
    }
}
