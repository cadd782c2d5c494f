"""Rulesets as data: the typed schema, the loader and the registry (no Qt, no database).

The names below are imported on first use, so that importing a light module of this package
(``app.rules.inputs``, ``app.rules.errors``) does not load pydantic and the schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.rules.errors import Problem, RulesetError
    from app.rules.registry import Registry
    from app.rules.ruleset import Ruleset

_WHERE = {
    "Problem": "app.rules.errors",
    "RulesetError": "app.rules.errors",
    "Registry": "app.rules.registry",
    "Ruleset": "app.rules.ruleset",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'app.rules' has no attribute {name!r}")


__all__ = ["Problem", "Registry", "Ruleset", "RulesetError"]
