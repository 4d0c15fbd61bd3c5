"""The one window loop, shared by the table window (:class:`game.window.app.App`) and the demo
player (:class:`game.window.demo_view.DemoView`).

A target has ``running``, ``frame() -> bool`` (True when it drew something new, which is
then flipped to the screen), optionally ``failed`` (a callable giving why the run failed, "" if
not: the exit status is then 1, never 0), ``idle() -> bool`` (nothing animates and nothing happened
lately: the loop sleeps in ``pygame.event.wait`` instead of redrawing) and ``stop(reason)``.
SIGTERM and SIGINT stop the window even in the middle of a long draw: the handler raises
:class:`WindowStopped`, the loop calls ``target.stop`` (which keeps unsaved work) and returns.
"""
from __future__ import annotations

import signal
from typing import Any, Optional

import pygame

IDLE_WAIT_MS = 500


class WindowStopped(BaseException):
    """Raised by the signal handler to leave whatever the window was doing."""


def _handler(signum: int, frame: Any) -> None:
    raise WindowStopped(signal.Signals(signum).name)


def run_loop(target: Any, frames: Optional[int] = None, fps: int = 60) -> int:
    """Run ``target`` until it stops (or for ``frames`` frames). Returns 0, or 128 + the
    signal number when a signal stopped it."""
    old = {}
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            old[sig] = signal.signal(sig, _handler)
        except ValueError:  # not the main thread: no signal handling
            pass
    clock = pygame.time.Clock()
    n, status = 0, 0
    try:
        while target.running and (frames is None or n < frames):
            drew = target.frame()
            if drew and pygame.display.get_surface() is not None:
                pygame.display.flip()
            n += 1
            if frames is None and target.idle():
                ev = pygame.event.wait(IDLE_WAIT_MS)
                if ev.type != pygame.NOEVENT:
                    pygame.event.post(ev)
            elif fps:
                clock.tick(fps)
    except (WindowStopped, KeyboardInterrupt) as exc:
        name = str(exc) or "SIGINT"
        status = 128 + (signal.SIGTERM if name == "SIGTERM" else signal.SIGINT)
        _stop(target, f"stopped by {name}")
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
    failed = getattr(target, "failed", None)
    why = failed() if callable(failed) else failed
    if status == 0 and why:  # never 0 after a failure (a MemoryError shown in the banner)
        import sys

        print(f"error: {why}", file=sys.stderr)
        return 1
    return status


def _stop(target: Any, reason: str) -> None:
    """Ask the target to stop; a second signal during that is ignored so the work is kept."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            signal.signal(sig, signal.SIG_IGN)
        except ValueError:
            pass
    target.stop(reason)
