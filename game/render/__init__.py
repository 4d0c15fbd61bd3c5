"""Drawing: from a board, its analysis and view options to marks on a canvas.

* :mod:`game.render.canvas`: the drawing protocol (recording and pygame back ends).
* :mod:`game.render.svg_canvas`: the SVG back end.
* :mod:`game.render.scene`: ``draw_scene``, the one drawing routine every view uses.
* :mod:`game.render.figure`: figures (PNG, SVG) off screen; :mod:`game.figures.book` render-book.

Never imports :mod:`game.window`.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
