"""Drawing: from a board, its analysis and view options to marks on a canvas.

A pure function of what it is handed: nothing here loads a ruleset, analyses a board or builds
a demo (the pipelines that do live above, in :mod:`game.figures`; ``tests/test_render_pure.py``).

* :mod:`game.render.canvas`: the drawing protocol (recording back end); :mod:`game.render.pygame_canvas` the pygame one.
* :mod:`game.render.svg_canvas`: the SVG back end.
* :mod:`game.render.scene`: ``draw_scene``, the one drawing routine every view uses.
* :mod:`game.render.figure`: figures (PNG, SVG, PDF) of an analysed board off screen.

Never imports :mod:`game.figures` nor :mod:`game.window`.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
