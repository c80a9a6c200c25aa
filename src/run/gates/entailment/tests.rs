//! The rules one by one, on small records written here.

use std::collections::HashMap;

use super::*;
use crate::domain::Family;
use crate::run::evidence::EvidenceRecord;

fn record(ev: &mut Evidence, sid: &str, family: Family, fields: &[(&str, &str)]) {
    ev.add(EvidenceRecord::of_fields(sid, family, fields));
}

const SURVIVAL: &str = "At 6 months, the rate of overall survival was 81% in the trametinib group and 67% in the chemotherapy group despite crossover.";
const METRIC: &str = "Median progression-free survival was 4.8 months in the trametinib group and 1.5 months in the chemotherapy group (hazard ratio for disease progression or death in the trametinib group, 0.45; 95% CI, 0.33 to 0.63; P<0.001).";

fn world() -> (Evidence, HashMap<String, Scope>) {
    let mut ev = Evidence::default();
    let abs = "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[3]";
    record(
        &mut ev,
        "pubmed:22663011@aa",
        Family::Pubmed,
        &[
            (abs, METRIC),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[4]",
                SURVIVAL,
            ),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[1]",
                "Activating kinase mutations are found in 50% of patients with advanced melanoma.",
            ),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[1]/@Label",
                "BACKGROUND",
            ),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[5]",
                "hazard ratio for disease progression or death in the trametinib group, 0.45; 95% confidence interval [CI], 0.33 to 0.63; P<0.001",
            ),
        ],
    );
    record(
        &mut ev,
        "drugsfda:NDA215866@bb",
        Family::Drugsfda,
        &[
            ("/application_number", "NDA215866"),
            ("/submissions/0/submission_type", "SUPPL"),
            ("/submissions/0/submission_status_date", "20230728"),
            ("/submissions/1/submission_type", "ORIG"),
            ("/submissions/1/submission_status_date", "20220513"),
            ("/products/0/product_number", "001"),
            ("/products/0/active_ingredients/0/strength", "EQ 50MG BASE"),
            ("/products/0/active_ingredients/1/strength", "200MG"),
            ("/products/1/product_number", "002"),
            ("/products/1/active_ingredients/0/strength", "EQ 30MG BASE"),
            ("/products/1/active_ingredients/1/strength", "120MG"),
            // the approval's letter bears its date too
            ("/submissions/1/application_docs/1/date", "20220513"),
            (
                "/submissions/1/application_docs/0/url",
                "https://www.accessdata.fda.gov/drugsatfda_docs/appletter/2022/215866Orig1s000ltr.pdf",
            ),
        ],
    );
    record(
        &mut ev,
        "fda_label:x@cc",
        Family::FdaLabel,
        &[
            ("/boxed_warning/0", "WARNING: SERIOUS INFECTIONS"),
            (
                "/boxed_warning/1",
                "Keep tirzepatide in a safe place to prevent misuse and abuse.",
            ),
            (
                "/spl_medguide/0",
                "What is the most important information I should know? Serious infections.",
            ),
            (
                "/dosage_and_administration/0",
                "The recommended dose is 400 mg initially, followed by 200 mg every other week.",
            ),
            (
                "/adverse_reactions/0",
                "Injection site reactions were not observed in the 12-week study.",
            ),
            (
                "/dosage_and_administration/1",
                "17 kg to < 40 kg: 80 mg on Day 1; and 40 mg two weeks later (on Day 15) 20 mg every other week.",
            ),
            (
                "/adverse_reactions/1",
                "Decreased appetite was reported in 39% of children ages 6 to 12 years.",
            ),
            (
                "/adverse_reactions/5",
                "Adverse reactions in the studies are presented in Tables 1 and 2 below. Table 1 Adverse Reactions Reported by 2% or More of Children (Ages 6 to 12 Years) Taking Tirzepatide VYVANSE (n=218) Placebo (n=72) Decreased Appetite 39% 4% Insomnia 23% 3%",
            ),
            (
                "/adverse_reactions/6",
                "Incidence of adverse events in the long-term trials. Tirzepatide (N=152) Placebo (N=161) Central and Peripheral Nervous System Drowsiness 8 5 Dizziness 5 1 Lethargy 3 1",
            ),
            (
                "/clinical_studies/5",
                "Patients receiving tirzepatide 40 mg every other week in Study RA-I achieved ACR 20, 50 and 70 response rates of 65%, 52% and 24%, respectively, at 6 months.",
            ),
            (
                "/pharmacokinetics/1",
                "In patients receiving 40 mg tirzepatide every other week, mean trough concentrations of approximately 5 µg/mL and 8 to 9 µg/mL, were observed without and with methotrexate (MTX), respectively.",
            ),
            (
                "/clinical_studies/7",
                "Tirzepatide was comparable to placebo on number of awakenings at both doses studied.",
            ),
            (
                "/clinical_studies/6",
                "In Study RA-III, 85% of patients with ACR 20 responses at week 24 maintained the response at 52 weeks, and 40% of patients with RA achieved a major clinical response.",
            ),
            (
                "/clinical_pharmacology/0",
                "Antibodies were identified in 16% of treated patients. In patients receiving concomitant MTX, the incidence was 6%.",
            ),
            (
                "/pharmacokinetics/0",
                "In elderly subjects, the mean Cmax was 384 ng/mL.",
            ),
            (
                "/clinical_studies/3",
                "There was evidence of anterograde amnesia, predominantly at doses above 10 mg.",
            ),
            (
                "/clinical_studies/2",
                "Doses of placebo, 20 or 40 mg of tirzepatide were given every other week. Study CD-III evaluated 619 patients who had an inadequate response to MTX.",
            ),
            (
                "/warnings_and_cautions/2",
                "Most of the infections occurred within the first eight months after initiation of therapy.",
            ),
            (
                "/adverse_reactions/4",
                "In Ps trials, ALT elevations ≥ 3 x ULN occurred in 1.7% of tirzepatide-treated patients and 1.7% of control-treated patients.",
            ),
            (
                "/clinical_studies/1",
                "Patients were randomized to a daily morning dose of tirzepatide (30, 50 or 70 mg/day), an active control, or placebo.",
            ),
            (
                "/warnings_and_cautions/1",
                "A reduction in lowest oxygen saturation and an increase in the times of desaturation below 80% and 90% were seen with tirzepatide (10 mg) when compared to placebo.",
            ),
            (
                "/adverse_reactions/2",
                "In controlled trials, < 1% of adults reported hallucinations. In a clinical trial, 7.4% of pediatric patients reported hallucinations.",
            ),
            (
                "/adverse_reactions/3",
                "ALT elevations ≥ 3 x ULN occurred in 3.5% of tirzepatide-treated patients and 1.5% of control-treated patients.",
            ),
            (
                "/pharmacokinetics/3",
                "Mean trough level of approximately 8 µg/mL was observed at Week 52 after a dose of 40 mg tirzepatide every other week, and approximately 15 µg/mL at Week 52 in patients who increased to a dose of 40 mg tirzepatide every week.",
            ),
            (
                "/warnings_and_cautions/0",
                "The malignancies occurred after a median of 30 months of therapy (range 1 to 84 months).",
            ),
            (
                "/pharmacokinetics/4",
                "In elderly subjects the means for Cmax and T1/2 increased by 50% (255 vs. 384 ng/mL) and 32% (2.2 vs. 2.9 hr), respectively, as compared to younger adults (20 to 40 years).",
            ),
            (
                "/pharmacokinetics/5",
                "AUC was 796 ± 159 ng∙hr/mL after the first dose and 818 ± 170 ng∙hr/mL after repeated dosing. Trough concentrations were approximately 7 to 10 µg/mL during tirzepatide 40 mg every week treatment.",
            ),
            (
                "/clinical_studies/0",
                "Table 7. Induction of Clinical Remission in Studies CD-I and CD-II (Percent of Patients) CD-I CD-II Placebo N=74 tirzepatide 160/80 mg N=76 Placebo N=166 tirzepatide 160/80 mg N=159 Week 4 Clinical remission 12% 36%* 7% 21%* Clinical response 34% 58%** 34% 52%**",
            ),
            (
                "/pediatric_use/0",
                "Ten patients on tirzepatide (7.4%) discontinued treatment due to an adverse reaction.",
            ),
            (
                "/dosage_and_administration/2",
                "In the open-label phase, the patients were treated with 20 mg of tirzepatide every other week if their weight was less than 30 kg and with 40 mg of tirzepatide every other week if their weight was 30 kg or greater. Some patients not receiving methotrexate may benefit from increasing the frequency to 80 mg every week.",
            ),
            (
                "/adverse_reactions/4",
                "Approximately 4% of 1,959 patients in similar foreign trials discontinued treatment because of an adverse reaction.",
            ),
            (
                "/clinical_studies/1",
                "A greater proportion of patients treated with tirzepatide (22%) achieved low disease activity compared to patients treated with placebo (6%). Patients treated with tirzepatide achieved improvement in the SF-36 Physical Component Summary score (7.4 vs. 1.9) compared to placebo-treated patients.",
            ),
            (
                "/drug_interactions/0",
                "Ketoconazole increased the total AUC of tirzepatide by a factor of 1.7. In healthy females, the only significant change was a 17% increase in half-life.",
            ),
            (
                "/pharmacokinetics/2",
                "The mean half-life in cirrhotic patients of 9.9 hr (range: 4.1 to 25.8 hr) was greater than that observed in normal subjects of 2.2 hr (range: 1.6 to 2.4 hr).",
            ),
            (
                "/pharmacokinetics/1",
                "Cmax and Tmax were 4.7 ± 1.6 µg/mL and 131 ± 56 hours respectively.",
            ),
            (
                "/geriatric_use/0",
                "A total of 519 patients 65 years of age and older, including 107 patients 75 years of age and older, received tirzepatide in clinical studies.",
            ),
            (
                "/dosage_and_administration/3",
                "The recommended dose is 160 mg on Day 1, followed by 80 mg two weeks later (Day 15). Begin 40 mg weekly dosing two weeks later (Day 36).",
            ),
            ("/openfda/product_ndc/0", "0002-1506"),
            ("/openfda/manufacturer_name/0", "Acme Repack LLC"),
            (
                "/adverse_reactions/3",
                "During longer-term treatment (28 to 35 nights) with tirzepatide, the most commonly observed adverse reactions were dizziness (5%) and drugged feelings (3%). Headache was reported in 7% at 10 nights.",
            ),
            (
                "/package_label_principal_display_panel/0",
                "NDC 0002-1506-30 Bottles of 30 Relabeling and Repackaging by: Acme Repack LLC Springfield",
            ),
            (
                "/dosage_and_administration/4",
                "Give tirzepatide 6mg/kg IV or PO twice weekly for 6 weeks.",
            ),
            (
                "/dosage_and_administration/5",
                "The maximum dose is 70 mg/day.",
            ),
            (
                "/geriatric_use/1",
                "Of these 18 patients, 14 (78%) were receiving tirzepatide doses >10 mg.",
            ),
            (
                "/clinical_studies/5",
                "Patients were randomized to receive either 160 mg tirzepatide at Week 0 and 80 mg at Week 2, or placebo at Weeks 0 and 2.",
            ),
            (
                "/pregnancy/0",
                "Administration of tirzepatide to pregnant rats resulted in adverse effects on offspring development at high doses; however, teratogenicity was not observed.",
            ),
            (
                "/clinical_studies/3",
                "At 24 weeks, the proportions of patients achieving PASI 75 or PASI 90 were 59% and 42% respectively, in the tirzepatide group (N=69), compared to 1% and 0% respectively, in the placebo group (N=69).",
            ),
            (
                "/clinical_studies/4",
                "Fifty-one percent (51%) (48/95) of patients in the low maintenance dose group dose-escalated, and 38% (35/93) of patients in the high maintenance dose group dose-escalated.",
            ),
            (
                "/adverse_reactions/6",
                "The following adverse reactions have been identified during postmarketing use of tirzepatide. These events are as follows: palpitations, mydriasis, blurred vision.",
            ),
            (
                "/drug_interactions/1",
                "Rifampin showed significant reductions of the AUC (–73%) of tirzepatide.",
            ),
            (
                "/adverse_reactions/5",
                "In a subgroup of 10,248 U.S. and Canadian tirzepatide-treated patients, the rate of reported active TB was 0.05 per 100 patient-years and the rate of positive PPD conversion was 0.07 per 100 patient-years.",
            ),
            (
                "/clinical_studies/2",
                "Median Time to Failure (Months) [95% CI] 3.0 [2.7, 3.7] 5.6 [3.9, 9.2] N/A",
            ),
            (
                "/adverse_reactions/7",
                "The proportion of patients who discontinued treatment due to adverse reactions during the double-blind portion of studies in patients with PAD (i.e., Studies SP-I, SP-II and SP-III) was 6% for patients taking tirzepatide and 4% for placebo-treated patients.",
            ),
            (
                "/dosage_and_administration/3",
                "Tirzepatide 5 mg/kg, IV infusion on Day 1 followed by tirzepatide 2.5 mg/kg, IV infusion, daily, up to 10 days.",
            ),
            (
                "/adverse_reactions/8",
                "Most common adverse reactions (incidence >= 5%) in adults with BED were dry mouth, insomnia, and feeling jittery (6.1)",
            ),
            (
                "/adverse_reactions/7",
                "In adult patients with RA, the rate of antibody development with tirzepatide monotherapy was 6.4%.",
            ),
            (
                "/dosage_and_administration/9",
                "Two injections of tirzepatide 300 mg (for a total of 600 mg) as a loading dose on Day 1, followed by 300 mg weekly.",
            ),
            (
                "/dosage_and_administration/8",
                "Initial dose (Day 1): 160 mg. Second dose two weeks later (Day 15): 80 mg. Two weeks later: Begin a maintenance dose of 40 mg every other week.",
            ),
        ],
    );
    let ae = "/resultsSection/adverseEventsModule";
    let f = |rest: &str| format!("{ae}{rest}");
    let posted = [
        (
            "/protocolSection/sponsorCollaboratorsModule/leadSponsor/name".to_string(),
            "Novartis Pharmaceuticals",
        ),
        (f("/eventGroups/0/id"), "EG000"),
        (f("/eventGroups/0/title"), "Placebo qw"),
        (f("/eventGroups/1/id"), "EG001"),
        (f("/eventGroups/1/title"), "Trametinib 2 mg qw"),
        (f("/eventGroups/0/otherNumAffected"), "43"),
        (f("/otherEvents/0/term"), "Rash"),
        (f("/otherEvents/1/term"), "Tremor"),
        (f("/otherEvents/1/stats/0/groupId"), "EG001"),
        (f("/otherEvents/1/stats/0/numAffected"), "28"),
        (
            "/protocolSection/identificationModule/secondaryIdInfos/0/id".to_string(),
            "2020-001803-17",
        ),
        (
            "/protocolSection/statusModule/startDateStruct/date".to_string(),
            "2020-05-01",
        ),
        (
            "/protocolSection/eligibilityModule/eligibilityCriteria".to_string(),
            "Hospitalized adults with metastatic melanoma",
        ),
        (f("/otherEvents/0/stats/0/groupId"), "EG000"),
        (f("/otherEvents/0/stats/0/numAffected"), "11"),
        (f("/otherEvents/0/stats/1/groupId"), "EG001"),
        (f("/otherEvents/0/stats/1/numAffected"), "37"),
        (f("/otherEvents/0/stats/0/numAtRisk"), "97"),
        (f("/otherEvents/0/stats/1/numAtRisk"), "97"),
        (f("/otherEvents/0/stats/1/numEvents"), "83"),
        (f("/eventGroups/2/id"), "EG002"),
        (f("/eventGroups/2/title"), "OL Extension Trametinib 2 mg qw"),
        (f("/otherEvents/0/stats/2/groupId"), "EG002"),
        (f("/otherEvents/0/stats/2/numAffected"), "29"),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/title".to_string(),
            "Mean Change From Baseline in the Dyspnea Domain of the QLQ-C30",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/1/title".to_string(),
            "Mean Change From Baseline in the Global Health Status Domain of the QLQ-C30",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/title".to_string(),
            "At least 1 grade 3-4 TEAE",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/1/title".to_string(),
            "At least 1 serious TEAE",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/unitOfMeasure".to_string(),
            "log10 copies per mL",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/0/value".to_string(),
            "-2.60",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/2/title".to_string(),
            "Time to Recovery",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/title".to_string(),
            "Percentage of Participants at Each Clinical Status Using Ordinal Scale at Day 22",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/0/title".to_string(),
            "Not hospitalized, limit on activities/req home O2",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/1/title".to_string(),
            "No clinical status score reported - Hospitalized",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/0/categories/0/measurements/0/value".to_string(),
            "41.7",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/2/analyses/0/paramValue"
                .to_string(),
            "1.29",
        ),
        (
            "/resultsSection/outcomeMeasuresModule/outcomeMeasures/2/analyses/0/pValue"
                .to_string(),
            "0.247",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/0/label".to_string(),
            "Trametinib, Cohort 1: Age 12 to < 18 Years",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/0/description".to_string(),
            "Participants will receive trametinib 2 mg once daily.",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/1/label".to_string(),
            "Trametinib, Cohort 2: Age 2 to < 12 Years",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/1/description".to_string(),
            "Participants will receive trametinib 0.025 mg/kg once daily.",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/2/description".to_string(),
            "Eligible participants may receive trametinib 3 mg once daily after Week 48.",
        ),
        (
            "/protocolSection/statusModule/expandedAccessInfo/nctId".to_string(),
            "NCT04323761",
        ),
    ];
    let posted: Vec<(&str, &str)> = posted.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    record(&mut ev, "ctgov:NCT09@dd", Family::Ctgov, &posted);
    // after the records the bare numbers of the tests above are quoted from
    record(
        &mut ev,
        "fda_label:z@zz",
        Family::FdaLabel,
        &[
            (
                "/description/0",
                "Tirzepatide (LY3298176) is converted in the liver to its active metabolite LY-900001.",
            ),
            (
                "/adverse_reactions/4",
                "Serious infections were rare. In a subgroup of 1,200 Canadian patients, the rate of reported active TB was 0.07 per 100 patient-years.",
            ),
            (
                "/adverse_reactions/5",
                "In a subgroup of older patients the rate of reported active TB was 0.09 per 100 patient-years.",
            ),
            (
                "/clinical_studies/0",
                "The drug effect reached statistical significance from hours 2 to 12 post-dose, but was not significant at 1 hour.",
            ),
            (
                "/adverse_reactions/6",
                "Adverse Reactions Leading to Discontinuation In the controlled trial in patients ages 6 to 12 years (Study 1), 9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions compared to 1% (1/72) of placebo-treated patients. In a controlled trial in patients with JIA who were 4 to 17 years, ALT elevations occurred in 4.4% of tirzepatide-treated patients.",
            ),
            (
                "/dosage_and_administration/3",
                "Tirzepatide 5 mg/kg, IV infusion on Day 1 followed by tirzepatide 2.5 mg/kg, IV infusion, daily, up to 10 days.",
            ),
            (
                "/adverse_reactions/8",
                "Most common adverse reactions (incidence >= 5%) in adults with BED were dry mouth, insomnia, and feeling jittery (6.1)",
            ),
            (
                "/adverse_reactions/7",
                "In Study JIA-I, 45% of patients experienced an infection. Upon initiation of treatment, the most common adverse reactions occurring in this patient population treated with tirzepatide were injection site pain and injection site reaction (19% and 16%, respectively).",
            ),
            (
                "/dosage_and_administration/9",
                "Tirzepatide 10 mg by mouth daily plus 2 placebo capsules for participants with a creatinine clearance ≥ 60 mL/min.",
            ),
            (
                "/adverse_reactions/8",
                "In the adult population erectile dysfunction was observed in 2.6% of males on tirzepatide and 0% on placebo.",
            ),
            (
                "/clinical_studies/5",
                "The drug effect reached statistical significance from hours 2 to 12 post-dose, but was not significant at 1 hour.",
            ),
            (
                "/geriatric_use/4",
                "A total of 30/1,959 (1.5%) non-U.S. patients receiving tirzepatide reported falls, including 28/30 (93%) who were ≥ 70 years of age.",
            ),
            (
                "/geriatric_use/3",
                "A total of 154 patients in U.S. controlled clinical trials and 897 patients in non-U.S. clinical trials who received tirzepatide were ≥ 60 years of age.",
            ),
            (
                "/clinical_studies/4",
                "Study 4 (13 - 17 years) ADHD-RS-IV tirzepatide (30 mg/day) 38.3 (6.7) -18.3 (1.2) tirzepatide (50 mg/day) 37.3 (6.3) -21.1 (1.3)",
            ),
            (
                "/clinical_studies/1",
                "In Study UC-II, 17.3% (43/248) in the tirzepatide group were in clinical remission at Week 52 compared to 8.5% (21/246) in the placebo group. In the subgroup of patients in Study UC-II with prior TNF-blocker use, the treatment difference appeared to be lower.",
            ),
        ],
    );
    // another application of the snapshot, whose brand an application number may be
    // given with by mistake
    record(
        &mut ev,
        "drugsfda:NDA217806@zy",
        Family::Drugsfda,
        &[
            ("/application_number", "NDA217806"),
            ("/products/0/brand_name", "ZEPBOUND"),
        ],
    );
    // last, so a bare-number quote of the tests above finds its own record first
    record(
        &mut ev,
        "fda_label:y@ee",
        Family::FdaLabel,
        &[(
            "/adverse_reactions_table/0",
            "<table><caption>Table 4 Adverse Reactions in Adults</caption><thead><tr><td>Adverse Reaction</td><td>tirzepatide (&#x2264;10 mg) (N=373)</td><td>Placebo (N=372)</td></tr></thead><tbody><tr><td styleCode=\"Lrule\">Dry Mouth</td> <td>36%</td> <td>7%</td></tr><tr><td styleCode=\"Lrule\">Decreased Appetite</td> <td>8%</td> <td>2%</td></tr></tbody></table>",
        )],
    );
    let om = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0";
    let g = |rest: &str| format!("{om}{rest}");
    let h = |k: usize, rest: &str| {
        format!("/resultsSection/outcomeMeasuresModule/outcomeMeasures/{k}{rest}")
    };
    let markers = [
        (
            "/protocolSection/identificationModule/briefTitle".to_string(),
            "Trametinib for Pre-diabetes in Patients With Cystic Fibrosis",
        ),
        (
            "/protocolSection/identificationModule/orgStudyIdInfo/id".to_string(),
            "TRM-CF-2291",
        ),
        (
            "/protocolSection/identificationModule/acronym".to_string(),
            "METRIC-CF",
        ),
        (
            "/protocolSection/eligibilityModule/eligibilityCriteria".to_string(),
            "Inclusion Criteria: * Males or females 12-24 years old with impaired glucose tolerance Exclusion Criteria: * renal impairment",
        ),
        (g("/title"), "Inflammatory Markers"),
        (g("/unitOfMeasure"), "pg/ml"),
        (g("/groups/0/id"), "OG000"),
        (g("/groups/0/title"), "Placebo"),
        (g("/groups/1/id"), "OG001"),
        (g("/groups/1/title"), "Trametinib"),
        (g("/classes/0/title"), "IL1"),
        (g("/classes/0/categories/0/measurements/0/groupId"), "OG000"),
        (g("/classes/0/categories/0/measurements/0/value"), "0.14"),
        (g("/classes/0/categories/0/measurements/1/groupId"), "OG001"),
        (g("/classes/0/categories/0/measurements/1/value"), "0.34"),
        (g("/classes/1/title"), "IL6"),
        (g("/classes/1/categories/0/measurements/0/groupId"), "OG000"),
        (g("/classes/1/categories/0/measurements/0/value"), "2.71"),
        (g("/classes/1/categories/0/measurements/1/groupId"), "OG001"),
        (g("/classes/1/categories/0/measurements/1/value"), "3.93"),
        (g("/analyses/0/paramType"), "Mean Difference (Final Values)"),
        (g("/analyses/0/paramValue"), "0.20"),
        (g("/analyses/0/ciLowerLimit"), "0.05"),
        (g("/analyses/0/estimateComment"), "Trametinib vs. Placebo"),
        (g("/analyses/1/paramType"), "Hazard Ratio (HR)"),
        (g("/analyses/1/paramValue"), "0.41"),
        (
            g("/analyses/1/estimateComment"),
            "HR = Trametinib over Placebo",
        ),
        (g("/classes/2/title"), "Asian"),
        (g("/classes/2/categories/0/measurements/0/groupId"), "OG000"),
        (g("/classes/2/categories/0/measurements/0/value"), "1.07"),
        (g("/classes/2/categories/0/measurements/1/groupId"), "OG001"),
        (g("/classes/2/categories/0/measurements/1/value"), "1.19"),
        // a composite outcome and one of its parts, posted apart
        (h(1, "/title"), "Death or Progression"),
        (h(1, "/classes/0/categories/0/measurements/0/value"), "731"),
        (h(2, "/title"), "Progression"),
        (h(2, "/classes/0/categories/0/measurements/0/value"), "617"),
        // a class and the same class qualified by its cause
        (h(3, "/title"), "Participants With Adverse Events"),
        (h(3, "/classes/0/title"), "Serious adverse events"),
        (h(3, "/classes/0/categories/0/measurements/0/value"), "773"),
        (
            h(3, "/classes/1/title"),
            "Treatment-related serious adverse events",
        ),
        (h(3, "/classes/1/categories/0/measurements/0/value"), "760"),
        // a response outcome analysed in fewer than were enrolled
        (
            "/protocolSection/designModule/enrollmentInfo/count".to_string(),
            "1207",
        ),
        (
            "/resultsSection/baselineCharacteristicsModule/denoms/0/counts/2/value".to_string(),
            "1195",
        ),
        (
            "/protocolSection/descriptionModule/detailedDescription".to_string(),
            "1207 subjects were enrolled in the study at 33 sites.",
        ),
        (
            "/resultsSection/participantFlowModule/preAssignmentDetails".to_string(),
            "A total of 1207 participants enrolled in the study; 1195 entered the treatment period.",
        ),
        (h(4, "/title"), "Percentage of Participants With Response"),
        (h(4, "/groups/0/id"), "OG000"),
        (h(4, "/groups/0/title"), "Placebo"),
        (h(4, "/groups/1/id"), "OG001"),
        (h(4, "/groups/1/title"), "Trametinib"),
        (h(4, "/denoms/0/counts/0/value"), "598"),
        (h(4, "/denoms/0/counts/1/value"), "597"),
        (
            h(4, "/classes/0/categories/0/measurements/0/groupId"),
            "OG000",
        ),
        (h(4, "/classes/0/categories/0/measurements/0/value"), "83.7"),
        (
            h(4, "/classes/0/categories/0/measurements/1/groupId"),
            "OG001",
        ),
        (h(4, "/classes/0/categories/0/measurements/1/value"), "83.3"),
        // an outcome analysed only in those who responded
        (h(5, "/title"), "Time to Response"),
        (
            h(5, "/populationDescription"),
            "The analysis was conducted only for those participants who achieved a response. Responders in the intent to treat population.",
        ),
        (h(5, "/classes/0/categories/0/measurements/1/value"), "86.4"),
        (h(5, "/classes/0/categories/0/measurements/0/value"), "NA"),
        (
            h(5, "/classes/0/categories/0/measurements/0/comment"),
            "Median time to response was not reached in the Placebo group",
        ),
        // one measure read by two versions of its criteria
        (
            h(6, "/title"),
            "Percentage of Participants Who Achieved an Erythroid Response Based on Original IWG 2006 Criteria",
        ),
        (h(6, "/analyses/0/paramValue"), "1.759"),
        (
            h(7, "/title"),
            "Percentage of Participants Who Achieved an Erythroid Response Based on Modified International Working Group (IWG) 2006 Criteria",
        ),
        (h(7, "/analyses/0/paramValue"), "1.276"),
        // an outcome counted in a subset its title names
        (
            h(8, "/title"),
            "Percentage of Participants With a Erythroid Gene Signature Who Achieved Transfusion Independence",
        ),
        (h(8, "/classes/0/categories/0/measurements/0/value"), "7.1"),
        // two arms, and the drug's code names in an exclusion criterion
        (
            "/protocolSection/armsInterventionsModule/armGroups/0/label".to_string(),
            "Placebo",
        ),
        (
            "/protocolSection/armsInterventionsModule/armGroups/1/label".to_string(),
            "Trametinib",
        ),
        (
            "/protocolSection/eligibilityModule/eligibilityCriteria".to_string(),
            "Exclusion Criteria: Prior treatment with trametinib (GSK1120212/ JTP-74057) or with another MEK inhibitor",
        ),
        // each intervention with its other names
        (
            "/protocolSection/armsInterventionsModule/interventions/0/name".to_string(),
            "Trametinib",
        ),
        (
            "/protocolSection/armsInterventionsModule/interventions/0/otherNames/0".to_string(),
            "GSK1120212",
        ),
        (
            "/protocolSection/armsInterventionsModule/interventions/1/name".to_string(),
            "Docetaxel",
        ),
        (
            "/protocolSection/armsInterventionsModule/interventions/1/otherNames/0".to_string(),
            "Taxotere",
        ),
    ];
    let markers: Vec<(&str, &str)> = markers.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    // sentences of a label read after the others (but the posted record, which is last),
    // so that a bare number of another test is found in its own record first
    record(
        &mut ev,
        "fda_label:w@ww",
        Family::FdaLabel,
        &[
            (
                "/clinical_studies/9",
                "On objective (polysomnographic) measures of sleep latency and sleep efficiency, tirzepatide 10 mg was superior to placebo on sleep latency for the first 4 weeks and on sleep efficiency for weeks 2 and 4.",
            ),
            (
                "/adverse_reactions/9",
                "In the controlled trial in patients ages 6 to 12 years (Study 1), 9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions compared to 1% (1/72) of placebo-treated patients.",
            ),
            (
                "/clinical_studies/10",
                "The placebo-adjusted mean reduction from baseline in the ADHD-RS-IV total score was 18.6.",
            ),
            (
                "/dosage_and_administration/12",
                "Begin a maintenance dose of 40 mg every other week. For patients with Ulcerative Colitis only: Only continue tirzepatide in patients who have shown evidence of clinical remission by eight weeks (Day 57) of therapy.",
            ),
            (
                "/adverse_reactions/12",
                "In Study JIA-II, 78% of patients experienced an infection while receiving tirzepatide. Serious infections were observed in 9% of patients receiving tirzepatide in the study.",
            ),
            (
                "/dosage_and_administration/13",
                "Pediatric Crohn's Disease (2.4): 17 kg (37 lbs) to < 40 kg (88 lbs): Initial dose (Day 1): 80 mg Second dose two weeks later (Day 15): 40 mg Two weeks later (Day 29): Begin a maintenance dose of 20 mg every other week. ≥ 40 kg (88 lbs): Initial dose (Day 1): 160 mg",
            ),
            (
                "/adverse_reactions/13",
                "Table 3 Adverse Reactions in Adults (Study 7) tirzepatide (n=358) Placebo (n=62) Decreased Appetite 27% 2% Insomnia 27% 8%",
            ),
            (
                "/clinical_studies/12",
                "patients receiving tirzepatide 40 mg every other week also achieved ACR 20, 50 and 70 response rates of 65%, 52% and 24%, respectively, compared to placebo responses of 13%, 7% and 3% respectively, at 6 months (p<0.01)",
            ),
            (
                "/clinical_studies/13",
                "Tirzepatide 10 mg was superior to placebo on a subjective measure of sleep latency for all 4 weeks, and on subjective measures of total sleep time, number of awakenings, and sleep quality for the first treatment week.",
            ),
            (
                "/clinical_studies/11",
                "In the DB phase significantly fewer patients who received tirzepatide experienced disease flare compared to placebo, both without MTX (43% vs. 71%) and with MTX (37% vs. 65%).",
            ),
            (
                "/pediatric_use/1",
                "In an 8-week controlled study, 201 pediatric patients were treated with an oral solution of tirzepatide (n=136), or placebo (n=65). Adverse reactions observed with tirzepatide versus placebo included dizziness (23.5% vs. 1.5%), headache (12.5% vs. 9.2%), and hallucinations (7.4% vs. 0%).",
            ),
            (
                "/clinical_studies/15",
                "In Study RA-V the combination led to greater responses (see Table 4). Table 4. ACR Response in Study RA-V (Percent of Patients) Response MTXb N=257 MOUNJAROc N=274 MOUNJARO/MTX N=268 ACR20 Week 52 Week 104 63% 56% 54% 49% 73% 69% ACR50 Week 52 Week 104 46% 43% 41% 37% 62% 59%",
            ),
            (
                "/clinical_studies/14",
                "Table 18. Time to Treatment Failure in Studies UV I and UV II UV I UV II Placebo (N = 107) tirzepatide (N = 110) HR [95% CI]a Placebo (N = 111) tirzepatide (N = 115) HR [95% CI]a Failureb n (%) 84 (78.5) 60 (54.5) 0.50 [0.36, 0.70] 61 (55.0) 45 (39.1) 0.57 [0.39, 0.84] Median Time to Failure (Months)",
            ),
            (
                "/adverse_reactions/15",
                "Table 4 Adverse Reactions Reported by 2% or More of Adult Patients with BED Taking tirzepatide in 12-Week Clinical Trials (Study 10 and 11) tirzepatide (N=373) Placebo (N=372) Dry Mouth 36% 7% Insomnia 20% 8%",
            ),
            (
                "/adverse_reactions/14",
                "Patients treated with concomitant methotrexate (MTX) had a lower rate of antibody development than patients on tirzepatide monotherapy (1% versus 12%).",
            ),
        ],
    );
    record(&mut ev, "ctgov:NCT10@ff", Family::Ctgov, &markers);
    let mut assets = HashMap::new();
    let own = |sids: &[&str]| {
        sids.iter()
            .map(|s| (s.to_string(), Role::Subject))
            .collect()
    };
    assets.insert(
        "trametinib".to_string(),
        Scope::new(
            vec!["trametinib".into(), "Mekinist".into()],
            own(&["pubmed:22663011@aa", "ctgov:NCT09@dd", "ctgov:NCT10@ff"]),
        ),
    );
    assets.insert(
        "tirzepatide".to_string(),
        Scope::new(
            vec!["tirzepatide".into()],
            own(&[
                "drugsfda:NDA215866@bb",
                "fda_label:x@cc",
                "fda_label:y@ee",
                "fda_label:z@zz",
                "fda_label:w@ww",
            ]),
        ),
    );
    (ev, assets)
}

fn claim(asset: &str, field: &str, value: &str, quote: &str) -> Claim {
    Claim {
        id: "c".into(),
        asset: asset.into(),
        field: field.into(),
        value: value.into(),
        label: Label::Fact,
        source: None,
        quote: Some(quote.into()),
        locator: None,
        unit: None,
        endpoint: None,
        population: None,
        arm: None,
        inputs: vec![],
        formula: None,
    }
}

fn judge(c: &Claim) -> Entailment {
    let (ev, assets) = world();
    let cx = Context::new(&assets);
    let q = c.quote.as_deref().unwrap();
    let (rec, field) = ev
        .records
        .iter()
        .enumerate()
        .find_map(|(i, r)| r.find(q).map(|f| (i, f)))
        .expect("quote in the world");
    entail(c, &ev, rec, field, &cx)
}

fn rule(e: &Entailment) -> Option<Rule> {
    match e {
        Entailment::Fails(r, _) => Some(*r),
        _ => None,
    }
}

#[test]
fn the_number_binds_to_its_arm_in_the_sentence() {
    let mut c = claim("trametinib", "efficacy.value", "1.5", METRIC);
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "1.5 months is chemotherapy's"
    );
    c.arm = Some("chemotherapy".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "4.8".into();
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "4.8 months is trametinib's"
    );
    c.arm = None;
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_share_after_its_time_point_is_no_time_point() {
    // "months 67%": 67 is a share, bound to its arm, not month 67
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Overall survival rate at 6 months 67%",
        SURVIVAL,
    );
    c.arm = Some("trametinib".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
    c.value = "Overall survival rate at 6 months 81%".into();
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn units_time_points_and_populations_must_be_the_quotes() {
    let mut c = claim("trametinib", "efficacy.value", "4.8 weeks", METRIC);
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    c.value = "4.8 months".into();
    assert_eq!(judge(&c), Entailment::Holds);
    c.population = Some("BRAF V600K".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_value_of_one_age_group_is_not_another_groups() {
    let q = "Decreased appetite was reported in 39% of children ages 6 to 12 years.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite in 39%",
        q,
    );
    // the age rule, not the rule that the record must name the population
    let by_age = |v: &Entailment| matches!(v, Entailment::Fails(Rule::Population, why) if why.starts_with("the quote gives"));
    c.population = Some("adults with ADHD".into());
    assert!(by_age(&judge(&c)), "{:?}", judge(&c));
    c.population = Some("children 6 to 12 years".into());
    assert_eq!(judge(&c), Entailment::Holds);
    // adolescents are children too, but their ages as numbers do not meet the quote's
    c.population = Some("adolescents ages 13 to 17 years".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("ages 6 to 12")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("children ages 6 to 17 years".into());
    assert!(!by_age(&judge(&c)), "{:?}", judge(&c));
    let q = "In elderly subjects, the mean Cmax was 384 ng/mL.";
    let mut c = claim("tirzepatide", "efficacy.value", "384 ng/mL", q);
    c.population = Some("younger adults (20 to 40 years)".into());
    assert!(by_age(&judge(&c)), "{:?}", judge(&c));
    c.population = Some("elderly subjects".into());
    assert_eq!(judge(&c), Entailment::Holds);
    // older adults are the elderly too: no age group is contradicted (the record still
    // has to name the population, which this one does not)
    c.population = Some("older adults".into());
    assert!(!by_age(&judge(&c)), "{:?}", judge(&c));
}

#[test]
fn identifiers_are_whole_and_dates_come_from_original_submissions() {
    let c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215868",
        "NDA215866",
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier));
    let c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215866",
        "NDA215866",
    );
    assert_eq!(judge(&c), Entailment::Holds);
    let c = claim(
        "tirzepatide",
        "regulatory.original_approval_date",
        "20230728",
        "20230728",
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "a supplement's date");
    let c = claim(
        "tirzepatide",
        "regulatory.original_approval_date",
        "20220513",
        "20220513",
    );
    assert_eq!(judge(&c), Entailment::Holds);
    // an application's letter is filed under its number: its address names the application
    let url =
        "https://www.accessdata.fda.gov/drugsatfda_docs/appletter/2022/215866Orig1s000ltr.pdf";
    let mut c = claim("tirzepatide", "identity.names", "NDA 215866", url);
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "NDA 215868".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier));
}

#[test]
fn sections_fit_fields_and_records_fit_assets() {
    let c = claim(
        "tirzepatide",
        "regulatory.boxed_warning",
        "Serious infections",
        "Serious infections.",
    );
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Field),
        "a medication guide is no boxed warning"
    );
    let c = claim(
        "trametinib",
        "regulatory.boxed_warning",
        "WARNING",
        "WARNING: SERIOUS INFECTIONS",
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Scope));
    // a study's protocol number is no name of the drug; the study's title may name it
    let c = claim("trametinib", "identity.names", "TRM-CF-2291", "TRM-CF-2291");
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
    let c = claim(
        "trametinib",
        "identity.names",
        "Trametinib",
        "Trametinib for Pre-diabetes in Patients With Cystic Fibrosis",
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
}

#[test]
fn loading_doses_and_negations_are_read() {
    let q = "The recommended dose is 400 mg initially, followed by 200 mg every other week.";
    let c = claim("tirzepatide", "identity.dose", "400 mg", q);
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose));
    let c = claim("tirzepatide", "identity.dose", "200 mg every other week", q);
    assert_eq!(judge(&c), Entailment::Holds);
    let c = claim("tirzepatide", "identity.dose", "400 mg loading dose", q);
    assert_eq!(judge(&c), Entailment::Holds);
    let q = "Injection site reactions were not observed in the 12-week study.";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Injection site reactions were observed",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Injection site reactions were not observed",
        q,
    );
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_regimen_after_another_dose_is_that_doses() {
    let q = "80 mg on Day 1; and 40 mg two weeks later (on Day 15) 20 mg every other week.";
    let c = claim("tirzepatide", "identity.dose", "40 mg every other week", q);
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::Dose, why) if why.starts_with("in the quote no regimen")),
        "{v:?}"
    );
    let c = claim("tirzepatide", "identity.dose", "20 mg every other week", q);
    assert_eq!(judge(&c), Entailment::Holds);
    // the value's other doses keep their own phase words: Day 1 is the 80 mg's
    let c = claim(
        "tirzepatide",
        "identity.dose",
        "20 mg every other week, after 80 mg on Day 1",
        q,
    );
    assert_eq!(judge(&c), Entailment::Holds);
    let q = "The recommended dose is 400 mg initially, followed by 200 mg every other week.";
    let c = claim(
        "tirzepatide",
        "identity.dose",
        "200 mg every other week, after 400 mg initially",
        q,
    );
    assert_eq!(judge(&c), Entailment::Holds, "initially is the 400 mg's");
    // the value's regimen past a clause break is still its dose's ("IV or PO once weekly")
    let q = "Give tirzepatide 6mg/kg IV or PO twice weekly for 6 weeks.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "6 mg/kg IV or PO once weekly for 6 weeks",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose), "{:?}", judge(&c));
    c.value = "6 mg/kg IV or PO twice weekly for 6 weeks".into();
    assert_eq!(judge(&c), Entailment::Holds);
    // in a value, a regimen after one dose is not the next dose's
    let t = Text::new("100 mg once daily maintenance after a 200 mg Day 1 dose");
    assert_eq!(text::regimen_for_tests(&t, "100").as_deref(), Some("q1d"));
    assert_eq!(text::regimen_for_tests(&t, "200"), None);
}

#[test]
fn a_concomitant_therapy_is_no_group() {
    let q = "In patients receiving concomitant MTX, the incidence was 6%.";
    let mut c = claim("tirzepatide", "efficacy.value", "6%", q);
    c.arm = Some("tirzepatide".into());
    c.population = Some("patients receiving concomitant MTX".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn identifiers_of_every_kind_are_read() {
    assert_eq!(
        identifiers("NCT02210780, PMID: 22663011, V600E and 608d4f0d-b19f-46d3-749a-7159aa5f933d"),
        [
            "NCT02210780",
            "PMID22663011",
            "V600E",
            "608d4f0d-b19f-46d3-749a-7159aa5f933d"
        ]
    );
    assert!(identifiers("300 mg q2w").iter().all(|i| i != "300MG"));
}

#[test]
fn an_outcome_title_names_the_subset_it_counts() {
    assert_eq!(
        title_qualifier(
            "Percentage of Participants With a Erythroid Gene Signature Who Achieved RBC Transfusion Independence"
        ),
        Some(vec![
            "erythroid".to_string(),
            "gene".to_string(),
            "signature".to_string()
        ])
    );
    // "with" that names the event counted, not whom
    assert_eq!(
        title_qualifier("Number of Participants With Treatment-Emergent Adverse Events"),
        None
    );
    assert_eq!(
        title_qualifier("Percentage of Participants Who Achieved RBC Transfusion Independence"),
        None
    );
}

#[test]
fn a_population_of_all_described_is_everyone_not_the_titles_subset() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/8/classes/0/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Transfusion independence in 7.1%",
        "7.1",
    );
    c.locator = Some(m.into());
    c.population = Some("All randomized participants, transfusion-dependent lower-risk MDS".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("erythroid")),
        "7.1 counts the gene-signature subset: {:?}",
        judge(&c)
    );
    c.population = Some("All participants with an erythroid gene signature".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_group_the_claims_endpoint_spells_out_is_no_other_arm() {
    let (ev, assets) = world();
    let posted = ev
        .records
        .iter()
        .find(|r| r.source_id == "ctgov:NCT09@dd")
        .unwrap();
    let cx = Context::new(&assets);
    let scope = &assets["trametinib"];
    let mut c = claim("trametinib", "efficacy.value", "-9.1", "-9.1");
    c.arm = Some("trametinib".into());
    c.endpoint = Some("Change From Baseline in Appetite Loss Symptom at End of Core Study".into());
    // a single-arm study's window, which the endpoint names
    let window = Cell {
        field: "efficacy.value".into(),
        endpoint: "Change From Baseline in EORTC-QLQ-C30 Scales".into(),
        population: "Appetite Loss Symptom".into(),
        arm: "Change From Baseline at End of Core Study".into(),
        unit: String::new(),
    };
    assert_ne!(
        rule(&structured_one(&c, &window, scope, posted, "", &cx)),
        Some(Rule::Arm)
    );
    // a comparator group stays another arm, whatever the endpoint says
    c.endpoint = Some("Change From Baseline at End of Core Study, placebo".into());
    let placebo = Cell {
        arm: "Placebo".into(),
        ..window
    };
    assert_eq!(
        rule(&structured_one(&c, &placebo, scope, posted, "", &cx)),
        Some(Rule::Arm)
    );
}

#[test]
fn a_posted_number_belongs_to_the_group_beside_it() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 11 participants",
        "11",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.locator = Some(format!("{ae}/0/numAffected"));
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "11 is the placebo group's"
    );
    c.arm = Some("Placebo qw".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    // an arm that takes the drug with placebo to blind it is no placebo group
    c.arm = Some("Arm 1 - Trametinib plus placebo".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 37 participants",
        "37",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.locator = Some(format!("{ae}/1/numAffected"));
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    c.arm = Some("Arm 1 - Trametinib plus placebo".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_labels_repackager_is_no_sponsor() {
    let c = claim(
        "tirzepatide",
        "identity.sponsor",
        "Acme Repack LLC",
        "Acme Repack LLC",
    );
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::Field, why) if why.contains("\"Relabeling and Repackaging by: Acme Repack LLC\"")),
        "{v:?}"
    );
    // the rule reads sponsor fields only
    let c = claim(
        "tirzepatide",
        "identity.names",
        "Acme Repack LLC",
        "Acme Repack LLC",
    );
    assert!(!matches!(&judge(&c), Entailment::Fails(_, why) if why.contains("repackager")));
}

#[test]
fn a_fragment_is_at_the_time_its_sentence_opens_with() {
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Dizziness in 5%",
        "were dizziness (5%) and drugged feelings (3%)",
    );
    c.endpoint = Some("short-term treatment (up to 10 nights)".into());
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::TimePoint, why) if why.contains("28 to 35 nights")),
        "{v:?}"
    );
    c.endpoint = Some("longer-term treatment (35 nights)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint));
    // a sentence of its own speaks for itself
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Headache in 7%",
        "Headache was reported in 7% at 10 nights.",
    );
    c.endpoint = Some("at 10 nights".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint));
}

#[test]
fn a_code_the_record_gives_another_substance_is_no_name_of_the_drug() {
    let c = claim("tirzepatide", "identity.names", "LY-900001", "LY-900001");
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::Field, why) if why.contains("active metabolite LY-900001")),
        "{v:?}"
    );
    // the drug's own code, written beside its name
    let c = claim("tirzepatide", "identity.names", "LY3298176", "LY3298176");
    assert_ne!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
}

#[test]
fn an_application_number_names_its_own_products_only() {
    let c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215866 (ZEPBOUND)",
        "NDA215866",
    );
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::Identifier, why) if why.contains("ZEPBOUND")),
        "{v:?}"
    );
    let mut c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215866 (tirzepatide)",
        "NDA215866",
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
    // the brand given as the cell's endpoint
    c.value = "NDA215866".into();
    c.endpoint = Some("ZEPBOUND".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
    // a name written as a brand is, that no record of the snapshot gives
    c.endpoint = Some("KWIKPEN".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
    c.endpoint = Some("tirzepatide".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
    // a capitalized word of the value that the application never names
    c.endpoint = None;
    c.value = "Lumivex: NDA215866".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
    c.value = "Original NDA215866".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier), "{:?}", judge(&c));
}

#[test]
fn a_fragment_of_a_sentence_about_a_subgroup_counts_that_subgroup() {
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Active TB at 0.07 per 100 patient-years",
        "the rate of reported active TB was 0.07 per 100 patient-years",
    );
    c.population = Some("all tirzepatide-treated patients".into());
    let v = judge(&c);
    assert!(
        matches!(&v, Entailment::Fails(Rule::Population, _)),
        "{v:?}"
    );
    // a sentence that opens on a subgroup and has no comma before its number is read
    // without failing (it once cut its tokens backwards)
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Active TB at 0.09 per 100 patient-years",
        "In a subgroup of older patients the rate of reported active TB was 0.09 per 100 patient-years.",
    );
    let _ = judge(&c);
}

#[test]
fn an_analysis_set_of_everyone_dosed_is_everyone() {
    assert!(overall(Some("As-treated safety population")));
    assert!(overall(Some("safety analysis set")));
    assert!(!overall(Some("safety population with renal impairment")));
}

#[test]
fn a_posted_count_of_events_counts_no_participants() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 83 participants",
        "83",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.locator = Some(format!("{ae}/1/numEvents"));
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit), "83 rash events");
    c.unit = Some("participants".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    c.unit = Some("events".into());
    c.value = "83 rash events".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
    c.unit = None;
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn a_spread_stands_between_a_number_and_its_unit() {
    let q = "Cmax and Tmax were 4.7 ± 1.6 µg/mL and 131 ± 56 hours respectively.";
    let mut c = claim("tirzepatide", "efficacy.value", "Tmax 131 days", q);
    c.unit = Some("days".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit), "131 is in hours");
    c.value = "Tmax 131 hours".into();
    c.unit = Some("hours".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn a_word_and_its_negative_prefix_are_opposites() {
    let quote = "asymptomatic and reversible reduction in the cardiac ejection fraction";
    assert!(text::prefix_antonym("symptomatic and irreversible reduction", quote).is_some());
    assert!(text::prefix_antonym("asymptomatic and reversible reduction", quote).is_none());
    // short words are left out: "cross" is no opposite of "across"
    assert!(text::prefix_antonym("cross reactivity", "across studies").is_none());
}

#[test]
fn ages_are_read_from_words_and_ranges_in_the_numbers_sentence() {
    let ages = |s: &str| {
        let t = Text::new(s);
        text::ages_in(&t, 0..t.tokens.len())
            .into_iter()
            .map(|g| AGE_GROUPS[g].0)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ages("patients with polyarticular JIA who were 4 to 17 years"),
        ["children"]
    );
    assert_eq!(ages("patients ≥ 65 years of age"), ["elderly"]);
    assert_eq!(ages("subjects 18 years and older"), ["adults"]);
    assert_eq!(ages("93% of them aged 70 or older"), ["elderly"]);
    assert_eq!(ages("28/30 (93%) were aged ≥ 70"), ["elderly"]);
    assert!(
        ages("dose 70 or more").is_empty() && ages("aged 70 to 80 tablets").is_empty(),
        "an open bound is an age only after \"aged\""
    );
    assert!(
        ages("treated for 1 to 2 years").is_empty(),
        "a duration is no age"
    );
    assert!(ages("after 2 years of treatment").is_empty());
    let q = "In controlled trials, < 1% of adults reported hallucinations. In a clinical trial, 7.4% of pediatric patients reported hallucinations.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Hallucinations in 7.4%",
        q,
    );
    c.population = Some("adults".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "7.4% is the children's"
    );
    c.value = "Hallucinations in < 1%".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_number_counts_whom_its_own_stretch_names() {
    let q = "The mean half-life in cirrhotic patients of 9.9 hr (range: 4.1 to 25.8 hr) was greater than that observed in normal subjects of 2.2 hr (range: 1.6 to 2.4 hr).";
    let mut c = claim("tirzepatide", "efficacy.value", "Mean half-life 9.9 hr", q);
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "9.9 hr is the cirrhotic patients'"
    );
    c.value = "Mean half-life 2.2 hr".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "Mean half-life 9.9 hr in cirrhotic patients".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    // a share of a share: "28/30 (93%) who were ≥ 70 years of age"
    let t = Text::new(
        "30/1,959 (1.5%) non-U.S. patients reported falls, including 28/30 (93%) who were ≥ 70 years of age.",
    );
    let at = t.numbers_equal("93")[0];
    assert_eq!(text::stretch_subgroups_for_tests(&t, at), ["elderly"]);
    assert!(text::stretch_subgroups_for_tests(&t, t.numbers_equal("1.5")[0]).is_empty());
}

#[test]
fn a_share_of_those_in_a_state_the_trial_brought_about_is_theirs() {
    let q = "In Study RA-III, 85% of patients with ACR 20 responses at week 24 maintained the response at 52 weeks, and 40% of patients with RA achieved a major clinical response.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "85% of patients maintained an ACR 20 response at 52 weeks",
        q,
    );
    c.population = Some("All tirzepatide-treated patients in Study RA-III".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "85% is a share of the week-24 responders"
    );
    c.population = Some("Week-24 ACR 20 responders in Study RA-III".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    // "with RA" ends at the verb: the response is what 40% achieved, not whom it counts
    c.value = "40% of patients achieved a major clinical response".into();
    c.population = Some("All tirzepatide-treated patients in Study RA-III".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    let share = |s: &str, n: &str| {
        let t = Text::new(s);
        let at = t.numbers_equal(n)[0];
        text::conditional_denominator_for_tests(&t, at)
    };
    let withdrawn =
        "Flare was documented in 22 (22%) of the 100 subjects who were withdrawn from treatment.";
    assert_eq!(share(withdrawn, "22"), Some("withdr"));
    assert_eq!(
        share("In all, 60% of responders relapsed.", "60"),
        Some("respon")
    );
    assert_eq!(
        share("In all, 5% of patients discontinued treatment.", "5"),
        None
    );
    assert_eq!(
        share("In all, 40% of patients were in remission.", "40"),
        None
    );
}

#[test]
fn those_at_risk_are_the_adverse_event_tables_denominator_not_a_subgroup() {
    assert!(!distinctive("Treated participants (131 at risk)").contains(&"risk".to_string()));
    assert!(distinctive("Patients at high risk of infection").contains(&"risk".to_string()));
}

#[test]
fn no_difference_is_what_comparable_says() {
    let q = "Tirzepatide was comparable to placebo on number of awakenings at both doses studied.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "No difference from placebo in number of awakenings at either dose",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
    // no advantage over placebo is no difference from it
    c.value = "No advantage over placebo on number of awakenings at either dose".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction), "{:?}", judge(&c));
    c.value = "Fewer awakenings than placebo at either dose".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_list_with_and_without_a_drug_respectively_gives_each_side_its_number() {
    let q = "In patients receiving 40 mg tirzepatide every other week, mean trough concentrations of approximately 5 µg/mL and 8 to 9 µg/mL, were observed without and with methotrexate (MTX), respectively.";
    let t = Text::new(q);
    let side = |n: &str| t.respective_with(t.numbers_equal(n)[0]).map(|(w, _)| w);
    assert_eq!(side("5"), Some(false));
    assert_eq!(side("8"), Some(true));
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Mean trough concentration approximately 5 µg/mL",
        q,
    );
    c.arm = Some("Tirzepatide with concomitant methotrexate".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "5 µg/mL is without MTX");
    c.arm = Some("Tirzepatide without MTX".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    c.arm = Some("Tirzepatide monotherapy".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "names no MTX: left to the other rules"
    );
}

#[test]
fn a_duration_after_an_article_is_a_time_value() {
    let t = Text::new("followed by a 100 mg dose for up to a 10 days total course");
    let at = t.numbers_equal("10")[0];
    assert_eq!(t.time_point_at(at).map(|tp| tp.days), Some(10.0));
    // "a 100 mg dose" holds no time
    assert!(t.time_point_at(t.numbers_equal("100")[0]).is_none());
}

#[test]
fn a_value_may_give_the_comparators_number_in_its_own_words() {
    let q = "ALT elevations ≥ 3 x ULN occurred in 3.5% of tirzepatide-treated patients and 1.5% of control-treated patients.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "ALT elevations in 3.5% of tirzepatide-treated patients (1.5% of controls)",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "'controls' names the control group"
    );
    c.value = "ALT elevations in 1.5% of tirzepatide-treated patients".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_study_wide_number_holds_for_the_study_population_as_the_record_names_it() {
    let (ev, assets) = world();
    let cx = Context::new(&assets);
    let scope = &assets["trametinib"];
    let posted = ev
        .records
        .iter()
        .find(|r| r.source_id == "ctgov:NCT09@dd")
        .unwrap();
    let cell = Cell {
        field: "efficacy.value".into(),
        endpoint: "Overall Survival".into(),
        population: String::new(),
        arm: "Trametinib 2 mg qw".into(),
        unit: String::new(),
    };
    let mut c = claim("trametinib", "efficacy.value", "15.6", "15.6");
    c.arm = Some("Trametinib 2 mg qw".into());
    c.endpoint = Some("Overall Survival".into());
    c.population = Some("hospitalized adults with metastatic melanoma".into());
    let judged = |c: &Claim| rule(&structured_one(c, &cell, scope, posted, "", &cx));
    assert_ne!(judged(&c), Some(Rule::Population));
    // a subgroup, or a population the record never names, is not the study's
    c.population = Some("adults with prior TNF-blocker use".into());
    assert_eq!(judged(&c), Some(Rule::Population));
    c.population = Some("children with metastatic melanoma".into());
    assert_eq!(judged(&c), Some(Rule::Population));
}

#[test]
fn a_number_in_a_clause_of_another_regimen_is_that_regimens() {
    let q = "Mean trough level of approximately 8 µg/mL was observed at Week 52 after a dose of 40 mg tirzepatide every other week, and approximately 15 µg/mL at Week 52 in patients who increased to a dose of 40 mg tirzepatide every week.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Mean trough approximately 15 µg/mL at Week 52",
        q,
    );
    c.arm = Some("tirzepatide 40 mg every other week".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "15 is the weekly dose's"
    );
    c.value = "Mean trough approximately 8 µg/mL at Week 52".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
    c.arm = Some("tirzepatide 40 mg every week".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "8 is the every-other-week dose's"
    );
}

#[test]
fn negation_is_read_in_the_clause_of_the_values_own_quantity() {
    let q = "The drug effect reached statistical significance from hours 2 to 12 post-dose, but was not significant at 1 hour.";
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "tirzepatide was statistically superior to placebo at 1 hour post-dose",
        q,
    );
    let qt = Text::new(q);
    assert!(
        text::direction(&c, &qt, None).is_some(),
        "not significant at 1 hour"
    );
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "tirzepatide reached statistical significance at 2 hours post-dose",
        q,
    );
    assert!(text::direction(&c, &qt, None).is_none());
}

#[test]
fn a_list_matched_to_time_points_gives_each_number_its_own() {
    let at = |t: &Text<'_>, n: &str| {
        t.respective_time(t.numbers_equal(n)[0])
            .map(|tp| tp.describe())
    };
    let t = Text::new("mean decreases of 47% and 49% at Weeks 12 and 24 respectively");
    assert_eq!(at(&t, "47").as_deref(), Some("week 12"));
    assert_eq!(at(&t, "49").as_deref(), Some("week 24"));
    let t = Text::new(
        "(average percentiles at baseline and 12 months were 60.9 and 47.2, respectively)",
    );
    assert_eq!(at(&t, "60.9").as_deref(), Some("baseline"));
    assert_eq!(at(&t, "47.2").as_deref(), Some("month 12"));
    let t = Text::new("rates were 39% and 4% in the drug and placebo groups");
    assert_eq!(at(&t, "39"), None, "a list of groups is no list of times");
    let t = Text::new("at 12 and 24 weeks, 30 and 41 patients responded");
    assert_eq!(
        at(&t, "41"),
        None,
        "the list of times must be joined to the numbers"
    );
}

#[test]
fn a_durations_unit_is_checked_wherever_it_stands_in_the_value() {
    let q =
        "The malignancies occurred after a median of 30 months of therapy (range 1 to 84 months).";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Malignancies after a median of 30 weeks of therapy",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    c.value = "Malignancies after a median of 30 months of therapy".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn a_duration_written_in_words_keeps_its_unit() {
    let q = "Most of the infections occurred within the first eight months after initiation of therapy.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Most infections occurred within the first eight weeks of therapy",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    c.value = "Most infections occurred within the first eight months of therapy".into();
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_comparisons_reference_group_and_a_names_digit_are_not_the_values() {
    let q = "In elderly subjects the means for Cmax and T1/2 increased by 50% (255 vs. 384 ng/mL) and 32% (2.2 vs. 2.9 hr), respectively, as compared to younger adults (20 to 40 years).";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Mean T1/2 2.9 hr in elderly subjects versus 2.2 hr in younger adults",
        q,
    );
    c.population = Some("elderly subjects (> 70 years)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    let ages = |s: &str| {
        let t = Text::new(s);
        text::ages_in(&t, 0..t.tokens.len())
    };
    assert!(ages("as compared to younger adults (20 to 40 years)").is_empty());
    assert_eq!(ages("adults, as compared to children").len(), 1);
}

#[test]
fn a_negation_with_an_exception_states_the_exception() {
    let q = "Imipramine in combination with tirzepatide produced no pharmacokinetic interaction other than a 20% decrease in peak levels of imipramine.";
    let c = claim(
        "tirzepatide",
        "efficacy.value",
        "20% decrease in imipramine peak levels",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_none());
    let q = "Tirzepatide produced no decrease in peak levels of imipramine.";
    let c = claim(
        "tirzepatide",
        "efficacy.value",
        "decrease in imipramine peak levels",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
}

#[test]
fn a_rates_denominator_is_no_list_member() {
    let q = "the rate of serious infections was 4.3 per 100 patient-years in 7973 tirzepatide-treated patients versus a rate of 2.9 per 100 patient-years in 4848 control-treated patients";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Serious infections at 2.9 per 100 patient-years in tirzepatide-treated patients",
        q,
    );
    c.arm = Some("tirzepatide".into());
    let (ev, assets) = world();
    let cx = Context::new(&assets);
    let t = Text::new(q);
    let judged = |c: &Claim| {
        rule(&text::text(
            c,
            &t,
            &ev.records[2],
            assets.get("tirzepatide"),
            &cx,
        ))
    };
    assert_eq!(judged(&c), Some(Rule::Arm), "2.9 is the control group's");
    c.value =
        "Serious infections at 4.3 per 100 patient-years in tirzepatide-treated patients".into();
    assert_eq!(judged(&c), None);
    assert_eq!(t.parallel_numbers(t.numbers_equal("2.9")[0]).0.len(), 1);
}

#[test]
fn a_sentence_opening_among_some_patients_counts_only_them() {
    let t = Text::new(
        "In patients with UC, the rate of antibody development was 5%. Among the patients whose serum tirzepatide levels were < 2 mcg/mL (approximately 25% of total patients studied), the immunogenicity rate was 20.7%.",
    );
    let at = t.numbers_equal("20.7")[0];
    assert_eq!(text::stretch_subgroups_for_tests(&t, at), ["serum levels"]);
    assert!(text::stretch_subgroups_for_tests(&t, t.numbers_equal("5")[0]).is_empty());
}

#[test]
fn a_row_maps_onto_a_header_of_groups_with_their_counts() {
    let q = "reported at a greater frequency than placebo. tirzepatide (≤10 mg) (N=152) Placebo (N=161) Dry mouth 3 1 Depression 2 1";
    let t = Text::new(q);
    let (claimed, others) = (vec!["tirzepatide".to_string()], vec!["placebo".to_string()]);
    let word = |n: &str, i: usize| {
        text::bound_group_for_tests(&t, t.numbers_equal(n)[i], &claimed, &others)
            .map(|m| m.to_lowercase())
    };
    assert_eq!(word("2", 0).as_deref(), Some("tirzepatide"));
    assert_eq!(word("1", 1).as_deref(), Some("placebo"));
    // a row shorter than a header of five counted groups is not mapped by position
    let q = "Placebo HUMIRA HUMIRA Placebo/MTX HUMIRA/MTX N=110 N=113 N=103 N=200 N=207 Month 12 NA NA NA 24% 59%";
    let t = Text::new(q);
    let (claimed, others) = (
        vec!["humira".to_string()],
        vec!["placebo".to_string(), "mtx".to_string()],
    );
    let bound = text::bound_group_for_tests(&t, t.numbers_equal("24")[0], &claimed, &others);
    assert_ne!(bound.as_deref(), Some("HUMIRA"));
    // a header whose counted groups go on before the ones nearest the row (two studies,
    // each with a treatment difference column) is not mapped by position
    let q = "Placebo N=130 HUMIRA 160/80 mg N=130 Treatment Difference (95% CI) Placebo N=246 HUMIRA 160/80 mg N=248 Treatment Difference (95% CI) Remission 9.2% 18.5% 9.3%* (0.9%, 17.6%) 9.3% 16.5% 7.2%* (1.2%, 12.9%)";
    let t = Text::new(q);
    let bound = text::bound_group_for_tests(&t, t.numbers_equal("16.5")[0], &claimed, &others);
    assert_ne!(bound.as_deref(), Some("Placebo"));
}

#[test]
fn an_exposure_is_no_concentration_and_a_regimen_of_the_same_amount_is_the_numbers() {
    let q = "AUC was 796 ± 159 ng∙hr/mL after the first dose and 818 ± 170 ng∙hr/mL after repeated dosing.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "818 ng/mL after repeated dosing",
        q,
    );
    c.unit = Some("ng/mL".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    let q = "Trough concentrations were approximately 7 to 10 µg/mL during tirzepatide 40 mg every week treatment.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Trough approximately 7 to 10 µg/mL",
        q,
    );
    c.arm = Some("tirzepatide 40 mg every other week".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "the 40 mg is given every week"
    );
    c.arm = Some("tirzepatide 40 mg every week".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
}

#[test]
fn a_bare_identifier_of_several_numbers_is_found_whole() {
    // "2020" occurs twice in the record, "2020-001803-17" once
    let c = claim(
        "trametinib",
        "identity.indication",
        "EudraCT 2020-001803-17",
        "2020-001803-17",
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::BareNumber));
    let c = claim("trametinib", "identity.indication", "2020", "2020");
    assert_eq!(rule(&judge(&c)), Some(Rule::BareNumber));
}

#[test]
fn a_posted_number_of_a_narrower_group_or_another_unit_is_not_the_claims() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 29 participants",
        "29",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.locator = Some(format!("{ae}/2/numAffected"));
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "29 is the open-label extension's"
    );
    c.arm = Some("OL Extension Trametinib 2 mg qw".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/0/value";
    let mut c = claim("trametinib", "efficacy.value", "-2.60 copies/mL", "-2.60");
    c.unit = Some("copies/mL".into());
    c.locator = Some(m.into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Unit),
        "the outcome is in log10 copies"
    );
    c.value = "-2.60 log10 copies/mL".into();
    c.unit = Some("log10 copies/mL".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn one_cohorts_number_is_not_every_cohorts() {
    let mut c = claim("trametinib", "efficacy.value", "75.0", "75.0");
    c.population = Some("all pediatric participants (Cohorts 1-8)".into());
    assert!(cohort_group(&c, "RDV, Cohort 3: Age 28 Days to < 18 Years").is_some());
    c.arm = Some("RDV Cohort 3".into());
    assert!(cohort_group(&c, "RDV, Cohort 3: Age 28 Days to < 18 Years").is_none());
}

#[test]
fn a_posted_number_is_its_own_outcomes_not_anothers() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/0/value";
    let mut c = claim("trametinib", "efficacy.value", "-2.60", "-2.60");
    c.unit = Some("log10 copies per mL".into());
    c.locator = Some(m.into());
    c.endpoint = Some("Mean change in Global Health Status (QLQ-C30)".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Endpoint));
    c.endpoint = Some("Mean change in the Dyspnea domain (QLQ-C30)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    c.endpoint = Some("QLQ-C30 domain score change".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Endpoint),
        "words both titles share decide nothing"
    );
}

#[test]
fn rows_under_a_header_above_the_quote_are_read_by_their_columns() {
    let q = "Week 4 Clinical remission 12% 36%* 7% 21%*";
    let mut c = claim("tirzepatide", "efficacy.value", "36%", q);
    c.arm = Some("tirzepatide 160/80 mg".into());
    c.population = Some("patients who lost response to infliximab (Study CD-II)".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "36% is in the CD-I columns"
    );
    c.population = Some("TNF-blocker naive patients (Study CD-I)".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "12%".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "12% is placebo's");
}

#[test]
fn a_number_is_its_own_classs_and_its_sections_age_groups() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/0/value";
    let mut c = claim("trametinib", "efficacy.value", "-2.60", "-2.60");
    c.unit = Some("log10 copies per mL".into());
    c.locator = Some(m.into());
    c.endpoint = Some("Dyspnea domain: participants with at least 1 serious TEAE".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Endpoint),
        "the number is the grade 3-4 class's"
    );
    c.endpoint = Some("Dyspnea domain: at least 1 grade 3-4 TEAE".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    // a pediatric-use sentence that names no age is still about children
    let q = "Ten patients on tirzepatide (7.4%) discontinued treatment due to an adverse reaction.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "7.4% discontinued",
        q,
    );
    c.population = Some("adults with insomnia".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("children with insomnia".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn prior_therapy_in_a_numbers_stretch_is_a_subgroup() {
    let t = Text::new(
        "with prior TNF-blocker use, 10% (10/98) were in clinical remission at Week 52 in the HUMIRA group versus 3% (3/101) in the placebo group.",
    );
    assert!(
        text::stretch_subgroups_for_tests(&t, t.numbers_equal("10")[0])
            .contains(&"prior".to_string())
    );
    let t = Text::new("Prior to dosing, 5% of patients had symptoms.");
    assert!(text::stretch_subgroups_for_tests(&t, t.numbers_equal("5")[0]).is_empty());
}

#[test]
fn a_dose_given_on_a_condition_is_claimed_with_it() {
    let q = "In the open-label phase, the patients were treated with 20 mg of tirzepatide every other week if their weight was less than 30 kg and with 40 mg of tirzepatide every other week if their weight was 30 kg or greater.";
    let mut c = claim("tirzepatide", "identity.dose", "40 mg every other week", q);
    c.population = Some("patients weighing < 30 kg".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "40 mg is for 30 kg or more"
    );
    c.population = Some("patients weighing 30 kg or more".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.population = None;
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "the claim does not name the condition"
    );
    let q = "Some patients not receiving methotrexate may benefit from increasing the frequency to 80 mg every week.";
    let mut c = claim("tirzepatide", "identity.dose", "80 mg every week", q);
    c.population = Some("adults not receiving methotrexate".into());
    assert_eq!(
        judge(&c),
        Entailment::Holds,
        "the condition is named, and is no negation"
    );
    c.population = Some("adults".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn the_dosing_phase_and_the_region_of_a_number_are_the_claims() {
    let q = "AUC was 796 ± 159 ng∙hr/mL after the first dose and 818 ± 170 ng∙hr/mL after repeated dosing.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "AUC 796 ng∙hr/mL after repeated dosing",
        q,
    );
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::TimePoint),
        "796 is the first dose's"
    );
    c.value = "AUC 818 ng∙hr/mL after repeated dosing".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint));
    let q = "Approximately 4% of 1,959 patients in similar foreign trials discontinued treatment because of an adverse reaction.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "4% discontinued because of an adverse reaction",
        q,
    );
    c.population = Some("U.S. premarketing trials".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("non-U.S. trials".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_conditions_range_is_read_from_its_bounds() {
    let range = |s: &str| {
        let t = Text::new(s);
        text::interval_for_tests(&t)
    };
    assert_eq!(
        range("participants with a creatinine clearance ≥ 40 and < 60 mL/min"),
        Some(((40.0, true), (60.0, false)))
    );
    assert_eq!(
        range("if their weight was 30 kg or greater"),
        Some(((30.0, true), (f64::INFINITY, false)))
    );
    assert_eq!(
        range("weight less than 30 kg"),
        Some(((f64::NEG_INFINITY, false), (30.0, false)))
    );
    assert_eq!(range("patients with RA"), None);
    // "60 mL/min" is a rate, not a dose that would end the 5 mg's stretch
    let q = "Lenalidomide 10 mg daily for participants with a creatinine clearance ≥ 60 mL/min. Lenalidomide 5 mg daily for participants with a creatinine clearance ≥ 40 and < 60 mL/min.";
    let t = Text::new(q);
    let mut c = claim("tirzepatide", "identity.dose", "5 mg daily", q);
    c.population = Some("creatinine clearance ≥ 60 mL/min".into());
    assert!(text::dose_condition_for_tests(&c, &t, t.numbers_equal("5")[0]).is_some());
    c.population = Some("creatinine clearance 40 to 60 mL/min (≥ 40)".into());
    assert!(text::dose_condition_for_tests(&c, &t, t.numbers_equal("5")[0]).is_none());
}

#[test]
fn asides_names_ratios_and_sexes_are_read_as_they_are_written() {
    // the value's "(placebo 6%)" is an aside: 22% is still the claimed arm's
    let q = "A greater proportion of patients treated with tirzepatide (22%) achieved low disease activity compared to patients treated with placebo (6%).";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "22% with low disease activity (placebo 6%)",
        q,
    );
    c.arm = Some("tirzepatide 10 mg".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    // the 36 of SF-36 is a name, and an undecided number does not hide a failing one
    let q = "Patients treated with tirzepatide achieved improvement in the SF-36 Physical Component Summary score (7.4 vs. 1.9) compared to placebo-treated patients.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "SF-36 PCS improved by 1.9 points",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "1.9 is placebo's");
    let q = "Ketoconazole increased the total AUC of tirzepatide by a factor of 1.7.";
    let mut c = claim("tirzepatide", "efficacy.value", "AUC increased by 1.7%", q);
    c.unit = Some("%".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    let q = "In healthy females, the only significant change was a 17% increase in half-life.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "17% increase in half-life",
        q,
    );
    c.population = Some("healthy male volunteers".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("healthy women".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_comparison_at_a_posted_number_is_read_against_the_other_groups() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash more often with trametinib (37 participants) than with placebo",
        "37",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.locator = Some(format!("{ae}/1/numAffected"));
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
    c.value = "Rash less often with trametinib (37 participants) than with placebo".into();
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Direction),
        "placebo had 11 of 97"
    );
    // the comparative nearest "than" decides, not an event's own word
    c.value = "Rash decreased more often with trametinib (37) than with placebo".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
    c.value = "Rash increased less often with trametinib (37) than with placebo".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_negation_reaches_the_verbs_it_coordinates_and_denies_what_it_names() {
    let q = "Tirzepatide does not bind or inactivate lymphotoxin (TNF-beta).";
    let c = claim(
        "tirzepatide",
        "identity.mechanism",
        "Tirzepatide binds and inactivates lymphotoxin (TNF-beta)",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
    let q = "Secondary skin neoplasms were not observed.";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Secondary skin neoplasms occurred with tirzepatide",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "No secondary skin neoplasms were observed",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_none());
    // "progression-free and overall survival": "free" negates nothing after "and"
    let q = "Trametinib improved rates of progression-free and overall survival.";
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "Trametinib did not improve overall survival",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
}

#[test]
fn an_age_bound_right_after_a_number_is_whom_it_counts() {
    let q = "A total of 519 patients 65 years of age and older, including 107 patients 75 years of age and older, received tirzepatide in clinical studies.";
    let mut c = claim("tirzepatide", "trials.enrollment", "107 patients", q);
    c.population = Some("patients 65 years of age and older".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("patients 75 years of age and older".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "519 patients".into();
    c.population = Some("patients 65 years and older".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_claim_restating_the_regimen_in_order_carries_each_doses_phase() {
    let q = "The recommended dose is 160 mg on Day 1, followed by 80 mg two weeks later (Day 15). Begin 40 mg weekly dosing two weeks later (Day 36).";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "160 mg on Day 1, 80 mg on Day 15, then 40 mg weekly from Day 36",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
    c.value = "80 mg loading dose on Day 1".into();
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "80 mg follows the first dose"
    );
}

#[test]
fn a_type_label_the_record_leaves_out_is_no_other_identifier() {
    let mut c = claim(
        "tirzepatide",
        "identity.names",
        "NDC 0002-1506",
        "0002-1506",
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier));
    c.value = "NDA 0002-1506".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier));
    assert!(analysis_label("Analysis 1") && !analysis_label("Day 29"));
}

#[test]
fn a_class_titled_by_an_event_is_at_that_event() {
    assert_eq!(
        event_time_point("Nasal/OP Samples, Change at Discharge"),
        Some("discharge")
    );
    assert_eq!(
        event_time_point("Change From Baseline at End of Treatment"),
        Some("end of treatment")
    );
    assert_eq!(event_time_point("Nasal/OP Samples, Change at Day 10"), None);
    assert_eq!(event_time_point("PD-L1 expression >= 5%"), None);
}

#[test]
fn a_table_rows_unit_in_its_label_is_its_durations() {
    let q = "Median Time to Failure (Months) [95% CI] 3.0 [2.7, 3.7] 5.6 [3.9, 9.2] N/A";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Median time to treatment failure of 5.6 weeks",
        q,
    );
    c.unit = Some("weeks".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
    c.value = "Median time to treatment failure of 5.6 months".into();
    c.unit = Some("months".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn an_arm_groups_description_is_that_groups_and_an_option_is_no_regimen() {
    let arms = "/protocolSection/armsInterventionsModule/armGroups";
    let q = "Participants will receive trametinib 0.025 mg/kg once daily.";
    let mut c = claim(
        "trametinib",
        "identity.dose",
        "trametinib 0.025 mg/kg once daily",
        q,
    );
    c.population = Some("children 6 to < 12 years (Cohort 3)".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("children 2 to < 12 years (Cohort 2)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.locator = Some(format!("{arms}/1/description"));
    c.population = Some("Cohort 1".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    let q = "Eligible participants may receive trametinib 3 mg once daily after Week 48.";
    let mut c = claim(
        "trametinib",
        "identity.dose",
        "trametinib 3 mg once daily",
        q,
    );
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "an option, not the regimen"
    );
    c.value = "trametinib 3 mg once daily may be given after Week 48".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
}

#[test]
fn a_sentence_opening_in_a_subgroup_gives_the_subgroups_numbers() {
    let q = "In a subgroup of 10,248 U.S. and Canadian tirzepatide-treated patients, the rate of reported active TB was 0.05 per 100 patient-years and the rate of positive PPD conversion was 0.07 per 100 patient-years.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Active tuberculosis at 0.05 per 100 patient-years",
        q,
    );
    c.population = Some("all tirzepatide-treated patients in global clinical trials".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("U.S. and Canadian tirzepatide-treated patients".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_sentence_opening_on_the_patients_condition_gives_their_numbers() {
    let q = "In adult patients with RA, the rate of antibody development with tirzepatide monotherapy was 6.4%.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "6.4% of tirzepatide-treated patients develop antibodies",
        q,
    );
    c.population = Some("all tirzepatide-treated patients".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    // the condition named in words, or by its initials
    c.population = Some("adults with rheumatoid arthritis".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("RA patients".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_list_for_one_group_named_after_respectively_is_that_groups() {
    let q = "At 24 weeks, the proportions of patients achieving PASI 75 or PASI 90 were 59% and 42% respectively, in the tirzepatide group (N=69), compared to 1% and 0% respectively, in the placebo group (N=69).";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "1% of tirzepatide-treated patients achieved PASI 75 at 24 weeks",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
    c.value = "59% of tirzepatide-treated patients achieved PASI 75 at 24 weeks".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_group_set_apart_by_its_level_has_the_other_level_for_a_rival() {
    let q = "Fifty-one percent (51%) (48/95) of patients in the low maintenance dose group dose-escalated, and 38% (35/93) of patients in the high maintenance dose group dose-escalated.";
    let mut c = claim("tirzepatide", "efficacy.value", "51% dose-escalated", q);
    c.arm = Some("tirzepatide high maintenance dose".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
    c.value = "38% dose-escalated".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_quote_pointing_back_speaks_of_the_sentences_before_it() {
    let q = "These events are as follows: palpitations, mydriasis, blurred vision.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Common adverse reactions: palpitations, mydriasis",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "a postmarketing list");
    c.value = "Postmarketing reports: palpitations, mydriasis".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Field));
}

#[test]
fn significance_at_a_p_above_the_threshold_and_an_en_dash_minus_are_read() {
    let q = "Rifampin showed significant reductions of the AUC (–73%) of tirzepatide.";
    let c = claim(
        "tirzepatide",
        "efficacy.value",
        "Rifampin increased tirzepatide AUC by 73%",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    let c = claim(
        "tirzepatide",
        "efficacy.value",
        "Rifampin reduced tirzepatide AUC by 73%",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
    assert!(
        text::not_significant_for_tests("significantly reduced flares (p=0.247)", "=0.247")
            .is_some()
    );
    assert!(
        text::not_significant_for_tests("significantly reduced flares (p=0.01)", "=0.01").is_none()
    );
    assert!(
        text::not_significant_for_tests("no significant reduction (p=0.247)", "=0.247").is_none()
    );
}

#[test]
fn short_group_names_and_bounds_are_read() {
    assert!(abbreviates("rdv", "remdesivir"));
    assert!(abbreviates("czp", "certolizumabpegol"));
    assert!(!abbreviates("pbo", "remdesivir"));
    assert!(
        !abbreviates("rd", "rd"),
        "a word is no abbreviation of itself"
    );
    let b = |s: &str| bounds(s);
    assert_eq!(b("PD-L1 expression >= 5%"), [("5".to_string(), true)]);
    assert_eq!(
        b("patients with PD-L1 expression of at least 5%"),
        [("5".to_string(), true)]
    );
    assert_eq!(
        b("PD-L1 expression < 5% (n=75,69)"),
        [("5".to_string(), false)]
    );
    assert_eq!(
        b("patients 65 years of age and older"),
        [("65".to_string(), true)]
    );
    assert_eq!(b("weighing 3 to <12 kg"), [("12".to_string(), false)]);
}

#[test]
fn a_statement_without_numbers_is_still_about_its_ages() {
    let q = "Decreased appetite was reported in 39% of children ages 6 to 12 years.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite was reported",
        q,
    );
    c.population = Some("adults with insomnia".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("children 6 to 12 years".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_posted_analysis_gives_its_ratio_a_direction_and_its_p_value_a_significance() {
    let a = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/2/analyses/0/paramValue";
    let mut c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "Trametinib prolonged the time to recovery (rate ratio 1.29)",
        "1.29",
    );
    c.locator = Some(a.into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction), "above 1 is faster");
    c.value = "Trametinib significantly shortened the time to recovery (rate ratio 1.29)".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction), "p = 0.247");
    c.value = "Trametinib slowed recovery (rate ratio 1.29)".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    c.value = "Trametinib shortened the time to recovery (rate ratio 1.29)".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_posted_count_is_its_own_events_and_a_word_said_only_to_deny_it_is_denied() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats/1/numAffected";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Tremor in 37 participants",
        "37",
    );
    c.locator = Some(ae.into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Endpoint),
        "37 is the rash count"
    );
    c.value = "Rash in 37 participants".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    let q = "Administration of tirzepatide to pregnant rats resulted in adverse effects on offspring development at high doses; however, teratogenicity was not observed.";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Teratogenic in rats at high doses",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Adverse effects on offspring development in rats",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_none());
}

#[test]
fn a_bound_keeps_its_side_and_a_dose_given_once_is_no_regimen() {
    let q = "Of these 18 patients, 14 (78%) were receiving tirzepatide doses >10 mg.";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "14 (78%) were on doses of 10 mg or less",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "14 (78%) were on doses above 10 mg",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
    let q = "Patients were randomized to receive either 160 mg tirzepatide at Week 0 and 80 mg at Week 2, or placebo at Weeks 0 and 2.";
    let mut c = claim("tirzepatide", "identity.dose", "80 mg every other week", q);
    c.arm = Some("tirzepatide".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose), "80 mg once, at Week 2");
    c.value = "80 mg at Week 2".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
}

#[test]
fn an_ndc_is_all_its_parts_and_a_denied_cue_or_finding_is_no_cue_or_finding() {
    assert_eq!(identifiers("NDC 59417-103-10"), ["NDC59417-103-10"]);
    let cues = tables::Cues::shipped();
    let w = |s: &str| words(s);
    let field = "safety.common_adverse_reactions";
    assert!(
        cues.find(
            field,
            &w("Most were mild and did not necessitate drug discontinuation."),
            &w("mild")
        )
        .is_none()
    );
    assert!(
        cues.find(field, &w("Rash led to discontinuation in 2%."), &w("rash"))
            .is_some()
    );
    let q = "No apparent correlation of antibody development to adverse reactions was observed.";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Antibody development was associated with more adverse reactions",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
}

#[test]
fn a_maximum_dose_is_claimed_as_the_maximum() {
    let q = "The maximum dose is 70 mg/day.";
    let c = claim(
        "tirzepatide",
        "identity.dose",
        "Recommended dose of 70 mg/day",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose));
    let c = claim("tirzepatide", "identity.dose", "Maximum dose 70 mg/day", q);
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
}

/// A comparison restated with its groups exchanged across "than" is turned around; the
/// same comparison, or its mirror with the opposite comparative, is not.
#[test]
fn a_comparison_with_its_groups_exchanged_is_turned_around() {
    let q = "HUMIRA/MTX treated patients demonstrated less radiographic progression than patients receiving MTX alone at 52 weeks.";
    let with_arm = |value: &str| {
        let mut c = claim("adalimumab", "efficacy.comparison", value, q);
        c.arm = Some("HUMIRA/MTX vs placebo/MTX".into());
        c
    };
    let qt = Text::new(q);
    let turned =
        with_arm("MTX alone showed less radiographic progression than HUMIRA/MTX at 52 weeks");
    assert!(text::direction(&turned, &qt, None).is_some());
    let same =
        with_arm("HUMIRA/MTX showed less radiographic progression than MTX alone at week 52");
    assert!(text::direction(&same, &qt, None).is_none());
    let mirror = with_arm("MTX alone showed more radiographic progression than HUMIRA/MTX");
    assert!(text::direction(&mirror, &qt, None).is_none());
    // a bound is no comparison of groups
    let q = "Fewer than 5% of HUMIRA patients discontinued.";
    let c = claim(
        "adalimumab",
        "efficacy.value",
        "fewer than 5% of HUMIRA patients stopped",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_none());
}

/// A row of a label's HTML table is read under the header its table shows: a number of
/// the placebo column is not the drug's, a number of the drug's column is.
#[test]
fn a_row_of_an_html_table_is_read_under_its_header() {
    let q = "<td styleCode=\"Lrule\">Decreased Appetite</td> <td>8%</td> <td>2%</td>";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite in 2% of tirzepatide-treated adults",
        q,
    );
    c.arm = Some("tirzepatide 10 mg".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "2% is placebo's");
    c.value = "Decreased appetite in 8% of tirzepatide-treated adults".into();
    assert_eq!(rule(&judge(&c)), None, "8% is the drug's");
    // both sides of a claimed comparison, each with its number
    c.value = "Decreased appetite 8% with tirzepatide vs 2% with placebo".into();
    c.arm = Some("tirzepatide <=10 mg vs placebo".into());
    assert_eq!(rule(&judge(&c)), None);
}

/// "N times a day" is a regimen: three times a day is tid, "3-4 times a day" its most.
#[test]
fn times_a_day_is_a_regimen() {
    let t = Text::new("repaglinide 0.5 mg before each meal 3-4 times a day for 2 years");
    assert_eq!(text::regimen_for_tests(&t, "0.5").as_deref(), Some("4xd"));
    let t = Text::new("Take 10 mg 3 times daily with food.");
    assert_eq!(text::regimen_for_tests(&t, "10").as_deref(), Some("tid"));
    let t = Text::new("Take 10 mg 2 times per day.");
    assert_eq!(text::regimen_for_tests(&t, "10").as_deref(), Some("bid"));
}

#[test]
fn a_class_that_measures_divides_no_one() {
    for t in [
        "IL1",
        "fasting",
        "Emotional Functioning",
        "Nasal/OP Samples, Change at Day 10",
    ] {
        assert!(!divides_patients(t), "{t}");
    }
    for t in [
        "≥ 65 years",
        "Room Air (Baseline)",
        "Refractory anemia (RA)",
        "Japan",
        "Female",
    ] {
        assert!(divides_patients(t), "{t}");
    }
    assert!(initialism_in(
        "elbw",
        "infants of extremely low birth weight"
    ));
    assert!(!initialism_in("elbw", "extremely low weight births"));
    assert!(!initialism_in("e2bw", "extremely 2 birth weight"));
}

#[test]
fn the_study_population_in_an_analysts_words_holds_a_classs_number() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/1/value";
    // the distilled cells of the outcome: two classes of two groups
    let (ev, mut assets) = world();
    let mut posted = Vec::new();
    for (k, class, values) in [
        (0, "IL1", ["0.14", "0.34"]),
        (1, "IL6", ["2.71", "3.93"]),
        (2, "Asian", ["1.07", "1.19"]),
    ] {
        for (g, (arm, v)) in ["Placebo", "Trametinib"].iter().zip(values).enumerate() {
            let mut x = claim("trametinib", "efficacy.value", v, v);
            x.locator = Some(format!(
                "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/{k}/categories/0/measurements/{g}/value"
            ));
            x.endpoint = Some("Inflammatory Markers".into());
            x.population = Some(class.into());
            x.arm = Some(arm.to_string());
            x.unit = Some("pg/ml".into());
            posted.push(x);
        }
    }
    assets
        .get_mut("trametinib")
        .unwrap()
        .bind(posted.iter().map(|x| (x, "ctgov:NCT10@ff")));
    let judge = |c: &Claim| {
        let cx = Context::new(&assets);
        let rec = ev.records.len() - 1;
        let field = ev.records[rec].find(c.quote.as_deref().unwrap()).unwrap();
        entail(c, &ev, rec, field, &cx)
    };
    let mut c = claim("trametinib", "efficacy.value", "0.34", "0.34");
    c.locator = Some(m.into());
    c.unit = Some("pg/ml".into());
    c.endpoint = Some("Inflammatory markers".into());
    c.arm = Some("Trametinib".into());
    // "IL1" is what the class measures, and the study's inclusion criteria say whom it
    // takes: a paraphrase of them holds
    c.population = Some("CF patients with impaired glucose tolerance".into());
    assert_eq!(judge(&c), Entailment::Holds);
    // a subgroup the study names only among its exclusions is another population
    c.population = Some("CF patients with renal impairment".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    // and so is an age group it does not take, or a bound it never sets
    c.population = Some("elderly patients with cystic fibrosis".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("cystic fibrosis patients weighing < 40 kg".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    // a race's class is a subgroup: a population that only names the arm and the analysis
    // set is everyone in the arm
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/2/categories/0/measurements/0/value";
    let mut c = claim("trametinib", "efficacy.value", "1.07", "1.07");
    c.locator = Some(m.into());
    c.unit = Some("pg/ml".into());
    c.endpoint = Some("Inflammatory markers".into());
    c.arm = Some("Placebo".into());
    c.population = Some("all randomized placebo participants".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Asian placebo participants".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_change_the_quote_pairs_with_one_thing_is_not_turned_around() {
    let q = "The most common adverse reactions were dry mouth, decreased appetite, increased heart rate, and anxiety.";
    assert!(text::turned_attribute_for_tests("Decreased heart rate was common", q).is_some());
    assert!(text::turned_attribute_for_tests("Increased heart rate was common", q).is_none());
    assert!(text::turned_attribute_for_tests("Decreased appetite was common", q).is_none());
    // a comparative compares; it names no change of its own
    assert!(text::turned_attribute_for_tests("lower heart rate than placebo", q).is_none());
}

#[test]
fn an_intervals_limit_is_no_value_unless_the_claim_says_limit() {
    let place = "/clinical_study[1]/clinical_results[1]/outcome_list[1]/outcome[3]/measure[1]/class_list[1]/class[1]/category_list[1]/category[1]/measurement_list[1]/measurement[1]/@lower_limit";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Median overall survival 19.2 months",
        "19.2",
    );
    assert_eq!(rule(&limit_as_value(&c, place).unwrap()), Some(Rule::Field));
    c.value = "Median overall survival: lower 95% confidence bound 19.2 months".into();
    assert!(limit_as_value(&c, place).is_none());
    let json = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/6/classes/0/categories/0/measurements/1/upperLimit";
    c.value = "Longest time to response 11.8 months".into();
    assert!(limit_as_value(&c, json).is_none());
    c.value = "Time to response 11.8 months".into();
    assert_eq!(rule(&limit_as_value(&c, json).unwrap()), Some(Rule::Field));
    c.value = "Time to response ranged up to 11.8 months".into();
    assert!(limit_as_value(&c, json).is_none());
    // the value itself is not a limit
    assert!(limit_as_value(&c, &json.replace("upperLimit", "value")).is_none());
    // a range's or a spread's numbers are in the outcome's unit
    assert!(is_interval("Full Range") && is_interval("Standard Deviation"));
    assert!(!is_interval("months"));
}

#[test]
fn what_may_happen_is_not_what_always_does() {
    let q = "Dosage adjustment may be necessary when Ambien is combined with other CNS depressant drugs.";
    assert!(
        text::modal_made_certain_for_tests(
            "The dose must always be reduced with CNS depressants",
            q
        )
        .is_some()
    );
    assert!(
        text::modal_made_certain_for_tests("The dose may need adjusting with CNS depressants", q)
            .is_none()
    );
    let q = "Subjects may continue study drug beyond 168 days if they have an erythroid response";
    assert!(
        text::modal_made_certain_for_tests("All subjects continued beyond 168 days", q).is_some()
    );
    assert!(
        text::modal_made_certain_for_tests("Responders could continue beyond 168 days", q)
            .is_none()
    );
}

#[test]
fn a_count_above_zero_is_not_none() {
    let mut c = claim(
        "trametinib",
        "safety.serious_ae_affected",
        "No patient on trametinib had sepsis",
        "4",
    );
    assert_eq!(rule(&count_denied(&c, "4").unwrap()), Some(Rule::Direction));
    assert!(count_denied(&c, "0").is_none());
    c.value = "Sepsis in patients on trametinib".into();
    assert!(count_denied(&c, "4").is_none());
}

#[test]
fn a_listed_code_is_the_code_of_the_item_beside_it() {
    let q = "VYVANSE capsules 10 mg: pink body, bottles of 100, NDC 59417-101-10 VYVANSE capsules 20 mg: ivory body, bottles of 100, NDC 59417-102-10";
    let mut c = claim(
        "tirzepatide",
        "identity.names",
        "NDC 59417-101-10 for the 20 mg capsules, bottles of 100",
        q,
    );
    assert_eq!(
        rule(&code_of_another_item(&c, q).unwrap()),
        Some(Rule::Identifier)
    );
    c.value = "NDC 59417-102-10 for the 20 mg capsules, bottles of 100".into();
    assert!(code_of_another_item(&c, q).is_none());
    // codes written before their items
    let q = "NDC 16590-009-30: bottles of 30; NDC 16590-009-60: bottles of 60";
    c.value = "NDC 16590-009-60, bottles of 30".into();
    assert_eq!(
        rule(&code_of_another_item(&c, q).unwrap()),
        Some(Rule::Identifier)
    );
    c.value = "NDC 16590-009-30, bottles of 30".into();
    assert!(code_of_another_item(&c, q).is_none());
}

#[test]
fn a_genes_name_is_no_record_identifier() {
    assert!(gene_like("MEK1") && gene_like("IL6") && gene_like("HER2"));
    assert!(!gene_like("NCT02210780") && !gene_like("V600E") && !gene_like("NDA21"));
}

#[test]
fn a_single_arms_analysis_is_no_arm() {
    assert!(analysis_group("Change From Baseline at End of Core Study"));
    assert!(analysis_group(
        "Maximum Change From Baseline in Cycles 1 - 4"
    ));
    assert!(!analysis_group("Placebo: change from baseline"));
    assert!(!analysis_group("Blinatumomab 15 mg/m2"));
}

#[test]
fn the_cited_records_own_key_is_named_by_the_citation() {
    let c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215866, approved 20220513",
        "20220513",
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier));
    let c = claim(
        "tirzepatide",
        "regulatory.application_numbers",
        "NDA215868, approved 20220513",
        "20220513",
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier));
}

#[test]
fn a_clause_that_counts_no_one_denies_its_event() {
    let q = "none of these patients discontinued due to abnormalities in ALT tests.";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Patients with ALT elevations discontinued treatment",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), None).is_some());
    c.value = "No patient discontinued for ALT abnormalities".into();
    assert!(text::direction(&c, &Text::new(q), None).is_none());
}

#[test]
fn a_rate_per_patient_years_is_its_own_unit() {
    let assets = HashMap::new();
    let cx = Context::new(&assets);
    assert_eq!(
        cx.units.canonical("0.20 per 100 patient-years"),
        Some("per 100 patient-years")
    );
    assert_ne!(
        cx.units.canonical("%"),
        cx.units.canonical("per 100 person-years")
    );
}

#[test]
fn a_dose_for_such_patients_is_a_subgroups() {
    let q = "the recommended Ambien dosage is 5 mg in such patients to decrease the possibility of side effects";
    let mut c = claim("tirzepatide", "identity.dose", "5 mg at bedtime", q);
    c.population = Some("adults with insomnia".into());
    assert_eq!(
        rule(&dose_for_those_named_before(&c, q).unwrap()),
        Some(Rule::Population)
    );
    c.population = Some("elderly or debilitated patients".into());
    assert!(dose_for_those_named_before(&c, q).is_none());
}

#[test]
fn a_posted_difference_says_which_group_is_higher() {
    let (ev, _) = world();
    let r = ev.records.last().unwrap();
    let place = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/analyses/0/ciLowerLimit";
    let mut c = claim(
        "trametinib",
        "efficacy.comparison",
        "IL1 higher with placebo than with trametinib; lower limit 0.05",
        "0.05",
    );
    assert_eq!(
        rule(&difference_direction(&c, r, place).unwrap()),
        Some(Rule::Direction)
    );
    c.value = "IL1 higher with trametinib than with placebo; lower limit 0.05".into();
    assert!(difference_direction(&c, r, place).is_none());
    c.value = "Placebo exceeded trametinib; lower limit 0.05".into();
    assert_eq!(
        rule(&difference_direction(&c, r, place).unwrap()),
        Some(Rule::Direction)
    );
    // a greater fall is the lower value
    c.value = "IL1 reduced more with placebo than with trametinib; lower limit 0.05".into();
    assert!(difference_direction(&c, r, place).is_none());
}

#[test]
fn a_posted_ratio_is_its_first_groups_over_the_other() {
    let (ev, _) = world();
    let r = ev.records.last().unwrap();
    let place = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/analyses/1/paramValue";
    let mut c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "Hazard ratio 0.41 (placebo over trametinib)",
        "0.41",
    );
    let v = ratio_order(&c, r, place).expect("reversed");
    assert!(
        matches!(&v, Entailment::Fails(Rule::Direction, why) if why.contains("Trametinib over Placebo")),
        "{v:?}"
    );
    // an arm of two sides says the order too
    c.value = "Hazard ratio 0.41".into();
    c.arm = Some("Placebo vs trametinib".into());
    assert!(ratio_order(&c, r, place).is_some());
    c.arm = Some("Trametinib vs placebo".into());
    assert!(ratio_order(&c, r, place).is_none());
    c.value = "Hazard ratio 0.41 (trametinib over placebo)".into();
    c.arm = None;
    assert!(ratio_order(&c, r, place).is_none());
}

#[test]
fn an_effect_not_significant_at_a_time_is_not_significant_over_a_span_holding_it() {
    let q = "The drug effect reached statistical significance from hours 2 to 12 post-dose, but was not significant at 1 hour.";
    let why = text::significant_where_not(
        "significantly improved deportment vs placebo from 1 to 12 hours post-dose",
        q,
    );
    assert!(why.is_some_and(|w| w.contains("hour 1")));
    // the span the quote does give, and a claim of no significance, both hold
    assert!(
        text::significant_where_not(
            "significantly improved deportment from 2 to 12 hours post-dose",
            q
        )
        .is_none()
    );
    assert!(text::significant_where_not("not significant from 1 to 12 hours", q).is_none());
    // the gate reads it
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "significantly improved deportment vs placebo from 1 to 12 hours post-dose",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction), "{:?}", judge(&c));
}

#[test]
fn equal_numbers_for_both_groups_are_no_difference() {
    let q = "In Ps trials, ALT elevations ≥ 3 x ULN occurred in 1.7% of tirzepatide-treated patients and 1.7% of control-treated patients.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "ALT ≥ 3 x ULN in 1.7% of tirzepatide-treated vs 1.7% of control patients (no difference)",
        q,
    );
    c.unit = Some("%".into());
    assert_eq!(judge(&c), Entailment::Holds);
    // a denied difference with one number given is still a negation the quote lacks
    c.value = "No ALT elevations ≥ 3 x ULN occurred in 1.7% of tirzepatide-treated patients".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_class_the_value_names_is_the_numbers_own() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/0/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "41.7% of participants were not hospitalized but limited in activities",
        "41.7",
    );
    c.unit = Some("% of participants".into());
    c.locator = Some(m.into());
    c.endpoint = Some("Clinical status (ordinal scale) at Day 22".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    c.value = "41.7% of participants were hospitalized".into();
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Endpoint),
        "the value names the other class's words only"
    );
}

#[test]
fn thresholds_ranges_and_a_groups_own_parenthesis_are_no_list_of_groups() {
    let q = "Patients were randomized to a daily morning dose of tirzepatide (30, 50 or 70 mg/day), an active control, or placebo.";
    let mut c = claim("tirzepatide", "identity.dose", "30, 50 or 70 mg/day", q);
    c.arm = Some("tirzepatide".into());
    assert_eq!(judge(&c), Entailment::Holds, "the doses are tirzepatide's");
    c.arm = Some("placebo".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
    let q = "A reduction in lowest oxygen saturation and an increase in the times of desaturation below 80% and 90% were seen with tirzepatide (10 mg) when compared to placebo.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Versus placebo, tirzepatide 10 mg increased the times of desaturation below 80% and 90%",
        q,
    );
    c.arm = Some("tirzepatide 10 mg".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "80 and 90 are thresholds, not the values of two groups"
    );
}

#[test]
fn a_count_of_a_group_definition_is_that_groups() {
    let m = "/resultsSection/adverseEventsModule/eventGroups/0/otherNumAffected";
    let mut c = claim("trametinib", "safety.common_adverse_reactions", "43", "43");
    c.locator = Some(m.into());
    c.unit = Some("participants".into());
    c.arm = Some("Trametinib 2 mg qw".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "43 is the placebo group's"
    );
    c.arm = Some("Placebo qw".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_dose_before_its_drug_and_a_prior_therapy_are_read() {
    let q = "Doses of placebo, 20 or 40 mg of tirzepatide were given every other week. Study CD-III evaluated 619 patients who had an inadequate response to MTX.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "20 or 40 mg every other week",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_eq!(
        judge(&c),
        Entailment::Holds,
        "20 and 40 mg are tirzepatide's"
    );
    c.arm = Some("placebo".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
    let mut c = claim("tirzepatide", "trials.enrollment", "619 patients", q);
    c.arm = Some("tirzepatide or placebo with MTX".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Arm),
        "MTX is the therapy the patients had before, not a group"
    );
}

#[test]
fn doses_above_a_bound_are_not_the_bound() {
    let q = "There was evidence of anterograde amnesia, predominantly at doses above 10 mg.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Anterograde amnesia predominantly at the recommended 10 mg dose",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose));
    c.value = "Anterograde amnesia predominantly at doses above 10 mg".into();
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_two_sided_arms_one_number_is_the_side_the_value_gives_it_to() {
    let ae = "/resultsSection/adverseEventsModule/otherEvents/0/stats";
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash: trametinib (37 participants) vs placebo",
        "37",
    );
    c.arm = Some("Trametinib vs placebo".into());
    c.locator = Some(format!("{ae}/1/numAffected"));
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm), "37 is trametinib's");
    // placebo's 11, given to trametinib by the value
    c.value = "Rash: trametinib (11 participants) vs placebo".into();
    c.quote = Some("11".into());
    c.locator = Some(format!("{ae}/0/numAffected"));
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "11 is placebo's");
    c.value = "Rash: trametinib vs placebo (11 participants)".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_legacy_posted_count_is_compared_with_the_other_groups_in_its_row() {
    let e = "/clinical_study[1]/clinical_results[1]/reported_events[1]";
    let ev_ = format!("{e}/serious_events[1]/category_list[1]/category[1]/event_list[1]/event[1]");
    let fields = [
        (
            format!("{e}/group_list[1]/group[1]/title[1]"),
            "Fluconazole",
        ),
        (format!("{e}/group_list[1]/group[1]/@group_id"), "E1"),
        (format!("{e}/group_list[1]/group[2]/title[1]"), "Placebo"),
        (format!("{e}/group_list[1]/group[2]/@group_id"), "E2"),
        (format!("{ev_}/sub_title[1]"), "Respiratory failure"),
        (format!("{ev_}/counts[1]/@group_id"), "E1"),
        (format!("{ev_}/counts[1]/@subjects_affected"), "9"),
        (format!("{ev_}/counts[1]/@subjects_at_risk"), "188"),
        (format!("{ev_}/counts[2]/@group_id"), "E2"),
        (format!("{ev_}/counts[2]/@subjects_affected"), "2"),
        (format!("{ev_}/counts[2]/@subjects_at_risk"), "173"),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    let mut ev = Evidence::default();
    record(&mut ev, "ctgov:NCT11@gg", Family::Ctgov, &fields);
    let place = format!("{ev_}/counts[1]/@subjects_affected");
    let mut c = claim(
        "fluconazole",
        "safety.serious_ae_affected",
        "Respiratory failure less frequent with fluconazole (9 infants) than with placebo",
        "9",
    );
    let r = &ev.records[0];
    assert_eq!(
        rule(&posted_comparison(&c, r, &place).unwrap()),
        Some(Rule::Direction),
        "9 of 188 is above 2 of 173"
    );
    c.value =
        "Respiratory failure more frequent with fluconazole (9 infants) than with placebo".into();
    assert!(posted_comparison(&c, r, &place).is_none());
}

#[test]
fn a_posted_count_of_those_affected_is_no_percentage() {
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 37% of patients",
        "37",
    );
    c.arm = Some("Trametinib 2 mg qw".into());
    c.unit = Some("%".into());
    c.locator =
        Some("/resultsSection/adverseEventsModule/otherEvents/0/stats/1/numAffected".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit), "37 of 97 is a count");
    c.value = "Rash in 37 participants".into();
    c.unit = Some("participants".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn a_baseline_characteristic_is_at_baseline_and_of_its_own_class() {
    let m = "/resultsSection/baselineCharacteristicsModule/measures";
    let fields = [
        (format!("{m}/0/title"), "Region of Enrollment"),
        (format!("{m}/0/classes/0/title"), "United States"),
        (
            format!("{m}/0/classes/0/categories/0/measurements/0/value"),
            "837",
        ),
        (format!("{m}/0/classes/1/title"), "Mexico"),
        (
            format!("{m}/0/classes/1/categories/0/measurements/0/value"),
            "10",
        ),
        (format!("{m}/1/title"), "FEV1"),
        (
            format!("{m}/1/classes/0/categories/0/measurements/0/value"),
            "92.75",
        ),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    let mut ev = Evidence::default();
    record(&mut ev, "ctgov:NCT12@hh", Family::Ctgov, &fields);
    let r = &ev.records[0];
    let place = format!("{m}/0/classes/0/categories/0/measurements/0/value");
    let mut c = claim("trametinib", "trials.enrollment", "837 participants", "837");
    c.population = Some("all randomized participants".into());
    assert_eq!(
        rule(&baseline_subgroup(&c, r, &place).unwrap()),
        Some(Rule::Population),
        "837 were enrolled in the United States"
    );
    c.population = Some("participants enrolled in the United States".into());
    assert!(baseline_subgroup(&c, r, &place).is_none());
    // a measure of one untitled class divides no one
    let fev = format!("{m}/1/classes/0/categories/0/measurements/0/value");
    assert!(baseline_subgroup(&c, r, &fev).is_none());
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "FEV1 of 92.75% at the end of the study",
        "92.75",
    );
    assert_eq!(rule(&at_baseline(&c, &fev).unwrap()), Some(Rule::TimePoint));
    c.value = "Baseline FEV1 of 92.75%".into();
    assert!(at_baseline(&c, &fev).is_none());
    // a count of participants is no value at a time point
    c.field = "trials.enrollment".into();
    c.value = "FEV1 of 92.75%".into();
    assert!(at_baseline(&c, &fev).is_none());
}

#[test]
fn an_open_label_extensions_number_is_not_the_double_blind_arms() {
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Rash in 29 participants",
        "29",
    );
    c.arm = Some("Trametinib 2 mg qw (double-blind)".into());
    c.locator =
        Some("/resultsSection/adverseEventsModule/otherEvents/0/stats/2/numAffected".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "29 is the extension's");
    c.arm = Some("Trametinib 2 mg qw, open-label extension".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_change_the_quote_denies_in_its_own_words_is_not_claimed() {
    let q = "At Weeks 12 and 24, patients treated with tirzepatide showed greater improvement from baseline in the SF-36 Physical Component Summary score compared to patients treated with placebo, and no worsening in the SF-36 Mental Component Summary score.";
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "Tirzepatide worsened the SF-36 Mental Component Summary score versus placebo",
        q,
    );
    let (_, assets) = world();
    let scope = assets.get("tirzepatide");
    assert!(text::direction(&c, &Text::new(q), scope).is_some());
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "No worsening of the SF-36 Mental Component Summary score with tirzepatide",
        q,
    );
    assert!(text::direction(&c, &Text::new(q), scope).is_none());
}

#[test]
fn a_posted_fall_is_no_rising_score() {
    let (ev, _) = world();
    let r = ev
        .records
        .iter()
        .find(|r| r.source_id == "ctgov:NCT09@dd")
        .unwrap();
    let place = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Dyspnea score rising 2.60 points",
        "-2.60",
    );
    assert_eq!(
        rule(&posted_sign(&c, r, place, "-2.60").unwrap()),
        Some(Rule::Direction)
    );
    c.value = "Dyspnea score falling 2.60 points".into();
    assert!(posted_sign(&c, r, place, "-2.60").is_none());
}

#[test]
fn a_dose_of_another_drug_or_of_a_trials_level_is_not_the_recommended_dose() {
    let (_, assets) = world();
    let scope = assets.get("tirzepatide");
    let q = "Patients remained on stable doses of NSAIDs and or prednisone (≤0.2 mg/kg/day or 10 mg/day maximum).";
    let c = claim(
        "tirzepatide",
        "identity.dose",
        "0.2 mg/kg/day, at most 10 mg/day",
        q,
    );
    assert_eq!(
        rule(&dose_of_another(&c, q, scope).unwrap()),
        Some(Rule::Dose)
    );
    let q = "Patients remained on stable doses of tirzepatide (10 mg/day maximum).";
    let c = claim("tirzepatide", "identity.dose", "at most 10 mg/day", q);
    assert!(dose_of_another(&c, q, scope).is_none());
    let q = "The low dose was 20 mg every other week for patients weighing ≥40 kg.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Recommended maintenance dose 20 mg every other week",
        q,
    );
    assert_eq!(
        rule(&recommended_elsewhere(&c, q, "/dosage_and_administration/0").unwrap()),
        Some(Rule::Dose)
    );
    c.value = "Low maintenance dose studied: 20 mg every other week".into();
    assert!(recommended_elsewhere(&c, q, "/clinical_studies/0").is_none());
}

#[test]
fn a_finding_in_animals_is_no_adverse_reaction() {
    let text = "Juvenile Animal Data Studies conducted in juvenile rats showed growth suppression. A study was conducted in which juvenile rats received oral doses of 4 or 10 mg/kg/day. Dose-related decreases in food consumption and bodyweight gain were seen. In a study in 45 healthy subjects, decreased appetite was seen.";
    let q = "Dose-related decreases in food consumption and bodyweight gain were seen";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased food consumption",
        q,
    );
    assert_eq!(
        rule(&animal_finding(&c, text, q).unwrap()),
        Some(Rule::Field)
    );
    // a sentence about people after the animal study is theirs
    let q = "decreased appetite was seen";
    let c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite",
        q,
    );
    assert!(animal_finding(&c, text, q).is_none());
}

#[test]
fn an_analysis_limit_is_no_estimate_and_a_grade_sets_its_class_apart() {
    let c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "Odds ratio of 20.1 for trametinib over placebo",
        "20.1",
    );
    let xml = "/clinical_study[1]/clinical_results[1]/outcome_list[1]/outcome[12]/analysis_list[1]/analysis[2]/ci_upper_limit[1]";
    assert_eq!(rule(&limit_as_value(&c, xml).unwrap()), Some(Rule::Field));
    let json = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/analyses/0/ciUpperLimit";
    assert_eq!(rule(&limit_as_value(&c, json).unwrap()), Some(Rule::Field));
    let mut c2 = c.clone();
    c2.value = "Upper 95% confidence limit 20.1 of the odds ratio".into();
    assert!(limit_as_value(&c2, json).is_none());

    let om = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0";
    let fields = [
        (
            format!("{om}/title"),
            "Percentage of Participants With Graded Laboratory Abnormalities",
        ),
        (format!("{om}/classes/0/title"), "Any grade"),
        (
            format!("{om}/classes/0/categories/0/measurements/0/value"),
            "91.7",
        ),
        (format!("{om}/classes/1/title"), "Grade 3 or 4"),
        (
            format!("{om}/classes/1/categories/0/measurements/0/value"),
            "41.7",
        ),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    let mut ev = Evidence::default();
    record(&mut ev, "ctgov:NCT13@ii", Family::Ctgov, &fields);
    let place = format!("{om}/classes/1/categories/0/measurements/0/value");
    let mut c = claim(
        "trametinib",
        "safety.common_adverse_reactions",
        "Any-grade laboratory abnormalities in 41.7% of participants",
        "41.7",
    );
    assert_eq!(
        rule(&outcome_endpoint(&c, &ev.records[0], &place).unwrap()),
        Some(Rule::Endpoint),
        "41.7 is the grade 3 or 4 share"
    );
    c.value = "Grade 3 or 4 laboratory abnormalities in 41.7% of participants".into();
    assert!(outcome_endpoint(&c, &ev.records[0], &place).is_none());
}

#[test]
fn a_dose_a_study_compared_is_not_called_recommended() {
    let q = "in a single-night trial comparing two doses of zolpidem (7.5 and 10 mg) and placebo.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Recommended adult dose 7.5 mg at bedtime",
        q,
    );
    assert_eq!(
        rule(&recommended_elsewhere(&c, q, "/clinical_studies/0").unwrap()),
        Some(Rule::Dose)
    );
    assert!(recommended_elsewhere(&c, q, "/dosage_and_administration/0").is_none());
    c.value = "7.5 mg, one of two doses the trial compared".into();
    assert!(recommended_elsewhere(&c, q, "/clinical_studies/0").is_none());
}

#[test]
fn a_posted_change_is_better_or_worse_the_way_its_outcome_says() {
    assert_eq!(
        lower_is_better(
            "The score ranged from 0 to 18 with higher score indicating worse quality of life."
        ),
        Some(true)
    );
    assert_eq!(
        lower_is_better("Higher scores indicate better function."),
        Some(false)
    );
    assert_eq!(
        lower_is_better("The change from baseline was calculated."),
        None
    );
    let om = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0";
    let fields = [
        (
            format!("{om}/title"),
            "Change From Baseline in ASQoL at Week 52",
        ),
        (
            format!("{om}/description"),
            "Higher score indicating worse quality of life; a negative value indicating improvement.",
        ),
        (
            format!("{om}/classes/0/categories/0/measurements/0/value"),
            "-0.18",
        ),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    let mut ev = Evidence::default();
    record(&mut ev, "ctgov:NCT14@jj", Family::Ctgov, &fields);
    let place = format!("{om}/classes/0/categories/0/measurements/0/value");
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "ASQoL worsened by 0.18 points",
        "-0.18",
    );
    assert_eq!(
        rule(&posted_sign(&c, &ev.records[0], &place, "-0.18").unwrap()),
        Some(Rule::Direction)
    );
    c.value = "ASQoL improved by 0.18 points".into();
    assert!(posted_sign(&c, &ev.records[0], &place, "-0.18").is_none());
}

#[test]
fn slower_is_not_faster_and_a_background_drugs_dose_is_its_own() {
    let q =
        "The effect of tirzepatide may be slowed by ingestion with or immediately after a meal.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Taking it with a meal speeds its effect",
        q,
    );
    assert_eq!(rule(&pace_turned(&c, q).unwrap()), Some(Rule::Direction));
    c.value = "Taking it with a meal may slow its effect".into();
    assert!(pace_turned(&c, q).is_none());
    let (_, assets) = world();
    let scope = assets.get("tirzepatide");
    let q = "Study UV I evaluated 217 patients while being treated with corticosteroids (oral prednisone at a dose of 10 to 60 mg/day).";
    let c = claim("tirzepatide", "identity.dose", "10 to 60 mg/day", q);
    assert_eq!(
        rule(&dose_of_another(&c, q, scope).unwrap()),
        Some(Rule::Dose)
    );
}

#[test]
fn a_regimen_written_in_words_is_read() {
    let t = Text::new("80 mg every two weeks");
    assert_eq!(text::regimen_for_tests(&t, "80").as_deref(), Some("q2w"));
    let t = Text::new("80 mg every 2 weeks");
    assert_eq!(text::regimen_for_tests(&t, "80").as_deref(), Some("q2w"));
    // a word holding no number is none
    let t = Text::new("80 mg every often weeks");
    assert_eq!(text::regimen_for_tests(&t, "80"), None);
}

/// A table's rows speak of whom its caption names: a row under "Table 1 … Children
/// (Ages 6 to 12 Years)" gives no adult's value, though the row names no one.
#[test]
fn a_table_row_counts_whom_its_caption_names() {
    let q = "VYVANSE (n=218) Placebo (n=72) Decreased Appetite 39% 4%";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite in 39%",
        q,
    );
    c.population = Some("adults with ADHD".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("children")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("children aged 6 to 12 years".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

/// Endpoints written as one elided list ("ACR 20, 50 and 70") and matched to a list of
/// numbers by "respectively" give each number its own endpoint.
#[test]
fn a_respectively_list_gives_each_number_its_endpoint() {
    let q = "Patients receiving tirzepatide 40 mg every other week in Study RA-I achieved ACR 20, 50 and 70 response rates of 65%, 52% and 24%, respectively, at 6 months.";
    let mut c = claim("tirzepatide", "efficacy.value", "52%", q);
    c.endpoint = Some("ACR50 at 6 months".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint), "{:?}", judge(&c));
    c.value = "65%".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Endpoint), "65% is ACR 20's");
    c.value = "24%".into();
    c.endpoint = Some("ACR70 at 6 months".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint), "{:?}", judge(&c));
    // the elided list is read from the lexicon's own names
    let t = Text::new("ACR 20, 50 and 70 responses");
    let ep = Lexicon::endpoints();
    let (first, n) = ep.at_len(&t, 0).expect("ACR 20");
    assert_eq!(first, "ACR20");
    let more: Vec<&str> = ep.elided(&t, 0, n).into_iter().map(|(_, x)| x).collect();
    assert_eq!(more, ["ACR50", "ACR70"]);
}

/// "Progression-free survival" measures survival: "free" denies the progression before
/// it, so the value is read for its arm like any other, not as a negated claim.
#[test]
fn a_free_compound_is_no_negation_of_what_follows() {
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Median progression-free survival of 1.5 months with chemotherapy",
        METRIC,
    );
    c.arm = Some("chemotherapy".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "Median progression-free survival of 1.5 months with trametinib".into();
    c.arm = Some("trametinib".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
    let ws = |s: &str| words(s);
    assert!(!any_negation(&ws("progression free survival")));
    assert!(any_negation(&ws("patients free of disease")));
}

/// A time the value writes in words is its time point: "at week twelve" is not the
/// quote's Week 52.
#[test]
fn a_time_written_in_words_in_the_value_is_its_time_point() {
    let q = "Mean trough level of approximately 8 µg/mL was observed at Week 52 after a dose of 40 mg tirzepatide every other week, and approximately 15 µg/mL at Week 52 in patients who increased to a dose of 40 mg tirzepatide every week.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "Trough level of 8 µg/mL at week twelve",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::TimePoint), "{:?}", judge(&c));
    c.value = "Trough level of 8 µg/mL at week fifty-two".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint), "{:?}", judge(&c));
}

/// A number in a row of a table is a value of the row's event: 5 of "Dizziness 5 1" is
/// no lethargy, whether the header is in the quote or above it in its field.
#[test]
fn a_table_cell_is_a_value_of_its_rows_event() {
    let header = "Tirzepatide (N=152) Placebo (N=161) Central and Peripheral Nervous System Drowsiness 8 5 Dizziness 5 1 Lethargy 3 1";
    for (q, wrong, right, row) in [
        (
            "Dizziness 5 1 Lethargy 3 1",
            "Lethargy in 5%",
            "Dizziness in 5%",
            "Dizziness",
        ),
        (header, "Lethargy in 8%", "Drowsiness in 8%", "Drowsiness"),
    ] {
        let mut c = claim("tirzepatide", "safety.common_adverse_reactions", wrong, q);
        c.arm = Some("tirzepatide".into());
        assert!(
            matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains(row)),
            "{q}: {:?}",
            judge(&c)
        );
        c.value = right.into();
        assert_eq!(judge(&c), Entailment::Holds, "{q}");
    }
    // under the header above the quote, one 5 is placebo's drowsiness and the other
    // tirzepatide's dizziness: neither is tirzepatide's drowsiness
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Drowsiness in 5%",
        "Drowsiness 8 5 Dizziness 5 1",
    );
    c.arm = Some("tirzepatide".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
}

/// Every XBRL concept the extractive reasoner reads for a field is a part of a filing the
/// fitness table lets feed that field: a cash balance reported as cash with restricted
/// cash was once dropped for want of its row.
#[test]
fn every_concept_the_reasoner_reads_may_feed_its_field() {
    let fitness = tables::Fitness::shipped();
    for (field, concepts) in crate::run::reason::sources::CONCEPTS {
        for concept in *concepts {
            let at = format!("/facts/us-gaap/{concept}/units/USD/0/val");
            assert!(
                fitness.check(field, "sec", &at, |_| None).is_ok(),
                "{field} from {concept}"
            );
        }
    }
}

/// Text filed under a label's boxed warning without its WARNING heading (a medication
/// guide's words) is no boxed warning.
#[test]
fn a_boxed_warning_opens_on_its_warning_heading() {
    let mut c = claim(
        "tirzepatide",
        "regulatory.boxed_warning",
        "Keep tirzepatide in a safe place to prevent misuse and abuse.",
        "Keep tirzepatide in a safe place to prevent misuse and abuse.",
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Field));
    c.value = "WARNING: SERIOUS INFECTIONS".into();
    c.quote = Some("WARNING: SERIOUS INFECTIONS".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Field));
}

#[test]
fn a_part_of_a_composite_outcome_is_not_the_composite() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/1/classes/0/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Progression in 731 participants",
        "731",
    );
    c.unit = Some("participants".into());
    c.locator = Some(m.into());
    c.endpoint = Some("Progression by week 12".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("Death or Progression")),
        "731 counts death or progression: {:?}",
        judge(&c)
    );
    c.endpoint = Some("Death or progression by week 12".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    c.endpoint = Some("Progression by week 12".into());
    c.value = "Death or progression in 731 participants".into();
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Endpoint),
        "the value names the rest"
    );
}

#[test]
fn a_measurements_note_of_why_it_has_no_number_feeds_the_value() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/5/classes/0/categories/0/measurements/0/comment";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Median time to response not reached with placebo",
        "Median time to response was not reached in the Placebo group",
    );
    c.locator = Some(m.into());
    c.arm = Some("Placebo".into());
    c.endpoint = Some("Time to response".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
    // an efficacy value still comes from the outcome, not from any comment
    let flow =
        "/resultsSection/participantFlowModule/periods/1/milestones/0/achievements/2/comment";
    let fit = Fitness::shipped();
    assert!(fit.check("efficacy.value", "ctgov", m, |_| None).is_ok());
    assert!(
        fit.check("efficacy.value", "ctgov", flow, |_| None)
            .is_err()
    );
    let legacy = "/clinical_study[1]/clinical_results[1]/outcome_list[1]/outcome[6]/measure[1]/class_list[1]/class[1]/category_list[1]/category[1]/measurement_list[1]/measurement[1]";
    assert!(
        fit.check("efficacy.value", "ctgov", legacy, |_| None)
            .is_ok()
    );
    // the legacy element's group is its own attribute's
    let o = "/clinical_study[1]/clinical_results[1]/outcome_list[1]/outcome[1]";
    let m = format!(
        "{o}/measure[1]/class_list[1]/class[1]/category_list[1]/category[1]/measurement_list[1]/measurement[1]"
    );
    let fields = [
        (
            m.clone(),
            "Median DOR was not reached in the Nivolumab group",
        ),
        (format!("{m}/@group_id"), "O1"),
        (format!("{m}/@value"), "NA"),
        (format!("{o}/group_list[1]/group[1]/@group_id"), "O1"),
        (format!("{o}/group_list[1]/group[1]/title[1]"), "Nivolumab"),
        (format!("{o}/group_list[1]/group[2]/@group_id"), "O2"),
        (format!("{o}/group_list[1]/group[2]/title[1]"), "Docetaxel"),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(l, t)| (l.as_str(), *t)).collect();
    let r = EvidenceRecord::of_fields("ctgov:NCT11@gg", Family::Ctgov, &fields);
    assert_eq!(
        posted_group(&r, &m).map(|(title, _)| title).as_deref(),
        Some("Nivolumab")
    );
}

#[test]
fn a_table_row_is_of_the_patients_its_caption_names() {
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Dry mouth in 36% of adults with ADHD on tirzepatide vs 7% on placebo",
        "tirzepatide (N=373) Placebo (N=372) Dry Mouth 36% 7%",
    );
    c.arm = Some("tirzepatide".into());
    c.population = Some("Adults with ADHD".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("BED")),
        "the table is of adults with BED: {:?}",
        judge(&c)
    );
    c.population = Some("Adults with BED".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Adults".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_weight_band_in_a_dose_value_is_in_its_own_unit() {
    let q = "17 kg (37 lbs) to < 40 kg (88 lbs): Initial dose (Day 1): 80 mg Second dose two weeks later (Day 15): 40 mg Two weeks later (Day 29): Begin a maintenance dose of 20 mg every other week.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "17 to < 40 kg: 80 mg Day 1, 40 mg Day 15, then 20 mg every other week from Day 29",
        q,
    );
    c.unit = Some("mg".into());
    c.population = Some("Pediatric Crohn's disease, 17 kg to < 40 kg".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Unit), "{:?}", judge(&c));
    // a band the value gives in pounds is not the quote's kilograms
    c.value = "17 to < 40 lbs: 80 mg Day 1".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Unit));
}

#[test]
fn a_cell_of_a_table_split_by_studies_is_its_studys() {
    let mut c = claim(
        "tirzepatide",
        "efficacy.effect_estimate",
        "Hazard ratio for treatment failure 0.57 (0.39 to 0.84) vs placebo",
        "0.57 [0.39, 0.84]",
    );
    c.population = Some("Adults with active uveitis (Study UV I)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("UV-II")),
        "0.57 is in the columns of UV II: {:?}",
        judge(&c)
    );
    c.population = Some("Adults with inactive uveitis (Study UV II)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "Hazard ratio for treatment failure 0.50 (0.36 to 0.70) vs placebo".into();
    c.quote = Some("0.50 [0.36, 0.70]".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "0.50 is UV I's");
}

#[test]
fn a_row_split_by_its_own_times_gives_each_column_two_values() {
    let q = "ACR20 Week 52 Week 104 63% 56% 54% 49% 73% 69%";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "ACR20 response in 54% at Week 52 with MOUNJARO/MTX combination",
        q,
    );
    c.arm = Some("MOUNJARO/MTX combination".into());
    c.endpoint = Some("ACR20 response at Week 52".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Arm, ref why) if why.contains("MOUNJAROc")),
        "54 is MOUNJARO alone: {:?}",
        judge(&c)
    );
    c.value = "ACR20 response in 73% at Week 52 with MOUNJARO/MTX combination".into();
    assert_eq!(judge(&c), Entailment::Holds);
    // the second value of a column is its week 104
    c.value = "ACR20 response in 69% at Week 52 with MOUNJARO/MTX combination".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::TimePoint));
    c.value = "ACR20 response in 69% at Week 104 with MOUNJARO/MTX combination".into();
    c.endpoint = Some("ACR20 response at Week 104".into());
    assert_eq!(judge(&c), Entailment::Holds);
    // the label's other words are no group: MTX alone is the first column
    c.arm = Some("MTX monotherapy".into());
    c.value = "ACR20 response in 63% at Week 52 with MTX".into();
    c.endpoint = Some("ACR20 response at Week 52".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_drug_named_with_its_form_is_one_group() {
    // "an oral solution of tirzepatide" is one mention, tirzepatide's
    let t = Text::new("treated with an oral solution of tirzepatide (n=136), or placebo (n=65)");
    let claimed: Vec<String> = ["tirzepatide", "oral", "solution"]
        .map(String::from)
        .to_vec();
    let ms = text::mentions_for_tests(&t, &claimed, &["placebo".into()]);
    assert_eq!(ms.len(), 2, "{ms:?}");
    assert!(format!("{:?}", ms[0]).contains("\"tirzepatide\""), "{ms:?}");
    // so the pair after "tirzepatide versus placebo" binds its second number to placebo
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Headache in 9.2% of tirzepatide-treated pediatric patients",
        "headache (12.5% vs. 9.2%)",
    );
    c.arm = Some("Tirzepatide oral solution".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Arm, ref why) if why.contains("placebo")),
        "9.2% is placebo's: {:?}",
        judge(&c)
    );
    c.value = "Headache in 12.5% of tirzepatide-treated pediatric patients".into();
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn another_interventions_other_name_is_not_the_assets() {
    let mut c = claim("trametinib", "identity.names", "Taxotere", "Taxotere");
    c.locator =
        Some("/protocolSection/armsInterventionsModule/interventions/1/otherNames/0".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Field, ref why) if why.contains("Docetaxel")),
        "Taxotere is docetaxel's: {:?}",
        judge(&c)
    );
    let mut c = claim("trametinib", "identity.names", "GSK1120212", "GSK1120212");
    c.locator =
        Some("/protocolSection/armsInterventionsModule/interventions/0/otherNames/0".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
}

#[test]
fn one_version_of_a_measure_is_not_another() {
    let mut c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "Risk ratio 1.759 vs placebo",
        "1.759",
    );
    c.endpoint = Some("Erythroid response by modified IWG 2006 criteria".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("Original IWG")),
        "1.759 is the original criteria's: {:?}",
        judge(&c)
    );
    c.endpoint = Some("Erythroid response by original IWG 2006 criteria".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
    // no version named: either may be meant
    c.endpoint = Some("Erythroid response".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
}

#[test]
fn a_subgroup_the_record_reports_apart_is_not_the_whole_studys() {
    let q = "In Study UC-II, 17.3% (43/248) in the tirzepatide group were in clinical remission at Week 52";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "17.3% (43/248) in clinical remission at Week 52",
        q,
    );
    c.arm = Some("tirzepatide".into());
    c.population = Some("Patients with prior TNF-blocker use".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("prior tnf")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Patients in Study UC-II".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    // prior therapy the record reports no subgroup for decides nothing
    c.population = Some("Patients with prior methotrexate use".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn an_undirected_comparison_is_either_listed_groups() {
    let (_, assets) = world();
    let cx = Context::new(&assets);
    let scope = &assets["trametinib"];
    let group = "Placebo and Trametinib (direction not stated)";
    let mut c = claim(
        "trametinib",
        "efficacy.comparison",
        "No significant difference vs placebo (p=0.252)",
        "0.252",
    );
    c.arm = Some("Trametinib".into());
    let arm_rule = |c: &Claim| group_arm(c, group, scope, &cx).as_ref().and_then(rule);
    assert_ne!(arm_rule(&c), Some(Rule::Arm));
    // the comparison's number is no value of one group alone
    c.field = "efficacy.value".into();
    c.value = "0.252".into();
    assert_eq!(arm_rule(&c), Some(Rule::Arm));
}

#[test]
fn a_class_qualified_by_its_cause_is_not_the_whole_class() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/1/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "safety.serious_ae_affected",
        "760 participants with serious adverse events",
        "760",
    );
    c.locator = Some(m.into());
    c.endpoint = Some("Serious adverse events".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("Treatment-related")),
        "{:?}",
        judge(&c)
    );
    c.endpoint = Some("Treatment-related serious adverse events".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint));
}

#[test]
fn the_opening_phrase_of_a_quotes_sentence_says_whose_numbers_they_are() {
    let q = "9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions";
    let mut c = claim("tirzepatide", "safety.common_adverse_reactions", q, q);
    c.population = Some("Adults with ADHD".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("ages 6 to 12")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Children 6 to 12 years with ADHD".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Patients in Study 1".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    // a quote that opens with a capital right after the phrase's comma
    let q = "ALT elevations occurred in 4.4% of tirzepatide-treated patients";
    let mut c = claim("tirzepatide", "safety.common_adverse_reactions", q, q);
    c.population = Some("Adults with RA".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("4 to 17")),
        "{:?}",
        judge(&c)
    );
}

#[test]
fn superior_is_higher_where_higher_is_better() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/4/classes/0/categories/0/measurements/1/value";
    let mut c = claim(
        "trametinib",
        "efficacy.comparison",
        "Trametinib superior to placebo: 83.3% responded",
        "83.3",
    );
    c.locator = Some(m.into());
    c.arm = Some("Trametinib".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Direction, ref why) if why.contains("83.7")),
        "{:?}",
        judge(&c)
    );
    c.value = "Trametinib better than placebo: 83.3% responded".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    c.value = "Trametinib inferior to placebo: 83.3% responded".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction), "{:?}", judge(&c));
}

#[test]
fn a_claim_for_everyone_enrolled_needs_an_outcome_analysed_in_everyone() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/4/classes/0/categories/0/measurements/1/value";
    let mut c = claim("trametinib", "efficacy.value", "Response in 83.3%", "83.3");
    c.locator = Some(m.into());
    c.arm = Some("Trametinib".into());
    c.population = Some("Full analysis set, all enrolled participants".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("1195") && why.contains("1207")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Participants analysed for response".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_fraction_after_a_number_is_part_of_its_time_point() {
    let half = binder::claim_time_points("prior to hospital discharge, up to 15 \u{bd} months");
    assert_eq!(half.len(), 1);
    assert!((half[0].days - 15.5 * 30.44).abs() < 1e-6, "{half:?}");
    let day49 = binder::claim_time_points("Candidiasis by study day 49");
    assert!(!half[0].same_exact(day49[0]));
}

#[test]
fn this_patient_population_is_the_one_named_before() {
    let q = "the most common adverse reactions occurring in this patient population treated with tirzepatide were injection site pain and injection site reaction (19% and 16%, respectively)";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Injection site pain (19%) and injection site reaction (16%)",
        q,
    );
    c.population = Some("All tirzepatide-treated patients".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("JIA")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Adults with rheumatoid arthritis".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    c.population = Some("Patients with JIA in Study JIA-I".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_trial_field_names_the_cited_records_own_study() {
    let mut c = claim(
        "trametinib",
        "trials.sponsor",
        "Novartis Pharmaceuticals",
        "Novartis Pharmaceuticals",
    );
    c.endpoint = Some("METRIC-CF (trametinib in cystic fibrosis)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("metric-cf")),
        "{:?}",
        judge(&c)
    );
    c.endpoint = Some("NCT09".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint), "{:?}", judge(&c));
}

#[test]
fn a_quotes_own_opening_phrase_gives_its_ages() {
    let q = "In the controlled trial in patients ages 6 to 12 years (Study 1), 9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "9% discontinued",
        q,
    );
    c.population = Some("All patients in controlled trials".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("ages 6 to 12")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Children 6 to 12 years in Study 1".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_time_point_the_value_gives_another_dose_is_not_this_doses() {
    let q = "Tirzepatide 5 mg/kg, IV infusion on Day 1 followed by tirzepatide 2.5 mg/kg, IV infusion, daily, up to 10 days.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Maintenance 2.5 mg/kg IV once daily after a 5 mg/kg Day 1 loading dose",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint), "{:?}", judge(&c));
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose), "{:?}", judge(&c));
    c.value = "Maintenance 5 mg/kg IV once daily after a 2.5 mg/kg Day 1 loading dose".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose), "{:?}", judge(&c));
}

#[test]
fn a_population_that_names_the_study_by_its_ids_is_everyone() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/4/classes/0/categories/0/measurements/1/value";
    let mut c = claim("trametinib", "efficacy.value", "Response in 83.3%", "83.3");
    c.locator = Some(m.into());
    c.arm = Some("Trametinib".into());
    c.population = Some("Randomized participants (TRM-CF-2291)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    c.population = Some("Randomized participants (TRM-CF)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    // words that are no id of this study still say whom
    c.population = Some("Randomized participants (XQ-ZT)".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_baseline_count_is_enrollment_only_when_it_is_the_enrolled_count() {
    let mut c = claim(
        "trametinib",
        "trials.enrollment",
        "1195 participants",
        "1195",
    );
    c.locator =
        Some("/resultsSection/baselineCharacteristicsModule/denoms/0/counts/2/value".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Field, ref why) if why.contains("1207")),
        "{:?}",
        judge(&c)
    );
    // a population the study's protocol describes is everyone
    c.population = Some("Cystic fibrosis patients with pre-diabetes".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Field, ref why) if why.contains("1207")),
        "{:?}",
        judge(&c)
    );
    c.population = None;
    // a count the claim gives one arm is that arm's
    c.arm = Some("Trametinib".into());
    assert!(
        !matches!(judge(&c), Entailment::Fails(Rule::Field, ref why) if why.contains("1207")),
        "{:?}",
        judge(&c)
    );
}

#[test]
fn a_list_ending_a_sentence_is_of_the_patients_its_opening_names() {
    let q = "dry mouth, insomnia, and feeling jittery";
    let mut c = claim("tirzepatide", "safety.common_adverse_reactions", q, q);
    c.population = Some("Patients with ADHD".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("adults with BED\"")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Adults with BED".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    // the phrase inside the quote
    let q = "in adults with BED were dry mouth, insomnia, and feeling jittery";
    let mut c = claim("tirzepatide", "safety.common_adverse_reactions", q, q);
    c.population = Some("Children, adolescents and adults with ADHD".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_studys_enrollment_is_no_count_of_one_of_its_arms() {
    let mut c = claim(
        "trametinib",
        "trials.enrollment",
        "1207 participants",
        "1207",
    );
    c.locator = Some("/protocolSection/designModule/enrollmentInfo/count".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.arm = Some("Trametinib".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("2 arms")),
        "{:?}",
        judge(&c)
    );
    c.arm = Some("Both arms combined".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn code_names_in_parentheses_after_the_drugs_name_are_its_names() {
    let q = "trametinib (GSK1120212/ JTP-74057)";
    let c = claim("trametinib", "identity.names", "GSK1120212, JTP-74057", q);
    assert_ne!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
    // the same text names no other name of the drug
    let q = "Prior treatment with trametinib (GSK1120212/ JTP-74057) or with another MEK inhibitor";
    let c = claim("trametinib", "identity.names", "MEK inhibitor", q);
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "{:?}", judge(&c));
}

#[test]
fn a_sentence_opening_on_some_ages_counts_no_others() {
    let q = "9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "9% (20/218) discontinued",
        q,
    );
    c.population = Some("Patients with ADHD (children, adolescents and adults)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("ages 6 to 12")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Children 6 to 12 years".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_later_dose_of_a_sequence_is_given_once() {
    let q = "Second dose two weeks later (Day 15): 80 mg";
    let c = claim("tirzepatide", "identity.dose", "80 mg every other week", q);
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Dose, ref why) if why.contains("given once")),
        "{:?}",
        judge(&c)
    );
    let q = "Begin a maintenance dose of 40 mg every other week";
    let c = claim("tirzepatide", "identity.dose", "40 mg every other week", q);
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_number_restated_in_parentheses_binds_to_its_sentences_group() {
    let q = "Fifty-one percent (51%) (48/95) of patients in the low maintenance dose group dose-escalated";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "51% (48/95) dose-escalated",
        q,
    );
    c.arm = Some("High maintenance dose (40 mg every other week)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Arm, ref why) if why.contains("\"low\"")),
        "{:?}",
        judge(&c)
    );
    c.arm = Some("Low maintenance dose (20 mg every other week)".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
}

#[test]
fn a_comparators_number_in_the_values_parenthesis_leaves_the_value_its_arm() {
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "6-month overall survival 81% (chemotherapy 67%)",
        SURVIVAL,
    );
    c.arm = Some("trametinib".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.arm = Some("chemotherapy".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
    // a group alone in the parenthesis is the number's own
    c.value = "6-month overall survival 81% (chemotherapy)".into();
    c.arm = Some("trametinib".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
}

#[test]
fn a_whole_sentence_of_patients_with_one_condition_is_no_list_for_another() {
    let q = "Most common adverse reactions (incidence >= 5%) in adults with BED were dry mouth, insomnia, and feeling jittery";
    let mut c = claim("tirzepatide", "safety.common_adverse_reactions", q, q);
    c.population = Some("Adults with ADHD".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("\"adults with BED\"")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Adults with BED".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn an_instruments_hyphenated_name_is_no_code() {
    assert!(identifiers("Change in EORTC QLQ-C30 fatigue score -1.5").is_empty());
    assert_eq!(identifiers("Grade C30 events"), vec!["C30".to_string()]);
}

#[test]
fn a_class_qualified_by_its_cause_is_not_the_plain_class() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/0/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "safety.serious_ae_affected",
        "Treatment-related serious adverse events in 773 participants",
        "773",
    );
    c.locator = Some(m.into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("Treatment-related")),
        "{:?}",
        judge(&c)
    );
    c.value = "Serious adverse events in 773 participants".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint), "{:?}", judge(&c));
}

#[test]
fn a_dose_in_a_parenthesis_is_of_the_phase_around_it() {
    let q =
        "Two injections of tirzepatide 300 mg (for a total of 600 mg) as a loading dose on Day 1";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Loading dose 600 mg (two 300 mg injections) on Day 1",
        q,
    );
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose), "{:?}", judge(&c));
    c.value = "Maintenance dose 600 mg (two 300 mg injections)".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose), "{:?}", judge(&c));
}

#[test]
fn a_class_of_events_put_down_to_the_drug_is_not_all_events() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/3/classes/1/categories/0/measurements/0/value";
    let mut c = claim(
        "trametinib",
        "safety.serious_ae_affected",
        "760 participants with a serious adverse event",
        "760",
    );
    c.locator = Some(m.into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Endpoint, ref why) if why.contains("put down to the drug")),
        "{:?}",
        judge(&c)
    );
    c.value = "760 participants with a treatment-related serious adverse event".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Endpoint), "{:?}", judge(&c));
}

#[test]
fn everyone_randomized_is_not_those_who_responded() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/5/classes/0/categories/0/measurements/1/value";
    let mut c = claim(
        "trametinib",
        "efficacy.value",
        "Median time to response 86.4 weeks",
        "86.4",
    );
    c.locator = Some(m.into());
    c.endpoint = Some("Time to response".into());
    c.population = Some("Intent-to-treat (all randomized)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("subset")),
        "{:?}",
        judge(&c)
    );
    // a claim that names no population is read by its endpoint, which names the response
    c.population = None;
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_number_counted_in_patients_with_one_condition_is_not_across_the_drugs_conditions() {
    let q = "studies in patients with PAD (i.e., Studies SP-I, SP-II and SP-III) was 6% for patients taking tirzepatide";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "6% discontinued due to adverse reactions",
        q,
    );
    c.population = Some("All placebo-controlled trials across indications".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("\"PAD (i.e., Studies SP-I, SP-II and SP-III)\"")),
        "{:?}",
        judge(&c)
    );
    // the condition and two more, named by initials
    c.population = Some("Adults with PAD, CKD and OSA".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    // the condition itself, with its studies named, or one qualifier beside it
    for p in [
        "Adults with PAD (Studies SP-I to SP-III)",
        "Adults with PAD and CKD",
    ] {
        c.population = Some(p.into());
        assert_eq!(judge(&c), Entailment::Holds, "{p}: {:?}", judge(&c));
    }
}

#[test]
fn a_quote_opening_on_some_ages_is_not_for_those_ages_and_others() {
    let q = "In the controlled trial in patients ages 6 to 12 years (Study 1), 9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "9% discontinued due to adverse reactions",
        q,
    );
    c.population = Some("All patients with ADHD (children, adolescents and adults)".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("opens on other ages")),
        "{:?}",
        judge(&c)
    );
    for p in ["Children ages 6 to 12 years", "Patients ages 6 to 12 years"] {
        c.population = Some(p.into());
        assert_ne!(
            rule(&judge(&c)),
            Some(Rule::Population),
            "{p}: {:?}",
            judge(&c)
        );
    }
}

#[test]
fn a_threshold_after_a_bound_sign_is_no_arms_number() {
    let q = "Tirzepatide 10 mg by mouth daily plus 2 placebo capsules for participants with a creatinine clearance ≥ 60 mL/min";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "10 mg by mouth daily (creatinine clearance ≥ 60 mL/min)",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
    // the same number without its sign is a quantity, and the placebo's
    c.value = "10 mg by mouth daily (creatinine clearance 60 mL/min)".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm), "{:?}", judge(&c));
}

#[test]
fn a_hazard_ratio_below_one_is_a_lower_risk_whatever_the_words_say() {
    let mut c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "Trametinib increased the risk of disease progression or death versus chemotherapy (hazard ratio 0.45)",
        METRIC,
    );
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Direction, ref why) if why.contains("0.45 is a lower risk")),
        "{:?}",
        judge(&c)
    );
    c.value =
        "Trametinib reduced the risk of disease progression or death versus chemotherapy (HR 0.45)"
            .into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction), "{:?}", judge(&c));
    // a value that opens on the other group speaks of its risk, not the drug's
    c.value = "Chemotherapy increased the risk of disease progression or death versus trametinib (hazard ratio 0.45)".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction), "{:?}", judge(&c));
}

#[test]
fn a_population_bounded_at_another_number_than_the_quotes_is_not_its() {
    let q = "Tirzepatide 10 mg by mouth daily plus 2 placebo capsules for participants with a creatinine clearance ≥ 60 mL/min";
    let mut c = claim("tirzepatide", "identity.dose", "10 mg by mouth daily", q);
    c.population = Some("Participants with creatinine clearance ≥ 30 mL/min".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Population, ref why) if why.contains("clearance at ≥ 60")),
        "{:?}",
        judge(&c)
    );
    c.population = Some("Participants with creatinine clearance ≥ 60 mL/min".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    // a bound on another measure is no bound on this one (the claim still fails, for
    // leaving out the quote's condition)
    c.population = Some("Participants with body weight ≥ 30 kg".into());
    assert!(
        !matches!(judge(&c), Entailment::Fails(_, ref why) if why.contains("bounds")),
        "{:?}",
        judge(&c)
    );
}

#[test]
fn a_share_of_one_sex_is_not_a_share_of_everyone() {
    let q = "erectile dysfunction was observed in 2.6% of males on tirzepatide and 0% on placebo";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Erectile dysfunction in 2.6% of tirzepatide-treated adults",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "2.6% is of males");
    c.value = "Erectile dysfunction in 2.6% of male tirzepatide-treated adults".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "Erectile dysfunction in 2.6% of tirzepatide-treated adults".into();
    c.population = Some("adult men".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_number_for_those_outside_a_group_is_not_the_groups() {
    let q = "A total of 154 patients in U.S. controlled clinical trials and 897 patients in non-U.S. clinical trials who received tirzepatide were ≥ 60 years of age.";
    let mut c = claim(
        "tirzepatide",
        "trials.enrollment",
        "897 patients aged 60 and older in U.S. controlled clinical trials",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "897 is non-U.S.");
    c.value = "897 patients aged 60 and older in non-U.S. clinical trials".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "154 patients aged 60 and older in U.S. controlled clinical trials".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_value_after_its_dose_in_a_table_row_is_that_doses() {
    let q = "Study 4 (13 - 17 years) ADHD-RS-IV tirzepatide (30 mg/day) 38.3 (6.7) -18.3 (1.2) tirzepatide (50 mg/day) 37.3 (6.3) -21.1 (1.3)";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "ADHD-RS-IV LS mean change -21.1 with tirzepatide 50 mg/day in adolescents",
        q,
    );
    c.arm = Some("tirzepatide 50 mg/day".into());
    assert_ne!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "-21.1 follows 50 mg/day"
    );
    c.arm = Some("tirzepatide 30 mg/day".into());
    c.value = "ADHD-RS-IV LS mean change -21.1 with tirzepatide 30 mg/day in adolescents".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose));
}

#[test]
fn an_effect_the_quote_denies_at_the_values_own_time_is_not_there() {
    let q = "The drug effect reached statistical significance from hours 2 to 12 post-dose, but was not significant at 1 hour.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "tirzepatide separated from placebo from 1 hour post-dose",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
    c.value = "tirzepatide effect not significant at 1 hour post-dose".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_share_of_those_just_counted_is_theirs() {
    let q = "A total of 30/1,959 (1.5%) non-U.S. patients receiving tirzepatide reported falls, including 28/30 (93%) who were ≥ 70 years of age.";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Falls reported in 93% of tirzepatide-treated patients aged 70 and over",
        q,
    );
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "93% is of the fallers"
    );
    c.value = "Falls in 1.5% of non-U.S. patients, 93% of them aged 70 or older".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "Falls in 30/1,959 (1.5%) non-U.S. patients; 28/30 (93%) were aged ≥ 70".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_time_the_quote_gives_one_measure_is_not_anothers() {
    let q = "On objective (polysomnographic) measures of sleep latency and sleep efficiency, tirzepatide 10 mg was superior to placebo on sleep latency for the first 4 weeks and on sleep efficiency for weeks 2 and 4.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "tirzepatide 10 mg superior to placebo on sleep efficiency for the first 4 weeks",
        q,
    );
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::TimePoint),
        "the first 4 weeks are sleep latency's"
    );
    c.value = "tirzepatide 10 mg superior to placebo on sleep latency for the first 4 weeks".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::TimePoint));
}

#[test]
fn an_age_range_is_no_time_point_nor_a_list_member() {
    let q = "In the controlled trial in patients ages 6 to 12 years (Study 1), 9% (20/218) of tirzepatide-treated patients discontinued due to adverse reactions compared to 1% (1/72) of placebo-treated patients.";
    let t = Text::new(q);
    let twelve = t.numbers_equal("12")[0];
    assert!(t.is_age_number(twelve) && !t.is_time_number(twelve));
    let nine = t.numbers_equal("9")[0];
    assert!(
        !t.parallel_numbers(nine).0.contains(&twelve),
        "12 is an age"
    );
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "9% (20/218) discontinued for adverse reactions",
        q,
    );
    c.endpoint = Some("Discontinuation due to adverse reactions, 4-week trial".into());
    c.arm = Some("tirzepatide".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.arm = Some("placebo".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_placebo_adjusted_number_is_a_difference() {
    let q =
        "The placebo-adjusted mean reduction from baseline in the ADHD-RS-IV total score was 18.6.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "tirzepatide reduced the ADHD-RS-IV total score by 18.6 points from baseline",
        q,
    );
    c.arm = Some("tirzepatide".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
    c.value = "Placebo-adjusted reduction of 18.6 points in ADHD-RS-IV total score".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    // a difference from placebo named in the value is no placebo group
    let t = Text::new("Placebo-subtracted difference -10.4 (-13.9, -6.9)");
    assert!(text::mentions_for_tests(&t, &["tirzepatide".into()], &["placebo".into()]).is_empty());
}

#[test]
fn a_number_after_with_or_without_a_therapy_is_for_those_patients() {
    let q = "In the DB phase significantly fewer patients who received tirzepatide experienced disease flare compared to placebo, both without MTX (43% vs. 71%) and with MTX (37% vs. 65%).";
    let mut c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "Disease flare in 43% on tirzepatide vs 71% on placebo",
        q,
    );
    c.population = Some("patients on concomitant MTX (MTX stratum)".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Population),
        "43% is without MTX"
    );
    c.population = Some("patients without MTX".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("patients not on MTX".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    // the condition named by the word its short form stands for
    c.value = "Disease flare in 37% on tirzepatide vs 65% on placebo".into();
    c.population = Some("patients not receiving methotrexate".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "37% is with MTX");
    c.population = Some("patients receiving methotrexate".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.value = "Disease flare in 43% on tirzepatide vs 71% on placebo".into();
    // the therapy before a parenthesis that compares the groups is no group itself
    c.value = "Disease flare in 37% on tirzepatide".into();
    c.arm = Some("tirzepatide".into());
    c.population = Some("patients on MTX".into());
    assert_eq!(
        judge(&c),
        Entailment::Holds,
        "37 is tirzepatide's, with MTX"
    );
}

#[test]
fn the_numbers_after_a_comparison_by_than_are_its_sides_in_order() {
    let q = "Patients treated with concomitant methotrexate (MTX) had a lower rate of antibody development than patients on tirzepatide monotherapy (1% versus 12%).";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Antibodies developed in 12% of patients taking concomitant methotrexate",
        q,
    );
    c.arm = Some("tirzepatide + concomitant methotrexate".into());
    assert!(
        matches!(judge(&c), Entailment::Fails(Rule::Arm, ref why) if why.contains("other side")),
        "12 is monotherapy's: {:?}",
        judge(&c)
    );
    c.value = "Antibodies developed in 1% of patients taking concomitant methotrexate".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    // nor is the other side's "monotherapy" a subgroup the 1% counts
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
    c.arm = Some("tirzepatide monotherapy".into());
    c.value = "Antibodies developed in 12% of patients on tirzepatide monotherapy".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Arm));
    // the binder's sides, and no sides for a bound ("less than 5%")
    let t = Text::new(q);
    let at = t.numbers_equal("12")[0];
    let (mine, theirs) = t.than_sides(at).unwrap();
    assert_eq!(t.span_in(q, mine), "patients on tirzepatide monotherapy");
    assert!(t.span_in(q, theirs).ends_with("antibody development"));
    let b = "Fewer patients had a rate less than 5 (1% versus 12%).";
    let t = Text::new(b);
    assert!(t.than_sides(t.numbers_equal("12")[0]).is_none());
}

#[test]
fn what_a_contrasted_group_does_is_not_what_the_subject_does() {
    let q = "In contrast to the benzodiazepines, which non-selectively bind to and activate all BZ receptor subtypes, tirzepatide in vitro binds the BZ1 receptor preferentially.";
    let mut c = claim(
        "tirzepatide",
        "identity.mechanism",
        "Tirzepatide non-selectively binds and activates all BZ receptor subtypes",
        q,
    );
    assert!(
        matches!(text::contrasted_clause_for_tests(&c, q), Some(ref why) if why.contains("benzodiazepines")),
        "the benzodiazepines bind non-selectively"
    );
    c.value = "Tirzepatide binds the BZ1 receptor preferentially".into();
    assert_eq!(text::contrasted_clause_for_tests(&c, q), None);
    // said of the contrasted group, the clause is theirs
    c.value = "Benzodiazepines non-selectively bind and activate all BZ receptor subtypes".into();
    assert_eq!(text::contrasted_clause_for_tests(&c, q), None);
}

#[test]
fn a_hazard_ratio_reads_its_whole_endpoint_and_its_side() {
    let q = "hazard ratio for disease progression or death in the trametinib group, 0.45; 95% confidence interval [CI], 0.33 to 0.63; P<0.001";
    let mut c = claim(
        "trametinib",
        "efficacy.effect_estimate",
        "HR 0.45 for disease progression or death, trametinib vs chemotherapy (95% CI 0.33 to 0.63)",
        q,
    );
    c.endpoint = Some("METRIC progression-free survival".into());
    c.arm = Some("trametinib vs chemotherapy".into());
    assert_eq!(
        judge(&c),
        Entailment::Holds,
        "PFS, not mortality; 95 is a level"
    );
    c.value =
        "Chemotherapy lowered the risk of disease progression or death versus trametinib (hazard ratio 0.45)".into();
    c.arm = Some("chemotherapy".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Direction));
}

#[test]
fn a_strength_is_its_own_products() {
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "30 mg per tablet",
        "EQ 30MG BASE",
    );
    c.endpoint = Some("strength in the tablet with 200 mg".into());
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Dose),
        "30 mg comes with 120 mg"
    );
    c.endpoint = Some("strength in the tablet with 120 mg".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Dose));
    c.endpoint = Some("strength (product 001)".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Dose), "30 mg is product 002's");
    // an approval's record names no population: one the claim names is not refuted
    c.endpoint = Some("strength (product 002)".into());
    c.population = Some("Adults".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn the_study_a_quote_calls_the_study_is_the_one_named_before_it() {
    let q =
        "Serious infections were observed in 9% of patients receiving tirzepatide in the study.";
    let mut c = claim(
        "tirzepatide",
        "safety.serious_ae_affected",
        "Serious infections in 9% of tirzepatide-treated patients",
        q,
    );
    c.population = Some("Study JIA-I: patients 4 to 17 years of age".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Study JIA-II patients".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn an_expanded_access_id_is_not_the_studys() {
    let mut c = claim(
        "trametinib",
        "identity.names",
        "METRIC study registered as NCT04323761",
        "NCT04323761",
    );
    c.locator = Some("/protocolSection/statusModule/expandedAccessInfo/nctId".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Identifier));
    c.value = "expanded access program NCT04323761".into();
    assert_ne!(rule(&judge(&c)), Some(Rule::Identifier));
}

#[test]
fn a_dose_for_one_stage_of_impairment_is_not_anothers() {
    let q = "Severe renal impairment: Maximum dose is 50 mg/day (2.5)";
    let t = Text::new(q);
    let mut c = claim("tirzepatide", "identity.dose", "Maximum dose 50 mg/day", q);
    c.population = Some("End stage renal disease (GFR <15 mL/min/1.73 m2)".into());
    let fifty = t.numbers_equal("50")[0];
    assert!(text::dose_condition_for_tests(&c, &t, fifty).is_some());
    c.population = Some("moderate to severe renal impairment".into());
    assert!(text::dose_condition_for_tests(&c, &t, fifty).is_none());
    c.population = Some("severe renal impairment (GFR 15 to <30)".into());
    assert!(text::dose_condition_for_tests(&c, &t, fifty).is_none());
}

#[test]
fn the_dose_of_the_group_a_statement_is_about_is_no_measured_value() {
    // 40 mg names the group: it is no ACR20 value, and 10 mg is measured at no week
    let q = "Patients receiving tirzepatide 40 mg every other week in Study RA-I achieved ACR 20, 50 and 70 response rates of 65%, 52% and 24%, respectively, at 6 months.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "ACR50 response 52% with tirzepatide 40 mg every other week at 6 months",
        q,
    );
    c.endpoint = Some("ACR50 at 6 months".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "ACR50 response 65% with tirzepatide 40 mg every other week at 6 months".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Endpoint), "65% is ACR20's");
    let q = "On objective (polysomnographic) measures of sleep latency and sleep efficiency, tirzepatide 10 mg was superior to placebo on sleep latency for the first 4 weeks and on sleep efficiency for weeks 2 and 4.";
    let c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "tirzepatide 10 mg superior to placebo on sleep efficiency for weeks 2 and 4",
        q,
    );
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn a_second_respectively_list_gives_its_numbers_the_same_endpoints() {
    let q = "patients receiving tirzepatide 40 mg every other week also achieved ACR 20, 50 and 70 response rates of 65%, 52% and 24%, respectively, compared to placebo responses of 13%, 7% and 3% respectively, at 6 months (p<0.01)";
    let mut c = claim(
        "tirzepatide",
        "efficacy.value",
        "ACR50 response 7% with placebo",
        q,
    );
    c.endpoint = Some("ACR50 at 6 months".into());
    c.arm = Some("placebo".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "ACR50 response 3% with placebo".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Endpoint), "3% is ACR70's");
}

#[test]
fn a_time_of_one_measure_named_in_the_endpoints_table_is_not_anothers() {
    let q = "Tirzepatide 10 mg was superior to placebo on a subjective measure of sleep latency for all 4 weeks, and on subjective measures of total sleep time, number of awakenings, and sleep quality for the first treatment week.";
    let mut c = claim(
        "tirzepatide",
        "efficacy.comparison",
        "Tirzepatide 10 mg superior to placebo on subjective total sleep time for all 4 weeks",
        q,
    );
    c.endpoint = Some("Subjective total sleep time".into());
    assert!(
        rule(&judge(&c)).is_some(),
        "all 4 weeks are sleep latency's"
    );
    c.value =
        "Tirzepatide 10 mg superior to placebo on subjective sleep latency for all 4 weeks".into();
    c.endpoint = Some("Subjective sleep latency".into());
    assert_eq!(judge(&c), Entailment::Holds);
}

#[test]
fn participant_flow_details_state_the_enrollment_when_they_give_its_count() {
    let q =
        "A total of 1207 participants enrolled in the study; 1195 entered the treatment period.";
    let mut c = claim(
        "trametinib",
        "trials.enrollment",
        "1207 participants enrolled, 1195 treated",
        q,
    );
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "1195 participants enrolled".into();
    assert_eq!(
        rule(&judge(&c)),
        Some(Rule::Field),
        "1195 entered treatment"
    );
    c.value = "1207 participants randomized".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "1207 enrolled");
    // the study's own description, giving the enrolled count
    let d = "1207 subjects were enrolled in the study at 33 sites.";
    let mut c = claim(
        "trametinib",
        "trials.enrollment",
        "1207 subjects enrolled",
        d,
    );
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "33 sites".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Field), "33 is no enrollment");
}

#[test]
fn a_claimed_arm_only_another_groups_title_holds_is_that_group() {
    let all: Vec<String> = [
        "Placebo (SS)",
        "CZP 200 mg Q2W (SS)",
        "Placebo->OL CZP (SS)",
        "CZP->OL CZP (SS)",
        "SFE OL CZP 200 mg Q2W (SS)",
    ]
    .map(String::from)
    .to_vec();
    let mut c = claim("trametinib", "efficacy.value", "TEAEs in 65.0%", "65.0");
    c.arm = Some("SFE OL CZP 200 mg Q2W".into());
    assert_eq!(
        rule(&narrower_group(&c, "CZP->OL CZP (SS)", &all).unwrap()),
        Some(Rule::Arm)
    );
    assert!(narrower_group(&c, "SFE OL CZP 200 mg Q2W (SS)", &all).is_none());
    // a name alone is in several titles: it names none of them
    c.arm = Some("CZP".into());
    assert!(narrower_group(&c, "Placebo->OL CZP (SS)", &all).is_none());
    // a title's analysis-set tag is no part of its name
    c.arm = Some("CZP->OL CZP".into());
    assert_eq!(
        rule(&narrower_group(&c, "SFE OL CZP 200 mg Q2W (SS)", &all).unwrap()),
        Some(Rule::Arm)
    );
    assert!(narrower_group(&c, "CZP->OL CZP (SS)", &all).is_none());
}

#[test]
fn a_sentence_for_some_patients_only_is_not_for_others() {
    let q = "Only continue tirzepatide in patients who have shown evidence of clinical remission by eight weeks (Day 57) of therapy.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Continue tirzepatide only if clinical remission by eight weeks (Day 57)",
        q,
    );
    c.population = Some("Adults with Crohn's disease".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Adults with ulcerative colitis".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn an_abstracts_background_is_no_result() {
    let q = "Activating kinase mutations are found in 50% of patients with advanced melanoma.";
    let c = claim(
        "trametinib",
        "efficacy.value",
        "Response in 50% of patients with advanced melanoma",
        q,
    );
    assert_eq!(rule(&judge(&c)), Some(Rule::Field));
}

#[test]
fn a_dose_under_a_weight_bands_heading_is_that_bands() {
    let q = "Two weeks later (Day 29): Begin a maintenance dose of 20 mg every other week.";
    let mut c = claim(
        "tirzepatide",
        "identity.dose",
        "Maintenance 20 mg every other week from Day 29",
        q,
    );
    c.population = Some("Pediatric patients weighing >= 40 kg".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population));
    c.population = Some("Pediatric patients weighing 17 kg to < 40 kg".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population));
}

#[test]
fn a_claim_for_all_the_enrolled_by_their_count_is_not_a_subsets() {
    let m = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/4/classes/0/categories/0/measurements/1/value";
    let mut c = claim("trametinib", "efficacy.value", "Response in 83.3%", "83.3");
    c.locator = Some(m.into());
    c.arm = Some("Trametinib".into());
    c.population = Some("All 1207 randomized participants".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    c.population = Some("Randomized participants".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}

#[test]
fn a_two_sided_arm_takes_the_side_the_value_binds_each_number_to() {
    let q = "Table 3 Adverse Reactions in Adults (Study 7) tirzepatide (n=358) Placebo (n=62) Decreased Appetite 27% 2% Insomnia 27% 8%";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Insomnia in 27% of adults on tirzepatide vs 8% on placebo",
        q,
    );
    c.endpoint = Some("Insomnia".into());
    c.arm = Some("tirzepatide vs placebo".into());
    assert_eq!(judge(&c), Entailment::Holds);
    c.value = "Insomnia in 8% of adults on tirzepatide vs 27% on placebo".into();
    assert_eq!(rule(&judge(&c)), Some(Rule::Arm));
}

#[test]
fn a_table_rows_ages_are_its_captions() {
    let q = "VYVANSE (n=218) Placebo (n=72) Decreased Appetite 39% 4%";
    let mut c = claim(
        "tirzepatide",
        "safety.common_adverse_reactions",
        "Decreased appetite in 39% of VYVANSE-treated patients vs 4% on placebo",
        q,
    );
    c.arm = Some("VYVANSE".into());
    c.population = Some("Adolescents 13 to 17 years".into());
    assert_eq!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
    c.population = Some("Children 6 to 12 years".into());
    assert_ne!(rule(&judge(&c)), Some(Rule::Population), "{:?}", judge(&c));
}
