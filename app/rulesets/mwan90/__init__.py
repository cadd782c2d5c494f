"""The MWAN #90 Punic rules (1997): schema (``schema``, ``checks``), rules helpers and
mechanics (``mechanics``). Importing the package loads its schema only; the mechanics load
when a battle or the odds need them."""

from app.rules.engines import EngineSchema
from app.rulesets.mwan90.checks import check
from app.rulesets.mwan90.schema import Tables, Troop

SCHEMA = EngineSchema(
    engine="mwan90",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="mwan90",
    check=check,
)
