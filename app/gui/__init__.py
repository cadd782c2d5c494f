"""The Qt front end: the only package that imports PySide6.

Loading it enters every module loaded so far in PySide6's ``__feature__`` table as one PySide6
can ignore. PySide6 (for its ``from __feature__ import snake_case`` switches, which Castra
does not use) reads the source of each module an import statement names after PySide6 has
loaded, the first time it is named, to see whether it mentions PySide6: ``typing``,
``logging``, ``datetime`` and some fifty more the window's Qt-free modules loaded first,
then this package's own modules, about 9 ms of the window's start. This package's modules are
entered as PySide6 would find them (using it); with no feature switched on anywhere, a module
PySide6 ignores and one it switches to "no feature" behave alike. A PySide6 without that table
is left as it is."""

from __future__ import annotations

import importlib
import os
import sys


def _skip_feature_scan() -> None:
    try:
        feature = importlib.import_module("PySide6.support.feature")
    except ImportError:
        return
    table = getattr(feature, "pyside_feature_dict", None)
    if isinstance(table, dict):
        for name in list(sys.modules):
            table.setdefault(name, -1)
        try:
            own = _own_modules(__path__[0], __name__)
        except OSError:  # not a folder of files (a zipped install): only a speed-up is lost
            return
        for name in own:
            table.setdefault(name, 0)


def _own_modules(folder: str, package: str) -> list[str]:
    """The names of the modules in ``folder`` (package ``package``) and its subpackages."""
    names = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
                names.append(f"{package}.{entry.name}")
                names.extend(_own_modules(entry.path, f"{package}.{entry.name}"))
            elif entry.name.endswith(".py") and entry.name != "__init__.py":
                names.append(f"{package}.{entry.name[:-3]}")
    return names


_skip_feature_scan()
