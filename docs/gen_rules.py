"""Write docs/RULES.md from rulesets/*.yaml: each rule system's summary and every parameter
the engine reads, with the rule it implements and our one-line explanation.

Run ``python docs/gen_rules.py`` after editing a ruleset; ``tests/test_docs.py`` checks the
file is current. The text is the rulesets' own (our words, citing rules by name), so the
documentation stands without the rules texts beside the project.
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["whfb8", "t9a", "tow", "wh40k", "slots"]


def _value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v) or "none"
    if isinstance(v, dict):
        return "; ".join(f"{k}: {_value(x)}" for k, x in v.items())
    return str(v)


def render() -> str:
    """The text of docs/RULES.md."""
    files = sorted((ROOT / "rulesets").glob("*.yaml"), key=lambda p: (ORDER.index(p.stem) if p.stem in ORDER else 99, p.stem))
    out = ["# Rule systems: what each ruleset implements", "",
           "Generated from `rulesets/*.yaml` by `python docs/gen_rules.py` (do not edit by hand).",
           "Each rule system is data read by one shared engine strategy; every number a figure or a",
           "tooltip shows comes from these parameters. Explanations are our own words, citing the",
           "rule by its name; the rules texts themselves are not part of the project.", ""]
    for p in files:
        d = yaml.safe_load(p.read_text(encoding="utf-8"))
        out += [f"## `{d.get('id', p.stem)}`: {d.get('name', p.stem)}", ""]
        if d.get("inherits"):
            out += [f"Builds on `{d['inherits']}` (its parameters, then these).", ""]
        out += [" ".join(str(d.get("summary", "")).split()), ""]
        out += [f"Engine strategy: `{d.get('strategy', '?')}`.", ""]
        params = d.get("params") or {}
        if params:
            out += ["| parameter | value | rule | what it does |", "|---|---|---|---|"]
            for k, v in params.items():
                if isinstance(v, dict):
                    row = (k, _value(v.get("value")), str(v.get("rule", "")), str(v.get("why", "")))
                else:
                    row = (k, _value(v), "", "")
                out.append("| " + " | ".join(x.replace("|", "\\|").replace("\n", " ") for x in row) + " |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    target = ROOT / "docs" / "RULES.md"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
