//! The run-level checks, on top of the claim gates: a claim's field must be in the
//! profile schema with a label it allows (`schema`), a modeled value must name accepted
//! assumptions (`label`), and an arm-level fact must sit at a locator that the
//! extractive reasoner bound to the same cell (`binding`). Pure, like the gates.

use std::collections::HashMap;

use crate::domain::{Claim, ClaimLine, Label};
use crate::run::evidence::Evidence;
use crate::run::profile::{self, FieldSpec};

use super::{Context, Gate, Scope, Verdict, verify};

/// A cell's identity below its asset: field, endpoint, population, arm.
type CellKey = (String, String, String, String);

/// Which cell the value at (source id, locator) belongs to.
/// A locator can back several cells (a class's denominator counts for each of its
/// categories), so each (source, locator) keeps every cell it binds.
type Bindings = HashMap<(String, String), Vec<CellKey>>;

fn cell_key(c: &Claim) -> CellKey {
    (
        c.field.clone(),
        c.endpoint.clone().unwrap_or_default(),
        c.population.clone().unwrap_or_default(),
        c.arm.clone().unwrap_or_default(),
    )
}

/// Gates plus the run-level checks for one asset's claims. The first `structural` claims
/// are the extractive reasoner's: their accepted arm-level facts define which (source id,
/// locator) holds which cell's value, and every arm-level fact must match that binding.
/// `scope` holds the asset's names and records; the structural claims' places are bound
/// into it for the entailment gate.
pub fn judge(
    claims: &[Claim],
    structural: usize,
    ev: &Evidence,
    mut scope: Scope,
    judge: Option<&dyn super::entailment::Judge>,
) -> Vec<Verdict> {
    let lines: Vec<ClaimLine> = claims
        .iter()
        .map(|c| ClaimLine::Claim(Box::new(c.clone())))
        .collect();
    let structural = structural.min(claims.len());
    // A number read from text is bound by the gate's text rules, never by the reasoner's
    // own word: only structured places are bound here.
    scope.bind(
        claims[..structural]
            .iter()
            .filter_map(|c| c.source.as_deref().map(|s| (c, s)))
            .filter(|(c, s)| !text_arm_level(c, s)),
    );
    let asset = claims.first().map(|c| c.asset.clone()).unwrap_or_default();
    let assets = HashMap::from([(asset, scope)]);
    let cx = Context::new(&assets).with_judge(judge);
    let mut verdicts = verify(&lines, ev, Some(&cx));
    let bound = bindings(&claims[..structural], &verdicts);
    for (c, v) in claims.iter().zip(verdicts.iter_mut()) {
        let Some(spec) = profile::spec(&c.field) else {
            v.reject(
                Gate::Schema,
                format!("{:?} is not a profile field", c.field),
                false,
            );
            continue;
        };
        check_schema(c, spec, v);
        let text = v.source_id.as_deref().is_some_and(|s| text_arm_level(c, s));
        if spec.arm_bound && c.label == Label::Fact && !text {
            check_binding(c, &bound, v);
        }
        if text && c.label == Label::Fact && v.accepted() {
            check_text_binding(c, v);
        }
    }
    // Models last, in order (rNPV names peak sales), over the verdicts of their inputs.
    for k in 0..claims.len() {
        if claims[k].label == Label::Modeled
            && let Err(why) = inputs_visible(&claims[k], claims, &verdicts)
        {
            verdicts[k].reject(Gate::Label, why, false);
        }
    }
    verdicts
}

/// Whether `c` is an arm-level fact cited to a text record (a paper's abstract, a label's
/// clinical studies, a press page): its arm, endpoint and time point are what the
/// entailment gate's text binder reads in the quote, not a posted result's locator.
pub fn text_arm_level(c: &Claim, source_id: &str) -> bool {
    let family = source_id.split(':').next().unwrap_or("");
    matches!(family, "pubmed" | "fda_label" | "press")
        && profile::spec(&c.field).is_some_and(|s| s.arm_bound)
}

/// The cells that the accepted arm-level facts of the extractive reasoner bind.
fn bindings(structural: &[Claim], verdicts: &[Verdict]) -> Bindings {
    let mut bound = Bindings::new();
    for (c, v) in structural.iter().zip(verdicts) {
        if v.accepted()
            && c.label == Label::Fact
            && profile::spec(&c.field).is_some_and(|s| s.arm_bound)
            && let (Some(sid), Some(loc)) = (&v.source_id, &c.locator)
            && !text_arm_level(c, sid)
        {
            bound
                .entry((sid.clone(), loc.clone()))
                .or_default()
                .push(cell_key(c));
        }
    }
    bound
}

/// The field's labels and sections: some fields take only some labels, and a valuation
/// is never a fact.
fn check_schema(c: &Claim, spec: &FieldSpec, v: &mut Verdict) {
    if !spec.labels.is_empty() && !spec.labels.contains(&c.label) {
        let why = format!(
            "{} takes only {:?} claims, not {:?}",
            spec.name, spec.labels, c.label
        );
        v.reject(Gate::Schema, why.to_lowercase(), false);
    }
    if spec.section() == "valuation" && c.label == Label::Fact {
        v.reject(Gate::Schema, "valuation is never a fact".into(), false);
    }
}

/// A modeled claim names its inputs, each accepted, and at least one of them is an
/// assumption (a model over no visible assumption is a fact in disguise).
fn inputs_visible(c: &Claim, claims: &[Claim], verdicts: &[Verdict]) -> Result<(), String> {
    if c.formula.as_deref().is_none_or(|f| f.trim().is_empty()) {
        return Err("a modeled claim must state its formula".into());
    }
    let mut assumptions = 0;
    for i in &c.inputs {
        match claims.iter().position(|x| &x.id == i) {
            Some(k) if verdicts[k].accepted() => {
                assumptions += usize::from(claims[k].label == Label::Assumption);
            }
            Some(_) => return Err(format!("its input claim {i:?} was rejected")),
            None => {
                return Err(format!(
                    "its input claim {i:?} is not among the asset's claims"
                ));
            }
        }
    }
    if assumptions == 0 {
        return Err("a modeled claim must name its assumption claims, each accepted".into());
    }
    Ok(())
}

/// A number read from text names its trial and its group: the text binder found a group
/// in its clause (or the sentence's only one) and a trial the record or asset names.
fn check_text_binding(c: &Claim, v: &mut Verdict) {
    let blank = |x: &Option<String>| x.as_deref().is_none_or(|s| s.trim().is_empty());
    if blank(&c.arm) {
        v.reject(
            Gate::Binding,
            "a number read from text must name its group: the sentence names none, or several and none in the number's clause".into(),
            false,
        );
    } else if c.endpoint.as_deref().is_none_or(|e| !e.starts_with("NCT")) {
        v.reject(
            Gate::Binding,
            "a number read from text must name its trial: its sentence and record name none by NCT id or acronym, and it may not fall back to the asset's only trial (a label, a study named its own way, another phase)".into(),
            false,
        );
    }
}

/// An arm-level fact must cite a locator bound to the very cell it claims.
fn check_binding(c: &Claim, bound: &Bindings, v: &mut Verdict) {
    let at = v
        .source_id
        .clone()
        .zip(c.locator.clone())
        .and_then(|k| bound.get(&k));
    match at {
        Some(ks) if ks.contains(&cell_key(c)) => {}
        Some(ks) => {
            let k = &ks[0];
            v.reject(
                Gate::Binding,
                format!(
                    "the value at {} belongs to {} / {} / {} / {}, not to the claimed cell",
                    c.locator.as_deref().unwrap_or(""),
                    k.0,
                    k.1,
                    k.2,
                    k.3
                ),
                false,
            )
        }
        None => v.reject(
            Gate::Binding,
            "an arm-level value needs a locator to a posted result of the cited trial".into(),
            false,
        ),
    }
}
