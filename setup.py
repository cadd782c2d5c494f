"""The build's one addition to ``pyproject.toml``: the wheel carries Castra's data inside the
package. The checkout keeps ``rulesets/``, ``db/`` (Alembic), ``resources/`` (fonts,
icons) and ``docs/`` (the user guide) at the top; ``build_py`` copies them into
``app/_data/`` of the built package, where :mod:`app.bundled` finds them once installed.
An editable install (``make``) copies nothing: :mod:`app.bundled` reads the checkout's
folders."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: the checkout's data folders, copied into ``app/_data`` (the PyInstaller spec lists them too)
DATA_FOLDERS = ("rulesets", "db", "resources", "docs")
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")


class BuildPyWithData(build_py):
    """``build_py`` plus the data folders, copied whole into ``<build>/app/_data/``."""

    def run(self) -> None:
        super().run()
        if self.editable_mode or self.dry_run:
            return
        target = Path(self.build_lib) / "app" / "_data"
        for name in DATA_FOLDERS:
            dest = target / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(HERE / name, dest, ignore=_SKIP)


setup(cmdclass={"build_py": BuildPyWithData})
