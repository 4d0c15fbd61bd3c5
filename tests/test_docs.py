"""The documentation stands alone: the rule summaries are current, the scenario format and the
figure options are in docs/, and no test needs the shared folder beside the project."""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rules_summary_is_generated_from_the_current_rulesets():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import gen_rules
    finally:
        sys.path.pop(0)
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8") == gen_rules.render(), \
        "docs/RULES.md is stale: run python docs/gen_rules.py"


def test_docs_hold_the_scenario_format_and_the_figure_options():
    fmt = (ROOT / "docs" / "SCENARIO_FORMAT.md").read_text(encoding="utf-8")
    for key in ("ruleset", "units", "facing", "last_rank", "front", "r<rank>f<file>"):
        assert key in fmt
    figs = (ROOT / "docs" / "FIGURES.md").read_text(encoding="utf-8")
    for opt in ("--size", "--dpi", "--crop", "--ids", "--letters", "--counts", "greyscale", "--compare",
                "--update-baselines"):
        assert opt in figs
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/SCENARIO_FORMAT.md", "docs/FIGURES.md", "docs/RULES.md"):
        assert doc in readme and (ROOT / doc).exists()


def test_no_test_skips_for_want_of_the_shared_folder():
    """Tests use their own copies (tests/golden, tests/fixtures); ../shared is at most compared
    against when it is there, so a plain clone runs everything."""
    for p in (ROOT / "tests").glob("*.py"):
        if p.name == "test_docs.py":
            continue
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if "skip" in line and "shared" in line:
                raise AssertionError(f"{p.name}:{n} skips without ../shared: copy the fixture into tests/")


def test_the_readme_names_every_pinned_dependency():
    """The quick start listed 12 of the 17 packages the first command installs (reportlab,
    charset-normalizer, fonttools, platformdirs and pypdf were missing)."""
    root = Path(__file__).resolve().parents[1]
    readme = root / "README.md"
    quick = readme.read_text(encoding="utf-8").split("## Commands")[0]
    pins = [re.split(r"[=<>]", ln)[0].strip() for ln in (root / "requirements.txt").read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]
    assert len(pins) > 10
    assert [p for p in pins if p not in quick] == []
