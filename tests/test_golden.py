"""Golden scenarios: one per example in the seeds' rules texts (tests/golden/*.yaml).

Each file is a scenario with an ``expect:`` block in the conformance format; a file may also
carry ``expect_<ruleset>:`` blocks, checked by analysing the same board under that ruleset.
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
