"""The document the window edits: a board, its file, its history, saving and autosave.

:class:`Session` holds the board (the truth), the file it came from, the one undo
:class:`~game.core.history.History`, and whether the board differs from what was last saved
(``dirty``: undoing back to the saved state is clean again). Saving goes through
:func:`game.core.scenario.save_scenario` (atomic; lossless where the loader kept the source).

Never losing work:

* :meth:`save` writes only to a file the user chose (opened or picked in Save As); a new
  board or a built-in scenario (under ``assets/``) has no save path and raises
  :class:`NeedsSaveAs`;
* :meth:`open_board` loads a file without touching the session; :meth:`adopt` switches to it
  only once the caller has analysed it, so a file that fails keeps the old board and the old
  save path;
* :meth:`autosave` writes unsaved changes to ``<name>.autosave.yaml`` next to the save path
  (under ``out/`` when there is none) every ``autosave_every_s`` of the injected ``clock``; a
  failure is kept in :attr:`autosave_error` for the window and the exit message.

Pygame-free; the clock and the recent-files store are injected (tests pass their own).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable, Optional

from game.core.board import Board
from game.core.history import History
from game.core.paths import ASSETS_DIR, out_dir
from game.core.scenario import load_scenario, save_scenario

BUILTIN_DIR = ASSETS_DIR
OUT_DIR = out_dir()
RECENT_MAX = 8


class NeedsSaveAs(Exception):
    """The board has no file the user chose: ask where to save it."""


def default_recent_file() -> Path:
    """Where the recent-files list is kept: ``$XDG_CONFIG_HOME/melee_lens/recent.json``."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "melee_lens" / "recent.json"


def is_builtin(path: Path, builtin_dir: Path = BUILTIN_DIR) -> bool:
    try:
        path.resolve().relative_to(builtin_dir.resolve())
    except (ValueError, OSError):
        return False
    return True


class Session:
    """One board being edited (see the module doc)."""

    def __init__(self, board: Board, path: Optional[str | os.PathLike] = None, *,
                 clock: Callable[[], float] = time.monotonic, autosave_every_s: float = 10.0,
                 out_dir: Path = OUT_DIR, builtin_dir: Path = BUILTIN_DIR, recent_file: Optional[Path] = None):
        self.clock = clock
        self.autosave_every_s = float(autosave_every_s)
        self.out_dir = Path(out_dir)
        self.builtin_dir = Path(builtin_dir)
        self.recent_file = recent_file
        self.history = History()
        self.board = board
        self.moved_mm: dict[str, float] = {}
        self.path: Optional[Path] = None
        self.save_path: Optional[Path] = None
        self.autosave_error = ""
        self.autosaved: Optional[Path] = None
        self._set_path(Path(path) if path else None)
        self.saved_id = self.history.current_id
        self.last_autosave = clock()

    # -- state ---------------------------------------------------------------------------------
    def _set_path(self, path: Optional[Path]) -> None:
        self.path = path
        self.save_path = None if path is None or is_builtin(path, self.builtin_dir) else path

    @property
    def dirty(self) -> bool:
        """True when the board is not the one last saved (or opened)."""
        return self.history.current_id != self.saved_id

    def title(self) -> str:
        """The scenario's title, else its file name, else "Untitled scenario"."""
        if self.board.title:
            return self.board.title
        return self.path.name if self.path else "Untitled scenario"

    def apply(self, board: Board, before: Optional[Board] = None) -> None:
        """Show ``board`` as one undoable edit (``before``: the board to undo to, default the
        one shown now)."""
        self.history.record(before if before is not None else self.board, self.moved_mm)
        self.board = board

    def undo(self) -> bool:
        s = self.history.undo(self.board, self.moved_mm)
        if s is None:
            return False
        self.board, self.moved_mm = s.board, dict(s.moved_mm)
        return True

    def redo(self) -> bool:
        s = self.history.redo(self.board, self.moved_mm)
        if s is None:
            return False
        self.board, self.moved_mm = s.board, dict(s.moved_mm)
        return True

    # -- files ---------------------------------------------------------------------------------
    @staticmethod
    def open_board(path: str | os.PathLike) -> Board:
        """Load a scenario (raises ScenarioError / OSError); the session is not changed."""
        return load_scenario(path)

    def adopt(self, board: Board, path: Optional[str | os.PathLike]) -> None:
        """Switch to ``board`` loaded from ``path`` (None: a new board): a fresh history, clean."""
        self.board = board
        self.moved_mm = {}
        self.history.clear()
        self.saved_id = self.history.current_id
        self.autosaved = None
        self._set_path(Path(path) if path else None)
        if path:
            self.add_recent(Path(path))

    def save(self) -> Path:
        """Write the board to its save path and return it; raises :class:`NeedsSaveAs` when the
        user has not chosen a file, OSError when it cannot be written."""
        if self.save_path is None:
            raise NeedsSaveAs()
        return self.save_as(self.save_path)

    def save_as(self, path: str | os.PathLike) -> Path:
        """Write the board to ``path`` (the user's choice) and make it the save path."""
        p = Path(path).expanduser()
        if p.suffix.lower() not in (".yaml", ".yml"):
            p = p.with_name(p.name + ".yaml")
        if is_builtin(p, self.builtin_dir):
            raise OSError(f"{p.name} is a built-in scenario; choose a file outside {self.builtin_dir}")
        p.parent.mkdir(parents=True, exist_ok=True)
        old_auto = self.autosave_path
        save_scenario(self.board, p)
        self.saved_id = self.history.current_id
        self._set_path(p)
        for a in {old_auto, self.autosave_path}:
            try:
                if a is not None and a.exists():
                    a.unlink()
            except OSError:
                pass
        self.add_recent(p)
        return p

    @property
    def autosave_path(self) -> Path:
        """``<name>.autosave.yaml`` next to the save path (under ``out/`` without one)."""
        if self.save_path is not None:
            return self.save_path.with_name(self.save_path.stem + ".autosave.yaml")
        stem = self.path.stem if self.path else "untitled"
        return self.out_dir / f"{stem}.autosave.yaml"

    def autosave(self) -> Optional[Path]:
        """Write unsaved changes to :attr:`autosave_path` (atomically); returns it, or None
        when clean or when it failed (the reason is in :attr:`autosave_error`)."""
        self.last_autosave = self.clock()
        if not self.dirty:
            return None
        p = self.autosave_path
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            save_scenario(self.board, p)
        except OSError as exc:
            self.autosave_error = f"Autosave to {p} failed: {exc.strerror or exc}"
            return None
        self.autosave_error = ""
        self.autosaved = p
        return p

    def tick(self) -> Optional[Path]:
        """Autosave when ``autosave_every_s`` have passed on the clock since the last one."""
        if self.dirty and self.clock() - self.last_autosave >= self.autosave_every_s:
            return self.autosave()
        return None

    # -- recent files ----------------------------------------------------------------------------
    def recent(self) -> list[Path]:
        """Files opened or saved lately, newest first (those that still exist)."""
        if self.recent_file is None:
            return []
        try:
            data = json.loads(self.recent_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        out = [Path(x) for x in data if isinstance(x, str)] if isinstance(data, list) else []
        return [p for p in out if p.is_file()][:RECENT_MAX]

    def add_recent(self, path: Path) -> None:
        if self.recent_file is None or is_builtin(path, self.builtin_dir):
            return
        p = str(Path(path).resolve())
        items = [p] + [str(x) for x in self.recent() if str(x) != p]
        try:
            self.recent_file.parent.mkdir(parents=True, exist_ok=True)
            self.recent_file.write_text(json.dumps(items[:RECENT_MAX]), encoding="utf-8")
        except OSError:
            pass  # a recent-files list that cannot be kept is no reason to stop
