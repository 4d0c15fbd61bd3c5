"""SVG back end of the drawing protocol (:class:`game.render.canvas.Canvas`).

``draw_scene`` stays the only renderer: this canvas turns the same calls the pygame canvas
blits into SVG elements, the way python-chess's ``chess.svg`` builds a document from strings.

Structure: consecutive calls with the same ``tag`` share one ``<g>``; a tag ``kind:name``
(``model:dwarfs.r1f1``) becomes ``id="kind-name"`` (``model-dwarfs.r1f1``; a repeated tag gets
``-2``, ``-3``...) and ``class="kind"`` plus any extra classes the caller gives in
``classes`` (``{"model:dwarfs.r1f1": "attack"}`` -> ``class="model attack"``).

Determinism: no timestamps, elements in call order, every number written with
:func:`num` (at most 2 decimals, no trailing zeros), so the same input gives the same bytes.
Text uses the shipped DejaVu Sans (``font-family="DejaVu Sans, sans-serif"``); widths are
measured with Pillow on the same font file so layout matches the PNG figures.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from game.render.canvas import Canvas, Colour, Point, anchored, arrow_head, dash_pattern, text_box
from game.render.text_metrics import font_metrics, pil_font

FONT_FAMILY = "DejaVu Sans, sans-serif"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
_FONTS: dict = {}


def escape(text: str) -> str:
    """``text`` as SVG character data: ``&``, ``<`` and ``>`` as entities (what
    ``xml.sax.saxutils.escape`` gives, without importing ``xml.sax``, which pulls in ``urllib``,
    ``email`` and ``http`` at start-up)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(value: str) -> str:
    """``value`` as a quoted SVG attribute value, quotes included: escaped as :func:`escape`
    does, newline, carriage return and tab as character references, in double quotes unless it
    holds a double quote and no single one (then in single quotes; holding both, the double
    quotes become ``&quot;``). Byte for byte what ``xml.sax.saxutils.quoteattr`` gives."""
    out = escape(value).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' in out:
        if "'" not in out:
            return f"'{out}'"
        out = out.replace('"', "&quot;")
    return f'"{out}"'


def num(v: float) -> str:
    """A number as SVG text: rounded to 2 decimals, no trailing zeros, never ``-0``."""
    s = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def colour_attrs(prefix: str, colour: Colour) -> str:
    """``fill="#rrggbb"`` (plus ``fill-opacity``) for ``prefix`` ``fill``/``stroke``; ``none`` for None."""
    if colour is None:
        return f' {prefix}="none"'
    r, g, b = (int(c) for c in colour[:3])
    out = f' {prefix}="#{r:02x}{g:02x}{b:02x}"'
    if len(colour) > 3 and int(colour[3]) < 255:
        out += f' {prefix}-opacity="{num(int(colour[3]) / 255)}"'
    return out


def group_id(tag: str) -> str:
    """The ``id`` of the first ``<g>`` drawn with ``tag``: ``model:dwarfs.r1f1`` ->
    ``model-dwarfs.r1f1`` (characters other than letters, digits, ``-_.`` become ``_``)."""
    kind, _, name = tag.partition(":")
    base = f"{kind}-{name}" if name else kind
    return "".join(ch if (ch.isalnum() or ch in "-_.") else "_" for ch in base)


def _font(size: int, bold: bool) -> Any:
    return pil_font(size, bold)


class SvgCanvas(Canvas):
    """Collects SVG elements; :meth:`to_svg` returns the document text.

    ``width``/``height`` px is the viewBox; ``size_attrs`` optional ``(width, height)`` strings
    for the root element (``("180mm", "120mm")`` for print), default the pixel size.
    ``classes`` maps a tag to extra class names. ``record=True`` also keeps the call log.
    """

    def __init__(self, width: int, height: int, *, classes: Optional[dict] = None,
                 size_attrs: Optional[tuple[str, str]] = None, record: bool = False):
        super().__init__(width, height)
        self.record = record
        self.classes = dict(classes or {})
        self.size_attrs = size_attrs
        self._runs: list[_Run] = []
        self._open_tag: Optional[tuple] = None
        self._seen: dict[str, int] = {}
        self._clips: list[str] = []
        self._clip_defs: list[str] = []
        self.id_prefix = ""

    # -- queries ---------------------------------------------------------------------------
    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        m = font_metrics(string, round(size), bold)  # measured once per string and size
        if m is None:
            return super().text_size(string, size, bold)
        return m

    # -- structure -------------------------------------------------------------------------
    def _rec(self, name: str, *args: Any, **kwargs: Any) -> None:
        if self.record:
            super()._rec(name, *args, **kwargs)

    def _group(self) -> None:
        tag = self.tag or ""
        key = (tag, self._clip_id(), getattr(self, "id_prefix", ""))
        if key == self._open_tag:
            return
        self._open_tag = key  # type: ignore[assignment]
        kind, _, name = tag.partition(":")
        prefix = key[2]
        gid = ""
        if tag:
            base = f"{kind}-{name}" if name else kind
            if prefix:
                base = f"{prefix}-{base}"
            base = "".join(ch if (ch.isalnum() or ch in "-_.") else "_" for ch in base)
            n = self._seen.get(base, 0) + 1
            self._seen[base] = n
            gid = base if n == 1 else f"{base}-{n}"
        unit = ""
        if layer_of(kind) == "Units" and name:
            unit = name.replace(":", ".").split(".", 1)[0]
        more = self.classes.get(f"{prefix}/{tag}", self.classes.get(tag, "")) if prefix else self.classes.get(tag, "")
        cls = " ".join(x for x in (kind, more) if x)
        self._runs.append(_Run(layer_of(kind), (f"{prefix}-" if prefix else "") + unit if unit else "", gid, cls,
                               key[1], []))

    def _clip_id(self) -> str:
        return self._clips[-1] if self._clips else ""

    def push_clip(self, rect: Sequence[float]) -> None:
        self._rec("push_clip", tuple(rect))
        x, y, w, h = rect
        cid = f"clip-{len(self._clip_defs) + 1}"
        self._clip_defs.append(f'<clipPath id="{cid}"><rect x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                               f'height="{num(h)}"/></clipPath>')
        self._clips.append(cid)

    def pop_clip(self) -> None:
        self._rec("pop_clip")
        if self._clips:
            self._clips.pop()

    def _emit(self, element: str) -> None:
        self._group()
        self._runs[-1].parts.append(element)

    @staticmethod
    def _pts(points: Sequence) -> str:
        return " ".join(f"{num(x)},{num(y)}" for x, y in points)

    # -- drawing ---------------------------------------------------------------------------
    def fill(self, colour: Colour) -> None:
        self._rec("fill", colour)
        self._emit(f'<rect x="0" y="0" width="{self.width}" height="{self.height}"{colour_attrs("fill", colour)}/>')

    def polygon(self, points: Sequence[Point], fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        self._rec("polygon", [tuple(p) for p in points], fill=fill, outline=outline, width=width)
        if len(points) < 3 or (fill is None and outline is None):
            return
        stroke = colour_attrs("stroke", outline) + (f' stroke-width="{num(width)}" stroke-linejoin="round"'
                                                     if outline is not None else "")
        self._emit(f'<polygon points="{self._pts(points)}"{colour_attrs("fill", fill)}{stroke}/>')

    def circle(self, center: Point, radius: float, fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        self._rec("circle", tuple(center), radius, fill=fill, outline=outline, width=width)
        if fill is None and outline is None:
            return
        stroke = colour_attrs("stroke", outline) + (f' stroke-width="{num(width)}"' if outline is not None else "")
        self._emit(f'<circle cx="{num(center[0])}" cy="{num(center[1])}" r="{num(radius)}"'
                   f'{colour_attrs("fill", fill)}{stroke}/>')

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1, dashed: "bool | str" = False) -> None:
        self._rec("line", [tuple(p) for p in points], colour=colour, width=width, dashed=dashed)
        if len(points) < 2 or colour is None:
            return
        d, gp = dash_pattern(width, dashed or True)
        dash = f' stroke-dasharray="{num(d)} {num(gp)}"' if dashed else ""
        self._emit(f'<polyline points="{self._pts(points)}" fill="none"{colour_attrs("stroke", colour)}'
                   f' stroke-width="{num(width)}" stroke-linecap="butt" stroke-linejoin="round"{dash}/>')

    def arrow(self, points: Sequence[Point], colour: Colour, width: float = 2, head: float = 10) -> None:
        self._rec("arrow", [tuple(p) for p in points], colour=colour, width=width, head=head)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 2 or colour is None:
            return
        tri = arrow_head(pts[-1], pts[-2], head)
        base = ((tri[1][0] + tri[2][0]) / 2, (tri[1][1] + tri[2][1]) / 2)
        self._emit(f'<polyline class="shaft" points="{self._pts(pts[:-1] + [base])}" fill="none"'
                   f'{colour_attrs("stroke", colour)} stroke-width="{num(width)}" stroke-linejoin="round"/>')
        self._emit(f'<polygon class="head" points="{self._pts(tri)}"{colour_attrs("fill", colour)}/>')

    def text(self, pos: Point, string: str, size: int = 14, colour: Colour = (0, 0, 0), anchor: str = "topleft",
             bold: bool = False, background: Colour = None) -> None:
        self._rec("text", tuple(pos), string, size=size, colour=colour, anchor=anchor, bold=bold, background=background)
        if not string or colour is None:
            return
        w, h = self.text_size(string, size, bold)
        x, y = anchored(pos, w, h, anchor)
        if background is not None:
            self.polygon(text_box(x, y, w, h, size), fill=background)
        f = _font(size, bold)
        asc = f.getmetrics()[0] if f is not None else int(size * 0.93)
        weight = ' font-weight="bold"' if bold else ""
        self._emit(f'<text x="{num(x)}" y="{num(y + asc)}" font-family="{FONT_FAMILY}" font-size="{num(max(6, round(size)))}"'
                   f'{weight}{colour_attrs("fill", colour)} xml:space="preserve">{escape(string)}</text>')

    # -- output ----------------------------------------------------------------------------
    def body(self) -> str:
        """The drawing without the ``<svg>`` root: clip paths, then one Inkscape layer per
        concern (every one of :data:`LAYERS`, an empty one too), each group of runs in drawing
        order; in the Units layer the runs of one unit sit in ``<g id="unit-<id>">``."""
        out = [f"<defs>{''.join(self._clip_defs)}</defs>"] if self._clip_defs else []
        for layer in LAYERS:
            runs = [r for r in self._runs if r.layer == layer and r.parts]  # every layer, even empty: a stable structure
            lid = "layer-" + layer.lower().replace(" ", "-")
            out.append(f'<g inkscape:groupmode="layer" inkscape:label="{layer}" id="{lid}">')
            units: dict[str, list] = {}
            order: list = []
            for r in runs:
                if r.unit:
                    if r.unit not in units:
                        units[r.unit] = []
                        order.append(("unit", r.unit))
                    units[r.unit].append(r)
                else:
                    order.append(("run", r))
            for kind, item in order:
                if kind == "unit":
                    out.append(f'<g id={quoteattr("unit-" + item)} class="unit">')
                    out += [_run_text(r) for r in units[item]]
                    out.append("</g>")
                else:
                    out.append(_run_text(item))
            out.append("</g>")
        return "\n".join(out)

    def to_svg(self, title: str = "") -> str:
        """The whole document (UTF-8 text, ends with a newline)."""
        return svg_document(self.width, self.height, self.body(), title=title, size_attrs=self.size_attrs)


#: The Inkscape layers of a figure, bottom to top, and the group kinds each holds.
LAYERS = ("Table", "Units", "Roles", "Links and arrows", "Labels", "Legend", "Captions")
_LAYER_OF = {
    "Table": ("table", "terrain", "objective", "reach", "scale_bar", "panel-frame"),
    "Units": ("tray", "model", "empty", "front", "ghost", "slot"),
    "Roles": ("count", "divide", "differ", "overlap", "dim", "fallen", "highlight", "diff", "fighting_rank",
              "one_attack", "locked", "selection", "hover", "pointmark"),
    "Links and arrows": ("gap", "move", "slotmove", "overlay", "tape"),
    "Labels": ("label", "badge", "callout", "note", "movelen", "gapletter"),
    "Legend": ("legend",),
    "Captions": ("title", "caption", "compare-caption", "panel-caption", "verdict", "status", "banner", "warning",
                 "tooltip", "figure-title"),
}
_KIND_LAYER = {k: layer for layer, kinds in _LAYER_OF.items() for k in kinds}


def layer_of(kind: str) -> str:
    """The layer (of :data:`LAYERS`) a group of ``kind`` (``model``, ``label``...) belongs to."""
    return _KIND_LAYER.get(kind, "Roles" if kind else "Table")


class _Run:
    """Consecutive elements drawn with one tag, clip and id prefix: one ``<g>``."""

    __slots__ = ("layer", "unit", "gid", "cls", "clip", "parts")

    def __init__(self, layer: str, unit: str, gid: str, cls: str, clip: str, parts: list):
        self.layer, self.unit, self.gid, self.cls, self.clip, self.parts = layer, unit, gid, cls, clip, parts


def _run_text(r: _Run) -> str:
    attrs = (f" id={quoteattr(r.gid)} class={quoteattr(r.cls)}" if r.gid else "")
    if r.clip:
        attrs += f' clip-path="url(#{r.clip})"'
    return f"<g{attrs}>\n" + "\n".join(r.parts) + "\n</g>"


def svg_document(width: int, height: int, body: str, *, title: str = "", size_attrs: Optional[tuple[str, str]] = None) -> str:
    """Wrap ``body`` in an ``<svg>`` root with a ``width`` x ``height`` px viewBox."""
    sw, sh = size_attrs or (str(int(width)), str(int(height)))
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="{INKSCAPE_NS}" version="1.1" '
            f'width="{sw}" height="{sh}" '
            f'viewBox="0 0 {int(width)} {int(height)}" font-family="{FONT_FAMILY}">\n')
    t = f"<title>{escape(title)}</title>\n" if title else ""
    return head + t + body + "\n</svg>\n"
