"""Golden scenarios: one per example in the seeds' rules texts (tests/golden/*.yaml).

Each file is a scenario with an ``expect:`` block in the conformance format; a file may also
carry ``expect_<ruleset>:`` blocks, checked by analysing the same board under that ruleset.
Every file is also checked turned and moved on the table (the same expectations must hold:
a result that depends on where the board lies is a bug).
"""
from pathlib import Path

import pytest
import yaml

from expect import run_case

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden(path):
    _, errors = run_case(path)
    assert not errors, "\n".join(errors)


CROSS = [(p, k[len("expect_"):]) for p in GOLDEN for k in (yaml.safe_load(p.read_text()) or {}) if k.startswith("expect_")]


@pytest.mark.parametrize("path,ruleset", CROSS, ids=[f"{p.stem}-{r}" for p, r in CROSS])
def test_golden_other_ruleset(path, ruleset):
    _, errors = run_case(path, ruleset)
    assert not errors, "\n".join(errors)


PLACEMENTS = [(180.0, (35.0, -20.0)), (90.0, (-12.5, 7.25)), (23.0, (5.0, 5.0))]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
@pytest.mark.parametrize("placement", PLACEMENTS, ids=[f"turned{int(d)}" for d, _ in PLACEMENTS])
def test_golden_turned_and_moved(path, placement):
    _, errors = run_case(path, placement=placement)
    assert not errors, "\n".join(errors)
