//! The text binder: which mention of a sentence a number is bound to. A quote is cut into
//! tokens (words, numbers, symbols) with their parenthesis depth; a number's clause is the
//! stretch around it between clause breaks (`;`, `and`, `versus`, `compared with`,
//! `followed by`, …) at its own depth. Arms, time points, units, dose phases and
//! population qualifiers are read from that clause first, and from the sentence's
//! parallel lists ("4.8 and 1.5 months in the trametinib and chemotherapy groups",
//! "…, respectively") when the clause names none. Pure and allocation-light: one token
//! vector per quote.

/// One token of a quote.
#[derive(Clone, Debug)]
pub struct Token<'a> {
    pub text: &'a str,
    /// Lowercase text (ASCII), for lexicon lookups.
    pub lower: String,
    pub kind: Kind,
    /// Parenthesis depth (`(` and `[` open one).
    pub depth: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Word,
    /// A quantity: digits with an optional decimal part, thousands separators removed.
    Number,
    Symbol,
}

/// A quote cut into tokens.
pub struct Text<'a> {
    pub tokens: Vec<Token<'a>>,
}

impl<'a> Text<'a> {
    pub fn new(s: &'a str) -> Text<'a> {
        let b = s.as_bytes();
        let mut tokens = Vec::new();
        let mut depth: u8 = 0;
        let mut i = 0;
        while i < b.len() {
            let c = s[i..].chars().next().unwrap_or(' ');
            let w = c.len_utf8();
            if c.is_whitespace() {
                i += w;
                continue;
            }
            if c.is_alphanumeric() {
                let start = i;
                let mut j = i;
                let numeric_start = c.is_ascii_digit();
                while j < b.len() {
                    let d = s[j..].chars().next().unwrap_or(' ');
                    // "6mg" is a number and a unit; "V600E" and "q2w" stay one word
                    if numeric_start
                        && d.is_alphabetic()
                        && s[start..j]
                            .bytes()
                            .all(|x| x.is_ascii_digit() || x == b'.' || x == b',')
                    {
                        break;
                    }
                    if d.is_alphanumeric() {
                        j += d.len_utf8();
                    } else if (d == '.' || d == ',')
                        && j > start
                        && b[j - 1].is_ascii_digit()
                        && b.get(j + 1).is_some_and(u8::is_ascii_digit)
                    {
                        j += 1;
                    } else {
                        break;
                    }
                }
                let text = &s[start..j];
                let kind = if text.as_bytes()[0].is_ascii_digit()
                    && text
                        .bytes()
                        .all(|x| x.is_ascii_digit() || x == b'.' || x == b',')
                {
                    Kind::Number
                } else {
                    Kind::Word
                };
                let lower = match kind {
                    Kind::Number => normalize_number(text),
                    _ => text.to_lowercase(),
                };
                tokens.push(Token {
                    text,
                    lower,
                    kind,
                    depth,
                });
                i = j;
                continue;
            }
            if c == ')' || c == ']' {
                depth = depth.saturating_sub(1);
            }
            tokens.push(Token {
                text: &s[i..i + w],
                lower: s[i..i + w].to_string(),
                kind: Kind::Symbol,
                depth,
            });
            if c == '(' || c == '[' {
                depth = depth.saturating_add(1);
            }
            i += w;
        }
        Text { tokens }
    }

    /// The stretch of `s`, the text this was cut from, that tokens `r` cover: an exact
    /// slice, from the first token's start to the last one's end (empty for no tokens).
    pub fn span_in<'s>(&self, s: &'s str, r: std::ops::Range<usize>) -> &'s str {
        if r.is_empty() {
            return "";
        }
        let at = |k: usize| self.tokens[k].text.as_ptr() as usize - s.as_ptr() as usize;
        &s[at(r.start)..at(r.end - 1) + self.tokens[r.end - 1].text.len()]
    }

    /// Indices of the number tokens equal to `n` (thousands separators removed).
    pub fn numbers_equal(&self, n: &str) -> Vec<usize> {
        (0..self.tokens.len())
            .filter(|&i| self.tokens[i].kind == Kind::Number && self.tokens[i].lower == n)
            .collect()
    }

    pub fn word(&self, i: usize) -> Option<&str> {
        self.tokens
            .get(i)
            .filter(|t| t.kind != Kind::Symbol || t.text == "%")
            .map(|t| t.lower.as_str())
    }

    /// The clause around token `at`: bounded by clause breaks at its own depth or by the
    /// parenthesis that encloses it.
    pub fn clause(&self, at: usize) -> std::ops::Range<usize> {
        let depth = self.tokens[at].depth;
        let mut start = at;
        while start > 0 {
            let t = &self.tokens[start - 1];
            if t.depth < depth || (t.depth == depth && self.is_break(start - 1)) {
                break;
            }
            start -= 1;
        }
        let mut end = at + 1;
        while end < self.tokens.len() {
            let t = &self.tokens[end];
            if t.depth < depth || (t.depth == depth && self.is_break(end)) {
                break;
            }
            end += 1;
        }
        start..end
    }

    /// Whether token `i` ends a clause.
    pub fn is_break(&self, i: usize) -> bool {
        let t = &self.tokens[i];
        match t.kind {
            Kind::Symbol => t.text == ";" || (t.text == "." && i + 1 == self.tokens.len()),
            Kind::Number => false,
            Kind::Word => {
                matches!(
                    t.lower.as_str(),
                    "and" | "versus" | "vs" | "while" | "whereas" | "but" | "then" | "or"
                ) || (matches!(t.lower.as_str(), "compared" | "followed")
                    && matches!(self.word(i + 1), Some("with" | "to" | "by")))
            }
        }
    }

    /// Whether the token at `i` is a clause break of the "followed by" / "then" kind,
    /// which opens a later phase of a regimen.
    pub fn opens_later_phase(&self, start: usize) -> bool {
        start > 0
            && (matches!(self.word(start - 1), Some("then" | "thereafter"))
                || (self.word(start - 1) == Some("followed") && self.word(start) == Some("by")))
    }

    /// The run of numbers joined to token `at` by list connectors (`vs`, `and`, `to`,
    /// `/`, `,`), skipping the units that follow each, at the same depth.
    pub fn parallel_numbers(&self, at: usize) -> (Vec<usize>, usize) {
        let depth = self.tokens[at].depth;
        let is_joint = |i: usize| {
            let t = &self.tokens[i];
            // "2.9 per 100 patient-years": a rate's denominator is no list member
            if t.lower == "per" {
                return false;
            }
            t.depth > depth
                || matches!(
                    t.lower.as_str(),
                    "vs" | "versus"
                        | "and"
                        | ","
                        | "/"
                        | "."
                        | "or"
                        | "%"
                        | "compared"
                        | "with"
                        | "-"
                        | "("
                        | ")"
                )
                || crate::run::gates::entailment::tables::is_unit_word(&t.lower)
        };
        let mut group = vec![at];
        let mut i = at + 1;
        while i < self.tokens.len() {
            if self.tokens[i].kind == Kind::Number && self.tokens[i].depth == depth {
                group.push(i);
                i += 1;
            } else if is_joint(i) {
                i += 1;
            } else {
                break;
            }
        }
        let mut j = at;
        while j > 0 {
            let k = j - 1;
            if self.tokens[k].kind == Kind::Number && self.tokens[k].depth == depth {
                group.insert(0, k);
                j = k;
            } else if is_joint(k) {
                j = k;
            } else {
                break;
            }
        }
        // Numbers that are only part of a "95% CI" or a time point are not list members.
        // (nor are ages: "patients ages 6 to 12 years (Study 1), 9% …")
        group.retain(|&k| k == at || !(self.is_time_number(k) || self.is_age_number(k)));
        let pos = group.iter().position(|&k| k == at).unwrap_or(0);
        (group, pos)
    }

    /// The time point a number of a parallel list stands for when the list is matched,
    /// item by item, to a list of time points: after it ("47% and 49% at Weeks 12 and
    /// 24 respectively") or before it ("at baseline and 12 months were 60.9 and 47.2,
    /// respectively"). None when the number is in no such list.
    pub fn respective_time(&self, at: usize) -> Option<TimePoint> {
        let (group, pos) = self.parallel_numbers(at);
        if group.len() < 2 {
            return None;
        }
        let (first, last) = (group[0], *group.last().expect("two numbers"));
        // after: past the last number's unit, a lead word, then the list
        let mut k = last + 1;
        while self
            .tokens
            .get(k)
            .is_some_and(|x| x.text == "%" || super::tables::is_unit_word(&x.lower))
        {
            k += 1;
        }
        if matches!(self.word(k), Some("at" | "in" | "by" | "through" | "after")) {
            let items = self.time_list(k + 1);
            if items.len() == group.len() {
                return Some(items[pos]);
            }
        }
        // before: "<times> were <numbers>"
        let verb = first.checked_sub(1)?;
        if matches!(self.word(verb), Some("were" | "was" | "are" | "is" | "of")) {
            let start = (verb.saturating_sub(8)..verb)
                .find(|&j| self.time_list(j).len() == group.len() && self.time_list_end(j) == verb);
            if let Some(j) = start {
                return Some(self.time_list(j)[pos]);
            }
        }
        None
    }

    /// The side of a "with and without X, respectively" list the number at `at` is on:
    /// in "5 µg/mL and 8 to 9 µg/mL, were observed without and with methotrexate (MTX),
    /// respectively", 5 is without and 8 with. Gives (with, X's names: its word and the
    /// short form in parentheses after it).
    pub fn respective_with(&self, at: usize) -> Option<(bool, Vec<&str>)> {
        let (group, pos) = self.parallel_numbers(at);
        if group.len() != 2 {
            return None;
        }
        let last = group[1];
        let end = (last..self.tokens.len()).find(|&k| self.word(k) == Some("respectively"))?;
        (last + 1..end.saturating_sub(3)).find_map(|k| {
            let first = match (self.word(k)?, self.word(k + 1)?, self.word(k + 2)?) {
                ("without", "and", "with") => false,
                ("with", "and", "without") => true,
                _ => return None,
            };
            let x = self.word(k + 3).filter(|w| w.len() >= 3)?;
            let mut names = vec![x];
            if self.tokens.get(k + 4).is_some_and(|p| p.text == "(")
                && let Some(short) = self.word(k + 5)
            {
                names.push(short);
            }
            Some((if pos == 0 { first } else { !first }, names))
        })
    }

    /// The two sides of a comparison by "than" whose numbers follow in a parenthesis: in
    /// "Patients treated with concomitant MTX had a lower rate of antibody development
    /// than patients on HUMIRA monotherapy (1% versus 12%)", 1 is the side before "than"
    /// and 12 the side after. Gives the number's side and the other, as token ranges of
    /// the sentence (the side before opens at the sentence's start).
    pub fn than_sides(
        &self,
        at: usize,
    ) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        let depth = self.tokens.get(at)?.depth;
        if depth == 0 {
            return None;
        }
        let (group, pos) = self.parallel_numbers(at);
        if group.len() != 2 {
            return None;
        }
        let open = (0..group[0])
            .rev()
            .find(|&k| self.tokens[k].depth < depth)?;
        let compares = (group[0]..group[1]).any(|k| matches!(self.word(k), Some("versus" | "vs")));
        if self.tokens[open].text != "(" || !compares {
            return None;
        }
        let outer = self.tokens[open].depth;
        let start = (0..open)
            .rev()
            .find(|&k| self.tokens[k].depth == outer && matches!(self.tokens[k].text, "." | ";"))
            .map_or(0, |k| k + 1);
        // "than" of a comparison, not of a bound ("less than 5%")
        let than = (start..open).rev().find(|&k| {
            self.tokens[k].depth == outer
                && self.word(k) == Some("than")
                && self
                    .tokens
                    .get(k + 1)
                    .is_some_and(|x| x.kind != Kind::Number)
        })?;
        let (before, after) = (start..than, than + 1..open);
        Some(if pos == 0 {
            (before, after)
        } else {
            (after, before)
        })
    }

    /// The condition a number's parenthesis follows: in "both without MTX (43% vs. 71%)
    /// and with MTX (37% vs. 65%)", 43 is for patients without MTX (`(false, "MTX")`).
    /// "With" or "without" stands at most one word before the condition's name.
    pub fn with_condition(&self, at: usize) -> Option<(bool, &str)> {
        let depth = self.tokens.get(at)?.depth;
        if depth == 0 {
            return None;
        }
        let open = (0..at).rev().find(|&k| self.tokens[k].depth < depth)?;
        if self.tokens[open].text != "(" || open < 2 {
            return None;
        }
        self.word(open - 1).filter(|w| w.len() >= 3)?;
        let x = self.tokens[open - 1].text;
        (open.saturating_sub(3)..open - 1)
            .rev()
            .find_map(|k| match self.word(k)? {
                "with" => Some((true, x)),
                "without" => Some((false, x)),
                _ => None,
            })
    }

    /// A list of time points from token `i`: "Weeks 12 and 24", "12 and 24 weeks",
    /// "baseline and 12 months" (baseline is day 0).
    fn time_list(&self, i: usize) -> Vec<TimePoint> {
        self.time_list_parse(i).0
    }

    fn time_list_end(&self, i: usize) -> usize {
        self.time_list_parse(i).1
    }

    fn time_list_parse(&self, mut i: usize) -> (Vec<TimePoint>, usize) {
        let lead_unit = self.word(i).and_then(time_unit);
        if lead_unit.is_some() {
            i += 1;
        }
        // each item in days once its unit is known; bare numbers wait for a unit after
        // them ("12 and 24 weeks") or take the lead one ("Weeks 12 and 24")
        let (mut days, mut bare): (Vec<Option<f64>>, Vec<usize>) = (Vec::new(), Vec::new());
        loop {
            match self.tokens.get(i) {
                Some(x) if x.kind == Kind::Number => {
                    bare.push(days.len());
                    days.push(x.lower.parse::<f64>().ok());
                    i += 1;
                    if let Some(u) = self.word(i).and_then(time_unit).or(lead_unit) {
                        if self.word(i).and_then(time_unit).is_some() {
                            i += 1;
                        }
                        for k in bare.drain(..) {
                            days[k] = days[k].map(|n| n * u);
                        }
                    }
                }
                Some(x) if x.lower == "baseline" => {
                    days.push(Some(0.0));
                    i += 1;
                }
                _ => break,
            }
            if matches!(self.word(i), Some("and" | "or" | ",")) {
                i += 1;
            } else {
                break;
            }
        }
        let known: Option<Vec<TimePoint>> = if bare.is_empty() {
            days.into_iter()
                .map(|d| d.map(|days| TimePoint { days }))
                .collect()
        } else {
            None
        };
        match known {
            Some(d) if d.len() >= 2 => (d, i),
            _ => (Vec::new(), i),
        }
    }

    /// Whether the number at `i` is the number of a time point (`week 12`, `at 12 weeks`).
    pub fn is_time_number(&self, i: usize) -> bool {
        self.time_point_at(i).is_some()
    }

    /// The time point whose number is token `i`, in days.
    pub fn time_point_at(&self, i: usize) -> Option<TimePoint> {
        let t = self.tokens.get(i)?;
        if t.kind != Kind::Number {
            return None;
        }
        let n: f64 = t.lower.parse().ok()?;
        // a share is no time point, whatever precedes it ("at 6 months 67%")
        if self.tokens.get(i + 1).is_some_and(|x| x.text == "%") {
            return None;
        }
        // "week 12", "Week-12", "day 29"
        let before = i
            .checked_sub(1)
            .and_then(|k| {
                if self.tokens[k].text == "-" {
                    k.checked_sub(1)
                } else {
                    Some(k)
                }
            })
            .and_then(|k| self.word(k))
            .and_then(time_unit);
        if let Some(u) = before {
            return Some(TimePoint { days: n * u });
        }
        // "12 weeks" after at/through/after/by/to/until/within/over, or "12-week"
        let (k, hyphen) = match self.tokens.get(i + 1) {
            Some(x) if x.text == "-" => (i + 2, true),
            _ => (i + 1, false),
        };
        let u = self.word(k).and_then(time_unit)?;
        if self.is_age_number(i) {
            return None;
        }
        // (an article may stand between: "for up to a 10 days total course")
        let article = |p: usize| matches!(self.word(p), Some("a" | "an" | "the"));
        let lead = i
            .checked_sub(1)
            .and_then(|p| {
                if article(p) {
                    p.checked_sub(1)
                } else {
                    Some(p)
                }
            })
            .and_then(|p| self.word(p))
            .is_some_and(|w| {
                matches!(
                    w,
                    "at" | "through"
                        | "after"
                        | "by"
                        | "to"
                        | "until"
                        | "within"
                        | "over"
                        | "for"
                        | "first"
                        | "initial"
                        | "of"
                )
            });
        // "for 14 or 21 days": the last of a list of time values after a lead word
        let listed = i >= 3
            && matches!(self.word(i - 1), Some("or" | "and"))
            && self.tokens[i - 2].kind == Kind::Number
            && self.word(i - 3).is_some_and(|w| {
                matches!(w, "for" | "at" | "after" | "through" | "over" | "within")
            });
        (hyphen || lead || listed).then_some(TimePoint { days: n * u })
    }

    /// Whether number `i` is an age, not a time point nor a list member: "ages 6 to 12
    /// years", "aged 65", "6 to 12 years of age", "2 years old".
    pub fn is_age_number(&self, i: usize) -> bool {
        let unit = match self.tokens.get(i + 1) {
            Some(x) if x.text == "-" => i + 2,
            _ => i + 1,
        };
        let age_word = |k: usize| matches!(self.word(k), Some("age" | "ages" | "aged"));
        let after = self.word(unit).and_then(time_unit).is_some()
            && (matches!(self.word(unit + 1), Some("old" | "older" | "younger"))
                || (self.word(unit + 1) == Some("of") && self.word(unit + 2) == Some("age")));
        let opened = i >= 1 && age_word(i - 1);
        let ranged = i >= 3
            && matches!(self.word(i - 1), Some("to" | "through"))
            && self.tokens[i - 2].kind == Kind::Number
            && age_word(i - 3);
        self.tokens.get(i).is_some_and(|t| t.kind == Kind::Number) && (after || opened || ranged)
    }

    /// Every time point of the range.
    pub fn time_points(&self, r: std::ops::Range<usize>) -> Vec<(usize, TimePoint)> {
        r.filter_map(|i| self.time_point_at(i).map(|t| (i, t)))
            .collect()
    }

    /// The unit written right after the number at `at` (or after the last number of its
    /// parallel list: "4.8 vs 1.5 months"), as its canonical name.
    pub fn unit_after<'u>(&self, at: usize, units: &'u super::tables::Units) -> Option<&'u str> {
        if let Some(u) = units.at(self, self.past_aside(at + 1)) {
            return Some(u);
        }
        let (group, pos) = self.parallel_numbers(at);
        for &k in &group[pos + 1..] {
            if let Some(u) = units.at(self, self.past_aside(k + 1)) {
                return Some(u);
            }
        }
        None
    }

    /// The token after the asides that open at `i`: a parenthesis ("121 (range: 58 to
    /// 272) ng/mL") or a spread ("131 ± 56 hours"); `i` itself when none does.
    fn past_aside(&self, mut i: usize) -> usize {
        loop {
            match self.tokens.get(i) {
                Some(x) if x.text == "(" => {
                    let d = x.depth;
                    match (i + 1..self.tokens.len())
                        .find(|&k| self.tokens[k].text == ")" && self.tokens[k].depth == d)
                    {
                        Some(k) => i = k + 1,
                        None => return i,
                    }
                }
                Some(x)
                    if x.text == "±"
                        && self
                            .tokens
                            .get(i + 1)
                            .is_some_and(|n| n.kind == Kind::Number) =>
                {
                    i += 2
                }
                _ => return i,
            }
        }
    }
}

/// A time point, in days since the start (weeks are 7 days, months 30.44, years 365.25).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePoint {
    pub days: f64,
}

impl TimePoint {
    /// In words: "baseline", "week 24", "month 12", "day 3".
    pub fn describe(self) -> String {
        let d = self.days;
        if d == 0.0 {
            return "baseline".into();
        }
        let whole = |x: f64| (x - x.round()).abs() < 1e-6;
        if whole(d / 7.0) {
            format!("week {}", (d / 7.0).round())
        } else if whole(d / 30.44) {
            format!("month {}", (d / 30.44).round())
        } else {
            format!("day {d}")
        }
    }

    /// Two time points are the same when within a tenth of each other (week 24 and
    /// month 6 are one time point; week 12 and week 16 are not).
    pub fn same(self, other: TimePoint) -> bool {
        let (a, b) = (self.days, other.days);
        (a - b).abs() <= 0.1 * a.max(b)
    }

    /// [`TimePoint::same`], for time points both written where they are exact (a posted
    /// outcome's title): when both fall on whole weeks, whole months or whole years, only
    /// equal ones are one (week 48 is not week 52, nor month 11 month 12). A time point
    /// read from a flattened table's header may sit a column off, so tables keep `same`.
    pub fn same_exact(self, other: TimePoint) -> bool {
        let (a, b) = (self.days, other.days);
        let on = |d: f64, unit: f64| d > 0.0 && ((d / unit) - (d / unit).round()).abs() < 1e-6;
        if [7.0, 30.44, 365.25].iter().any(|&u| on(a, u) && on(b, u)) {
            return (a - b).abs() < 1e-6;
        }
        self.same(other)
    }
}

pub(super) fn time_unit(w: &str) -> Option<f64> {
    Some(match w {
        "day" | "days" | "d" | "night" | "nights" => 1.0,
        "week" | "weeks" | "wk" | "wks" | "w" => 7.0,
        "month" | "months" | "mo" | "mos" => 30.44,
        "year" | "years" | "yr" | "yrs" => 365.25,
        _ => return None,
    })
}

/// Digits with thousands separators removed (`1,234.5` → `1234.5`); a comma that is not
/// a thousands separator stays (the number gate never matches such a token).
fn normalize_number(s: &str) -> String {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() > 1
        && parts[1..]
            .iter()
            .all(|p| p.len() >= 3 && p[..3].bytes().all(|b| b.is_ascii_digit()))
    {
        parts.concat()
    } else {
        s.to_string()
    }
}

/// The time points an endpoint claims: those of its closing parenthesis or bracket when
/// it names some ("… at Week 12 and 24 (Week 24)" claims week 24; "… [Week 16]" week 16),
/// else all it names.
pub fn endpoint_time_points(s: &str) -> Vec<TimePoint> {
    let t = s.trim_end();
    let close = match t.chars().last() {
        Some(')') => '(',
        Some(']') => '[',
        _ => return claim_time_points(s),
    };
    match t.rfind(close) {
        Some(i) => {
            let last = claim_time_points(&t[i..]);
            if last.is_empty() {
                claim_time_points(s)
            } else {
                last
            }
        }
        None => claim_time_points(s),
    }
}

/// A text with its numbers written as words in digits ("Day twenty-nine" is "Day 29",
/// "Week fifty two" "Week 52"), so the time rules read both spellings.
pub fn spelled_as_digits(s: &str) -> std::borrow::Cow<'_, str> {
    const UNITS: &[&str] = &[
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: &[&str] = &[
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    let lower = s.to_ascii_lowercase();
    if !UNITS.iter().chain(TENS).any(|w| lower.contains(w)) {
        return std::borrow::Cow::Borrowed(s);
    }
    // words with their byte spans
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let b = lower.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() {
            let st = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            spans.push((st, i));
        } else {
            i += 1;
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut k = 0;
    while k < spans.len() {
        let (st, en) = spans[k];
        let w = &lower[st..en];
        let whole = |a: usize| a == 0 || !b[a - 1].is_ascii_alphanumeric();
        let (value, end, used) = if let Some(t) = TENS.iter().position(|x| *x == w) {
            let tens = 20 + 10 * t;
            // "twenty-nine", "twenty nine"
            match spans.get(k + 1) {
                Some(&(s2, e2))
                    if s2 == en + 1
                        && matches!(b[en], b'-' | b' ')
                        && UNITS[1..10].contains(&&lower[s2..e2]) =>
                {
                    let u = UNITS.iter().position(|x| *x == &lower[s2..e2]).unwrap_or(0);
                    (Some(tens + u), e2, 2)
                }
                _ => (Some(tens), en, 1),
            }
        } else if let Some(u) = UNITS.iter().position(|x| *x == w) {
            (Some(u), en, 1)
        } else {
            (None, en, 1)
        };
        match value {
            Some(v) if whole(st) && (end == b.len() || !b[end].is_ascii_alphanumeric()) => {
                out.push_str(&s[last..st]);
                out.push_str(&v.to_string());
                last = end;
            }
            _ => {}
        }
        k += used;
    }
    out.push_str(&s[last..]);
    std::borrow::Cow::Owned(out)
}

/// The time points a claim's value names as a visit ("at Day 29", "the Week 24 visit"):
/// a unit then its number, not a duration ("for 10 days").
pub fn value_time_points(s: &str) -> Vec<TimePoint> {
    time_points_after(&spelled_as_digits(s), |w| {
        matches!(w, "day" | "week" | "month")
    })
}

/// Time points a value writes in words ("at one year", "after twelve weeks"): each
/// spelled number, read as digits, after "at", "after", "by" or "through" or after its
/// unit ("Week fifty-two"). Numbers written as digits are the binder's own to read.
pub fn spelled_time_points(s: &str) -> Vec<TimePoint> {
    match spelled_as_digits(s) {
        std::borrow::Cow::Borrowed(_) => Vec::new(),
        spelled => time_points_after(&spelled, |w| {
            matches!(w, "at" | "after" | "by" | "through") || time_unit(w).is_some()
        }),
    }
}

/// The time points of `s` whose number follows a word `lead` accepts.
fn time_points_after(s: &str, lead: impl Fn(&str) -> bool) -> Vec<TimePoint> {
    let t = Text::new(s);
    (1..t.tokens.len())
        .filter(|&i| t.tokens[i].kind == Kind::Number && t.word(i - 1).is_some_and(&lead))
        .filter_map(|i| t.time_point_at(i))
        .collect()
}

/// Time points named in a claim's own words (its endpoint or population): "week 12",
/// "12 weeks", "Week 16", "at month 6".
pub fn claim_time_points(s: &str) -> Vec<TimePoint> {
    let s = spelled_as_digits(s);
    let t = Text::new(&s);
    // each number's time unit: a unit word before or after it ("Day 29", "24 weeks",
    // "14-day"), else, closing a range, its opening's ("Day 1-10" is day 1 to day 10)
    let mut units: Vec<Option<f64>> = vec![None; t.tokens.len()];
    // a vulgar fraction after a number is part of it ("up to 15 ½ months")
    let fraction = |k: usize| match t.tokens.get(k).map(|x| x.text) {
        Some("\u{bd}") => Some(0.5),
        Some("\u{bc}") => Some(0.25),
        Some("\u{be}") => Some(0.75),
        _ => None,
    };
    for i in 0..t.tokens.len() {
        if t.tokens[i].kind != Kind::Number {
            continue;
        }
        let before = i.checked_sub(1).and_then(|k| t.word(k)).and_then(time_unit);
        let after = t.word(i + 1).and_then(time_unit).or_else(|| {
            (t.tokens.get(i + 1).is_some_and(|x| x.text == "-") || fraction(i + 1).is_some())
                .then(|| t.word(i + 2).and_then(time_unit))
                .flatten()
        });
        let inherited = || {
            let k = i.checked_sub(2)?;
            (range_link(&t, k + 1) && t.tokens[k].kind == Kind::Number)
                .then(|| units[k])
                .flatten()
        };
        units[i] = before.or(after).or_else(inherited);
    }
    let mut out = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let Some(u) = unit else { continue };
        let Ok(n) = t.tokens[i].lower.parse::<f64>() else {
            continue;
        };
        if opens_range(&t, &units, i) {
            continue;
        }
        let n = n + fraction(i + 1).unwrap_or(0.0);
        out.push(TimePoint { days: n * u });
    }
    out
}

/// A word or dash that joins the two ends of a window ("Day 1-10", "Day 1 through Day 29").
pub(super) fn range_link(t: &Text, k: usize) -> bool {
    t.tokens.get(k).is_some_and(|x| {
        matches!(x.text, "-" | "\u{2013}" | "\u{2014}")
            || matches!(x.lower.as_str(), "to" | "through" | "thru" | "until")
    })
}

/// Whether the time point at `i` is the first day of a window: a window is assessed at
/// its end, so "Day 1 through Day 15" is not day 1 of "Day 1 through Day 29".
fn opens_range(t: &Text, units: &[Option<f64>], i: usize) -> bool {
    if !range_link(t, i + 1) {
        return false;
    }
    let mut j = i + 2;
    if t.word(j).and_then(time_unit).is_some() {
        j += 1;
    }
    t.tokens.get(j).is_some_and(|x| x.kind == Kind::Number) && units[j].is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_written_in_words_is_read_as_its_digits() {
        assert_eq!(spelled_as_digits("at Day twenty-nine"), "at Day 29");
        assert_eq!(spelled_as_digits("Week fifty two visit"), "Week 52 visit");
        assert_eq!(
            spelled_as_digits("Cohort Three (twelve kg)"),
            "Cohort 3 (12 kg)"
        );
        // words holding a number word are left whole
        assert_eq!(spelled_as_digits("someone often"), "someone often");
        let year = spelled_time_points("Overall survival rate of 81% at one year");
        assert_eq!(year.len(), 1);
        assert!(year[0].same(TimePoint { days: 365.0 }), "{year:?}");
        assert!(spelled_time_points("81% at 12 months").is_empty());
        assert!(spelled_time_points("ten days of dosing").is_empty());
        let day29 = value_time_points("ALT change of 1.7 U/L at Day twenty-nine");
        assert_eq!(day29.len(), 1);
        assert!(day29[0].same(TimePoint { days: 29.0 }));
        // a duration is no visit
        assert!(value_time_points("200 mg once daily for 10 days").is_empty());
        assert_eq!(claim_time_points("change at Week twelve").len(), 1);
    }

    #[test]
    fn a_window_is_read_at_its_end() {
        let days = |s: &str| -> Vec<f64> { claim_time_points(s).iter().map(|t| t.days).collect() };
        // a range's end takes its opening's unit, and the opening day is no time point
        assert_eq!(days("Discontinued due to death (Day 1-10)"), vec![10.0]);
        assert_eq!(days("Mortality [Day 1 through Day 29]"), vec![29.0]);
        assert_eq!(
            days("14-day Participant Mortality [Day 1 through Day 15]"),
            vec![14.0, 15.0]
        );
        assert_eq!(days("weeks 0 to 24"), vec![168.0]);
        // a lone day and a duration written with a hyphen stay
        assert_eq!(days("at Day 1"), vec![1.0]);
        assert_eq!(days("29-day mortality"), vec![29.0]);
        assert_eq!(days("Week 12 and Week 24"), vec![84.0, 168.0]);
    }

    #[test]
    fn a_number_binds_to_its_own_clause() {
        let t = Text::new(
            "Median progression-free survival was 4.8 months in the trametinib group and 1.5 months in the chemotherapy group",
        );
        let at = t.numbers_equal("1.5")[0];
        let r = t.clause(at);
        let words: Vec<&str> = t.tokens[r].iter().map(|x| x.text).collect();
        assert_eq!(
            words,
            ["1.5", "months", "in", "the", "chemotherapy", "group"]
        );
    }

    #[test]
    fn parentheses_hold_their_own_clauses_and_lists() {
        let t = Text::new("trametinib improved PFS over chemotherapy (4.8 vs 1.5 months; HR 0.45)");
        let at = t.numbers_equal("1.5")[0];
        let (group, pos) = t.parallel_numbers(at);
        assert_eq!(group.len(), 2);
        assert_eq!(pos, 1);
        assert_eq!(t.clause(at).len(), 2, "1.5 months");
    }

    #[test]
    fn time_points_are_read_in_both_orders_and_compared_loosely() {
        let t = Text::new("63% at week 12 and 59% after 52 weeks; median 4.8 months");
        let tps: Vec<f64> = t
            .time_points(0..t.tokens.len())
            .iter()
            .map(|x| x.1.days)
            .collect();
        assert_eq!(
            tps,
            [84.0, 364.0],
            "4.8 months is a value, not a time point"
        );
        let c = claim_time_points("ACR20 at Week 24");
        assert!(c[0].same(TimePoint { days: 6.0 * 30.44 }));
        assert!(!c[0].same(TimePoint { days: 16.0 * 7.0 }));
        // on one grid, only the equal time points are one
        let week = |n: f64| TimePoint { days: 7.0 * n };
        assert!(week(48.0).same(week(52.0)));
        assert!(!week(48.0).same_exact(week(52.0)));
        assert!(week(52.0).same_exact(TimePoint { days: 365.25 }));
        assert!(week(24.0).same_exact(TimePoint { days: 6.0 * 30.44 }));
        assert!(!TimePoint { days: 11.0 * 30.44 }.same_exact(TimePoint { days: 12.0 * 30.44 }));
        assert!(TimePoint { days: 29.0 }.same_exact(week(4.0)));
    }

    #[test]
    fn thousands_separators_are_one_number() {
        let t = Text::new("N = 1,234 (12.5%)");
        assert_eq!(t.numbers_equal("1234").len(), 1);
        assert_eq!(t.tokens.iter().find(|x| x.text == "12.5").unwrap().depth, 1);
    }
}
