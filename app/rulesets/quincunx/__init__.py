"""Quincunx (Duke Seifried, 1999): its schema (``schema``, ``checks``), rules helpers and
mechanics (``mechanics``). Importing the package loads its schema only (``SCHEMA``, read by
:class:`app.rules.engine.Engine`); the mechanics load when a battle, a card or the odds need
them."""

from app.rules.engine import Engine, EngineSchema
from app.rules.leader_bonus import BONUS
from app.rulesets.quincunx.checks import check
from app.rulesets.quincunx.schema import Tables, Troop

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("quincunx", __name__, "quincunx", leader_fields=(BONUS,))
