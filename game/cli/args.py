"""Checking command-line values and ending commands cleanly (no pygame here).

Each ``check_*`` returns the parsed value or raises :class:`UsageError`, whose message is one
line that ``main.py`` prints as ``error: ...`` before exiting with status 2. :func:`guarded`
runs a command so that a closed pipe (``analyse ... | head``) ends quietly, Ctrl+C (SIGINT)
ends with one line and status 130, and SIGTERM with one line and status 143.
"""
from __future__ import annotations

import math
import os
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Optional

from game.core.validate import MAX_TITLE, ruleset_id_problem, short, text_problem
from game.core.work import current, failed, forget_failure

try:
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

#: Window and demo frame sides (px): a demo frame is drawn at twice its size off-screen.
MIN_SIDE_PX, MAX_WINDOW_PX, MAX_FRAME_PX = 200, 8000, 4096
#: GIF seconds per step.
MIN_SECONDS, MAX_SECONDS = 0.05, 600.0
#: Most frames a smoke test may run.
MAX_FRAMES = 1_000_000


class UsageError(ValueError):
    """A bad option value: one line, exit status 2."""


class Terminated(BaseException):
    """Raised in the main thread when SIGTERM arrives (so ``finally`` blocks still run)."""


#: Default CPU seconds a headless command may spend (``--time-budget``; 0 = no limit).
DEFAULT_BUDGET_S = 30.0


class OverBudget(BaseException):
    """Raised when a command used up its CPU time budget (a BaseException, so that no
    ``except Exception`` on the way swallows it). ``str()`` is the one-line message."""


#: Default memory a headless command may add to what it holds when it starts (MB).
DEFAULT_MEMORY_MB = 3072


def _vm_size() -> Optional[int]:
    """This process's virtual memory size in bytes (Linux), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@contextmanager
def memory_budget(megabytes: Optional[float], what: str):
    """Let the enclosed work grow the address space by at most ``megabytes`` (``RLIMIT_AS``);
    an allocation beyond it raises ``MemoryError``, turned into :class:`OverBudget` naming
    ``what``. ``None`` / 0, or a platform without ``resource``: no limit."""
    now = _vm_size()
    if resource is None or now is None or not (isinstance(megabytes, (int, float)) and math.isfinite(megabytes)
                                                and megabytes > 0):
        yield
        return
    old = resource.getrlimit(resource.RLIMIT_AS)
    want = now + int(megabytes * 1024 * 1024)
    if old[1] != resource.RLIM_INFINITY:
        want = min(want, old[1])
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, old[1]))
    except (ValueError, OSError):
        yield
        return
    forget_failure()
    try:
        yield
    except MemoryError:
        raise OverBudget(budget_message(what, f"when it needed more than {megabytes:g} MB of memory",
                                        "--memory-budget MB", "memory", failed())) from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, old)


def budget_message(what: str, when: str, option: str, kind: str = "time",
                   work: Optional[tuple[str, str]] = None) -> str:
    """The one line a budget that ran out prints: the file, what was running then (``work``,
    else :func:`game.core.work.current`: a caption, the table, a search) and what is too big."""
    doing, blame = work or current()
    return (f"{what}: stopped {when} while {doing}: {blame} to finish within the {kind} budget "
            f"(raise it with {option}, 0 for none)")


@contextmanager
def budgets(args, what: str, enabled: bool = True):
    """:func:`time_budget` and :func:`memory_budget` from a command's ``--time-budget`` and
    ``--memory-budget`` options (``enabled=False``: no limits, e.g. a window)."""
    with time_budget(args.time_budget if enabled else None, what), \
            memory_budget(getattr(args, "memory_budget", None) if enabled else None, what):
        yield


@contextmanager
def time_budget(seconds: Optional[float], what: str):
    """Stop the enclosed work with :class:`OverBudget` after ``seconds`` of CPU time (the
    process's user + system time, ``ITIMER_PROF``), for ``what`` (a file name in the message).
    ``None`` / 0, or a platform without interval timers: no limit."""
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and 0 < seconds <= 86_400) \
            or not hasattr(signal, "setitimer"):
        yield  # no limit (a bad value is reported by check_budget)
        return

    def on_prof(signum, frame):  # noqa: ARG001
        raise OverBudget(budget_message(what, f"after {seconds:g} s of CPU time", "--time-budget SECONDS"))

    try:
        old = signal.signal(signal.SIGPROF, on_prof)
    except (ValueError, OSError):  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def add_budget_option(ap) -> None:
    """``--time-budget SECONDS`` and ``--memory-budget MB`` on a command's parser."""
    ap.add_argument("--time-budget", type=float, default=DEFAULT_BUDGET_S, metavar="SECONDS",
                    help=f"CPU seconds the command may spend before it stops with a message "
                         f"(default {DEFAULT_BUDGET_S:g}; 0 = no limit)")
    ap.add_argument("--memory-budget", type=float, default=DEFAULT_MEMORY_MB, metavar="MB",
                    help=f"memory the command may add before it stops with a message "
                         f"(default {DEFAULT_MEMORY_MB}; 0 = no limit)")


def check_budget(v: Optional[float], memory: Optional[float] = None) -> Optional[float]:
    if memory is not None:
        check_number(memory, "--memory-budget", 0, 10 ** 7)
    return check_number(v, "--time-budget", 0, 86_400)


def check_size(text: str, option: str = "--size", hi: int = MAX_WINDOW_PX) -> tuple[int, int]:
    """``"1280x820"`` -> ``(1280, 820)``; each side a whole number of px from
    :data:`MIN_SIDE_PX` to ``hi``."""
    parts = str(text).lower().split("x")
    try:
        if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) < 10 for p in parts):
            raise ValueError
        w, h = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"{option} must look like 1280x820 (two whole numbers of px; got {short(text)})") from None
    if not (MIN_SIDE_PX <= w <= hi and MIN_SIDE_PX <= h <= hi):
        raise UsageError(f"{option} must be from {MIN_SIDE_PX}x{MIN_SIDE_PX} to {hi}x{hi} px (got {w}x{h})")
    return w, h


def check_number(v: Optional[float], option: str, lo: float, hi: float) -> Optional[float]:
    """``v`` if it is None or a finite number in ``[lo, hi]``."""
    if v is None:
        return None
    if not (isinstance(v, (int, float)) and math.isfinite(v) and lo <= v <= hi):
        raise UsageError(f"{option} must be a number from {lo:g} to {hi:g} (got {short(v)})")
    return v


def check_int(v: Optional[int], option: str, lo: int, hi: int) -> Optional[int]:
    if v is not None and not lo <= v <= hi:
        raise UsageError(f"{option} must be a whole number from {lo} to {hi} (got {v})")
    return v


def check_ruleset(v: Optional[str], option: str = "--ruleset") -> Optional[str]:
    """A ruleset id from the registry (never a path), or None."""
    if v is None:
        return None
    why = ruleset_id_problem(v)
    if why:
        raise UsageError(f"{option} {why}")
    return v


def check_pair(v: str, option: str = "--compare") -> tuple[str, str]:
    """``"whfb8,t9a"`` -> two registry ids."""
    ids = [x.strip() for x in str(v).split(",") if x.strip()]
    if len(ids) != 2:
        raise UsageError(f"{option} needs two ruleset ids separated by a comma (got {short(v)})")
    for rid in ids:
        check_ruleset(rid, option)
    return ids[0], ids[1]


def check_text(v: Optional[str], option: str) -> Optional[str]:
    """Text given on the command line (a title): no control characters, bounded length."""
    if v is not None:
        why = text_problem(v, max_len=MAX_TITLE)
        if why:
            raise UsageError(f"{option} {why}")
    return v


def check_output(output: str, inputs: list[str], option: str = "-o") -> Path:
    """An output file that is none of ``inputs`` (not even through a link) and not a folder."""
    out = Path(output)
    for part in [out, *out.parents]:
        if str(part) in ("", ".") or not part.is_symlink() or part.exists():
            continue
        target = os.path.realpath(part)
        if part == out:
            if Path(target).parent.is_dir():
                break  # a link to a file not yet written: the file is written where it points
            raise UsageError(f"{option} {short(output)} is a link to {short(target)}, whose folder does not exist; "
                             "create that folder or give another file name")
        raise UsageError(f"{option} {short(output)}: its folder {short(str(part))} is a link to {short(target)}, "
                         "which does not exist; create it or give another folder")
    if out.is_dir():
        raise UsageError(f"{option} {short(output)} is a folder; give a file name")
    if out.exists() and not out.is_file():
        raise UsageError(f"{option} {short(output)} is not a regular file (a device or pipe); give a file name")
    real = os.path.realpath(out)
    for i in inputs:
        try:
            if real == os.path.realpath(i) or (out.exists() and os.path.samefile(out, i)):
                raise UsageError(f"{option} {short(output)} is the input file {short(i)}; "
                                 "writing there would destroy it (choose another name)")
        except OSError:
            continue
    from game.core.atomic import refuse_link  # writing only: `analyse` never imports the writer

    try:
        refuse_link(out, f"{option} {short(output)}")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return out


def check_export(folder: str, names: list[str], owned: Callable[[Path], bool], option: str = "--export") -> Path:
    """A folder to write the files ``names`` into: not a file; none of them a link onto an
    existing file (:func:`game.core.atomic.refuse_link`), a folder, or an existing file the
    program did not write there (``owned(path)`` False: a user's own ``step_01.png`` is never
    replaced unasked)."""
    from game.core.atomic import refuse_link  # writing only

    d = Path(folder)
    if d.exists() and not d.is_dir():
        raise UsageError(f"{option} {short(folder)} is not a folder; give a folder name")
    for name in names:
        p = d / name
        try:
            refuse_link(p, f"{option} {short(folder)}: {name}")
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if p.is_symlink():
            continue  # a link to a file not written yet: written where it points
        if p.exists() and not p.is_file():
            raise UsageError(f"{option} {short(folder)}: {name} is not a regular file; give another folder")
        if p.exists() and not owned(p):
            raise UsageError(f"{option} {short(folder)}: {name} is a file this program did not write there "
                             "(or it was changed since); it is left as it is: give an empty or new folder")
    return d


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the exit flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _on_term(signum, frame):  # noqa: ARG001
    raise Terminated()


def guarded(run: Callable[[], int], *, handle_term: bool = True) -> int:
    """Run a command; a broken pipe ends it quietly (status 141, like a shell tool killed by
    SIGPIPE), Ctrl+C with ``interrupted`` (130), SIGTERM with ``terminated`` (143)."""
    old = None
    if handle_term:
        try:
            old = signal.signal(signal.SIGTERM, _on_term)
        except (ValueError, OSError):  # not the main thread
            old = None
    try:
        code = run()
        try:
            sys.stdout.flush()  # output that cannot be written (a full disk) is an error, not a success
        except BrokenPipeError:
            raise
        except OSError as exc:
            _quiet_stdout()
            print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            return 1
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return 141
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("terminated", file=sys.stderr)
        return 143
    except OverBudget as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print("error: out of memory (the memory budget or the machine's limit); nothing was written",
              file=sys.stderr)
        return 1
    finally:
        if old is not None:
            try:
                signal.signal(signal.SIGTERM, old)
            except (ValueError, OSError):
                pass
