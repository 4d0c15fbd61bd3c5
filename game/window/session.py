"""The document the window edits: a board, its file, its history, saving and autosave.

:class:`Session` holds the board (the truth), the file it came from, the one undo
:class:`~game.core.history.History`, and whether the board differs from what was last saved
(``dirty``: undoing back to the saved state is clean again). Saving goes through
:func:`game.core.scenario.plan_save` (the old file patched in place: only the changed values'
bytes are rewritten) and the atomic writer.

Never losing work:

* :meth:`save` writes only to a file the user chose (opened or picked in Save As); a new
  board or a built-in scenario (under ``assets/``) has no save path and raises
  :class:`NeedsSaveAs`;
* the file's modification time, size, inode and content hash are recorded at open and after
  every save (:mod:`game.window.diskstate`); :meth:`tick` looks again every ``watch_every_s``
  and :meth:`save` before writing: a file changed, moved or deleted outside raises
  :class:`OutsideChange` (the window asks: reload, keep mine beside it, compare) unless the
  user chose to overwrite; never a silent overwrite;
* a save that cannot keep some of the file's layout raises :class:`LayoutLoss` with the notes
  before anything is written (the window asks);
* :meth:`open_board` loads a file without touching the session; :meth:`adopt` switches to it
  only once the caller has analysed it, so a file that fails keeps the old board;
* :meth:`autosave` writes unsaved changes (drags included: the board is compared with the saved
  one, not only the history) to this session's own recovery file
  (:mod:`game.window.recovery`: ``<stem>.<pid-start>.<n>.autosave.yaml`` in the user's data
  folder, a header naming the file and the time), every ``autosave_every_s`` of the injected
  ``clock``; it is removed when the user saves, discards, or comes back to the saved board.
  Other sessions' recovery files for the same file are offered (:meth:`recoveries`), never
  written over. A failure is kept in :attr:`autosave_error` for the window and the exit message.

Pygame-free; the clocks (``clock``: seconds for timers; ``wall``: seconds since the epoch for
the recovery header) and the folders are injected (tests pass their own).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable, Optional

from game.core import atomic
from game.core.paths import ASSETS_DIR
from game.core.board import Board
from game.core.history import History
from game.core.savefile import same, target_of, write_atomic
from game.core.scenario import (ScenarioError, board_to_dict, load_scenario, meaning, plan_save,
                                read_raw)
from game.window import diskstate, recovery
from game.window.recovery import Recovery
from game.core.validate import short

BUILTIN_DIR = ASSETS_DIR
RECENT_MAX = 8


class NeedsSaveAs(Exception):
    """The board has no file the user chose: ask where to save it."""


class OutsideChange(Exception):
    """The file was changed (``what == "changed"``), or moved or deleted (``"missing"``), outside
    this window since it was opened or last saved; nothing was written."""

    def __init__(self, path: Path, what: str):
        self.path, self.what = path, what
        how = "was changed on disk by another program or window" if what == "changed" else "was moved or deleted"
        super().__init__(f"{path.name} {how} since you opened it")


class LayoutLoss(Exception):
    """Saving would not keep some of the file's layout (``notes`` say what); nothing was written."""

    def __init__(self, notes: list):
        self.notes = list(notes)
        super().__init__("; ".join(self.notes))


def is_builtin(path: Path, builtin_dir: Path = BUILTIN_DIR) -> bool:
    try:
        path.resolve().relative_to(builtin_dir.resolve())
    except (ValueError, OSError):
        return False
    return True


class Session:
    """One board being edited (see the module doc)."""

    def __init__(self, board: Board, path: Optional[str | os.PathLike] = None, *,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                 autosave_every_s: float = 10.0, watch_every_s: float = 2.0, out_dir: Optional[Path] = None,
                 builtin_dir: Path = BUILTIN_DIR, recent_file: Optional[Path] = None,
                 session_id: Optional[str] = None):
        self.clock, self.wall = clock, wall
        self.autosave_every_s = float(autosave_every_s)
        self.watch_every_s = float(watch_every_s)
        self.out_dir = Path(out_dir) if out_dir is not None else recovery.default_dir()
        self.builtin_dir = Path(builtin_dir)
        self.recent_file = recent_file
        self.session_id = session_id or recovery.new_session_id(wall())
        self.doc_no = 0
        self.history = History()
        self.board = board
        self.moved_mm: dict[str, float] = {}
        self.path: Optional[Path] = None
        self.save_path: Optional[Path] = None
        self.autosave_error = ""
        self.autosaved: Optional[Path] = None
        self.restored_from: Optional[Path] = None
        self.known_text: Optional[str] = None
        #: the save file as opened or last saved, watched for outside changes
        self.watch = diskstate.Watch(watch_every_s, clock())
        self.saved_board: Board = board
        self._set_path(Path(path) if path else None)
        self._remember_disk()
        self.saved_id = self.history.current_id
        self.saved_depth = self.history.undo_depth
        self.last_autosave = clock()
        for folder in {self.out_dir, *([self.save_path.parent] if self.save_path else [])}:
            recovery.clean_stale_tmp(folder, wall())
        #: recovery files pruned on start (offered and kept for later: their file gone, or refused long ago)
        self.pruned = recovery.prune(self.out_dir, wall())

    # -- state ---------------------------------------------------------------------------------
    @property
    def disk(self) -> Optional[diskstate.DiskState]:
        """The save file's state as opened or last saved (None: no file, or unreadable)."""
        return self.watch.known

    @property
    def outside(self) -> Optional[str]:
        """``"changed"`` / ``"missing"``: the save file changed outside and the user has not
        answered yet (see :meth:`tick`); set to None once answered."""
        return self.watch.outside

    @outside.setter
    def outside(self, what: Optional[str]) -> None:
        self.watch.outside = what

    def _set_path(self, path: Optional[Path]) -> None:
        self.path = path
        self.save_path = None if path is None or is_builtin(path, self.builtin_dir) else path

    @property
    def dirty(self) -> bool:
        """True when the board is not the one last saved (or opened)."""
        return self.history.current_id != self.saved_id

    def title(self) -> str:
        """The scenario's title, else its file name without the extension (``t38_seed001``,
        not ``t38_seed001.yaml``: the heading, a figure's and a new demo's title), else
        "Untitled scenario"."""
        if self.board.title:
            return self.board.title
        return self.path.stem if self.path else "Untitled scenario"

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

    def _remember_disk(self) -> None:
        """Record the save file as it is now (its text, to keep its layout; its disk state)."""
        self.known_text = None
        if self.save_path is not None:
            try:
                self.known_text = read_raw(self.save_path)
            except (ScenarioError, OSError):
                self.known_text = None
        self.watch.remember(self.save_path)

    def adopt(self, board: Board, path: Optional[str | os.PathLike]) -> None:
        """Switch to ``board`` loaded from ``path`` (None: a new board): a fresh history, clean.
        The recovery file of the document left (if any) is kept: it was not saved."""
        self.board = board
        self.moved_mm = {}
        self.history.clear()
        self.saved_id = self.history.current_id
        self.saved_depth = self.history.undo_depth
        self.saved_board = board
        self.autosaved = None
        self.restored_from = None
        self.doc_no += 1
        self._set_path(Path(path) if path else None)
        self._remember_disk()
        if path:
            self.add_recent(Path(path))

    def check_disk(self, full: bool = False) -> Optional[str]:
        """``"changed"`` / ``"missing"`` when the save file is no longer what was opened or last
        saved (also kept in :attr:`outside`), else None. ``full`` (before a save): its bytes
        are hashed even when its time, size and inode are as known."""
        return self.watch.check(full=full)

    def save(self, *, overwrite: bool = False, accept_loss: bool = False) -> Path:
        """Write the board to its save path and return it. Raises :class:`NeedsSaveAs` when the
        user has not chosen a file, :class:`OutsideChange` when the file changed on disk since
        (unless ``overwrite``), :class:`LayoutLoss` when the save cannot keep all of the
        file's layout (unless ``accept_loss``), OSError when it cannot be written."""
        if self.save_path is None:
            raise NeedsSaveAs()
        return self.save_as(self.save_path, accept_loss=accept_loss, overwrite=overwrite)

    def save_as(self, path: str | os.PathLike, *, accept_loss: bool = False, overwrite: bool = False) -> Path:
        """Write the board to ``path`` (the user's choice) and make it the save path (raises as
        :meth:`save`). Onto another file there is no outside-change check (the user picked it,
        and was asked before replacing it); onto this document's own file (:meth:`is_own`, a link
        to it too) the file is checked as :meth:`save` checks it: changed, moved or deleted since
        it was opened or saved raises :class:`OutsideChange` unless ``overwrite``."""
        p = self.target(path)
        if self.is_own(p) or (self.save_path is not None and p == self.save_path):
            what = self.check_disk(full=True)
            if what is not None and not overwrite:
                raise OutsideChange(self.save_path or p, what)
        if is_builtin(p, self.builtin_dir):
            raise OSError(f"{p.name} is a built-in scenario; choose a file outside {self.builtin_dir}")
        target_of(p)  # a folder, a device or a read-only file: refused before any work
        plan = plan_save(self.board, p, template=self.known_text)
        if plan.notes and not accept_loss:
            raise LayoutLoss(plan.notes)
        p.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(p, plan.text)
        self.saved_id = self.history.current_id
        self.saved_depth = self.history.undo_depth
        self.saved_board = self.board
        self._set_path(p)
        self._remember_disk()
        self.drop_own_recovery()
        self.add_recent(p)
        return p

    def target(self, path: str | os.PathLike) -> Path:
        """The file a Save As to ``path`` writes: ``~`` expanded, ``.yaml`` added to a name
        without ``.yaml`` / ``.yml``."""
        p = Path(path).expanduser()
        return p if p.suffix.lower() in (".yaml", ".yml") else p.with_name(p.name + ".yaml")

    def is_own(self, path: str | os.PathLike) -> bool:
        """True when ``path`` is this document's own save file (a link to it too)."""
        if self.save_path is None:
            return False
        try:
            return Path(path).resolve() == self.save_path.resolve()
        except OSError:
            return False

    def beside_path(self) -> Path:
        """A new file next to the save file for "keep mine": ``<stem>.mine.yaml``, then
        ``<stem>.mine-2.yaml``... (never an existing file)."""
        base = self.save_path or (self.out_dir / "untitled.yaml")
        cand = base.with_name(f"{base.stem}.mine.yaml")
        n = 2
        while cand.exists():
            cand = base.with_name(f"{base.stem}.mine-{n}.yaml")
            n += 1
        return cand

    def save_beside(self) -> Path:
        """Keep mine: write the board to :meth:`beside_path` (the file on disk is not touched)
        and keep saving there."""
        return self.save_as(self.beside_path(), accept_loss=True)

    def differences(self, limit: int = 12) -> list[str]:
        """The fields where the file on disk and this board differ, in words (for Compare)."""
        if self.save_path is None:
            return []
        try:
            disk = meaning(read_raw(self.save_path), str(self.save_path))
        except (ScenarioError, OSError) as exc:
            return [f"the file on disk cannot be read as a scenario: {exc}"]
        out: list[str] = []
        _diff(disk, board_to_dict(self.board), "", out, limit)
        return out or ["no difference in what the files mean (only their layout differs)"]

    def reload_board(self) -> Board:
        """The board in the save file now (raises ScenarioError / OSError)."""
        if self.save_path is None:
            raise OSError("this board has no file to reload")
        return load_scenario(self.save_path)

    # -- autosave and recovery -----------------------------------------------------------------
    @property
    def autosave_path(self) -> Path:
        """This session's recovery file for this document (:mod:`game.window.recovery`)."""
        stem = self.path.stem if self.path else "untitled"
        return self.out_dir / recovery.file_name(stem, self.session_id, self.doc_no)

    def unsaved(self) -> bool:
        """True when the board shown is not the one saved: an edit in the history, or a change
        not yet in it (a drag in progress)."""
        if self.dirty:
            return True
        if self.board is self.saved_board:
            return False
        try:
            return not same(board_to_dict(self.board), board_to_dict(self.saved_board))
        except Exception:  # noqa: BLE001 - a board that cannot be written: nothing to compare
            return True

    def autosave(self) -> Optional[Path]:
        """Write unsaved changes to :attr:`autosave_path` (atomically); returns it, or None
        when nothing is unsaved (then an old recovery file of this document is removed) or
        when it failed (the reason is in :attr:`autosave_error`)."""
        self.last_autosave = self.clock()
        if not self.unsaved():
            self.drop_own_recovery()
            return None
        p = self.autosave_path
        try:
            text = recovery.scenario_text(self.board)  # (libyaml's emitter: the autosave runs mid-drag too)
            head = recovery.header(self.doc_key(), self.session_id, self.wall(), self.board.title, len(self.board.units),
                                   self.changes())
            atomic.write_atomic(p, head + text)
        except OSError as exc:
            self.autosave_error = f"Autosave to {p} failed: {exc.strerror or exc}"
            return None
        self.autosave_error = ""
        self.autosaved = p
        return p

    def changes(self) -> int:
        """How many edits the board is away from the one saved (undo steps; a drag not yet in
        the history counts as one)."""
        n = abs(self.history.undo_depth - self.saved_depth)
        return max(n, 1) if self.unsaved() else n

    def drop_own_recovery(self) -> None:
        """Remove this session's recovery file of this document (saved, discarded or back to the
        saved board), and a recovery file the user restored from (its work is in the file now)."""
        for a in {self.autosave_path, self.autosaved, self.restored_from}:
            try:
                if a is not None and a.exists():
                    a.unlink()
            except OSError:
                pass
        self.autosaved = None
        self.restored_from = None

    def discard(self) -> None:
        """The user threw the unsaved changes away: the recovery file goes too."""
        self.drop_own_recovery()

    def tick(self) -> Optional[Path]:
        """Every ``autosave_every_s`` on the clock: autosave unsaved work (or drop the recovery
        file when back at the saved board); every ``watch_every_s``: look at the save file on
        disk (:attr:`outside`). Returns the recovery file written, if any."""
        now = self.clock()
        self.watch.poll(now)
        if now - self.last_autosave >= self.autosave_every_s:
            if self.autosaved is not None or self.dirty or self.board is not self.saved_board:
                return self.autosave()
            self.last_autosave = now
        return None

    def recoveries(self) -> list[Recovery]:
        """Recovery files kept for this document's file (or for new boards) by other sessions,
        or by this one for an earlier document (e.g. before a reload), newest first."""
        return [r for r in recovery.find(self.out_dir, self.doc_key()) if r.path != self.autosave_path]

    def doc_key(self) -> str:
        """What the recovery files of this document are kept for: its file, or new boards."""
        return recovery.for_key(self.path) if self.path else recovery.NEW_BOARD

    def keep_for_later(self, rec: Recovery) -> None:
        """The user was offered ``rec`` and kept it for later: noted in its header (pruned once
        its file is gone, or :data:`~game.window.recovery.MAX_AGE_DAYS` after this)."""
        recovery.mark_refused(rec, self.wall())

    def discard_recovery(self, rec: Recovery) -> bool:
        """The user threw the work of ``rec`` away: its file is removed (True when it was)."""
        try:
            Path(rec.path).unlink()
        except OSError:
            return False
        return True

    def restore(self, rec: Recovery) -> Board:
        """The board of recovery file ``rec`` (raises ScenarioError / OSError); once it is
        saved (or discarded) that recovery file is removed."""
        board = load_scenario(rec.path)
        self.restored_from = rec.path
        return board

    # -- recent files ----------------------------------------------------------------------------
    def save_folder(self) -> Path:
        """Where a save dialog (Save As, Export, the demo's Save and HTML) starts: the folder of
        the scenario's own file, else of the file opened or saved last, else the working
        folder (a built-in scenario's folder is never offered: it is the program's)."""
        if self.save_path is not None:
            return Path(self.save_path).absolute().parent
        for p in self.recent():
            if not is_builtin(p, self.builtin_dir) and p.parent.is_dir():
                return p.absolute().parent
        return Path.cwd()

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


def _diff(a, b, path: str, out: list, limit: int) -> None:
    """Append ``path: on disk X, yours Y`` lines for the differences of two file data trees."""
    if len(out) >= limit or same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _diff(a.get(k), b.get(k), f"{path}.{k}" if path else str(k), out, limit)
        return
    if isinstance(a, list) and isinstance(b, list):
        ids_a = [x.get("id") for x in a if isinstance(x, dict)]
        ids_b = [x.get("id") for x in b if isinstance(x, dict)]
        if ids_a and len(ids_a) == len(a) and len(ids_b) == len(b) and all(isinstance(i, str) for i in ids_a + ids_b):
            da, db = dict(zip(ids_a, a)), dict(zip(ids_b, b))
            for i in ids_a + [i for i in ids_b if i not in da]:
                _diff(da.get(i), db.get(i), f"{path}[{i}]", out, limit)
            return
    if a is None:
        out.append(f"{path}: only in yours")
    elif b is None:
        out.append(f"{path}: only on disk")
    else:
        out.append(f"{path}: on disk {short(a)}, yours {short(b)}")
