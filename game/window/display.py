"""Opening the display for a real window, and saying so when it cannot be reached.

SDL, asked for no video driver in particular, tries X11 (``DISPLAY``), then Wayland
(``WAYLAND_DISPLAY``), then falls back *silently* to ``offscreen``: a window that draws into
memory and is never shown. So a window started while its X server is not yet answering (an
``Xvfb :99 &`` launched a moment before, a display that went away, a wrong ``DISPLAY``) used to
run its loop for ever with no window on any screen and no word said.

:func:`open_display` initialises pygame's display and, when it landed on a driver that shows
nothing though none was asked for, says on stderr what it waits for, tries again for up to
:data:`WAIT_S` seconds (an X server still starting comes up in that time), and then gives up
with :class:`NoDisplay` naming the display (the caller exits 1 with that line). A driver named in
``SDL_VIDEODRIVER`` is the user's choice and is taken as it is: :func:`hidden_note` gives the
one line saying that such a window shows nothing.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable, Mapping, Optional

WAIT_S = 10.0         # how long a display that does not answer is waited for (s)
RETRY_S = 0.25        # between two tries (s)
HIDDEN_DRIVERS = ("offscreen", "dummy")  # SDL drivers that draw into memory and show nothing


class NoDisplay(RuntimeError):
    """The display named in the environment could not be reached within :data:`WAIT_S`."""


def display_name(env: Mapping[str, str]) -> str:
    """The display the environment names, as a user would write it: ``DISPLAY=:99``,
    ``WAYLAND_DISPLAY=wayland-0``, or ``no DISPLAY`` when neither is set."""
    names = [f"{k}={env[k]}" for k in ("DISPLAY", "WAYLAND_DISPLAY") if env.get(k)]
    return " / ".join(names) or "no DISPLAY"


def hidden_note(env: Mapping[str, str]) -> Optional[str]:
    """One line for a window that will show nothing because ``SDL_VIDEODRIVER`` asks for a
    driver that draws into memory (None otherwise)."""
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in HIDDEN_DRIVERS:
        return (f"note: SDL_VIDEODRIVER={driver} draws the window into memory, so nothing is shown "
                "(it runs until stopped: Ctrl+C); unset SDL_VIDEODRIVER to see the window")
    return None


def open_display(env: Optional[Mapping[str, str]] = None, *, init: Optional[Callable[[], None]] = None,
                 quit: Optional[Callable[[], None]] = None, driver: Optional[Callable[[], str]] = None,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 say: Optional[Callable[[str], None]] = None, wait_s: float = WAIT_S) -> str:
    """Initialise pygame's display and return the SDL video driver it uses (``"x11"``,
    ``"wayland"``, ...).

    Raises :class:`NoDisplay` when no driver was asked for (``SDL_VIDEODRIVER`` unset in
    ``env``) and SDL can only reach a driver that shows nothing for ``wait_s`` seconds of
    ``clock``; ``say`` (default: stderr) is told once, at the first miss, what is waited for.
    ``init`` / ``quit`` / ``driver`` default to pygame's (tests inject their own)."""
    import pygame

    env = os.environ if env is None else env
    init = init or pygame.display.init
    quit = quit or pygame.display.quit
    driver = driver or pygame.display.get_driver
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    init()
    name = driver()
    if env.get("SDL_VIDEODRIVER") or name not in HIDDEN_DRIVERS:
        return name
    where = display_name(env)
    say(f"waiting for the display ({where}): it does not answer yet; trying for {wait_s:g} s...")
    pin = _named_driver(env)
    t0 = clock()
    while clock() - t0 < wait_s:
        sleep(RETRY_S)
        quit()
        name = _try(init, driver, pin)
        if name and name not in HIDDEN_DRIVERS:
            say(f"the display ({where}) answered; opening the window")
            return name
    quit()
    raise NoDisplay(f"cannot reach the display ({where}): nothing answered there for {wait_s:g} s, so no "
                    "window opened (start the X server first, or unset DISPLAY to write the figure to a PNG)")


def _named_driver(env: Mapping[str, str]) -> str:
    """The one SDL driver the environment names a display for ("" when both or neither):
    a retry tries only that one, so it fails at once instead of falling back to offscreen
    (and SDL's Wayland attempt does not print its complaint on every try)."""
    x11, wayland = bool(env.get("DISPLAY")), bool(env.get("WAYLAND_DISPLAY"))
    return "x11" if x11 and not wayland else "wayland" if wayland and not x11 else ""


def _try(init: Callable[[], None], driver: Callable[[], str], pin: str) -> str:
    """One more ``init`` with SDL held to the driver ``pin`` (when given); the driver reached,
    or "" when init failed (pygame.error: that driver is not available yet)."""
    import pygame

    had = os.environ.get("SDL_VIDEODRIVER")
    if pin:
        os.environ["SDL_VIDEODRIVER"] = pin
    try:
        init()
        return driver()
    except pygame.error:
        return ""
    finally:
        if pin:
            if had is None:
                os.environ.pop("SDL_VIDEODRIVER", None)
            else:
                os.environ["SDL_VIDEODRIVER"] = had
