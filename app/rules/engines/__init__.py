"""Per-engine schema: each engine module gives its troop model, its tables model and the
cross-checks that data alone cannot express.

An engine is a family of rules (``quincunx``, ``leg-vi``, ``gsb``, ``mwan90``, ``d3``). A
house-rules variant copied into the user data folder keeps its ``engine`` and changes its
``id``. Engine modules are imported on demand, so one broken engine cannot stop the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.rules.schema import Strict, TroopBase

if TYPE_CHECKING:
    from app.rules.errors import Problem
    from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class EngineSchema:
    engine: str
    troop_model: type[TroopBase]
    tables_model: type[Strict]
    builtin_folder: str
    check: Callable[[Ruleset], list[Problem]] | None = None


#: engine name -> (module inside this package, built-in ruleset folder holding its mechanics)
ENGINE_MODULES: dict[str, str] = {
    "quincunx": "quincunx",
    "leg-vi": "leg_vi",
    "gsb": "gsb",
    "mwan90": "mwan90",
    "d3": "d3",
}


def engine_schema(engine: str) -> EngineSchema:
    """The schema of ``engine``; raises ``LookupError`` naming the engine if it has none."""
    try:
        module_name = ENGINE_MODULES[engine]
    except KeyError:
        known = ", ".join(sorted(ENGINE_MODULES))
        raise LookupError(f"unknown engine {engine!r} (known: {known})") from None
    module = importlib.import_module(f"app.rulesets.{module_name}")
    schema = getattr(module, "SCHEMA", None)
    if not isinstance(schema, EngineSchema):
        raise LookupError(f"engine module {module_name!r} defines no SCHEMA")
    return schema
