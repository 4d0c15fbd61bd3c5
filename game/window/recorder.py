"""Demo mode: record the table as a click-through demo, edit its steps, play, save, share.

F6 opens the demo recorder (a pygame_gui window beside the table). "Add step" keeps the
board and ruleset on the table now and the view (the table box on screen: camera centre and
zoom, written as the step's ``view``); while N / P show a phase step, it records that step
(``phase_step: N``, with the step's own strike step and casualties). With it go the caption
typed and the step's marks: models or
units to ring, a callout (``model: text``), the strike step shown (a number or a label such
as ``Initiative 5``) and casualties (``unit: r1f1 r1f2; other: 2``), units and models typed by
name or id (:mod:`game.core.name_reader`), kept as ids. A step clicked in the list
can be shown on the table again ("Show"), replaced by the table as it is now ("Update"),
moved up or down or deleted. "Play" steps through the demo in the window (the demo player's
keys; Esc comes back), "Save" writes a demo file in the documented format
(:mod:`game.core.demo_writer`; ``python main.py demo FILE`` plays it), "Open" loads a demo
for editing and "HTML" writes the one-page export (:mod:`game.render.html_page`).

Saving an opened demo keeps what its author wrote (:mod:`game.core.demo_keep`): a save with
no change leaves the file byte for byte as it was; after a change, the steps that still show
what they showed keep their actions, comments and ``load: ../scenarios/...`` paths, and the
text is patched in place (a one-line note says when it could not be). The file's bytes as
opened or last saved are kept: a Save over a file changed or deleted by another program since
raises :class:`~game.window.session.OutsideChange` (the window asks Overwrite / Reload /
Cancel), never a silent overwrite.

Every step is checked by building the demo (:func:`game.core.demo.build_steps`) when it is
added or changed: a mark naming no model is refused with the reason, and the step is not kept.
:class:`Recording` is the pygame-free part (tests drive it directly).
"""
from __future__ import annotations

import re
from pathlib import Path
from dataclasses import replace
from typing import Any, Callable, Optional

from game.core import demo_keep
from game.core.atomic import write_atomic
from game.core.board import Board
from game.core.demo import DemoError, build_steps, load_demo, parse_demo
from game.core.replacing import existing_of_kind
from game.core.demo_writer import DemoRecorder, RecordedStep, recorder_from_demo
from game.core.name_reader import read_marked, thing_of, unit_of
from game.core.yamlfile import read_text
from game.window.diskstate import Watch
from game.window.session import OutsideChange

MAX_CAPTION_SHOWN = 46


def parse_ids(text: str) -> list[str]:
    """``"dwarfs, goblins.r1f2"`` -> ``["dwarfs", "goblins.r1f2"]`` (commas or spaces)."""
    return [w for w in re.split(r"[,\s]+", str(text).strip()) if w]


def parse_callouts(text: str) -> list[tuple[str, str]]:
    """``"dwarfs.r1f1: no support; goblins.r2f3: blocked"`` -> ``[(model, text), ...]``.
    Raises ValueError for a part without ``model: text``."""
    out = []
    for part in [p.strip() for p in str(text).split(";") if p.strip()]:
        model, sep, words = part.partition(":")
        if not sep or not model.strip() or not words.strip():
            raise ValueError(f"a callout is 'model: text' (got {part[:30]!r})")
        out.append((model.strip(), words.strip()))
    return out


def parse_casualties(text: str) -> dict:
    """``"dwarfs: r1f1 r1f2; goblins: 2"`` -> ``{"dwarfs": ["r1f1", "r1f2"], "goblins": 2}``.
    Raises ValueError for a part without ``unit: slots`` or ``unit: N``."""
    out: dict = {}
    for part in [p.strip() for p in str(text).split(";") if p.strip()]:
        unit, sep, rest = part.partition(":")
        words = parse_ids(rest)
        if not sep or not unit.strip() or not words:
            raise ValueError(f"casualties are 'unit: r1f1 r1f2' or 'unit: N' (got {part[:30]!r})")
        out[unit.strip()] = int(words[0]) if len(words) == 1 and words[0].isdigit() else words
    return out


def parse_strike(text: str) -> Any:
    """``""`` -> None; ``"2"`` -> 2; ``"Initiative 5"`` -> the label."""
    t = str(text).strip()
    if not t:
        return None
    return int(t) if t.isdigit() else t


class Recording:
    """The demo being recorded and the file it belongs to (pygame-free).

    ``recorder``: the :class:`DemoRecorder`; ``path``: the demo file (None until saved or
    opened); ``index``: the step chosen in the list (None: none). Methods return the sentence
    the status line shows; a refusal raises ValueError with the reason."""

    def __init__(self, title: str = "") -> None:
        self.recorder = DemoRecorder(title)
        self.path: Optional[str] = None
        self.index: Optional[int] = None
        self.dirty = False
        #: the demo file as opened or last saved (what a save keeps of its text), or None
        self.opened: Optional[demo_keep.Opened] = None
        #: its bytes then (a save compares them with the file on disk: outside changes)
        self.known: Optional[bytes] = None
        #: what the last save could not keep of the file's text (one line each)
        self.notes: list[str] = []
        #: the demo file as opened or last saved, polled for outside changes while it is open
        #: (the scenario editor's :class:`~game.window.diskstate.Watch`)
        self.watch = Watch()

    @property
    def steps(self) -> list[RecordedStep]:
        return self.recorder.steps

    def make_step(self, board: Board, ruleset_id: str, caption: str, ring: str = "", callouts: str = "",
                  strike: str = "", casualties: str = "", *, view: Optional[tuple] = None,
                  phase: Optional[int] = None) -> RecordedStep:
        """A step of ``board`` under ``ruleset_id`` with the typed caption and marks (ValueError).
        ``view``: the table box ``(x0, y0, x1, y1)`` mm on screen; ``phase``: the phase step
        (1-based) shown by N / P, which brings its own strike step and casualties."""
        b = replace(board, ruleset=ruleset_id)
        if phase and (str(strike).strip() or str(casualties).strip()):
            raise ValueError("a phase step shows its own strike step and casualties: leave Strike and Fall empty "
                             "(a click on a model at a strike step marks it as a casualty)")
        # units and models are typed by name (or id): the step keeps ids (game.core.name_reader)
        notes = [(thing_of(b, m) or m, t) for m, t in parse_callouts(callouts)]
        cas = {unit_of(b, u) or u: v for u, v in parse_casualties(casualties).items()}
        return RecordedStep(" ".join(str(caption).split()), b, read_marked(b, ring), notes,
                            parse_strike(strike), cas, view=view, phase=phase or None)

    def check(self) -> list:
        """Build the demo as written (:func:`build_steps`); ValueError with the demo's reason."""
        if not self.steps:
            return []
        try:
            return build_steps(parse_demo(self.recorder.to_text(self.path or "<recorded demo>"),
                                          self.path or "<recorded demo>"))
        except DemoError as exc:
            m = re.match(r"steps\[(\d+)\]", exc.field or "")
            where = f"step {int(m.group(1)) + 1}: " if m else ""
            raise ValueError(f"{where}{exc.message}") from None

    def _try(self, change: Callable[[], None], undo: Callable[[], None]) -> None:
        change()
        try:
            self.check()
        except ValueError:
            undo()
            raise
        self.dirty = True

    def add(self, step: RecordedStep) -> str:
        """Add ``step`` after the chosen one (else at the end); it becomes the chosen one."""
        at = self.index
        i = self.recorder.add(step, at)
        self._try(lambda: None, lambda: self.recorder.delete(i))
        self.index = i
        n = len(self.steps)
        return f"Step {i + 1} added (the demo has {n} step{'s' if n != 1 else ''})."

    def update(self, step: RecordedStep) -> str:
        """Replace the chosen step by ``step``."""
        i = self._chosen()
        old = self.steps[i]
        self.steps[i] = step.copy()
        self.steps[i].origin = old.origin  # the same step of the file: what it keeps is decided on save
        self._try(lambda: None, lambda: self.steps.__setitem__(i, old))
        return f"Step {i + 1} updated."

    def delete(self) -> str:
        i = self._chosen()
        old = self.steps[i]
        self.recorder.delete(i)
        try:
            self.check()
        except ValueError:
            self.recorder.add(old, i - 1)
            raise
        self.dirty = True
        self.index = min(i, len(self.steps) - 1) if self.steps else None
        return f"Step {i + 1} deleted ({len(self.steps)} left)."

    def move(self, delta: int) -> str:
        i = self._chosen()
        j = max(0, min(len(self.steps) - 1, i + delta))
        if j == i:
            return "That step cannot move further."
        self._try(lambda: self.recorder.move(i, j), lambda: self.recorder.move(j, i))
        self.index = j
        return f"Step {i + 1} is now step {j + 1}."

    def _chosen(self) -> int:
        if self.index is None or not 0 <= self.index < len(self.steps):
            raise ValueError("choose a step in the list first")
        return self.index

    def labels(self) -> list[str]:
        """The list's rows: ``"3. caption..."`` (a phase step: ``"3. [step 2] caption..."``)."""
        out = []
        for i, s in enumerate(self.steps):
            cap = s.caption or "(no caption)"
            if s.phase:
                cap = f"[step {s.phase}] {cap}"
            if len(cap) > MAX_CAPTION_SHOWN:
                cap = cap[: MAX_CAPTION_SHOWN - 1] + "…"
            out.append(f"{i + 1}. {cap}")
        return out

    def text_for(self, path: str) -> str:
        """The text a save to ``path`` writes: the opened file's text with the changes patched in
        when ``path`` is that file (:func:`game.core.demo_keep.plan`; :attr:`notes` says what
        could not be kept), else the demo as the recorder writes it."""
        self.notes = []
        if self.opened is not None and _same_file(path, self.opened.path):
            text, self.notes = demo_keep.plan(self.recorder, self.opened, str(path))
            return text
        return self.recorder.to_text(str(path))

    def outside(self, path: str) -> Optional[str]:
        """``"changed"`` / ``"missing"`` when ``path`` is the file opened or last saved and another
        program changed or removed it since (its bytes are compared, whatever its time and
        size say), else None."""
        if self.known is None or self.opened is None or not _same_file(path, self.opened.path):
            return None
        try:
            now = Path(path).read_bytes()
        except FileNotFoundError:
            return "missing"
        except OSError:
            return None
        return None if now == self.known else "changed"

    def save(self, path: str, *, overwrite: bool = False) -> str:
        """Write the demo to ``path`` (checked first; written atomically, so an old file is
        never left half written). Refuses to replace a file that is not a demo; raises
        :class:`OutsideChange` when ``path`` is the demo opened and another program changed or
        removed it since (unless ``overwrite``)."""
        p = Path(path)
        if p.suffix.lower() not in (".yaml", ".yml"):
            raise ValueError("a demo file ends in .yaml")
        if not self.steps:
            raise ValueError("record a step first (Add step)")
        what = self.outside(str(p))
        if what is not None and not overwrite:
            raise OutsideChange(p, what)
        if what is None:
            existing_of_kind(p, load_demo, DemoError, "demo")  # never over a scenario or any other file
        text = self.text_for(str(p))
        built = build_steps(parse_demo(text, str(p)))  # the file plays: never write one that does not
        write_atomic(p, text.encode("utf-8"))
        self.path = str(p)
        self.dirty = False
        self._remember(str(p), text, built)
        kept = f" ({'; '.join(self.notes)})" if self.notes else ""
        return f"Saved the demo ({len(self.steps)} steps) to {p}{kept}: python main.py demo {p}"

    def _remember(self, path: str, text: str, built: list) -> None:
        """``text`` (just written to, or read from, ``path``) is what the next save keeps; the
        steps now are its steps."""
        for i, st in enumerate(self.steps):
            st.origin = i
        self.opened = demo_keep.opened(path, text, built, self.recorder)
        self.known = text.encode("utf-8")
        self.watch.remember(Path(path))

    def open(self, path: str) -> str:
        """Load the demo ``path`` for editing (its steps as snapshots)."""
        text = read_text(path, DemoError)
        demo = parse_demo(text, str(Path(path)))
        built = build_steps(demo)
        self.recorder = recorder_from_demo(demo, built)
        self.path = str(path)
        self.index = 0 if self.steps else None
        self.dirty = False
        try:
            self.known = Path(path).read_bytes()
            text = self.known.decode("utf-8")  # as it is on disk (a BOM too): what a save keeps
        except (OSError, UnicodeDecodeError):
            self.known = text.encode("utf-8")
        self.watch.remember(Path(path))
        self.opened = demo_keep.opened(str(path), text, built, self.recorder)
        return f"Opened {Path(path).name}: {len(self.steps)} steps (click one, Show puts it on the table)."

    def restore_text(self, text: str, source: str) -> None:
        """Take the steps of a recovery file's demo ``text`` (written for ``source``: its paths
        are relative to that file) as unsaved work; a step that is one of the opened file's,
        unchanged, keeps its place in that file (what a save keeps). Raises DemoError."""
        demo = parse_demo(text, source)
        built = build_steps(demo)
        rec = recorder_from_demo(demo, built)
        data = demo_keep.meaning(text)
        written = data.get("steps") if isinstance(data, dict) else None
        op = self.opened
        used: set[int] = set()
        for st in rec.steps:
            mine, st.origin = st.origin, None
            if op is None or not isinstance(written, list) or mine is None or mine >= len(written):
                continue
            for j, w in enumerate(op.data.get("steps") or []):
                if j not in used and j < len(op.steps) and w == written[mine] \
                        and demo_keep.shows_same(st, op.steps[j]):
                    st.origin = j
                    used.add(j)
                    break
        self.recorder = rec
        self.index = 0 if self.steps else None
        self.dirty = True

    def live(self, folder: str) -> str:
        """Write the demo as a live page into ``folder`` (:func:`live_page`)."""
        return live_page(self, folder)

    def html(self, path: str, size: tuple[int, int] = (1280, 820)) -> str:
        """Write the one-page HTML export of the demo to ``path``."""
        from game.render.html_page import demo_page  # the page writer: on HTML only

        if Path(path).suffix.lower() not in (".html", ".htm"):
            raise ValueError("the page's file ends in .html")
        steps = self.check()
        if not steps:
            raise ValueError("record a step first (Add step)")
        write_atomic(path, demo_page(steps, self.recorder.title or "Melee Lens demo", size=size).encode("utf-8"))
        return f"Wrote {Path(path).absolute()}: one page, {len(steps)} steps; open it in any browser."


def live_page(rec: Any, folder: str) -> str:
    """Write the live page of ``rec``'s demo (``python main.py live DEMO.yaml``:
    :func:`game.live.bundle.build_demo`) into ``folder``. Raises ValueError (one line)."""
    from game.live.bundle import LiveError, build_demo  # the live page: on its first export only
    from game.render.figure import FigureError

    if Path(folder).suffix:
        raise ValueError(f"the live page is a folder: give a name without a suffix (got {Path(folder).name})")
    steps = rec.check()
    if not steps:
        raise ValueError("record a step first (Add step)")
    try:
        built = build_demo(folder, steps, rec.recorder.title or "Melee Lens demo")
    except (LiveError, FigureError) as exc:
        raise ValueError(str(exc)) from None
    return (f"Wrote the live page {Path(folder).absolute()} ({len(steps)} steps, {built.size_bytes / 1e6:.1f} MB); "
            f"serve it with: python main.py serve {folder}")


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False
