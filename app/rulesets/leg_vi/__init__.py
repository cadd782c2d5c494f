"""Leg VI Carthago: schema (``schema``, ``checks``), rules helpers and mechanics
(``mechanics``). Importing the package loads its schema only; the mechanics load when a
battle or the odds need them."""

from app.rules.engines import EngineSchema
from app.rulesets.leg_vi.checks import check
from app.rulesets.leg_vi.schema import Troop
from app.rulesets.leg_vi.tables import Tables

SCHEMA = EngineSchema(
    engine="leg-vi",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="leg-vi-carthago",
    check=check,
)
