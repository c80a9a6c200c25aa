//! CT.gov steps (trials, efficacy, safety). A study, API v2 JSON or legacy XML, is read
//! into one shape where every posted value keeps its locator, and every measurement is
//! bound to its outcome, class/category and group by id: a placebo group's value can only
//! land in the placebo arm's cell, and one outcome's number only in that outcome's cells.

use std::collections::BTreeMap;

use super::tree::{Node, Xml, parse_json};
use super::{Emit, Input, Key};
use crate::domain::Label;
use crate::lake::bundle::Row;

/// A text value with the locator of its field.
#[derive(Clone, Debug)]
pub struct Val {
    pub text: String,
    pub loc: String,
}

impl Val {
    fn of(x: Option<(String, String)>) -> Option<Val> {
        x.map(|(text, loc)| Val { text, loc })
    }
}

#[derive(Debug, Default)]
pub struct Measurement {
    pub population: String,
    pub group: String,
    pub value: Option<Val>,
    pub spread: Option<Val>,
    pub lower: Option<Val>,
    pub upper: Option<Val>,
    /// The class's own count of participants analysed in the group, when the class
    /// states one (it then differs from the outcome's overall count).
    pub analyzed: Option<Val>,
}

/// A posted statistical analysis between groups.
#[derive(Debug, Default)]
pub struct Analysis {
    pub groups: Vec<String>,
    pub p_value: Option<Val>,
    pub estimate: Option<Val>,
    pub estimate_type: String,
    pub method: Option<Val>,
    pub non_inferiority: Option<Val>,
    /// The confidence level of the estimate's interval (`95`) and its sides.
    pub ci_pct: String,
    pub ci_sides: String,
    pub ci_lower: Option<Val>,
    pub ci_upper: Option<Val>,
    pub dispersion_type: String,
    pub dispersion: Option<Val>,
    /// What the groups of the analysis are (v2 `groupDescription`, XML `groups_desc`).
    pub description: Option<Val>,
    /// The estimate's comment (v2 `estimateComment`, XML `estimate_desc`), where
    /// registries usually state the direction.
    pub comment: Option<Val>,
}

#[derive(Debug, Default)]
pub struct Outcome {
    pub endpoint: String,
    pub unit: String,
    pub dispersion: String,
    /// group id -> title
    pub groups: BTreeMap<String, String>,
    pub analyzed: Vec<(String, Val)>,
    pub measurements: Vec<Measurement>,
    pub analyses: Vec<Analysis>,
}

#[derive(Debug, Default)]
pub struct EventGroup {
    pub title: String,
    pub affected: Option<Val>,
    pub at_risk: Option<Val>,
}

#[derive(Debug, Default)]
pub struct Study {
    pub nct: String,
    pub phases: Vec<Val>,
    pub status: Option<Val>,
    pub enrollment: Option<Val>,
    pub enrollment_type: String,
    pub primary_completion: Option<Val>,
    pub results_posted: Option<Val>,
    pub sponsor: Option<Val>,
    pub allocation: Option<Val>,
    /// Whether the record has a results section at all.
    pub has_results: bool,
    pub conditions: Vec<Val>,
    pub outcomes: Vec<Outcome>,
    pub events: Vec<EventGroup>,
}

/// Reads a CT.gov record (v2 JSON or legacy XML) from its bundle row.
pub fn study(row: &Row) -> Option<Study> {
    if row.raw.first().is_some_and(|b| *b == b'<')
        || row
            .fields
            .iter()
            .any(|f| f.0.starts_with("/clinical_study[1]"))
    {
        Some(from_xml(row))
    } else {
        from_json(row)
    }
}

fn endpoint(nct: &str, kind: &str, title: &str, time: &str) -> String {
    let kind = match kind.to_ascii_lowercase().as_str() {
        "primary" => "Primary",
        "secondary" => "Secondary",
        _ => "Other",
    };
    if time.is_empty() {
        format!("{nct} {kind}: {title}")
    } else {
        format!("{nct} {kind}: {title} [{time}]")
    }
}

fn from_json(row: &Row) -> Option<Study> {
    let v = parse_json(row)?;
    let root = Node::root(&v);
    let ps = root.get("protocolSection")?;
    let mut s = Study {
        nct: row.record_key.clone(),
        ..Study::default()
    };
    s.phases = texts(ps.path(&["designModule", "phases"]));
    s.status = Val::of(ps.str_at(&["statusModule", "overallStatus"]));
    s.enrollment = Val::of(ps.str_at(&["designModule", "enrollmentInfo", "count"]));
    s.enrollment_type = ps
        .str_at(&["designModule", "enrollmentInfo", "type"])
        .map(|x| x.0)
        .unwrap_or_default();
    s.primary_completion =
        Val::of(ps.str_at(&["statusModule", "primaryCompletionDateStruct", "date"]));
    s.results_posted = Val::of(ps.str_at(&["statusModule", "resultsFirstPostDateStruct", "date"]));
    s.sponsor = Val::of(ps.str_at(&["sponsorCollaboratorsModule", "leadSponsor", "name"]));
    s.allocation = Val::of(ps.str_at(&["designModule", "designInfo", "allocation"]));
    s.has_results = root.get("resultsSection").is_some();
    s.conditions = texts(ps.path(&["conditionsModule", "conditions"]));
    let Some(rs) = root.get("resultsSection") else {
        return Some(s);
    };
    if let Some(oms) = rs.path(&["outcomeMeasuresModule", "outcomeMeasures"]) {
        for om in oms.items() {
            let t = |k: &str| om.str_at(&[k]).map(|x| x.0).unwrap_or_default();
            if t("reportingStatus") == "NOT_POSTED" {
                continue;
            }
            let mut o = Outcome {
                endpoint: endpoint(&s.nct, &t("type"), &t("title"), &t("timeFrame")),
                unit: unit_with_param(&t("unitOfMeasure"), &t("paramType")),
                dispersion: t("dispersionType"),
                ..Outcome::default()
            };
            for g in om.get("groups").map(|g| g.items()).unwrap_or_default() {
                let id = g.str_at(&["id"]).map(|x| x.0).unwrap_or_default();
                let title = g.str_at(&["title"]).map(|x| x.0).unwrap_or_default();
                o.groups.insert(id, title);
            }
            if let Some(d) = om.get("denoms").and_then(|d| d.items().into_iter().next()) {
                for c in d.get("counts").map(|c| c.items()).unwrap_or_default() {
                    if let (Some((gid, _)), Some(v)) =
                        (c.str_at(&["groupId"]), Val::of(c.str_at(&["value"])))
                    {
                        o.analyzed.push((gid, v));
                    }
                }
            }
            let classes = om.get("classes").map(|c| c.items()).unwrap_or_default();
            for cl in &classes {
                let ct = cl.str_at(&["title"]).map(|x| x.0).unwrap_or_default();
                let mut denoms: BTreeMap<String, Val> = BTreeMap::new();
                if let Some(d) = cl.get("denoms").and_then(|d| d.items().into_iter().next()) {
                    for c in d.get("counts").map(|c| c.items()).unwrap_or_default() {
                        if let (Some((gid, _)), Some(v)) =
                            (c.str_at(&["groupId"]), Val::of(c.str_at(&["value"])))
                        {
                            denoms.insert(gid, v);
                        }
                    }
                }
                for cat in cl.get("categories").map(|c| c.items()).unwrap_or_default() {
                    let kt = cat.str_at(&["title"]).map(|x| x.0).unwrap_or_default();
                    let population = population(&ct, &kt);
                    for m in cat
                        .get("measurements")
                        .map(|m| m.items())
                        .unwrap_or_default()
                    {
                        let group = m.str_at(&["groupId"]).map(|x| x.0).unwrap_or_default();
                        o.measurements.push(Measurement {
                            population: population.clone(),
                            analyzed: denoms.get(&group).cloned(),
                            group,
                            value: Val::of(m.str_at(&["value"])),
                            spread: Val::of(m.str_at(&["spread"])),
                            lower: Val::of(m.str_at(&["lowerLimit"])),
                            upper: Val::of(m.str_at(&["upperLimit"])),
                        });
                    }
                }
            }
            for a in om.get("analyses").map(|a| a.items()).unwrap_or_default() {
                let v = |k: &str| Val::of(a.str_at(&[k]));
                let t = |k: &str| a.str_at(&[k]).map(|x| x.0).unwrap_or_default();
                o.analyses.push(Analysis {
                    groups: a
                        .get("groupIds")
                        .map(|g| g.items().iter().filter_map(|n| n.text()).collect())
                        .unwrap_or_default(),
                    p_value: v("pValue"),
                    estimate: v("paramValue"),
                    estimate_type: t("paramType"),
                    method: v("statisticalMethod"),
                    non_inferiority: v("nonInferiorityType"),
                    ci_pct: t("ciPctValue"),
                    ci_sides: t("ciNumSides"),
                    ci_lower: v("ciLowerLimit"),
                    ci_upper: v("ciUpperLimit"),
                    dispersion_type: t("dispersionType"),
                    dispersion: v("dispersionValue"),
                    description: v("groupDescription"),
                    comment: v("estimateComment"),
                });
            }
            s.outcomes.push(o);
        }
    }
    if let Some(groups) = rs.path(&["adverseEventsModule", "eventGroups"]) {
        for g in groups.items() {
            s.events.push(EventGroup {
                title: g.str_at(&["title"]).map(|x| x.0).unwrap_or_default(),
                affected: Val::of(g.str_at(&["seriousNumAffected"])),
                at_risk: Val::of(g.str_at(&["seriousNumAtRisk"])),
            });
        }
    }
    Some(s)
}

/// The text leaves of a JSON array, each with its pointer.
fn texts(array: Option<Node<'_>>) -> Vec<Val> {
    array
        .map(|a| {
            a.items()
                .iter()
                .filter_map(|n| Val::of(n.text().map(|t| (t, n.ptr.clone()))))
                .collect()
        })
        .unwrap_or_default()
}

fn unit_with_param(unit: &str, param: &str) -> String {
    let param = param.to_lowercase().replace('_', " ");
    match (unit.is_empty(), param.is_empty()) {
        (true, _) => param,
        (false, true) => unit.to_string(),
        (false, false) => format!("{unit} ({param})"),
    }
}

fn population(class: &str, category: &str) -> String {
    match (class.is_empty(), category.is_empty()) {
        (true, true) => String::new(),
        (false, true) => class.to_string(),
        (true, false) => category.to_string(),
        (false, false) => format!("{class} / {category}"),
    }
}

fn from_xml(row: &Row) -> Study {
    let x = Xml::of(row);
    let r = "/clinical_study[1]";
    let mut s = Study {
        nct: row.record_key.clone(),
        ..Study::default()
    };
    s.phases = Val::of(x.get(r, "/phase[1]")).into_iter().collect();
    s.status = Val::of(x.get(r, "/overall_status[1]"));
    s.enrollment = Val::of(x.get(r, "/enrollment[1]"));
    s.enrollment_type = x.text(r, "/enrollment[1]/@type");
    s.primary_completion = Val::of(x.get(r, "/primary_completion_date[1]"));
    s.results_posted = Val::of(x.get(r, "/results_first_posted[1]"));
    s.sponsor = Val::of(x.get(r, "/sponsors[1]/lead_sponsor[1]/agency[1]"));
    s.allocation = Val::of(x.get(r, "/study_design_info[1]/allocation[1]"));
    s.has_results = !x.children(r, "clinical_results").is_empty();
    s.conditions = x
        .children(r, "condition")
        .iter()
        .filter_map(|c| Val::of(x.get(c, "")))
        .collect();
    let res = format!("{r}/clinical_results[1]");
    for out in x.children(&format!("{res}/outcome_list[1]"), "outcome") {
        let mut o = Outcome {
            endpoint: endpoint(
                &s.nct,
                &x.text(&out, "/type[1]"),
                &x.text(&out, "/title[1]"),
                &x.text(&out, "/time_frame[1]"),
            ),
            ..Outcome::default()
        };
        for g in x.children(&format!("{out}/group_list[1]"), "group") {
            o.groups
                .insert(x.text(&g, "/@group_id"), x.text(&g, "/title[1]"));
        }
        let m = format!("{out}/measure[1]");
        o.unit = unit_with_param(&x.text(&m, "/units[1]"), &x.text(&m, "/param[1]"));
        o.dispersion = x.text(&m, "/dispersion[1]");
        if let Some(a) = x
            .children(&format!("{m}/analyzed_list[1]"), "analyzed")
            .first()
        {
            for c in x.children(&format!("{a}/count_list[1]"), "count") {
                if let Some(v) = Val::of(x.get(&c, "/@value")) {
                    o.analyzed.push((x.text(&c, "/@group_id"), v));
                }
            }
        }
        for cl in x.children(&format!("{m}/class_list[1]"), "class") {
            let ct = x.text(&cl, "/title[1]");
            let mut denoms: BTreeMap<String, Val> = BTreeMap::new();
            if let Some(a) = x
                .children(&format!("{cl}/analyzed_list[1]"), "analyzed")
                .first()
            {
                for c in x.children(&format!("{a}/count_list[1]"), "count") {
                    if let Some(v) = Val::of(x.get(&c, "/@value")) {
                        denoms.insert(x.text(&c, "/@group_id"), v);
                    }
                }
            }
            for cat in x.children(&format!("{cl}/category_list[1]"), "category") {
                let pop = population(&ct, &x.text(&cat, "/title[1]"));
                for me in x.children(&format!("{cat}/measurement_list[1]"), "measurement") {
                    let group = x.text(&me, "/@group_id");
                    o.measurements.push(Measurement {
                        population: pop.clone(),
                        analyzed: denoms.get(&group).cloned(),
                        group,
                        value: Val::of(x.get(&me, "/@value")),
                        spread: Val::of(x.get(&me, "/@spread")),
                        lower: Val::of(x.get(&me, "/@lower_limit")),
                        upper: Val::of(x.get(&me, "/@upper_limit")),
                    });
                }
            }
        }
        // the legacy schema keeps analyses beside the measure, under the outcome
        for a in x.children(&format!("{out}/analysis_list[1]"), "analysis") {
            let v = |k: &str| Val::of(x.get(&a, &format!("/{k}[1]")));
            let t = |k: &str| x.text(&a, &format!("/{k}[1]"));
            o.analyses.push(Analysis {
                groups: x
                    .children(&format!("{a}/group_id_list[1]"), "group_id")
                    .iter()
                    .map(|g| x.text(g, ""))
                    .collect(),
                p_value: v("p_value"),
                estimate: v("param_value"),
                estimate_type: t("param_type"),
                method: v("method"),
                non_inferiority: v("non_inferiority_type"),
                ci_pct: t("ci_percent"),
                ci_sides: t("ci_n_sides"),
                ci_lower: v("ci_lower_limit"),
                ci_upper: v("ci_upper_limit"),
                dispersion_type: t("dispersion_type"),
                dispersion: v("dispersion_value"),
                description: v("groups_desc"),
                comment: v("estimate_desc"),
            });
        }
        s.outcomes.push(o);
    }
    let ev = format!("{res}/reported_events[1]");
    let mut titles = BTreeMap::new();
    for g in x.children(&format!("{ev}/group_list[1]"), "group") {
        titles.insert(x.text(&g, "/@group_id"), x.text(&g, "/title[1]"));
    }
    // The "Total" category's first event holds the serious-event totals per group.
    for cat in x.children(
        &format!("{ev}/serious_events[1]/category_list[1]"),
        "category",
    ) {
        if x.text(&cat, "/title[1]") != "Total" {
            continue;
        }
        if let Some(e) = x.children(&format!("{cat}/event_list[1]"), "event").first() {
            for c in x.children(e, "counts") {
                s.events.push(EventGroup {
                    title: titles
                        .get(&x.text(&c, "/@group_id"))
                        .cloned()
                        .unwrap_or_default(),
                    affected: Val::of(x.get(&c, "/@subjects_affected")),
                    at_risk: Val::of(x.get(&c, "/@subjects_at_risk")),
                });
            }
        }
    }
    s
}

/// A posted value stated as a fact: the value is its field's whole text, quoted at the
/// field's locator.
fn stated(e: &mut Emit<'_>, field: &str, key: &Key, unit: &str, row: &Row, v: &Val) -> String {
    e.fact(field, key, &v.text, unit, row, &v.text, &v.loc)
}

fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

pub fn trials(input: &Input<'_>, e: &mut Emit<'_>) {
    for (row, s) in input.studies() {
        let key = Key::endpoint(&s.nct);
        let multi = s.phases.len() > 1;
        // a combined study (PHASE2 and PHASE3) keeps one cell per listed phase, each saying
        // which combination it belongs to, never an ordinal that reads as a phase number
        let all = s
            .phases
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("/");
        let phase_ids: Vec<String> = s
            .phases
            .iter()
            .map(|p| {
                let k = Key {
                    population: if multi {
                        format!("{} of {all}", p.text)
                    } else {
                        String::new()
                    },
                    ..key.clone()
                };
                stated(e, "trials.phase", &k, "", row, p)
            })
            .collect();
        if let Some(v) = &s.sponsor {
            stated(e, "trials.sponsor", &key, "", row, v);
        }
        if let Some(v) = &s.enrollment {
            let unit = format!("participants ({})", s.enrollment_type.to_lowercase());
            stated(
                e,
                "trials.enrollment",
                &key,
                unit.trim_end_matches(" ()"),
                row,
                v,
            );
        }
        if let Some(v) = &s.primary_completion {
            stated(e, "trials.primary_completion", &key, "", row, v);
        }
        let status_id = s
            .status
            .as_ref()
            .map(|v| stated(e, "trials.status", &key, "", row, v));
        match (&s.results_posted, s.has_results, status_id) {
            (Some(v), _, _) => {
                stated(e, "trials.results_posted", &key, "", row, v);
            }
            (None, false, Some(input)) => {
                e.over(
                    Label::Inference,
                    "trials.results_posted",
                    &key,
                    "not posted",
                    "",
                    vec![input],
                    "the registry record (this version) holds no results section",
                );
            }
            (None, true, _) => e.undecided(
                "trials.results_posted",
                format!(
                    "{} holds a results section (its results fill efficacy cells) but states \
                     no date they were first posted",
                    s.nct
                ),
            ),
            _ => {}
        }
        if let Some(a) = &s.allocation {
            stated(e, "trials.allocation", &key, "", row, a);
        }
        pivotal(s, &key, row, &phase_ids, e);
    }
}

/// A trial is flagged pivotal when a registered phase is 3 and allocation is randomized:
/// an inference over the two quoted facts, never a fact itself.
fn pivotal(s: &Study, key: &Key, row: &Row, phase_ids: &[String], e: &mut Emit<'_>) {
    let phase3 = s.phases.iter().position(|p| {
        let t = p.text.to_ascii_uppercase().replace(' ', "");
        t.contains("PHASE3")
    });
    let randomized = s
        .allocation
        .as_ref()
        .filter(|a| a.text.eq_ignore_ascii_case("RANDOMIZED"));
    if phase3.is_none() || randomized.is_none() {
        let phases = s
            .phases
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("/");
        let allocation = s
            .allocation
            .as_ref()
            .map_or("not stated", |a| a.text.as_str());
        e.undecided(
            "trials.pivotal",
            format!(
                "pivotal is inferred only for a registered phase 3 with randomized allocation; \
                 {} lists phase {} and allocation {allocation}",
                s.nct,
                if phases.is_empty() {
                    "not stated"
                } else {
                    &phases
                }
            ),
        );
    }
    if let (Some(i), Some(a)) = (phase3, randomized) {
        let ip = phase_ids[i].clone();
        // Emitted by `trials` already; the same statement returns the same id.
        let ia = stated(e, "trials.allocation", key, "", row, a);
        e.over(
            Label::Inference,
            "trials.pivotal",
            key,
            "pivotal (phase 3, randomized)",
            "",
            vec![ip, ia],
            "a registered phase 3 with randomized allocation",
        );
    }
}

/// The fields a measurement's spread and limits go to, by the outcome's dispersion type:
/// a CI field only ever holds a confidence interval; ranges, inter-quartile ranges, SDs
/// and SEs have fields named for them.
fn spread_fields(dispersion: &str) -> (&'static str, &'static str, &'static str) {
    let d = dispersion.to_lowercase().replace(['_', '-'], " ");
    let spread = if d.contains("standard deviation") {
        "efficacy.sd"
    } else if d.contains("standard error") {
        "efficacy.se"
    } else {
        "efficacy.dispersion"
    };
    let (lower, upper) = if d.contains("confidence interval") {
        ("efficacy.ci_lower", "efficacy.ci_upper")
    } else if d.contains("quartile") {
        ("efficacy.iqr_lower", "efficacy.iqr_upper")
    } else if d.contains("range") {
        ("efficacy.range_min", "efficacy.range_max")
    } else {
        ("efficacy.limit_lower", "efficacy.limit_upper")
    };
    (spread, lower, upper)
}

/// The interval of an analysis's estimate in words: `95% CI, two-sided`.
pub fn ci_words(pct: &str, sides: &str) -> String {
    let sides = match sides.to_ascii_lowercase().replace(['_', '-'], " ").as_str() {
        "two sided" | "2 sided" => "two-sided",
        "one sided" | "1 sided" => "one-sided",
        "" => "sides not stated",
        _ => sides,
    }
    .to_string();
    if pct.trim().is_empty() {
        format!("CI (level not stated), {sides}")
    } else {
        format!("{}% CI, {sides}", pct.trim())
    }
}

/// The arm key of an analysis: its groups in the direction the source states
/// (`Nivolumab vs Docetaxel` for "HR = Nivolumab over Docetaxel"), or all of them with
/// "(direction not stated)" when no text of the analysis states one.
fn analysis_arm<'a>(a: &'a Analysis, titles: &[String]) -> (String, Option<(&'a Val, String)>) {
    if titles.len() == 2 {
        let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
        for text in [&a.comment, &a.description].into_iter().flatten() {
            if let Some(d) = super::direction::stated(&text.text, &refs) {
                let arm = format!("{} vs {}", titles[d.first], titles[d.second]);
                return (arm, Some((text, d.phrase.to_string())));
            }
        }
    }
    let all = match titles {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    (format!("{all} (direction not stated)"), None)
}

/// The cell key of outcome `o`'s analysis `j`: the outcome's endpoint, `analysis N` (with
/// what it covers when the record says so briefly) and the groups in the stated
/// direction; with the text that states the direction, and that brief statement.
pub fn analysis_key<'a>(
    o: &Outcome,
    j: usize,
    a: &'a Analysis,
) -> (Key, Option<(&'a Val, String)>, Option<&'a str>) {
    let titles: Vec<String> = a
        .groups
        .iter()
        .map(|g| o.groups.get(g).cloned().unwrap_or_else(|| g.clone()))
        .collect();
    let (arm, direction) = analysis_arm(a, &titles);
    // a short statement of what the analysis covers ("PD-L1 expression >= 5%", "Week
    // 12") belongs to its population; a long one is its own field
    let what = a
        .description
        .as_ref()
        .map(|d| d.text.trim())
        .filter(|d| !d.is_empty() && d.chars().count() <= 80);
    let k = Key {
        endpoint: o.endpoint.clone(),
        population: match what {
            Some(w) => format!("analysis {}: {w}", j + 1),
            None => format!("analysis {}", j + 1),
        },
        arm,
    };
    (k, direction, what)
}

pub fn efficacy(input: &Input<'_>, e: &mut Emit<'_>) {
    for (row, s) in input.studies() {
        for o in &s.outcomes {
            let arm = |gid: &str| {
                o.groups
                    .get(gid)
                    .cloned()
                    .unwrap_or_else(|| gid.to_string())
            };
            for (gid, v) in &o.analyzed {
                let k = Key {
                    endpoint: o.endpoint.clone(),
                    population: String::new(),
                    arm: arm(gid),
                };
                stated(e, "efficacy.analyzed", &k, "participants", row, v);
            }
            let (spread_field, lower_field, upper_field) = spread_fields(&o.dispersion);
            let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
            for m in &o.measurements {
                let v = m.value.as_ref().filter(|v| has_digit(&v.text));
                // a value posted as NA (a median not reached) keeps the limits the record
                // does state, in the cell the value would have
                let n = seen
                    .entry((m.population.clone(), m.group.clone()))
                    .or_default();
                let nth = if v.is_some() {
                    *n += 1;
                    *n
                } else {
                    *n + 1
                };
                let population = if nth > 1 {
                    format!("{} #{nth}", m.population)
                } else {
                    m.population.clone()
                };
                let k = Key {
                    endpoint: o.endpoint.clone(),
                    population,
                    arm: arm(&m.group),
                };
                if let Some(v) = v {
                    stated(e, "efficacy.value", &k, &o.unit, row, v);
                }
                // a class with its own denominators: the count behind this value
                if let Some(a) = m
                    .analyzed
                    .as_ref()
                    .filter(|a| v.is_some() && has_digit(&a.text))
                {
                    stated(e, "efficacy.analyzed", &k, "participants", row, a);
                }
                for (field, x) in [
                    (spread_field, &m.spread),
                    (lower_field, &m.lower),
                    (upper_field, &m.upper),
                ] {
                    if let Some(x) = x.as_ref().filter(|x| has_digit(&x.text)) {
                        stated(e, field, &k, &o.dispersion, row, x);
                    }
                }
            }
            for (j, a) in o.analyses.iter().enumerate() {
                let (k, direction, what) = analysis_key(o, j, a);
                if let Some((text, phrase)) = &direction {
                    e.fact(
                        "efficacy.comparison",
                        &k,
                        phrase,
                        "",
                        row,
                        &text.text,
                        &text.loc,
                    );
                }
                let ci = ci_words(&a.ci_pct, &a.ci_sides);
                let numeric = [
                    (
                        "efficacy.effect_estimate",
                        &a.estimate,
                        a.estimate_type.as_str(),
                    ),
                    ("efficacy.estimate_ci_lower", &a.ci_lower, ci.as_str()),
                    ("efficacy.estimate_ci_upper", &a.ci_upper, ci.as_str()),
                    (
                        "efficacy.estimate_dispersion",
                        &a.dispersion,
                        a.dispersion_type.as_str(),
                    ),
                    ("efficacy.p_value", &a.p_value, ""),
                ];
                for (field, x, unit) in numeric {
                    if let Some(x) = x.as_ref().filter(|x| has_digit(&x.text)) {
                        stated(e, field, &k, unit, row, x);
                    }
                }
                for (field, x) in [
                    ("efficacy.statistical_method", &a.method),
                    ("efficacy.non_inferiority_type", &a.non_inferiority),
                ] {
                    if let Some(x) = x.as_ref().filter(|x| !x.text.trim().is_empty()) {
                        stated(e, field, &k, "", row, x);
                    }
                }
                if let Some(d) = a.description.as_ref().filter(|_| what.is_none())
                    && !d.text.trim().is_empty()
                {
                    stated(e, "efficacy.analysis_description", &k, "", row, d);
                }
            }
        }
    }
}

pub fn safety(input: &Input<'_>, e: &mut Emit<'_>) {
    for (row, s) in input.studies() {
        for g in &s.events {
            let k = Key {
                endpoint: s.nct.clone(),
                population: String::new(),
                arm: g.title.clone(),
            };
            let (Some(a), Some(n)) = (&g.affected, &g.at_risk) else {
                continue;
            };
            // a group nobody was at risk in (a cohort that never enrolled) has no serious
            // adverse event count to show: "0 of 0" is not a safety finding
            if n.text.trim().parse::<f64>().is_ok_and(|y| y == 0.0) {
                continue;
            }
            let ia = stated(e, "safety.serious_ae_affected", &k, "participants", row, a);
            let ir = stated(e, "safety.serious_ae_at_risk", &k, "participants", row, n);
            if let (Ok(x), Ok(y)) = (a.text.parse::<f64>(), n.text.parse::<f64>())
                && y > 0.0
            {
                e.over(
                    Label::Derived,
                    "safety.serious_ae_rate",
                    &k,
                    &format!("{:.1}", 100.0 * x / y),
                    "%",
                    vec![ia, ir],
                    "serious_ae_affected / serious_ae_at_risk x 100, one decimal",
                );
            }
        }
    }
}
