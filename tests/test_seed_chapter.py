"""The seeds' own diagrams as a chapter of the bundled book (issue 40 item 11): each diagram of the
rules texts the project started from, drawn from assets/seeds/ and making the same point."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from game.core.analyse import analyse  # noqa: E402
from game.core.point_marks import board_point_marks  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.figures.book import load_book, panel_figure_of  # noqa: E402
from game.render.figure_panels import gap_count  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "assets" / "seeds"


def _chapter():
    _, figs = load_book(ROOT / "assets" / "book.yaml")
    return {f.output: f for f in figs if f.output.startswith("seeds/")}


def test_the_chapter_holds_every_seed_diagram_and_every_seed_scenario():
    ch = _chapter()
    assert len([o for o in ch if o.startswith("seeds/s000_")]) == 7  # seed 000's seven captioned diagrams
    for name in ("s001_fighting_over_gaps", "s002_horde_and_flank", "s003_fight_phase_steps"):
        assert ch[f"seeds/{name}.png"].panels
    assert any(o.startswith("seeds/s004_") for o in ch)
    used = {f.scenario.resolve() for f in ch.values() if not f.panels}
    used |= {(p.scenario or p.demo).resolve() for f in ch.values() if f.panels for p in f.panels}
    for p in SEEDS.glob("*.yaml"):
        if "demo" in p.name:
            assert p.resolve() in used, p.name
        else:
            assert p.resolve() in used or (SEEDS / "s003_fight_phase_demo.yaml").read_text().count(p.name), p.name


def test_seed_001_letters_the_arrows_a_b_c_left_and_d_e_right():
    pf = panel_figure_of(_chapter()["seeds/s001_fighting_over_gaps.png"])
    assert [gap_count(p) for p in pf.panels] == [3, 2]


def test_the_seed_figures_make_their_point():
    def board(name):
        b = load_scenario(SEEDS / name)
        return b, analyse(b, load_ruleset(b.ruleset))

    b, a = board("s000_corner_contact.yaml")  # corner to corner: both fight, the corner ringed
    rings = [m for m in board_point_marks(b) if m.contact and m.mark == "ring"]
    assert rings and all(a.models[x].role == "attack" for m in rings for x in m.models)
    for name in ("s000_flank_no_support.yaml", "s002_flank.yaml"):  # the crossed models cannot support
        b, a = board(name)
        crossed = [x for m in board_point_marks(b) if m.mark == "cross" for x in m.models]
        assert len(crossed) == 2 and all(a.models[x].role == "none" for x in crossed)
    for name in ("s000_horde.yaml", "s002_horde_banner.yaml"):  # ten wide: the third rank supports
        b, a = board(name)
        assert all(a.models[f"dwarfs.r3f{f}"].role == "support" for f in range(1, 11))
    b, a = board("s000_incomplete_rank.yaml")
    assert a.moves  # the rear rank moves into contact
    b, a = board("s000_keep_contact.yaml")
    assert a.moves and any(r.role == "attack" for m, r in a.models.items() if m.startswith("dwarfs."))
    b, a = board("s004_trolls_charge_a_line.yaml")
    assert all(a.models[f"trolls.r1f{f}"].role == "attack" for f in (1, 2, 3))
