"""Each engine's printed parts, one module per package of :mod:`app.rulesets`, found by
convention from the engine (``app.export.rulesets.<package_name>``, no hand-kept table): the
body of its quick-reference sheet (``story(rs, ctx)``) and the ruleset-specific face of its
unit cards (``face(rs, roster, unit, troop, width)``). Both are optional: an engine without
them prints the generic parts made from its data (:mod:`app.export.generic_parts`)."""

from __future__ import annotations

import importlib
from types import ModuleType

from app.rules.engine import Engine


def module_for(engine: Engine) -> ModuleType | None:
    """The printed parts of ``engine``; None if it has none (a module that is there but
    fails to import still raises)."""
    name = f"{__name__}.{engine.package_name}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
