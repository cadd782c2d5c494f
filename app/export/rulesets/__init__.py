"""Each engine's printed parts, one module per package of :mod:`app.rulesets`, found by
convention from the engine (``app.export.rulesets.<package_name>``, no hand-kept table): the
body of its quick-reference sheet (``story(rs, ctx)``) and the ruleset-specific face of its
unit cards (``face(rs, roster, unit, troop, width)``)."""

from __future__ import annotations

import importlib
from types import ModuleType

from app.rules.engine import Engine


def module_for(engine: Engine) -> ModuleType:
    """The printed parts of ``engine``; ``ImportError`` if it has none."""
    return importlib.import_module(f"{__name__}.{engine.package_name}")
