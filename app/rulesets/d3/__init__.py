"""The D3 Ancient Rules (a One-Hour Wargames variant): schema (``schema``, ``checks``), rules
helpers and mechanics (``mechanics``). Importing the package loads its schema only; the
mechanics load when a battle or the odds need them."""

from app.rules.engines import EngineSchema
from app.rulesets.d3.checks import check
from app.rulesets.d3.schema import Tables, Troop

SCHEMA = EngineSchema(
    engine="d3",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="d3-ancients",
    check=check,
)
