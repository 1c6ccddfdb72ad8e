"""``balance check`` in words: findings, the terminal summary, Markdown for a CI job summary and JUnit XML."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pandas as pd

from ...core.text import markdown_table, text_table
from ...stats.findings import Finding, said

_WORD = {"pass": "PASS", "fail": "FAIL", "inconclusive": "INCONCLUSIVE", "not applicable": "NOT APPLICABLE"}
_NA = "not applicable"


def _value(key: str, x: float) -> str:
    """A claim's number as its bound is written: turns as a number, rates and shares in percent; "-" for none."""
    if x != x:
        return "-"
    return f"{x:.2f}" if key == "length_mean" else f"{100 * x:.2f}%"


def evidence(row) -> str:
    return (f"{_value(row.key, row.estimate)} (anytime 95% interval {_value(row.key, row.ci_low)} to "
            f"{_value(row.key, row.ci_high)}; {row.games:,} games)")


def findings(report) -> list[Finding]:
    """Plain words first: what failed (kind ``fail``), what could not be decided (``inconclusive``), each with the
    claim's estimate and anytime-valid interval; what does not apply (``not_applicable``), what held (``held``: how
    many), no claims at all (``no_claims``), what moved against the baseline (``baseline``: how many)."""
    out = []
    claims = report.claims
    for row in claims.itertuples():
        if row.outcome == "fail":
            out.append(said("fail", f"{row.scenario}: the claim \"{row.claim}\" is false: {evidence(row)}.",
                            row.estimate, row.ci_low, row.ci_high))
    for row in claims.itertuples():
        if row.outcome == "inconclusive":
            out.append(said("inconclusive", f"{row.scenario}: \"{row.claim}\" could not be decided: {evidence(row)}; "
                            "the interval still reaches both sides of the bound. More games (-n), or a bound further "
                            "from the estimate, would decide it.", row.estimate, row.ci_low, row.ci_high))
    for row in claims.itertuples():
        if row.outcome == _NA:
            out.append(said("not_applicable", f"{row.scenario}: \"{row.claim}\" does not apply to this lineup, so it "
                            f"was not decided: {row.reason}."))
    held = claims[claims["outcome"] == "pass"]
    if len(held):
        out.append(said("held", f"{len(held)} of {len(claims)} claims hold, each decided with an anytime-valid 95% "
                        f"interval (at most {int(held['games'].max()):,} games).", len(held)))
    if not len(claims):
        out.append(said("no_claims", "No scenario holds a [checks] table: nothing was claimed, so nothing was "
                        "decided."))
    base = report.baseline
    if len(base):
        moved = base[base["moved"] != ""]
        if len(moved):
            several = base["scenario"].nunique() > 1
            words = "; ".join(f"{r.metric}{f' ({r.scenario})' if several else ''} {r.moved} by {_delta(r)}"
                              for r in moved.itertuples())
            out.append(said("baseline", f"{len(moved)} of {len(base)} metrics moved significantly against the "
                            f"baseline (Holm-adjusted p < {report.alpha:g}): {words}.", len(moved)))
        else:
            out.append(said("baseline", f"None of {len(base)} metrics moved significantly against the baseline.", 0))
    return out


def _delta(r) -> str:
    if r.metric.startswith("mean "):
        return f"{abs(r.diff):.2f} ({r.baseline:.2f} to {r.now:.2f})"
    return f"{100 * abs(r.diff):.2f} points ({100 * r.baseline:.2f}% to {100 * r.now:.2f}%)"


def claims_display(claims: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "outcome": [_WORD[o] for o in claims["outcome"]], "key": claims["key"],
        "estimate": [_value(k, x) for k, x in zip(claims["key"], claims["estimate"])],
        "anytime 95% CI": [f"[{_value(k, lo)}, {_value(k, hi)}]" for k, lo, hi in
                           zip(claims["key"], claims["ci_low"], claims["ci_high"])],
        "games": [f"{g:,}" for g in claims["games"]],
        "claim": [c + (f" (not applicable: {r})" if o == _NA else "")
                  for c, o, r in zip(claims["claim"], claims["outcome"], claims["reason"])]})


def baseline_display(base: pd.DataFrame) -> pd.DataFrame:
    moved = base[base["moved"] != ""]
    return pd.DataFrame({
        "metric": moved["metric"], "moved": moved["moved"], "baseline": moved["baseline"].map(lambda x: f"{x:.4f}"),
        "now": moved["now"].map(lambda x: f"{x:.4f}"), "diff": moved["diff"].map(lambda x: f"{x:+.4f}"),
        "95% CI": [f"[{lo:+.4f}, {hi:+.4f}]" for lo, hi in zip(moved["diff_ci_low"], moved["diff_ci_high"])],
        "p (Holm)": moved["p_holm"].map(lambda x: f"{x:.2g}" if x > 0 else "<1e-300")})


def summary(report) -> str:
    lines = ["Findings"] + [f"  {i}. {t}" for i, t in enumerate(report.findings["text"], 1)]
    for s in report.scenarios:
        lines += ["", f"{s.name}: {_WORD[s.outcome] if len(s.claims) else 'no claims'} "
                      f"({s.results.tallies.games:,} games played)"]
        lines += [f"  Note: {n}" for n in s.notes]
        if len(s.claims):
            lines.append(text_table(claims_display(s.claims)))
        if s.baseline is not None:
            moved = baseline_display(s.baseline)
            lines.append(f"  against the baseline: {len(moved)} of {len(s.baseline)} metrics moved significantly")
            if len(moved):
                lines.append(text_table(moved))
    lines += ["", f"outcome: {_WORD[report.outcome]} (exit code {report.exit_code})"]
    return "\n".join(lines)


def markdown(report) -> str:
    """A Markdown summary for a CI job summary ($GITHUB_STEP_SUMMARY)."""
    lines = [f"## balance check: {_WORD[report.outcome]}", "", "### Findings", ""]
    lines += [f"{i}. {t}" for i, t in enumerate(report.findings["text"], 1)]
    for s in report.scenarios:
        lines += ["", f"### {s.name}: {_WORD[s.outcome] if len(s.claims) else 'no claims'}", ""]
        if len(s.claims):
            lines += markdown_table(claims_display(s.claims))
        if s.baseline is not None and (s.baseline["moved"] != "").any():
            lines += ["", "Moved against the baseline:", ""] + markdown_table(baseline_display(s.baseline))
    return "\n".join(lines) + "\n"


def junit(report) -> str:
    """JUnit XML: a test suite per scenario, a test case per claim; fail is a failure, inconclusive an error, not
    applicable skipped."""
    root = ET.Element("testsuites", name="balance check")
    for s in report.scenarios:
        c = s.claims
        suite = ET.SubElement(root, "testsuite", name=s.name, tests=str(len(c)),
                              failures=str(int((c["outcome"] == "fail").sum())),
                              errors=str(int((c["outcome"] == "inconclusive").sum())),
                              skipped=str(int((c["outcome"] == _NA).sum())))
        for row in c.itertuples():
            case = ET.SubElement(suite, "testcase", classname=s.source or s.name, name=f"{row.key}: {row.claim}")
            if row.outcome == "fail":
                ET.SubElement(case, "failure", message=f"false: {evidence(row)}", type="fail")
            elif row.outcome == "inconclusive":
                ET.SubElement(case, "error", message=f"undecided at the game cap: {evidence(row)}",
                              type="inconclusive")
            elif row.outcome == _NA:
                ET.SubElement(case, "skipped", message=f"not applicable: {row.reason}")
                continue
            ET.SubElement(case, "system-out").text = evidence(row)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
