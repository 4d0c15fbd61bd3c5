"""A window whose display does not answer says what it waits for, then recovers or gives up.

SDL, asked for no video driver, falls back silently to ``offscreen`` when the X server named by
DISPLAY does not answer (an Xvfb started a moment before): the window used to run for ever with
nothing on any screen. Driven with injected init / driver / clock / sleep: no test sleeps.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.window.display import WAIT_S, NoDisplay, hidden_note, open_display

ROOT = Path(__file__).resolve().parents[1]


class FakeSDL:
    """Drivers that ``init`` lands on, one per call (the last one repeats); a fake clock that
    each ``sleep`` moves on."""

    def __init__(self, drivers: list[str]) -> None:
        self.drivers = drivers
        self.inits = 0
        self.quits = 0
        self.now = 100.0
        self.lines: list[str] = []
        self.pinned: list[object] = []  # SDL_VIDEODRIVER at each init

    def init(self) -> None:
        self.inits += 1
        self.pinned.append(os.environ.get("SDL_VIDEODRIVER"))
        if self.driver() == "error":  # the driver held to cannot reach its display yet
            raise pygame.error("x11 not available")

    def quit(self) -> None:
        self.quits += 1

    def driver(self) -> str:
        return self.drivers[min(self.inits, len(self.drivers)) - 1]

    def sleep(self, s: float) -> None:
        self.now += s

    def open(self, env: dict[str, str]) -> str:
        return open_display(env, init=self.init, quit=self.quit, driver=self.driver, clock=lambda: self.now,
                            sleep=self.sleep, say=self.lines.append)


def test_a_display_that_answers_opens_at_once_without_a_word():
    sdl = FakeSDL(["x11"])
    assert sdl.open({"DISPLAY": ":99"}) == "x11"
    assert sdl.inits == 1 and sdl.lines == []


def test_a_display_that_comes_up_late_is_waited_for_and_said():
    sdl = FakeSDL(["offscreen", "offscreen", "offscreen", "x11"])
    assert sdl.open({"DISPLAY": ":99"}) == "x11"
    assert sdl.inits == 4
    assert "waiting for the display (DISPLAY=:99)" in sdl.lines[0]
    assert "answered" in sdl.lines[-1]


def test_retries_try_only_the_display_named_and_leave_the_environment_as_it_was(monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    sdl = FakeSDL(["offscreen", "error", "error", "x11"])
    assert sdl.open({"DISPLAY": ":99"}) == "x11"
    assert sdl.pinned == [None, "x11", "x11", "x11"]  # the first try as SDL likes; then X11 only
    assert "SDL_VIDEODRIVER" not in os.environ


def test_a_display_that_never_answers_gives_up_within_the_bound_naming_it():
    sdl = FakeSDL(["offscreen"])
    with pytest.raises(NoDisplay, match=r"cannot reach the display \(DISPLAY=:77\)"):
        sdl.open({"DISPLAY": ":77"})
    assert sdl.now - 100.0 <= WAIT_S + 1.0  # bounded (fake) time, then the display is closed again
    assert sdl.quits == sdl.inits
    assert len(sdl.lines) == 1 and "waiting for the display" in sdl.lines[0]


def test_a_driver_the_user_asked_for_is_taken_as_it_is():
    sdl = FakeSDL(["dummy"])
    assert sdl.open({"DISPLAY": ":99", "SDL_VIDEODRIVER": "dummy"}) == "dummy"
    assert sdl.inits == 1 and sdl.lines == []


def test_a_hidden_driver_named_by_the_user_gets_one_note():
    assert "nothing is shown" in (hidden_note({"SDL_VIDEODRIVER": "dummy"}) or "")
    assert hidden_note({"SDL_VIDEODRIVER": "x11"}) is None
    assert hidden_note({}) is None


def _free_display() -> str:
    for n in range(731, 799):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return f":{n}"
    pytest.skip("no free display number")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 display names")
def test_the_window_command_exits_1_naming_a_display_nobody_answers(tmp_path):
    """The real command, a DISPLAY with no X server: one line and exit 1 (it used to idle
    for ever in an invisible offscreen window; the timeout here only ends a hang)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "WAYLAND_", "XDG_RUNTIME"))}
    env.update(DISPLAY=_free_display(), XDG_DATA_HOME=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    try:
        run = subprocess.run([sys.executable, str(ROOT / "main.py")], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("the window ran on with no display answering")
    assert run.returncode == 1, run.stderr
    assert f"cannot reach the display (DISPLAY={env['DISPLAY']})" in run.stderr
    assert "waiting for the display" in run.stderr


def test_the_window_command_notes_a_hidden_driver_when_it_runs_until_stopped(monkeypatch, capsys):
    from game.cli import window_cmd

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window_cmd._say_hidden(None)
    assert "SDL_VIDEODRIVER=dummy" in capsys.readouterr().err
    window_cmd._say_hidden(3)  # a counted run (--frames) ends by itself: no note
    assert capsys.readouterr().err == ""
