"""Analysis off the frame: a worker process fed the latest board of a drag.

An engine too slow to re-analyse on every frame of a drag (its strategy does not declare
``live_drag``) is analysed here while the user drags: :meth:`Background.submit` hands over
the board as it is now (the latest board wins: a board submitted while the worker is busy
replaces any board still waiting, and is sent when the worker is free), :meth:`Background.poll`
returns the newest finished analysis without waiting. The frame never waits for the worker;
it draws the newest finished analysis (see :mod:`game.window.live`, which marks it "solving"
while it is behind the board).

The worker runs :func:`game.core.analyse.analyse`, the same function the window runs itself,
on a pickled copy of the board and ruleset, so a finished result is exactly what a cold
analysis of that board gives; when the drag ends the window analyses the final board itself.

Pygame-free. :class:`InlineBackground` does the same work in the calling process, one call
to :meth:`~InlineBackground.poll` at a time (tests: deterministic, no process, no clock).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import traceback
from pathlib import Path
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.ruleset import Ruleset


def board_key(board: Board, rs: Ruleset) -> tuple:
    """Everything of ``board`` a drag changes, and the ruleset: equal keys, equal analyses
    (the units' ids, poses and models, the context, terrain and table)."""
    return (rs.id, board.table, repr(board.context), repr(board.terrain),
            tuple((u.id, u.player, u.pose_key()) for u in board.units))


@dataclass(frozen=True)
class Finished:
    """A finished analysis: the ``seq`` number and ``key`` (:func:`board_key`) of the board
    it analysed, the ``analysis`` (None when it failed: ``error`` says why) and the worker's
    CPU time ``cpu_ms``."""

    seq: int
    key: tuple
    analysis: Optional[Analysis]
    error: str = ""
    cpu_ms: float = 0.0
    board: Optional[Board] = None  # the board analysed (kept in the window's process, not sent back)


def _analyse(board: Board, rs: Ruleset) -> tuple[Optional[Analysis], str, float]:
    from game.core.analyse import analyse

    t0 = time.process_time()
    try:
        res = analyse(board, rs)
        return res, "", (time.process_time() - t0) * 1000
    except Exception as exc:  # noqa: BLE001 - reported to the window, which keeps its last result
        return None, f"{type(exc).__name__}: {exc}"[:300] + "\n" + traceback.format_exc(limit=3), 0.0


def _reporter(out: Any, seq: int) -> Callable[[str], None]:
    """Send ``("stage", seq, what)`` to the window each time the analysis of board ``seq``
    starts a stretch of work."""
    def report(what: str) -> None:
        out.send(("stage", seq, what))
    return report


def _serve(jobs: Any, out: Any) -> None:
    """The worker's loop: ``(seq, key, board, rs)`` in, :class:`Finished` out, and before it
    ``("stage", seq, what)`` each time the analysis starts a stretch of work marked by
    :func:`game.core.work.doing` (what the window's progress line names); None (or the
    window's end of the pipe closing) stops it."""
    from game.core import work

    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        seq, key, board, rs = job
        work.listen(_reporter(out, seq))
        res, err, ms = _analyse(board, rs)
        work.listen(None)
        try:
            out.send(Finished(seq, key, res, err, ms))
        except (OSError, ValueError):
            return


def main(argv: list[str]) -> int:
    """``python -m game.window.background JOBS_FD RESULTS_FD``: the worker process."""
    from multiprocessing.connection import Connection

    _serve(Connection(int(argv[0]), writable=False), Connection(int(argv[1]), readable=False))
    return 0


class Background:
    """A worker process analysing the latest submitted board (see the module doc).

    The worker starts on the first :meth:`submit` (``spawn``: it imports only the rules core
    and the engine it is given). ``busy``: a board is being analysed; ``seq``: the number of
    the last board submitted."""

    def __init__(self) -> None:
        self.seq = 0
        self.busy = False
        self.pending: Optional[tuple] = None
        self.last_key: Optional[tuple] = None  # the key of the last board submitted
        self._conn: Any = None   # results from the worker
        self._jobs: Any = None   # boards to the worker
        self._proc: Any = None
        self.failed = ""
        #: what the analysis under way is doing (its stage, reported by the worker), "" when idle
        self.stage = ""
        self.sent: dict[int, Board] = {}  # boards at the worker, by number
        self.floor = 0  # results of boards numbered up to this one are dropped (see forget)
        self._pickles: dict = {}  # id(object) -> (object, does it pickle?)

    def usable(self, rs: Optional[Ruleset] = None) -> bool:
        """Can the worker be used (a process could start; the ruleset ``rs`` pickles, tried
        once)?"""
        if self.failed:
            return False
        import pickle

        for obj in (rs,):
            if obj is None:
                continue
            hit = self._pickles.get(id(obj))
            if hit is None or hit[0] is not obj:
                try:
                    pickle.dumps(obj)
                    good = True
                except Exception:  # noqa: BLE001 - generated schemas that do not pickle: stay here
                    good = False
                hit = self._pickles[id(obj)] = (obj, good)
            if not hit[1]:
                return False
        return True

    def _start(self) -> None:
        """Start the worker: a new interpreter running this module (it imports the rules core
        and, on its first board, the engine; never the window's ``__main__``)."""
        from multiprocessing.connection import Connection  # only once a worker starts, not at start-up

        job_r, job_w = os.pipe()
        res_r, res_w = os.pipe()
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH", "")] if p]))
        try:
            proc = subprocess.Popen([sys.executable, "-m", "game.window.background", str(job_r), str(res_w)],
                                    pass_fds=(job_r, res_w), env=env, stdin=subprocess.DEVNULL)
        finally:
            os.close(job_r)
            os.close(res_w)
        self._jobs, self._conn, self._proc = Connection(job_w, readable=False), Connection(res_r, writable=False), proc

    def submit(self, board: Board, rs: Ruleset) -> bool:
        """Ask for an analysis of ``board`` as it is now; False when it is the board last
        submitted (nothing to do). Never waits: a busy worker gets it when it is free."""
        key = board_key(board, rs)
        if key == self.last_key:
            return False
        self.seq += 1
        self.last_key = key
        self.pending = (self.seq, key, board, rs)
        self._send()
        return True

    def _send(self) -> None:
        if self.busy or self.pending is None:
            return
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._start()
            except Exception as exc:  # noqa: BLE001 - no worker: the window analyses itself
                self.failed = f"{type(exc).__name__}: {exc}"
                self.pending = None
                return
        seq, key, board, rs = self.pending
        self.pending = None
        try:
            self._jobs.send((seq, key, board, rs))
            self.busy = True
            self.sent = {seq: board}
        except Exception as exc:  # noqa: BLE001 - cannot be sent: the window analyses itself from now on
            self.failed = f"{type(exc).__name__}: {exc}"

    def poll(self, timeout_s: float = 0.0) -> Optional[Finished]:
        """The newest finished analysis since the last call (None if none finished), then the
        waiting board goes to the worker. ``timeout_s``: wait that long for one (0: never wait;
        the window never waits, tests do)."""
        out = None
        while self.busy and self._conn is not None:
            try:
                if not self._conn.poll(timeout_s):
                    break
                msg = self._conn.recv()
            except Exception as exc:  # noqa: BLE001 - a worker that stopped: the window analyses itself
                self.failed = f"the analysis worker stopped ({type(exc).__name__}: {exc})"
                self.busy = False
                break
            if isinstance(msg, tuple):  # ("stage", seq, what): the board under way got that far
                self.stage = str(msg[2])
                continue
            out, self.busy, self.stage = msg, False, ""
            timeout_s = 0.0
        if out is not None:
            out = replace(out, board=self.sent.pop(out.seq, None))
        self._send()
        if out is not None and out.seq <= self.floor:
            return None
        return out

    def forget(self) -> None:
        """Drop the waiting board and any result still to come (the window analysed itself):
        a later :meth:`poll` returns nothing older than the next :meth:`submit`."""
        self.pending = None
        self.last_key = None
        self.floor = self.seq

    def cancel(self) -> None:
        """Stop the analysis under way now: the worker process is killed (the next
        :meth:`submit` starts a new one) and nothing waiting or still to come is returned."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        for conn in (self._jobs, self._conn):
            if conn is not None:
                conn.close()
        self._conn = self._jobs = self._proc = None
        self.busy, self.stage = False, ""
        self.sent = {}
        self.forget()

    def close(self) -> None:
        """Stop the worker (it also stops when the window's process ends: its pipe closes)."""
        if self._jobs is not None:
            try:
                self._jobs.send(None)
            except (OSError, ValueError):
                pass
            self._jobs.close()
        if self._conn is not None:
            self._conn.close()
        if self._proc is not None:
            try:
                self._proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self._proc.terminate()
                self._proc.wait()
        self._conn = self._jobs = self._proc = None
        self.busy = False

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the interpreter may be going down
            pass


class InlineBackground(Background):
    """:class:`Background` without a process: :meth:`poll` analyses the board waiting (if any)
    right there and returns it; ``hold = True`` makes it return nothing (a worker still busy)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.runs = 0

    def usable(self, rs: Optional[Ruleset] = None) -> bool:
        return True

    def _send(self) -> None:
        pass

    def poll(self, timeout_s: float = 0.0) -> Optional[Finished]:
        if self.hold or self.pending is None:
            return None
        seq, key, board, rs = self.pending
        self.pending = None
        if seq <= self.floor:
            return None
        self.runs += 1
        res, err, ms = _analyse(board, rs)
        return Finished(seq, key, res, err, ms, board)

    def cancel(self) -> None:
        self.stage = ""
        self.forget()

    def close(self) -> None:
        self.pending = None


if __name__ == "__main__":
    from game.window import background as _module  # Finished pickled by its real name, not __main__'s

    sys.exit(_module.main(sys.argv[1:]))
