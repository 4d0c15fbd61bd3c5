"""The live page's Python side: one board the reader drags, turns, undoes and resets, analysed
by the same rules engine as the desktop and drawn by the same SVG code (:mod:`game.live.frame`).

Runs in the browser (Pyodide: no numpy, Pillow or pygame; text measured from the build's font
table, :mod:`game.render.font_table`) and in CPython (the tests). The page's script calls
:func:`start` once, then the session's methods; each answers a JSON text (a picture, or a
refusal) so the script stays small:

* ``picture`` ``{svg, hover, units, view, roles, ruleset, rulesets, step, message, can_undo, live, why}``:
  ``units`` ``{model group id: unit id}``, ``view`` ``[x0_px, y0_px, px_per_mm]``, ``roles``
  ``{model id: role}``.
* :meth:`LiveSession.begin` / :meth:`~LiveSession.drag` / :meth:`~LiveSession.drop`: a unit
  dragged by ``(dx, dy)`` px of the picture from where the drag began. A base cannot pass
  through another: the move is taken in steps no longer than half the unit's smallest base
  side and stops flush at the first that would overlap (the window's collision policy,
  :class:`game.core.editor.Editor`: overlap beyond 0.5 mm refused; escaping an overlap it
  started in is allowed), then slides along the blocked axis. ``drag`` analyses and draws only
  when ``draw`` is set (the script asks at most once per animation frame while the engine is
  free); ``drop`` always does (exact on release) and records the move for undo.
* :meth:`~LiveSession.goto`: step ``i`` of the page's steps (a demo's, each from where the demo
  left it; :mod:`game.live.steps`).
* :meth:`~LiveSession.turn` (degrees clockwise, the window's turn), :meth:`~LiveSession.undo`,
  :meth:`~LiveSession.reset`, :meth:`~LiveSession.set_ruleset` (among ``rulesets``, those the
  build found usable on the board).

An engine that cannot run in the page (it imports a library the page lacks) leaves the page
showing the picture made at build time: ``live`` false and ``why`` one line naming the library.
"""
from __future__ import annotations

import json
import math
from typing import Any, Optional

from game.core.analyse import analyse
from game.core.board import Board, Unit, unit_of
from game.core.editor import Editor, fmt_distance
from game.core.ruleset import load_ruleset
from game.core.scenario import dump_scenario, load_scenario
from game.live.frame import Frame, draw, options
from game.render.drawn import drawn_models
from game.core.ruleset import ruleset_name
from game.render.svg_canvas import group_id

HISTORY = 200   # undo steps kept


def not_live_reason(rid: str, exc: ImportError, names: Optional[dict] = None) -> str:
    """The one line a page shows when ``rid``'s engine cannot run in it (``names``: display
    names by id, as the build wrote them)."""
    lib = (exc.name or str(exc) or "a library").split(".")[0]
    name = (names or {}).get(rid) or ruleset_name(rid)
    return (f"Not live yet under {name}: its engine needs {lib}, which a browser page "
            "cannot load here; this is the picture computed when the page was built.")


def unit_models(board: Board, analysis: Any) -> dict:
    """``{svg group id of a drawn model: its unit id}``."""
    return {group_id(f"model:{dm.id}"): unit_of(dm.id) for dm in drawn_models(board, analysis)}


def _min_side_mm(u: Unit) -> float:
    sides = []
    for m in u.models():
        b = m.shape.bbox()
        sides += [b[2] - b[0], b[3] - b[1]]
    return max(1.0, min(sides) if sides else 10.0)


class LiveSession:
    """One reader's board (see the module doc). ``rulesets``: the ids the switcher offers."""

    def __init__(self, board: Board, frame: Frame, rulesets: list[str], names: Optional[dict] = None,
                 steps: Optional[list] = None):
        self.steps = list(steps or [])   # the config's step entries (game.live.steps.write_steps)
        self.step = 0
        self.start_board = board
        self.board = board
        self.frame = frame
        self.rulesets = list(rulesets) or [board.ruleset]
        # display names resolved once: a ruleset whose engine cannot load here would be tried
        # (its modules compiled again) on every picture otherwise
        given = names or {}
        self.names = {r: str(given.get(r) or ruleset_name(r)) for r in self.rulesets}
        self.history: list[Board] = []
        self.editor = Editor()
        self.message = ""
        self.live, self.why = True, ""
        self._drag: Optional[dict] = None
        self._analysis: Any = None
        self._view: Optional[tuple] = None   # the view of the last picture drawn: drags are read in it

    # -- analysis and pictures ---------------------------------------------------------------
    def analysis(self) -> Any:
        """The analysis of the board as it stands (None when its engine cannot run here)."""
        if self._analysis is None and self.live:
            try:
                self._analysis = analyse(self.board, load_ruleset(self.board.ruleset))
            except ImportError as exc:
                self.live, self.why = False, not_live_reason(self.board.ruleset, exc, self.names)
        return self._analysis

    def _set(self, board: Board) -> None:
        self.board, self._analysis = board, None
        self.live, self.why = True, ""

    def picture(self) -> str:
        """The JSON text of the picture (see the module doc); without the SVG when not live."""
        an = self.analysis()
        out: dict = {"ruleset": self.board.ruleset, "step": self.step, "rulesets": [[r, self.names[r]] for r in self.rulesets],
                     "message": self.message, "can_undo": bool(self.history), "live": self.live, "why": self.why}
        if an is not None:
            d = draw(self.board, an, self.frame)
            if self._drag is None:
                self._view = d.view
            out.update(svg=d.svg, hover=d.hover, units=unit_models(self.board, an), view=list(d.view),
                       roles={mid: r.role for mid, r in an.models.items()})
        return json.dumps(out)

    def scenario(self) -> str:
        """The board as scenario YAML (what ``analyse FILE --json`` would read)."""
        return dump_scenario(self.board)

    # -- editing -----------------------------------------------------------------------------
    def _record(self, before: Board) -> None:
        self.history = (self.history + [before])[-HISTORY:]

    def begin(self, uid: str) -> str:
        """Start dragging unit ``uid``; the answer ``{"ok": bool}``."""
        try:
            u = self.board.unit(uid)
        except KeyError:
            return json.dumps({"ok": False})
        if self.analysis() is None or self._view is None:
            return json.dumps({"ok": False})
        others = self.board.without([uid])
        self._drag = {"uid": uid, "unit": u, "before": self.board, "others": others, "good": (0.0, 0.0),
                      "pen": {uid: self.editor.penetration(others, u)}, "step": _min_side_mm(u) / 2,
                      "k": self._view[2]}
        return json.dumps({"ok": True})

    def _toward(self, d: dict, want: tuple[float, float]) -> tuple[float, float]:
        """The farthest shift toward ``want`` (mm from the drag's start) reached from the last good
        one in short steps (no base passes through another)."""
        good = d["good"]
        n = max(1, math.ceil(math.hypot(want[0] - good[0], want[1] - good[1]) / d["step"]))
        for i in range(1, n + 1):
            target = (good[0] + (want[0] - good[0]) * i / n, good[1] + (want[1] - good[1]) * i / n)
            got = self.editor.group_shift(d["others"], [d["unit"]], d["pen"], good, target)
            if got != target:
                return got
            good = got
        return good

    def drag(self, dx_px: float, dy_px: float, draw_now: bool = True) -> str:
        """Move the dragged unit to ``(dx, dy)`` px of the picture from where the drag began
        (stopping at contact, then sliding); the picture when ``draw_now``, else ``{}``."""
        d = self._drag
        if d is None:
            return json.dumps({})
        k = d["k"]
        want = (float(dx_px) / k, float(dy_px) / k)
        if not all(math.isfinite(v) for v in want):
            return json.dumps({})
        got = self._toward(d, want)
        if got != want:  # blocked: slide along each axis from where it stopped
            d["good"] = got
            got = self._toward(d, (want[0], got[1]))
            d["good"] = got
            got = self._toward(d, (got[0], want[1]))
        d["good"] = got
        self._set(d["before"].with_unit(d["unit"].translated(got[0], got[1])))
        return self.picture() if draw_now else json.dumps({})

    def drop(self) -> str:
        """End the drag: the exact analysis of where the unit stands, recorded for undo."""
        d, self._drag = self._drag, None
        if d is not None and d["good"] != (0.0, 0.0):
            self._record(d["before"])
            self.message = f"{d['unit'].name} moved {fmt_distance(math.hypot(*d['good']))}."
        return self.picture()

    def cancel(self) -> str:
        """End a drag that never moved (a click or a tap): nothing changes, nothing is drawn; ``{}``."""
        d, self._drag = self._drag, None
        if d is not None and d["good"] != (0.0, 0.0):
            self._set(d["before"])
        return json.dumps({})

    def turn(self, uid: str, deg: float) -> str:
        """Turn unit ``uid`` ``deg`` clockwise (refused, with the reason, when it would overlap)."""
        try:
            ch = self.editor.turn(self.board, uid, float(deg))
        except KeyError:
            return self.picture()
        self.message = ch.message
        if ch.board is not None:
            self._record(self.board)
            self._set(ch.board)
        return self.picture()

    def undo(self) -> str:
        if self.history:
            self._set(self.history.pop())
            self.message = "Undone."
        return self.picture()

    def reset(self) -> str:
        """Back to the board the page opened with (undo brings the last one back)."""
        if self.board is not self.start_board:
            self._record(self.board)
            self._set(self.start_board)
        self.message = "Back to the start."
        return self.picture()

    def goto(self, i: int) -> str:
        """Show step ``i`` (0-based, clamped) from where the demo left it: its board, frame and
        rulesets, undo emptied. A step whose engine cannot run here answers not live (the page
        shows the picture made at build time)."""
        if not self.steps:
            return self.picture()
        i = max(0, min(len(self.steps) - 1, int(i)))
        st = self.steps[i]
        self.step, self._drag, self.history, self.message = i, None, [], ""
        self.frame = Frame(tuple(st["size_px"]), tuple(st["box_mm"]), options(st.get("marks")))  # type: ignore[arg-type]
        self.rulesets = list(st.get("rulesets") or [st.get("ruleset", "")])
        self.names.update({r: self.names.get(r) or ruleset_name(r) for r in self.rulesets})
        try:
            if not st.get("scenario"):
                raise ValueError(st.get("why") or "Not live: this step has no scenario.")
            board = load_scenario(st["scenario"])
        except (ImportError, ValueError) as exc:  # ScenarioError is a ValueError
            rid = str(st.get("ruleset") or "")
            self._analysis, self.live = None, False
            self.why = not_live_reason(rid, exc, self.names) if isinstance(exc, ImportError) else str(exc)
            self.rulesets = []
            return json.dumps({"ruleset": st.get("ruleset", ""), "step": i, "rulesets": [], "message": "",
                               "can_undo": False, "live": False, "why": self.why})
        self.start_board = board
        self._set(board)
        return self.picture()

    def set_ruleset(self, rid: str) -> str:
        if rid in self.rulesets and rid != self.board.ruleset:
            self._record(self.board)
            ch = Editor.set_ruleset(self.board, rid)
            assert ch.board is not None
            self._set(ch.board)
            self.message = f"Rules: {self.names[rid]}."
        return self.picture()


def start(config_text: str) -> LiveSession:
    """The session of a page: ``config_text`` the JSON the build wrote (``scenario`` path,
    ``size_px``, ``box_mm``, ``rulesets``, ``ruleset_names`` ``{id: display name}``, optional
    ``fonts`` table path)."""
    cfg = json.loads(config_text)
    if cfg.get("fonts"):
        from game.render.font_table import install

        with open(cfg["fonts"], encoding="utf-8") as f:
            install(json.load(f))
    marks = cfg["steps"][0].get("marks") if cfg.get("demo") and cfg.get("steps") else None
    frame = Frame(tuple(cfg["size_px"]), tuple(cfg["box_mm"]), options(marks))  # type: ignore[arg-type]
    rid = str(cfg.get("ruleset") or "")
    try:
        board = load_scenario(cfg["scenario"])
    except (ImportError, ValueError) as exc:
        # the file names a ruleset whose engine cannot run here, or (ScenarioError) a demo's first
        # board the scenario format cannot hold
        why = (not_live_reason(rid, exc, cfg.get("ruleset_names")) if isinstance(exc, ImportError)
               else f"Not live: this board cannot be written as a scenario ({exc}).")
        if not cfg.get("demo"):
            return NotLive(why)  # type: ignore[return-value]
        # a demo's later steps may run here: a session on an empty table, not live until a step that loads
        s = LiveSession(Board(units=(), ruleset=rid), frame, [], cfg.get("ruleset_names"), cfg.get("steps"))
        s.live, s.why = False, why
        return s
    return LiveSession(board, frame, cfg.get("rulesets") or [board.ruleset], cfg.get("ruleset_names"), cfg.get("steps"))


class NotLive:
    """The session of a page whose engine cannot run in it: every answer is the reason why."""

    def __init__(self, why: str):
        self.why = why

    def picture(self) -> str:
        return json.dumps({"ruleset": "", "rulesets": [], "message": "", "can_undo": False, "live": False, "why": self.why})

    def begin(self, uid: str) -> str:
        return json.dumps({"ok": False})

    def scenario(self) -> str:
        return ""

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.picture()
