"""The first analysis of a big board, shown as it goes and cancellable (pygame only for keys).

When the window starts on, or opens, a board of many models, the document hands its first
analysis to the worker process (:meth:`game.window.document.Document.analyse_first`) and the
window draws the board at once, without roles. :class:`AnalysingSection` then takes the
worker's answer once a frame without waiting, keeps the status line saying what the analysis
is doing (the stage the worker reports, named by :func:`game.core.work.doing`) and lets Esc
cancel it: the worker is stopped, the board stays shown without roles and the window is as
usable as before (an edit analyses the board again).
"""
from __future__ import annotations

from typing import Any, Callable

import pygame

from game.window.document import Document
from game.window.status import Status
from game.window.view import Section

#: the dots after the stage, one more every this many frames (only a sign of life)
DOT_FRAMES = 20


class AnalysingSection(Section):
    """Progress and Esc-cancel of ``doc``'s first analysis off the frame; ``dialog_open()``:
    a dialog has the keyboard (its Esc is its own then)."""

    def __init__(self, doc: Document, status: Status, dialog_open: Callable[[], bool]) -> None:
        self.doc, self.status, self.dialog_open = doc, status, dialog_open
        self.frames = 0

    def on_update(self) -> None:
        if not self.doc.analysing:
            self.frames = 0
            return
        if self.doc.poll_first():
            self.doc.notify("analysed")
            return
        self.frames += 1
        n = sum(len(u.models()) for u in self.doc.board.units)
        dots = "." * (1 + (self.frames // DOT_FRAMES) % 3)
        self.status.say(f"Analysing {n:,} models under {self.doc.rs.id}: {self.doc.live.stage()}{dots} "
                        "(Esc cancels; the board is shown without roles until then)")

    def on_event(self, ev: Any) -> bool:
        if (self.doc.analysing and ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE
                and not self.dialog_open()):
            self.doc.cancel_first()
            return True
        return False
