"""Figure pipelines that analyse: a board (or a book file, or a compare of two rulesets) in,
figure bytes or files out. They load rulesets, analyse boards and build demo steps, then hand
what is to be drawn, analysis and ruleset display name included, to the pure renderer
(:mod:`game.render`), which loads and analyses nothing.

* :mod:`game.figures.figure_file`: ``build_figure`` / ``render_figure`` / ``write_figure`` /
  ``save_png`` (one panel, or a compare figure when asked).
* :mod:`game.figures.figure_compare`: one board under two rulesets, side by side or overlaid.
* :mod:`game.figures.book`: ``render-book``, every figure of a book file.

Imports run cli -> window -> figures -> render -> core (``tests/test_architecture.py``).
"""
