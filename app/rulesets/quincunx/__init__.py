"""Quincunx (Duke Seifried, 1999): schema (``schema``, ``checks``), rules helpers and mechanics
(``mechanics``). Importing the package loads its schema only; the mechanics load when a
battle or the odds need them."""

from app.rules.engines import EngineSchema
from app.rulesets.quincunx.checks import check
from app.rulesets.quincunx.schema import Tables, Troop

SCHEMA = EngineSchema(
    engine="quincunx",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="quincunx",
    check=check,
)
