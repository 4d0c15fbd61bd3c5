import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_addoption(parser):
    parser.addoption("--update-baselines", action="store_true", default=False,
                     help="rewrite the image baselines in tests/baselines/ (SVG snapshots and PNGs) "
                          "instead of comparing against them; same as MELEE_UPDATE_BASELINES=1")
