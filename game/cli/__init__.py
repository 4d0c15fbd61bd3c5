"""The command line: :mod:`game.cli.main` (the ``melee-lens`` command, ``python main.py``)
dispatches to :mod:`.analyse_cmd` (rules core only), :mod:`.render_cmd` (figures) and
:mod:`.window_cmd` (the window and demos); :mod:`.args` checks option values and
:mod:`.common` holds what the drawing commands share."""
