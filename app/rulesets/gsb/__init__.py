"""Grown Slightly Bald (five minute Punic War rules): schema (``schema``, ``checks``), rules
helpers and mechanics (``mechanics``). Importing the package loads its schema only; the
mechanics load when a battle or the odds need them."""

from app.rules.engines import EngineSchema
from app.rulesets.gsb.checks import check
from app.rulesets.gsb.schema import Tables, Troop

SCHEMA = EngineSchema(
    engine="gsb",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="grown-slightly-bald",
    check=check,
)
