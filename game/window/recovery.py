"""Recovery files: the autosaves of unsaved work, one per window session and document.

A recovery file is a scenario file (it loads like any other) whose first lines are comments
naming what it holds::

    # Melee Lens recovery file: unsaved changes kept by a window session.
    # for: /home/me/battle.yaml          ("(new board)" for a board with no file)
    # session: 4242-18b2c0ffee           (the process id, then the session's start time)
    # saved: 2026-12-01T22:15:03Z
    # title: Horde supporting attacks
    # units: 4                          (a demo's: "# steps: 3")
    # changes: 3                         (edits since the file was opened or saved)
    # refused: 2026-12-02T09:00:00Z      (once offered and kept for later)

Its name is ``<stem>.<session>.<n>.autosave.yaml`` in the recovery folder (the user's data
folder, :func:`default_dir`), so no session ever writes over another session's file, and two
documents of one session (``n``) never share one. :func:`find` lists the recovery files kept
for a file (or for new boards) by *other* sessions, newest first, with what they hold and when.
:func:`mark_refused` notes that the user was offered one and kept it for later; :func:`prune`
removes only those: once their file is gone, or :data:`MAX_AGE_DAYS` after they were refused
(one never offered is kept, whatever its age). :func:`clean_stale_tmp` removes temporary files a killed writer left behind.
:func:`scenario_text` writes the scenario part (the autosave runs inside a frame, mid-drag too).
"""
from __future__ import annotations

import calendar
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import yaml

from game.core.scenario import board_to_dict, dump_scenario

HEADER = "# Melee Lens recovery file: unsaved changes kept by a window session."
NEW_BOARD = "(new board)"
#: The ``for:`` of a demo recorded in the window (F6) that has no file yet.
NEW_DEMO = "(new demo)"
_FIELD = re.compile(r"^# (for|session|saved|title|units|steps|changes|refused): (.*)$")
#: Header lines read at most (the fields above, in any order).
HEADER_LINES = 10
#: Recovery files offered and kept for later this long ago (days since refused) are pruned.
MAX_AGE_DAYS = 14.0
#: Temporary files (``.NAME.XXXX.tmp``, :mod:`game.core.atomic`) older than this are a killed
#: writer's, never a live one's (a save takes well under a second).
STALE_TMP_S = 60.0
_TMP = re.compile(r"^\..+\.(yaml|yml|png|svg|gif|pdf|html|json)\.[A-Za-z0-9_]{8}\.tmp$")


def scenario_text(board: Any) -> str:
    """The scenario YAML of ``board`` for a recovery file: the data of
    :func:`game.core.scenario.dump_scenario` (same options), written by libyaml's emitter when
    PyYAML has it (about a quarter of the time of the Python emitter: 4 ms against 16 for 2000
    models), else by ``dump_scenario`` itself. A recovery file is only ever loaded, never
    patched, so the two emitters' layouts may differ; the data read back is the same."""
    dumper = getattr(yaml, "CSafeDumper", None)
    if dumper is None:
        return dump_scenario(board)
    return yaml.dump(board_to_dict(board), Dumper=dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=None, width=100)


def default_dir() -> Path:
    """The user's data folder for recovery files (``platformdirs``), e.g.
    ``~/.local/share/melee_lens/recovery`` on Linux."""
    import platformdirs

    return Path(platformdirs.user_data_path("melee_lens", appauthor=False)) / "recovery"


def default_recent_file() -> Path:
    """Where the recent-files list is kept: ``recent.json`` in the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_path("melee_lens", appauthor=False)) / "recent.json"


def new_session_id(wall_s: float) -> str:
    """``<pid>-<start time in ms, hex>``: unique among the sessions of one machine."""
    return f"{os.getpid()}-{int(wall_s * 1000):x}"


def for_key(path: Optional[Path]) -> str:
    """The ``for:`` value of a document: its resolved path, or ``(new board)``."""
    if path is None:
        return NEW_BOARD
    try:
        return str(Path(path).resolve())
    except OSError:
        return str(Path(path).absolute())


def file_name(stem: str, session: str, n: int) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", stem)[:60] or "untitled"
    return f"{safe}.{session}.{n}.autosave.yaml"


def _utc(wall_s: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(wall_s))


def _wall(utc: str) -> Optional[float]:
    """Seconds since the epoch of a ``2026-12-01T22:15:03Z`` text, or None."""
    try:
        return float(calendar.timegm(time.strptime(utc, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        return None


def header(for_file: str, session: str, saved_wall_s: float, title: str, units: int, changes: int = 0, *,
           steps: Optional[int] = None) -> str:
    """The comment lines a recovery file starts with (see the module doc); ``steps``: a demo's
    recovery file, which says how many steps it holds instead of units."""
    title = " ".join(title.split())[:120]
    count = f"# steps: {steps}" if steps is not None else f"# units: {units}"
    return (f"{HEADER}\n# for: {for_file}\n# session: {session}\n# saved: {_utc(saved_wall_s)}\n"
            f"# title: {title}\n{count}\n# changes: {changes}\n")


@dataclass
class Recovery:
    """One recovery file: ``path``, the file it belongs to (``for_file``), the ``session`` that
    wrote it, when (``saved``, UTC text), and the board's ``title`` and number of ``units``."""
    path: Path
    for_file: str
    session: str
    saved: str
    title: str
    units: str
    changes: str = "?"
    refused: str = ""
    steps: str = ""

    def describe(self) -> str:
        """``'Title' with 4 units and 3 changes, autosaved 2026-12-01 22:15:03 UTC``."""
        what = f"'{self.title}'" if self.title else "a board"
        n = "" if self.changes in ("", "?") else \
            f" and {self.changes} change{'' if self.changes == '1' else 's'}"
        if self.steps:
            what = f"'{self.title}'" if self.title else "a demo"
            return f"{what} with {self.steps} steps{n}, autosaved {self.saved.replace('T', ' ').rstrip('Z')} UTC"
        return f"{what} with {self.units} units{n}, autosaved {self.saved.replace('T', ' ').rstrip('Z')} UTC"

    def saved_wall(self) -> Optional[float]:
        """When it was saved (seconds since the epoch), or None when the header does not say."""
        return _wall(self.saved)


def read_header(path: Path) -> Optional[Recovery]:
    """The header of a recovery file, or None when ``path`` is not one."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as fh:
            head = [fh.readline() for _ in range(HEADER_LINES)]
    except OSError:
        return None
    if not head or head[0].rstrip("\r\n") != HEADER:
        return None
    fields = {}
    for line in head[1:]:
        m = _FIELD.match(line.rstrip("\r\n"))
        if m:
            fields[m.group(1)] = m.group(2)
    if "for" not in fields or "session" not in fields:
        return None
    return Recovery(path, fields["for"], fields["session"], fields.get("saved", "?"), fields.get("title", ""),
                    fields.get("units", "?"), fields.get("changes", "?"), fields.get("refused", ""),
                    fields.get("steps", ""))


def mark_refused(rec: Recovery, now_wall_s: float) -> None:
    """Note in ``rec``'s header that it was offered and kept for later (``# refused:``), so it
    is pruned once its file is gone. A file that cannot be rewritten is left as it was."""
    from game.core import atomic

    try:
        text = Path(rec.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    lines = text.splitlines(keepends=True)
    head = [i for i, line in enumerate(lines[:HEADER_LINES]) if _FIELD.match(line.rstrip("\r\n"))]
    lines = [line for i, line in enumerate(lines) if not (i in head and line.startswith("# refused: "))]
    at = max((i for i in head if i < len(lines)), default=0) + 1
    lines.insert(min(at, len(lines)), f"# refused: {_utc(now_wall_s)}\n")
    try:
        atomic.write_atomic(Path(rec.path), "".join(lines))
    except OSError:
        pass
    rec.refused = _utc(now_wall_s)


def prune(folder: Path, now_wall_s: float, max_age_days: float = MAX_AGE_DAYS) -> list[Path]:
    """Remove the recovery files in ``folder`` that were offered and kept for later
    (``refused``) and whose file no longer exists, or that were refused more than
    ``max_age_days`` before ``now_wall_s``. A file never offered is never removed, however
    old it is or however far the clock jumps: its work is offered the next time its file (or a
    new board) is opened. Returns those removed; a file or folder that cannot be read or
    removed is left alone."""
    removed: list[Path] = []
    try:
        names = [p for p in Path(folder).glob("*.autosave.yaml") if p.is_file() and not p.is_symlink()]
    except OSError:
        return removed
    for p in names:
        rec = read_header(p)
        if rec is None or not rec.refused:
            continue
        refused = _wall(rec.refused)
        try:
            gone = rec.for_file not in (NEW_BOARD, NEW_DEMO) and not Path(rec.for_file).exists()
            if gone or (refused is not None and now_wall_s - refused > max_age_days * 86400.0):
                p.unlink()
                removed.append(p)
        except OSError:
            pass
    return removed


def find(folder: Path, for_file: str, exclude_session: str = "") -> list[Recovery]:
    """Recovery files in ``folder`` kept for ``for_file`` by sessions other than
    ``exclude_session``, newest first."""
    try:
        names = sorted(p for p in Path(folder).glob("*.autosave.yaml") if p.is_file())
    except OSError:
        return []
    out = [r for r in (read_header(p) for p in names) if r is not None
           and r.for_file == for_file and r.session != exclude_session]
    return sorted(out, key=lambda r: r.saved, reverse=True)


def clean_stale_tmp(folder: Path, now_wall_s: float, older_than_s: float = STALE_TMP_S) -> list[Path]:
    """Remove ``.NAME.XXXX.tmp`` files (the atomic writer's) older than ``older_than_s`` from
    ``folder``; returns those removed. A folder that cannot be read is left alone."""
    removed: list[Path] = []
    try:
        cands = [p for p in Path(folder).glob(".*.tmp") if _TMP.match(p.name)]
    except OSError:
        return removed
    for p in cands:
        try:
            if p.is_file() and not p.is_symlink() and now_wall_s - p.stat().st_mtime > older_than_s:
                p.unlink()
                removed.append(p)
        except OSError:
            pass
    return removed
