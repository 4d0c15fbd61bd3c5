"""Build step of ``pip install .`` (the metadata is in pyproject.toml): the shipped data,
``rulesets/`` and ``assets/``, is copied into the built package as ``game/_data/`` so an
installed ``melee-lens`` finds it (``game/core/paths.py``)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA = ("rulesets", "assets")


class BuildWithData(build_py):
    def run(self):
        super().run()
        for name in DATA:
            dest = Path(self.build_lib) / "game" / "_data" / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(HERE / name, dest)


setup(cmdclass={"build_py": BuildWithData})
