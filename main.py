#!/usr/bin/env python3
"""Melee Lens from a checkout: ``python main.py [COMMAND] ...`` is the ``melee-lens`` command
(:mod:`game.cli.main` says what each command does and its exit status)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game.cli.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
