"""Leg VI Carthago: its schema (``schema``, ``checks``), rules helpers and mechanics
(``mechanics``). Importing the package loads its schema only (``SCHEMA``, read by
:class:`app.rules.engine.Engine`); the mechanics load when a battle, a card or the odds need
them."""

from app.rules.engine import Engine, EngineSchema
from app.rulesets.leg_vi.checks import check
from app.rulesets.leg_vi.schema import Troop
from app.rulesets.leg_vi.tables_schema import Tables

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("leg-vi", __name__, "leg-vi-carthago")
