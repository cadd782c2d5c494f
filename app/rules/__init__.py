"""Rulesets as data: the typed schema, the loader and the registry (no Qt, no database)."""

from app.rules.errors import Problem, RulesetError
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset

__all__ = ["Problem", "Registry", "Ruleset", "RulesetError"]
