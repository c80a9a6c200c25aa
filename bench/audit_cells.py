#!/usr/bin/env python3
"""Checks the efficacy, safety and financial cells of a real-corpus run one by one
against the source files, read independently of dossier (Python json/ElementTree,
navigating by group id, not by locator).

For every posted CT.gov measurement, analysis and serious-event total, and for every
latest annual/quarterly/instant XBRL fact, the script derives the cell it belongs in
(trial, outcome, time frame, class/category, arm) and the value the source states. Then:
  right   - the run emitted that cell with that value
  wrong   - the run emitted that cell with another value, or a cell no source has
  missing - the source states it, the run has no such cell

Then it checks meaning, not only position, over every value cell:
  kind      - a CI field holds only a confidence interval (its unit names one), an IQR
              or range field only that, an estimate's interval states its level
  sentence  - label statements (indications, most common adverse reactions, boxed
              warning) occur in the label section, start at no heading and end at a
              statement boundary (never mid-word or mid-sentence)
  typed     - value_num / value_date are the value read as a number / date, or NULL
  identity  - no NDA-only asset is called a small molecule; a labeler that does not
              name the portfolio's sponsor is not shown as the sponsor
  gold      - bench/gold_cells.jsonl, hand-checked from the raw records: each gold
              cell has its value (and unit), and each `absent` cell has no value

Usage: bench/audit_cells.py CELLS.jsonl REAL_SOURCES_DIR [GOLD.jsonl]
(CELLS.jsonl: `dossier sql --format json` of the `profile` view with status 'value').
"""

import datetime
import re
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict


def endpoint(nct, kind, title, time):
    k = {"primary": "Primary", "secondary": "Secondary"}.get(kind.lower(), "Other")
    return f"{nct} {k}: {title} [{time}]" if time else f"{nct} {k}: {title}"


def pop(cls, cat):
    return " / ".join(x for x in (cls, cat) if x)


def digits(s):
    return any(c.isdigit() for c in s)


def spread_fields(dispersion):
    """The fields a measurement's spread and limits belong in, by dispersion type."""
    d = (dispersion or "").lower().replace("_", " ").replace("-", " ")
    spread = ("efficacy.sd" if "standard deviation" in d else
              "efficacy.se" if "standard error" in d else "efficacy.dispersion")
    if "confidence interval" in d:
        lim = ("efficacy.ci_lower", "efficacy.ci_upper")
    elif "quartile" in d:
        lim = ("efficacy.iqr_lower", "efficacy.iqr_upper")
    elif "range" in d:
        lim = ("efficacy.range_min", "efficacy.range_max")
    else:
        lim = ("efficacy.limit_lower", "efficacy.limit_upper")
    return spread, lim[0], lim[1]


ALIASES = {"placebo": ["placebo", "pbo"]}
CONNECTOR = r"(?:\s*/\s*|\s+over\s+|\s+vs\.?\s+|\s+versus\s+|\s+compared (?:with|to)\s+|\s+relative to\s+|\s+minus\s+)"


def distinctive(title, other):
    """Words of a group title that the other group's title lacks (and their aliases)."""
    ws = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", title)}
    ow = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", other)}
    out = set()
    for w in ws - ow:
        out.update(ALIASES.get(w, [w]))
    return out


def direction(texts, titles):
    """The ordered pair of group titles a text states ("A over B", "A/B", "A vs. B"),
    found by trying both orders; None when no text states exactly one order."""
    if len(titles) != 2:
        return None
    a, b = titles
    wa, wb = distinctive(a, b), distinctive(b, a)
    for t in texts:
        found = set()
        for (x, y, wx, wy) in ((a, b, wa, wb), (b, a, wb, wa)):
            for u in wx:
                for v in wy:
                    pat = (r"\b" + re.escape(u) + r"\b[^,;:=()/]{0,30}?" + CONNECTOR +
                           r"[^,;:=()]{0,12}?\b" + re.escape(v) + r"\b")
                    if re.search(pat, t, re.IGNORECASE):
                        found.add((x, y))
        if len(found) == 1:
            return found.pop()
    return None


def analysis_key(ep, j, desc, titles, texts):
    d = (desc or "").strip()
    popn = f"analysis {j + 1}: {d}" if d and len(d) <= 80 else f"analysis {j + 1}"
    dr = direction(texts, titles)
    if dr:
        arm = f"{dr[0]} vs {dr[1]}"
    else:
        arm = (" and ".join([", ".join(titles[:-1]), titles[-1]]) if len(titles) > 1 else "".join(titles))
        arm += " (direction not stated)"
    return (ep, popn, arm)


def ci_words(pct, sides):
    sd = (sides or "").lower().replace("_", " ").replace("-", " ")
    sd = {"two sided": "two-sided", "2 sided": "two-sided", "one sided": "one-sided",
          "1 sided": "one-sided", "": "sides not stated"}.get(sd, sides)
    return f"{pct.strip()}% CI, {sd}" if (pct or "").strip() else f"CI (level not stated), {sd}"


def expect_v2(study, out):
    ps = study["protocolSection"]
    nct = ps["identificationModule"]["nctId"]
    rs = study.get("resultsSection")
    if not rs:
        return
    for om in rs.get("outcomeMeasuresModule", {}).get("outcomeMeasures", []):
        if om.get("reportingStatus") == "NOT_POSTED":
            continue
        ep = endpoint(nct, om.get("type", ""), om.get("title", ""), om.get("timeFrame", ""))
        titles = {g["id"]: g.get("title", "") for g in om.get("groups", [])}
        for d in om.get("denoms", [])[:1]:
            for c in d.get("counts", []):
                out[("efficacy.analyzed", ep, "", titles.get(c["groupId"], c["groupId"]))].add(c["value"])
        seen = Counter()
        sf = spread_fields(om.get("dispersionType", ""))
        for cl in om.get("classes", []):
            cden = {c["groupId"]: c["value"] for d in cl.get("denoms", [])[:1] for c in d.get("counts", [])}
            for cat in cl.get("categories", []):
                p = pop(cl.get("title", ""), cat.get("title", ""))
                for m in cat.get("measurements", []):
                    v = m.get("value", "")
                    arm = titles.get(m["groupId"], m["groupId"])
                    # a value posted as NA keeps its stated limits in the value's cell
                    n = seen[(p, m["groupId"])] + 1
                    if digits(v):
                        seen[(p, m["groupId"])] += 1
                    pp = f"{p} #{n}" if n > 1 else p
                    if digits(v):
                        out[("efficacy.value", ep, pp, arm)].add(v)
                    if digits(v) and digits(cden.get(m["groupId"], "")):
                        out[("efficacy.analyzed", ep, pp, arm)].add(cden[m["groupId"]])
                    for f, k in zip(sf, ("spread", "lowerLimit", "upperLimit")):
                        if digits(m.get(k, "")):
                            out[(f, ep, pp, arm)].add(m[k])
        for j, a in enumerate(om.get("analyses", [])):
            ts = [titles.get(g, g) for g in a.get("groupIds", [])]
            key = analysis_key(ep, j, a.get("groupDescription"), ts,
                               [a.get("estimateComment") or "", a.get("groupDescription") or ""])
            for f, k in (("efficacy.p_value", "pValue"), ("efficacy.effect_estimate", "paramValue"),
                         ("efficacy.estimate_ci_lower", "ciLowerLimit"), ("efficacy.estimate_ci_upper", "ciUpperLimit"),
                         ("efficacy.estimate_dispersion", "dispersionValue")):
                if digits(a.get(k, "")):
                    out[(f,) + key].add(a[k])
            for f, k in (("efficacy.statistical_method", "statisticalMethod"),
                         ("efficacy.non_inferiority_type", "nonInferiorityType")):
                if (a.get(k) or "").strip():
                    out[(f,) + key].add(a[k])
            d = (a.get("groupDescription") or "").strip()
            if len(d) > 80:
                out[("efficacy.analysis_description",) + key].add(a["groupDescription"])
    for g in rs.get("adverseEventsModule", {}).get("eventGroups", []):
        # a group nobody was at risk in has no serious-event finding to show
        if "seriousNumAffected" in g and "seriousNumAtRisk" in g and int(g["seriousNumAtRisk"]) > 0:
            out[("safety.serious_ae_affected", nct, "", g["title"])].add(str(g["seriousNumAffected"]))
            out[("safety.serious_ae_at_risk", nct, "", g["title"])].add(str(g["seriousNumAtRisk"]))


def text(el, path):
    x = el.find(path)
    return (x.text or "").strip() if x is not None and x.text else ""


def expect_xml(root, out):
    nct = text(root, "id_info/nct_id")
    res = root.find("clinical_results")
    if res is None:
        return
    for o in res.findall("outcome_list/outcome"):
        ep = endpoint(nct, text(o, "type"), text(o, "title"), text(o, "time_frame"))
        titles = {g.get("group_id"): text(g, "title") for g in o.findall("group_list/group")}
        m = o.find("measure")
        if m is None:
            continue
        an = m.find("analyzed_list/analyzed")
        if an is not None:
            for c in an.findall("count_list/count"):
                out[("efficacy.analyzed", ep, "", titles.get(c.get("group_id")))].add(c.get("value"))
        seen = Counter()
        sf = spread_fields(text(m, "dispersion"))
        for cl in m.findall("class_list/class"):
            cden = {c.get("group_id"): c.get("value") for c in cl.findall("analyzed_list/analyzed[1]/count_list/count")}
            for cat in cl.findall("category_list/category"):
                p = pop(text(cl, "title"), text(cat, "title"))
                for me in cat.findall("measurement_list/measurement"):
                    v = me.get("value") or ""
                    arm = titles.get(me.get("group_id"), me.get("group_id"))
                    n = seen[(p, me.get("group_id"))] + 1
                    if digits(v):
                        seen[(p, me.get("group_id"))] += 1
                    pp = f"{p} #{n}" if n > 1 else p
                    if digits(v):
                        out[("efficacy.value", ep, pp, arm)].add(v)
                    if digits(v) and digits(cden.get(me.get("group_id")) or ""):
                        out[("efficacy.analyzed", ep, pp, arm)].add(cden[me.get("group_id")])
                    for f, k in zip(sf, ("spread", "lower_limit", "upper_limit")):
                        if digits(me.get(k) or ""):
                            out[(f, ep, pp, arm)].add(me.get(k))
        # the legacy schema keeps analyses under the outcome, beside the measure
        for j, a in enumerate(o.findall("analysis_list/analysis")):
            ts = [titles.get((g.text or "").strip(), g.text) for g in a.findall("group_id_list/group_id")]
            key = analysis_key(ep, j, text(a, "groups_desc"), ts, [text(a, "estimate_desc"), text(a, "groups_desc")])
            for f, k in (("efficacy.p_value", "p_value"), ("efficacy.effect_estimate", "param_value"),
                         ("efficacy.estimate_ci_lower", "ci_lower_limit"), ("efficacy.estimate_ci_upper", "ci_upper_limit"),
                         ("efficacy.estimate_dispersion", "dispersion_value")):
                if digits(text(a, k)):
                    out[(f,) + key].add(text(a, k))
            for f, k in (("efficacy.statistical_method", "method"),
                         ("efficacy.non_inferiority_type", "non_inferiority_type")):
                if text(a, k):
                    out[(f,) + key].add(text(a, k))
            if len(text(a, "groups_desc")) > 80:
                out[("efficacy.analysis_description",) + key].add(text(a, "groups_desc"))
    ev = res.find("reported_events")
    if ev is not None:
        titles = {g.get("group_id"): text(g, "title") for g in ev.findall("group_list/group")}
        for cat in ev.findall("serious_events/category_list/category"):
            if text(cat, "title") != "Total":
                continue
            e = cat.find("event_list/event")
            for c in e.findall("counts") if e is not None else []:
                arm = titles.get(c.get("group_id"), "")
                if int(c.get("subjects_at_risk") or 0) == 0:
                    continue
                out[("safety.serious_ae_affected", nct, "", arm)].add(c.get("subjects_affected"))
                out[("safety.serious_ae_at_risk", nct, "", arm)].add(c.get("subjects_at_risk"))


CONCEPTS = {
    "financials.revenue": ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet"],
    "financials.rd_expense": ["ResearchAndDevelopmentExpense"],
    "financials.net_loss": ["NetIncomeLoss"],
    "financials.cash": ["CashAndCashEquivalentsAtCarryingValue",
                        "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents"],
}


def expect_xbrl(facts, out):
    gaap = facts.get("facts", {}).get("us-gaap", {})
    for field, concepts in CONCEPTS.items():
        best = {}
        for c in concepts:
            for i, f in enumerate(gaap.get(c, {}).get("units", {}).get("USD", [])):
                if f.get("form") not in ("10-K", "10-Q", "10-K/A", "10-Q/A", "20-F"):
                    continue
                if "start" in f:
                    days = (datetime.date.fromisoformat(f["end"]) - datetime.date.fromisoformat(f["start"])).days
                    cls = "annual" if 350 <= days <= 380 else "quarter" if 80 <= days <= 100 else None
                else:
                    cls = "instant"
                if cls is None:
                    continue
                rank = (f["end"], f.get("filed", ""), c, i)
                if cls not in best or rank > best[cls][0]:
                    best[cls] = (rank, f, c)
        for cls, (_, f, c) in best.items():
            period = f"{f['start']}..{f['end']}" if "start" in f else f["end"]
            out[(field, f"{cls} {period}", f"{f['form']} {f['accn']} {c}", "")].add(str(f["val"]))


HEADING = re.compile(r"^\d+(\.\d+)*\s+[A-Z][A-Z &/,-]+\s")
PLAIN_NUMBER = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")


def label_sections(real):
    """Label text sections by set_id: field -> list of texts."""
    out = {}
    for path in glob.glob(os.path.join(real, "import/fda_label/*.json")):
        doc = json.load(open(path, encoding="utf-8"))
        for r in doc.get("results", [doc]):
            if "set_id" in r:
                out[r["set_id"]] = r
    return out


def boundary_after(text, end):
    rest = text[end:]
    return rest == "" or rest.startswith(" ") and (len(rest) == 1 or rest[1].isupper() or rest[1].isdigit())


def meaning(cells, real):
    """Checks of what each value cell says; returns (counts, failures)."""
    counts, fails = Counter(), []
    labels = label_sections(real)
    drugsfda_holders = set()
    for path in glob.glob(os.path.join(real, "import/drugsfda/*.json")):
        for r in json.load(open(path, encoding="utf-8")).get("results", []):
            drugsfda_holders.add(r.get("sponsor_name"))
    portfolio = {}
    cur = None
    for line in open(os.path.join(real, "portfolio.toml"), encoding="utf-8"):
        m = re.match(r'^(id|sponsor)\s*=\s*"(.*)"', line.strip())
        if m and m.group(1) == "id":
            cur = m.group(2)
            portfolio[cur] = ""
        elif m and cur:
            portfolio[cur] = m.group(2)

    def check(kind, ok, cell, why):
        counts[kind + (" ok" if ok else " FAIL")] += 1
        if not ok:
            fails.append((kind, cell["asset_id"], cell["field"], cell.get("endpoint"), cell.get("population"),
                          cell.get("arm"), cell["value"], why))

    for c in cells:
        f, unit, v = c["field"], c.get("unit") or "", c["value"]
        if f in ("efficacy.ci_lower", "efficacy.ci_upper"):
            check("kind", "confidence interval" in unit.lower(), c, f"a CI field with unit {unit!r}")
        if f.startswith("efficacy.iqr_"):
            check("kind", "quartile" in unit.lower(), c, f"an IQR field with unit {unit!r}")
        if f.startswith("efficacy.range_"):
            check("kind", "range" in unit.lower(), c, f"a range field with unit {unit!r}")
        if f in ("efficacy.sd", "efficacy.se"):
            want = "deviation" if f.endswith("sd") else "error"
            check("kind", want in unit.lower(), c, f"{f} with unit {unit!r}")
        if f.startswith("efficacy.estimate_ci_"):
            check("kind", "% CI" in unit or "level not stated" in unit, c, f"an estimate CI with unit {unit!r}")
        if f in ("efficacy.effect_estimate", "efficacy.p_value") and (c.get("population") or "").startswith("analysis"):
            arm = c.get("arm") or ""
            check("kind", " vs " in arm or arm.endswith("(direction not stated)"), c,
                  "a comparison that neither states a direction nor says none is stated")
        if f in ("regulatory.approved_indications", "safety.common_adverse_reactions", "regulatory.boxed_warning"):
            r = labels.get(c.get("endpoint") or "")
            key = {"regulatory.approved_indications": "indications_and_usage",
                   "safety.common_adverse_reactions": "adverse_reactions",
                   "regulatory.boxed_warning": "boxed_warning"}[f]
            texts = (r or {}).get(key, [])
            hit = [t for t in texts if v in t]
            check("sentence", bool(hit), c, "not in the label section it names")
            check("sentence", not HEADING.match(v), c, "starts at a section heading")
            if hit:
                t = hit[0]
                end = t.index(v) + len(v)
                if f == "regulatory.boxed_warning":
                    check("sentence", t.lstrip().upper().startswith("WARNING"), c, "a box that opens with no WARNING")
                else:
                    check("sentence", v.endswith((".", ")")) and boundary_after(t, end), c,
                          "does not end at a statement boundary: " + repr(t[end:end + 20]))
        n = c.get("value_num")
        if PLAIN_NUMBER.match(v.strip()) and c.get("value_date") is None:
            check("typed", n is not None and abs(float(v.replace(",", "")) - n) < 1e-9 * max(1, abs(n)), c,
                  f"value_num {n!r}")
        elif n is not None:
            check("typed", False, c, f"value_num {n!r} for a value that is not a number")
        d = c.get("value_date")
        if d is not None:
            parsed = None
            for fmt in ("%Y%m%d", "%Y-%m-%d", "%B %d, %Y"):
                try:
                    parsed = datetime.datetime.strptime(v.strip(), fmt).date().isoformat()
                    break
                except ValueError:
                    pass
            check("typed", parsed == str(d)[:10], c, f"value_date {d!r}")
        if f == "identity.modality":
            check("identity", "small molecule" not in v.lower(), c, "the application type decided modality")
        if f == "identity.sponsor":
            ours = portfolio.get(c["asset_id"], "").lower()
            fine = v in drugsfda_holders or (ours and (ours in v.lower() or v.lower() in ours))
            check("identity", fine, c, "a sponsor that is neither the holder nor the portfolio's sponsor")
    return counts, fails


def gold_check(cells, gold_path):
    """Each gold cell right (value, and unit where given) or, for `absent`, no value."""
    by_key = defaultdict(list)
    for c in cells:
        by_key[(c["asset_id"], c["field"], c.get("endpoint") or "", c.get("population") or "",
                c.get("arm") or "")].append(c)
    right, misses = 0, []
    gold = [json.loads(l) for l in open(gold_path, encoding="utf-8") if l.strip()]
    for g in gold:
        k = (g["asset_id"], g["field"], g.get("endpoint") or "", g.get("population") or "", g.get("arm") or "")
        got = by_key.get(k, [])
        if g.get("absent"):
            ok = not got
        else:
            ok = any(c["value"] == g["value"] and (g.get("unit") is None or (c.get("unit") or "") == g["unit"])
                     for c in got)
        if ok:
            right += 1
        else:
            misses.append((k, g.get("value"), [(c["value"], c.get("unit")) for c in got], g.get("why")))
    return len(gold), right, misses


def main():
    cells_path, real = sys.argv[1], sys.argv[2]
    cells = [json.loads(l) for l in open(cells_path) if l.strip()]
    # The trials each asset cites, and the version each cell cites (by cutoff date).
    expected = defaultdict(lambda: defaultdict(set))  # (nct, cutoff) -> key -> values
    for path in glob.glob(os.path.join(real, "import/ctgov/*")):
        if path.endswith(".json"):
            doc = json.load(open(path, encoding="utf-8"))
            for st in doc.get("studies", [doc]):
                misc = st.get("derivedSection", {}).get("miscInfoModule", {})
                nct = st["protocolSection"]["identificationModule"]["nctId"]
                cutoff = misc.get("versionHolder") or st["protocolSection"]["statusModule"].get(
                    "lastUpdatePostDateStruct", {}).get("date")
                expect_v2(st, expected[(nct, cutoff)])
        elif path.endswith(".xml"):
            root = ET.parse(path).getroot()
            expect_xml(root, expected[(text(root, "id_info/nct_id"), None)])
    fin = defaultdict(lambda: defaultdict(set))
    for path in glob.glob(os.path.join(real, "import/sec/*.json")):
        doc = json.load(open(path, encoding="utf-8"))
        if "facts" in doc:
            expect_xbrl(doc, fin[f"CIK{int(doc['cik']):010d}"])

    # efficacy.comparison holds a phrase of a text; its direction is audited through the
    # arm of every analysis cell, which the audit derives on its own
    # numbers read from a paper, a label or a press page are not CT.gov's to audit here: the
    # gold cells (read by hand from those texts) check them
    from_text = [c for c in cells if c["field"].startswith("efficacy.")
                 and c["source_id"].split(":", 1)[0] in ("pubmed", "fda_label", "press")]
    audited = [c for c in cells if c["field"].startswith(("efficacy.", "financials.", "safety.serious_ae_a"))
               and c["field"] != "efficacy.comparison" and c not in from_text]
    stats = defaultdict(Counter)
    wrong = []
    emitted = defaultdict(set)
    for c in audited:
        key = (c["field"], c.get("endpoint") or "", c.get("population") or "", c.get("arm") or "")
        rec = c["source_id"].split(":", 1)[1].split("@")[0]
        section = c["field"].split(".")[0]
        if section == "financials":
            source = fin[rec]
        else:
            cands = [v for (n, cut), v in expected.items() if n == rec and (cut is None or cut == c.get("cutoff_date"))]
            source = cands[0] if cands else {}
        emitted[(c["asset_id"], rec, c.get("cutoff_date"))].add(key)
        if c["value"] in source.get(key, set()):
            stats[section]["right"] += 1
        else:
            stats[section]["wrong"] += 1
            wrong.append((c["asset_id"], key, c["value"], sorted(source.get(key, set()))))
    for (asset, rec, cutoff), keys in emitted.items():
        if rec.startswith("CIK"):
            source = fin[rec]
        else:
            cands = [v for (n, cut), v in expected.items() if n == rec and (cut is None or cut == cutoff)]
            source = cands[0] if cands else {}
        for key in source:
            if key not in keys and key[0].split(".")[0] in ("efficacy", "financials", "safety"):
                stats[key[0].split(".")[0]]["missing"] += 1
                wrong.append((asset, key, None, sorted(source[key])))
    per_asset = Counter(c["asset_id"] for c in audited)
    print("cells audited per asset:", dict(sorted(per_asset.items())))
    print(f"efficacy cells from text (checked by the gold cells): {len(from_text)}")
    for section in sorted(stats):
        s = stats[section]
        print(f"{section}: right {s['right']}, wrong {s['wrong']}, missing {s['missing']}")
    for w in wrong[:20]:
        print("  MISMATCH", w)
    counts, fails = meaning(cells, real)
    for kind in ("kind", "sentence", "typed", "identity"):
        print(f"meaning/{kind}: ok {counts[kind + ' ok']}, fail {counts[kind + ' FAIL']}")
    for x in fails[:20]:
        print("  MISLEADING", x)
    gold_bad = 0
    gold_path = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "gold_cells.jsonl")
    if os.path.exists(gold_path):
        total, right, misses = gold_check(cells, gold_path)
        gold_bad = len(misses)
        print(f"gold ({os.path.basename(gold_path)}): right {right} of {total}")
        for m in misses:
            print("  GOLD MISS", m)
    positional = any(s["wrong"] or s["missing"] for s in stats.values())
    return 1 if positional or fails or gold_bad else 0


if __name__ == "__main__":
    sys.exit(main())
