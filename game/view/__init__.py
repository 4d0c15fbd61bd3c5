"""Drawing and the window (pygame). Never imported by ``game.core``.

* :mod:`game.view.canvas`: the drawing protocol (recording and pygame back ends).
* :mod:`game.view.scene`: ``draw_scene``, the one drawing routine.
* :mod:`game.view.figure`: PNG figures on an off-screen surface.
* :mod:`game.view.app`: the interactive window.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
