"""The interactive window (pygame, pygame_gui): the table, step and demo views, their
toolbar, panels and dialogs, the document session and the live analysis.

Draws through :mod:`game.render`; never imported by :mod:`game.core`, the engines or render.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
