import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# the user's data folder (recovery files, recent files: platformdirs) is a private one per run,
# so no test reads or writes the real one
import tempfile  # noqa: E402

os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="melee-lens-data-")

from hypothesis import settings  # noqa: E402

# CI explores the same examples every run (no stored database, a fixed seed per test), so a
# landing never passes or fails by luck; a developer's run keeps exploring new examples.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser):
    parser.addoption("--update-baselines", action="store_true", default=False,
                     help="rewrite the image baselines in tests/baselines/ (SVG snapshots and PNGs) "
                          "instead of comparing against them; same as MELEE_UPDATE_BASELINES=1")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """Each test its own user data folder: a recovery file one test's window leaves (unsaved
    work on a bundled scenario) would otherwise be offered by the next window opening that
    file, and the dialog would take that test's keys."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _collector_released():
    """A window left mid-drag by a test must not leave the garbage collector held for the next."""
    yield
    from game.window.collector import COLLECTOR
    COLLECTOR.release()
