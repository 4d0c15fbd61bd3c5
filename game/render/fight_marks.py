"""Marks of fighting ranks on the picture: rows outlined, fighters not in contact numbered apart.

Drawn when an analysis reports them (``extra["fighting_ranks"]``: the rows of a unit that
fight, each with ``row_models``, ``second`` (a rank deepened by a rule) and ``stand_ins``;
``extra["not_in_contact"]``: models that fight without touching an enemy, making fewer
attacks). No rule system is named here; the legend wording comes from the analysis
(``extra["legend_rows"]``). Pure drawing through the canvas protocol (window, PNG, SVG).
"""
from __future__ import annotations

from typing import Any

from game.core import geometry as g
from game.core.board import parse_slot

OUTLINE = (250, 190, 0)       # the fighting-rank outline (with a dark edge, for any fill under it)
RING = (255, 255, 255)        # the disc of a fighter not in contact


def rows_mm(board: Any, analysis: Any) -> list[list[g.Point]]:
    """Outlines (table mm, corners) of every fighting rank of ``analysis``: the row with its
    deepened second row as one rectangle, each stand-in on its own."""
    out = []
    units = {u.id: u for u in board.units}
    for e in (getattr(analysis, "extra", None) or {}).get("fighting_ranks") or []:
        u = units.get(e.get("unit"))
        if u is None or u.kind != "ranked":
            continue
        groups = [list(e.get("row_models") or []) + list(e.get("second") or [])]
        groups += [[m] for m in e.get("stand_ins") or []]
        for ids in groups:
            slots = []
            for mid in ids:
                try:
                    slots.append(parse_slot(mid.split(".", 1)[1]))
                except (ValueError, IndexError):
                    continue
            if not slots:
                continue
            r0, r1 = min(r for r, _ in slots), max(r for r, _ in slots)
            f0, f1 = min(f for _, f in slots), max(f for _, f in slots)
            a0, a1 = (f0 - 1) * u.base_w - u.width_mm / 2, f1 * u.base_w - u.width_mm / 2
            b0, b1 = (r0 - 1) * u.base_d, r1 * u.base_d
            out.append([g.to_table(a, b, u.front, u.facing_deg) for a, b in ((a0, b0), (a1, b0), (a1, b1), (a0, b1))])
    return out


def draw(p: Any, analysis: Any) -> set[str]:
    """Outline the fighting ranks and number every fighting model of a unit that has them:
    ``×N`` (its full Attacks) in base contact, a white disc with ``N`` when it fights without
    touching an enemy. Returns the ids numbered here (the generic ``×N`` marks skip them)."""
    extra = getattr(analysis, "extra", None) or {}
    if not extra.get("fighting_ranks"):
        return set()
    for i, pts in enumerate(rows_mm(p.b, analysis)):
        p.c.tag = f"fighting_rank:{i}"
        px = p.v.pts(pts)
        p.c.line(px + [px[0]], (30, 30, 30), p.u(5.2))
        p.c.line(px + [px[0]], p.pal.get("fighting_rank", OUTLINE), p.u(3))
    apart = set(extra.get("not_in_contact") or [])
    units = {e.get("unit") for e in extra["fighting_ranks"]}
    done = set()
    for dm in p.models:
        if dm.unit.id not in units or dm.role != "attack":
            continue
        n = (getattr(analysis, "models", {}).get(dm.id) or None)
        attacks = getattr(n, "attacks", 0)
        if dm.id in apart:
            p.safe(f"one attack {dm.id}", one_attack_mark, p, dm, attacks)
        else:
            p.safe(f"count {dm.id}", p.count_mark, dm, attacks)
        done.add(dm.id)
    return done


def one_attack_mark(p: Any, dm: Any, attacks: Any) -> None:
    """A white disc with a dark ring and the number of attacks, in the middle of the base."""
    p.c.tag = f"one_attack:{dm.id}"
    b = dm.shape.bbox()
    p0, p1 = p.v.to_px((b[0], b[1])), p.v.to_px((b[2], b[3]))
    bw, bh = abs(p1[0] - p0[0]), abs(p1[1] - p0[1])
    r = min(bw, bh) * 0.3
    if r < 4:
        return
    c = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2)
    p.c.circle(c, r, fill=RING, outline=(20, 20, 20), width=p.u(1.5))
    p.c.text(c, str(attacks), p.size(r * 1.3 / p.fs), (20, 20, 20), anchor="center", bold=True)
