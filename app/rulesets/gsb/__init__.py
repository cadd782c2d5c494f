"""Grown Slightly Bald (five minute Punic War rules): its schema (``schema``, ``checks``),
rules helpers and mechanics (``mechanics``). Importing the package loads its schema only
(``SCHEMA``, read by :class:`app.rules.engine.Engine`); the mechanics load when a battle, a
card or the odds need them."""

from app.rules.engine import Engine, EngineSchema
from app.rules.leader_bonus import BONUS
from app.rulesets.gsb.checks import check
from app.rulesets.gsb.schema import Tables, Troop

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("gsb", __name__, "grown-slightly-bald", leader_fields=(BONUS,))
