"""Layout checks of a drawn figure (recorded calls of a canvas): every text inside the canvas,
no label, badge, count, marker or callout on top of another, none on a gap link, legend text
inside the panel, title text inside the bar."""
from __future__ import annotations

from game.render.canvas import anchored, text_pad

TABLE_KINDS = ("label", "badge", "count", "terrain", "objective", "scale_bar", "callout", "front")


def _kind(tag: str) -> str:
    return (tag or "").split(":", 1)[0]


def text_boxes(canvas) -> list[tuple[str, tuple]]:
    """(tag, (x0, y0, x1, y1)) of every text drawn, its background padding included."""
    out = []
    for c in canvas.calls:
        if c.name != "text" or not c.args[1]:
            continue
        w, h = canvas.text_size(c.args[1], c.get("size"), c.get("bold"))
        x, y = anchored(c.args[0], w, h, c.get("anchor"))
        p = text_pad(c.get("size")) if c.get("background") is not None else 0.0
        out.append((c.get("tag"), (x - p, y - p * 0.6, x + w + p, y + h + p * 0.6)))
    return out


def _inter(a, b, slack=0.5) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _seg_hits_box(p, q, b) -> bool:
    """Does segment p-q cross box b (shrunk by 1 px)?"""
    x0, y0, x1, y1 = b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1
    if x0 >= x1 or y0 >= y1:
        return False
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pp, qq in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pp == 0:
            if qq < 0:
                return False
        else:
            t = qq / pp
            if pp < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 <= t1


def problems(canvas, layout) -> list[str]:
    """Every layout problem of the figure drawn on ``canvas`` (``layout``: its scene layout)."""
    out = []
    W, H = canvas.width, canvas.height
    texts = text_boxes(canvas)
    for tag, b in texts:
        if b[0] < -0.5 or b[1] < -0.5 or b[2] > W + 0.5 or b[3] > H + 0.5:
            out.append(f"text of {tag} leaves the canvas: {b}")
    marks = [(t, b) for t, b in texts if _kind(t) in TABLE_KINDS]
    for c in canvas.calls:  # markers and badges as boxes too
        if _kind(c.get("tag")) in ("front", "badge", "divide") and c.name in ("polygon", "circle"):
            if c.name == "circle":
                (cx, cy), r = c.args[0], c.args[1]
                marks.append((c.get("tag"), (cx - r, cy - r, cx + r, cy + r)))
            else:
                xs, ys = [p[0] for p in c.args[0]], [p[1] for p in c.args[0]]
                marks.append((c.get("tag"), (min(xs), min(ys), max(xs), max(ys))))
    for i, (ta, a) in enumerate(marks):
        for tb, b in marks[i + 1:]:
            if ta != tb and _inter(a, b) and not (_kind(ta) == _kind(tb) == "front"):
                out.append(f"{ta} overlaps {tb}")
    links = [c.args[0] for c in canvas.calls if _kind(c.get("tag")) == "gap" and (c.name == "arrow" or
                                                                             (c.name == "line" and c.get("dashed")))]
    fronts = []
    for c in canvas.calls:
        if _kind(c.get("tag")) == "front" and c.name == "polygon":
            xs, ys = [p[0] for p in c.args[0]], [p[1] for p in c.args[0]]
            fronts.append((c.get("tag"), (min(xs), min(ys), max(xs), max(ys))))
    for pts in links:  # no contact arrow or link runs over a unit's front marker
        for tag, b in fronts:
            if any(_seg_hits_box(p, q, b) for p, q in zip(pts, pts[1:])):
                out.append(f"a gap link crosses the front marker {tag}")
    for tag, b in texts:
        if _kind(tag) in ("label", "badge", "terrain", "callout"):
            for pts in links:
                if any(_seg_hits_box(p, q, b) for p, q in zip(pts, pts[1:])):
                    out.append(f"{tag} hides a gap link")
    if layout.panel:
        x, y, w, h = layout.panel
        for tag, b in texts:
            if tag == "legend" and (b[0] < x - 0.5 or b[2] > x + w + 0.5 or b[1] < y - 0.5 or b[3] > y + h + 0.5):
                out.append(f"legend text leaves the panel: {b}")
    if layout.title:
        x, y, w, h = layout.title
        for tag, b in texts:
            if tag == "title" and (b[1] < y - 0.5 or b[3] > y + h + 0.5 or b[0] < x or b[2] > x + w):
                out.append(f"title text leaves the bar: {b}")
    return out


# -- placed boxes against the models they do not describe ------------------------------------
PLACED_TEXT = ("label", "badge", "callout", "note", "gapletter", "movelen", "terrain", "objective", "scale_bar",
               "count")


def _described(tag: str) -> tuple[str, str]:
    """(unit id, model id) the placed item ``tag`` describes ('' when none)."""
    kind, _, name = (tag or "").partition(":")
    if kind in ("label", "badge"):
        return name, ""
    if kind in ("count", "note", "movelen"):
        return "", name
    if kind == "callout":
        return "", name.partition(":")[2]
    if kind == "gapletter":  # the letter of a contact arrow names the contact of two units
        return "|".join(m.split(".", 1)[0] for m in name.partition(":")[2].split("|")), ""
    return "", ""


def model_shapes(canvas) -> dict:
    """Model id -> shapely geometry of its base as drawn (its first polygon or circle)."""
    from shapely.geometry import Point, Polygon

    out: dict = {}
    for c in canvas.calls:
        kind, _, mid = (c.get("tag") or "").partition(":")
        if kind != "model" or mid in out:
            continue
        if c.name == "polygon" and len(c.args[0]) >= 3:
            out[mid] = Polygon(c.args[0])
        elif c.name == "circle":
            out[mid] = Point(c.args[0]).buffer(c.args[1], 16)
    return out


def placed_boxes(canvas) -> list[tuple[str, tuple]]:
    """(tag, box) of every text, badge disc, callout disc and note box placed on the table."""
    out = [(t, b) for t, b in text_boxes(canvas) if _kind(t) in PLACED_TEXT]
    for c in canvas.calls:
        if _kind(c.get("tag")) in ("badge", "callout") and c.name == "circle":
            (cx, cy), r = c.args[0], c.args[1]
            out.append((c.get("tag"), (cx - r, cy - r, cx + r, cy + r)))
        if _kind(c.get("tag")) == "note" and c.name == "polygon":
            xs, ys = [p[0] for p in c.args[0]], [p[1] for p in c.args[0]]
            out.append((c.get("tag"), (min(xs), min(ys), max(xs), max(ys))))
    return out


def model_problems(canvas, min_area_px: float = 4.0) -> list[str]:
    """Placed items (labels, badges, callouts, notes, letters...) that cover a model they do
    not describe (by more than ``min_area_px``), and placed items of different things that
    overlap each other."""
    from shapely.geometry import box as sbox

    shapes = model_shapes(canvas)
    out = []
    placed = placed_boxes(canvas)
    for tag, b in placed:
        unit, model = _described(tag)
        if _kind(tag) == "scale_bar":
            continue
        g = sbox(*b)
        for mid, s in shapes.items():
            if mid == model or (unit and mid.split(".", 1)[0] in unit.split("|")):
                continue
            if _kind(tag) == "count":
                continue  # a count sits inside its own base: checked by the base test below
            a = g.intersection(s).area
            if a > min_area_px:
                out.append(f"{tag} covers model {mid} ({a:.0f} px2)")
                break
    for i, (ta, a) in enumerate(placed):
        for tb, b in placed[i + 1:]:
            if ta.split(":")[:2] == tb.split(":")[:2] or _kind(ta) == "count" or _kind(tb) == "count":
                continue
            if _inter(a, b, slack=1.0):
                out.append(f"{ta} overlaps {tb}")
    return out


# -- gap arrow letters next to their own arrows ---------------------------------------------
def _seg_box_dist(b, p, q) -> float:
    from shapely.geometry import LineString, box as sbox

    return sbox(*b).distance(LineString([p, q]) if p != q else LineString([p, (p[0] + 1e-6, p[1])]))


def letter_problems(canvas, reach: float = 1.5) -> list[str]:
    """Letters of gap arrows that are not next to their own arrow: farther from it than
    ``reach`` times the letter's box (its larger side), or nearer another arrow than their own.
    A letter's tag ``gapletter:X:a|b`` names its arrow's tag ``gap:a|b``."""
    segs: dict[str, list] = {}
    for c in canvas.calls:
        if _kind(c.get("tag")) == "gap" and c.name in ("arrow", "line"):
            pts = c.args[0]
            segs.setdefault(c.get("tag").partition(":")[2], []).extend(zip(pts, pts[1:]))
    out = []
    for tag, b in text_boxes(canvas):
        if _kind(tag) != "gapletter":
            continue
        text, _, pair = tag.partition(":")[2].partition(":")
        own = segs.get(pair)
        if not own:
            out.append(f"letter {text} has no arrow {pair}")
            continue
        d_own = min(_seg_box_dist(b, p, q) for p, q in own)
        limit = reach * max(b[2] - b[0], b[3] - b[1])
        if d_own > limit:
            out.append(f"letter {text} is {d_own:.0f} px from its arrow (at most {limit:.0f})")
        for other, ss in segs.items():
            if other != pair and min(_seg_box_dist(b, p, q) for p, q in ss) < d_own - 0.5:
                out.append(f"letter {text} is nearer the arrow {other} than its own {pair}")
    return out


def arrows_per_unit_pair(canvas) -> dict[frozenset, int]:
    """How many gap arrows (or ticks, where the bases nearly touch) are drawn between each
    pair of units: one per distinct ``gap:a|b`` tag."""
    tags = {c.get("tag") for c in canvas.calls if _kind(c.get("tag")) == "gap" and c.name in ("arrow", "line")}
    out: dict[frozenset, int] = {}
    for t in tags:
        a, b = t.partition(":")[2].split("|")
        k = frozenset((a.split(".", 1)[0], b.split(".", 1)[0]))
        out[k] = out.get(k, 0) + 1
    return out
