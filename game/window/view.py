"""Views and sections, arcade's way (``arcade.View`` / ``arcade.Section``).

A :class:`View` is one screen of the window (the editable table, the phase steps, a demo); the
:class:`~game.window.window.Window` shows one view at a time and hands it every event, then
asks it to update and to draw. A :class:`Section` is a part of a view that owns its own state
and its own events: the toolbar, the unit panels, the F1 help, the dialogs, the status line,
the file commands. Sections can be shared by several views (the table and the steps view show
the same toolbar and dialogs).

Events flow top down: :meth:`View.dispatch` offers an event to the view's sections in order
(the first one that returns True from :meth:`Section.on_event` consumes it), then to the view
itself (:meth:`View.on_event`). Updates run every section's :meth:`Section.on_update`, then
the view's; drawing runs the view's :meth:`View.on_draw`, then each section's
:meth:`Section.on_draw` (so the toolbar and windows are drawn over the table).

Nothing here imports pygame: events are any object with a ``type``.
"""
from __future__ import annotations

from typing import Any, Optional


class Section:
    """A part of a view with its own state and events. Override what you need."""

    def on_event(self, ev: Any) -> bool:
        """Handle one event; True when it was this section's (no one else sees it then)."""
        return False

    def on_update(self) -> None:
        """Once a frame, before the view's own update."""

    def on_draw(self, screen: Any) -> None:
        """Draw over the view (``screen``: the window surface)."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window is now ``size`` px."""


class Same:
    """Compares equal to another ``Same`` of the very same object (never by value; holding
    the object, so its id cannot be reused meanwhile): a fingerprint part that changes when an
    object is replaced."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    __hash__ = None  # type: ignore[assignment]


class View:
    """One screen of the window. ``sections`` are asked first, in order, for every event."""

    def __init__(self, sections: Optional[list[Section]] = None) -> None:
        self.sections: list[Section] = list(sections or [])

    # -- called by the window ------------------------------------------------------------------
    def dispatch(self, ev: Any) -> bool:
        """Offer ``ev`` to the sections, then to the view; True when someone consumed it."""
        for s in self.sections:
            if s.on_event(ev):
                return True
        return self.on_event(ev)

    def update(self) -> None:
        for s in self.sections:
            s.on_update()
        self.on_update()

    def draw(self, screen: Any) -> None:
        self.on_draw(screen)
        for s in self.sections:
            s.on_draw(screen)

    def resize(self, size: tuple[int, int]) -> None:
        for s in self.sections:
            s.on_resize(size)
        self.on_resize(size)

    # -- what a view overrides -------------------------------------------------------------------
    def on_show(self) -> None:
        """The window shows this view from now on."""

    def on_hide(self) -> None:
        """The window is about to show another view."""

    def on_event(self, ev: Any) -> bool:
        return False

    def on_update(self) -> None:
        """Once a frame (drags, hover)."""

    def on_draw(self, screen: Any) -> None:
        """Draw the view."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window is now ``size`` px."""

    def on_error(self, what: str, exc: BaseException) -> str:
        """A frame raised: show it (the window goes on); returns the sentence shown."""
        return f"{what}: {exc}"

    def fingerprint(self) -> tuple:
        """What, when it changes between two frames, means the window must draw again."""
        return ()

    def busy(self) -> bool:
        """True while something animates (a drag): the window never idles then."""
        return False

    def settling(self) -> bool:
        """True while the picture still changes by itself for a few frames though nothing
        happened (the table folding units drawn live back into its kept layer): the window
        draws those frames while lately active."""
        return False
