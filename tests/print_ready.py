"""(Copied from ../shared/tools/print_ready.py, so the tests run without ../shared.)

Print-readiness checks on SVG figures (what an illustrator would reject without opening the PNG).

usage: print_ready.py SVG... [--json]
Per figure: the smallest text in points at the figure's printed size; text running off the page;
the legend/key's share of the page; "×1" badges; a gap letter used twice; a unit label more than 12 mm
from its own unit and twice as near another unit's models. A figure passes when: smallest text >= 6 pt, nothing off the
page, key share <= 0.15, no ×1, no repeated letter, every label nearest its own unit.
Prints one line per failing figure and a last line "N of M figures print-ready"."""
import json, re, sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
INK = "{http://www.inkscape.org/namespaces/inkscape}"
MIN_PT, MAX_KEY = 6.0, 0.15


def mm(v):
    m = re.match(r"([\d.]+)\s*(mm|cm|in|px)?", v or "")
    if not m:
        return None
    x, u = float(m.group(1)), m.group(2) or "px"
    return x * {"mm": 1, "cm": 10, "in": 25.4, "px": 25.4 / 96}[u]


def points(el):
    """Every coordinate pair an element draws (polygon/polyline points, rect corners, circle boxes, text anchors)."""
    t = el.tag.replace(NS, "")
    try:
        if t in ("polygon", "polyline"):
            v = [float(x) for x in re.split(r"[\s,]+", el.get("points", "").strip()) if x]
            return list(zip(v[0::2], v[1::2]))
        if t == "rect":
            x, y, w, h = (float(el.get(k, 0)) for k in ("x", "y", "width", "height"))
            return [(x, y), (x + w, y + h)]
        if t in ("circle", "ellipse"):
            cx, cy = float(el.get("cx", 0)), float(el.get("cy", 0))
            rx = float(el.get("r", el.get("rx", 0))); ry = float(el.get("r", el.get("ry", 0)))
            return [(cx - rx, cy - ry), (cx + rx, cy + ry)]
        if t == "text":
            return [(float(el.get("x", 0)), float(el.get("y", 0)))]
    except ValueError:
        return []
    return []


def text_of(el):
    return "".join(el.itertext()).strip()


_FONTS = {}


def text_width(s, fs, bold):
    """Width of s at font size fs in the figure's units: measured with DejaVu Sans where Pillow and the
    project's font are at hand (the figures' own font), else 0.55 em a character."""
    key = (round(fs * 4), bold)
    if key not in _FONTS:
        try:
            from PIL import ImageFont
            import os
            name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
            _FONTS[key] = ImageFont.truetype(os.path.join(os.environ.get("FONT_DIR", "assets/fonts"), name), size=max(1, round(fs * 4)))
        except Exception:
            _FONTS[key] = None
    f = _FONTS[key]
    return f.getlength(s) / 4 if f is not None else 0.55 * fs * len(s)


def check(path):
    root = ET.parse(path).getroot()
    vb = [float(x) for x in root.get("viewBox", "0 0 0 0").split()]
    W, H = vb[2], vb[3]
    wmm = mm(root.get("width"))
    pt_per_unit = (wmm / W) * 72 / 25.4 if wmm and W else None
    problems = []
    # 1. text size and text off the page
    smallest = None
    for el in root.iter(NS + "text"):
        s = text_of(el)
        if not s:
            continue
        fs = float(re.match(r"[\d.]+", el.get("font-size", "0")).group(0) or 0)
        if pt_per_unit and fs:
            pt = fs * pt_per_unit
            smallest = pt if smallest is None else min(smallest, pt)
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        anchor = el.get("text-anchor", "start")
        w = text_width(s, fs, el.get("font-weight") == "bold")
        x0 = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
        if x0 < -1 or x0 + w > W + 1 or y - fs < -1 or y > H + 1:
            problems.append(f"text off the page: {s[:30]!r}")
        if re.fullmatch(r"[×x]1", s):
            problems.append("a ×1 badge")
    if smallest is not None and smallest < MIN_PT:
        problems.append(f"text at {smallest:.1f} pt")
    # 2. the key's share of the page
    key = [l for l in root.iter(NS + "g") if l.get(INK + "label") == "Legend"]
    share = 0.0
    for layer in key:
        ps = [p for el in layer.iter() for p in points(el)]
        if ps:
            xs, ys = [p[0] for p in ps], [p[1] for p in ps]
            share += (max(0, min(max(xs), W) - max(min(xs), 0)) * max(0, min(max(ys), H) - max(min(ys), 0))) / (W * H)
    if share > MAX_KEY:
        problems.append(f"key takes {share:.0%} of the page")
    # 3. gap letters used twice
    letters = [text_of(t) for g in root.iter(NS + "g") if (g.get("id") or "").startswith("gapletter")
               for t in g.iter(NS + "text")]
    dup = sorted({c for c in letters if letters.count(c) > 1})
    if dup:
        problems.append(f"letter used twice: {','.join(dup)}")
    # 4. every unit label nearest its own unit's models
    units = {}
    for g in root.iter(NS + "g"):
        gid = g.get("id") or ""
        if gid.startswith("unit-"):
            uid = gid[5:].split("_", 1)[0] if gid.count("-") == 1 else gid[5:]
            ps = [p for el in g.iter() for p in points(el)]
            if ps:
                units.setdefault(uid, []).extend(ps)
    for g in root.iter(NS + "g"):
        gid = g.get("id") or ""
        if not gid.startswith("label-"):
            continue
        uid = gid[6:]
        ts = [t for t in g.iter(NS + "text")]
        if not ts or uid not in units or len(units) < 2:
            continue
        x, y = float(ts[0].get("x", 0)), float(ts[0].get("y", 0))
        fs = float(re.match(r"[\d.]+", ts[0].get("font-size", "0")).group(0) or 0)
        cx, cy = x + text_width(text_of(ts[0]), fs, True) / 2, y - fs / 3
        def dist(ps):
            return min((px - cx) ** 2 + (py - cy) ** 2 for px, py in ps)
        near = min(units, key=lambda u: dist(units[u]))
        own_mm = dist(units[uid]) ** 0.5 * (wmm / W if wmm and W else 0.26)
        if near != uid and dist(units[near]) < 0.25 * dist(units[uid]) and own_mm > 12:
            problems.append(f"label of {uid} sits nearer {near} ({own_mm:.0f} mm from its own)")
    return {"file": path, "smallest_pt": None if smallest is None else round(smallest, 1),
            "key_share": round(share, 2), "problems": problems}


def main(argv):
    as_json = "--json" in argv
    files = [a for a in argv if a != "--json"]
    res = []
    for f in files:
        try:
            res.append(check(f))
        except ET.ParseError as e:
            res.append({"file": f, "problems": [f"not well-formed XML: {e}"]})
    ok = [r for r in res if not r["problems"]]
    if as_json:
        print(json.dumps(res))
    for r in res:
        if r["problems"]:
            print(f"{r['file'].split('/')[-1]}: {'; '.join(r['problems'][:3])}")
    print(f"{len(ok)} of {len(res)} figures print-ready")
    return 0 if res and len(ok) == len(res) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
