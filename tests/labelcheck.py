"""Unit labels of a figure's SVG, checked as a reader would: each label nearer its own unit's
models than any other unit's (within its panel), and clear of the scale bar.

The SVG's ids name the things: ``label-<unit>`` (its first polygon is the label's background
box), ``model-<unit>.<model>`` (a polygon or circle: the base), ``scale_bar`` and
``panel-frame-*`` (a repeated id carries a ``-N`` suffix: the same unit in another panel)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

NS = "{http://www.w3.org/2000/svg}"
LEADER_MM = 12.0  # a leader longer than this does not join a label to its unit


def _mm_per_px(root) -> float:
    m = re.match(r"([\d.]+)mm", root.get("width", ""))
    vb = _floats(root.get("viewBox", "")) if root.get("viewBox") else []
    if m and len(vb) == 4 and vb[2]:
        return float(m.group(1)) / vb[2]
    return 25.4 / 96


def _floats(s: str) -> list[float]:
    return [float(x) for x in re.split(r"[\s,]+", s.strip()) if x]


def _shape(el):
    t = el.tag.replace(NS, "")
    if t == "polygon":
        v = _floats(el.get("points", ""))
        if len(v) >= 6:
            return Polygon(list(zip(v[0::2], v[1::2])))
    if t == "circle":
        return Point(float(el.get("cx", 0)), float(el.get("cy", 0))).buffer(float(el.get("r", 0)), 16)
    return None


def _first_shape(g):
    for el in g.iter():
        s = _shape(el)
        if s is not None and not s.is_empty:
            return s
    return None


def _bbox(g):
    pts = []
    for el in g.iter():
        t = el.tag.replace(NS, "")
        if t in ("polygon", "polyline"):
            v = _floats(el.get("points", ""))
            pts += list(zip(v[0::2], v[1::2]))
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return box(min(xs), min(ys), max(xs), max(ys))


def label_problems(svg_path, slack_px: float = 0.5) -> list[str]:
    """Every unit label of the SVG at ``svg_path`` that lies nearer another unit's models than
    its own (distances between the label's box and the bases, in the SVG's px, compared within
    the panel holding the label; ``slack_px`` forgiven), or overlaps a scale bar. A label joined to its own unit's base by a leader (a
    line in the label's group, at most ``LEADER_MM`` long) is by its unit."""
    root = ET.parse(svg_path).getroot()
    frames, labels, models, bars = [], [], [], []
    for g in root.iter(NS + "g"):
        gid = g.get("id") or ""
        if gid.startswith("panel-frame"):
            s = _first_shape(g)
            if s is not None:
                frames.append(s)
        elif gid.startswith("label-"):
            s = _first_shape(g)
            if s is not None:
                lines = []
                for el in g.iter(NS + "polyline"):
                    v = _floats(el.get("points", ""))
                    if len(v) == 4:
                        lines.append(LineString([(v[0], v[1]), (v[2], v[3])]))
                labels.append((gid[6:], s, lines))
        elif gid.startswith("model-"):
            s = _first_shape(g)
            if s is not None:
                models.append((gid[6:].split(".", 1)[0], s))
        elif gid == "scale_bar" or re.fullmatch(r"scale_bar-\d+", gid):
            b = _bbox(g)
            if b is not None:
                bars.append(b)

    def panel(shape) -> int:
        c = shape.centroid
        for i, f in enumerate(frames):
            if f.buffer(1).contains(c):
                return i
        return -1

    units: dict[tuple[int, str], list] = {}
    for uid, s in models:
        units.setdefault((panel(s), uid), []).append(s)
    geoms = {k: unary_union(v) for k, v in units.items()}
    out = []
    mm_per_px = _mm_per_px(root)
    for name, s, lines in labels:
        pi = panel(s)
        uid = name
        if (pi, uid) not in geoms:
            uid = re.sub(r"-\d+$", "", name)
        own = geoms.get((pi, uid))
        if own is None:
            continue  # a unit the crop leaves out
        d_own = s.distance(own)
        if any(ln.length * mm_per_px <= LEADER_MM and ln.distance(own) < 1.5 and ln.distance(s) < 1.5
               and min(Point(c).distance(own) for c in ln.coords) < 1.5 for ln in lines):
            d_own = 0.0  # joined to its unit by a short leader
        for (pj, other), geo in geoms.items():
            if pj == pi and other != uid and s.distance(geo) + slack_px < d_own:
                out.append(f"label of {uid} nearer {other} ({s.distance(geo):.0f} px) than its own unit "
                           f"({d_own:.0f} px)")
        for b in bars:
            if s.intersection(b).area > 1.0:
                out.append(f"label of {uid} over the scale bar")
    return out
