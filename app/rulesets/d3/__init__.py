"""The D3 Ancient Rules (a One-Hour Wargames variant): its schema (``schema``, ``checks``),
rules helpers and mechanics (``mechanics``). Importing the package loads its schema only
(``SCHEMA``, read by :class:`app.rules.engine.Engine`); the mechanics load when a battle, a
card or the odds need them."""

from app.rules.engine import Engine, EngineSchema
from app.rulesets.d3.checks import check
from app.rulesets.d3.schema import Tables, Troop

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("d3", __name__, "d3-ancients", has_chance_cards=True)
