"""Grown Slightly Bald (five minute Punic War rules): its schema (``schema``, ``checks``),
rules helpers and mechanics (``mechanics``). Importing the package loads its schema only
(``SCHEMA``, read by :class:`app.rules.engine.Engine`); the mechanics load when a battle, a
card or the odds need them."""

from app.rules.engine import Engine, EngineSchema
from app.rules.leaderfields import LeaderField
from app.rules.schema import MAX_BONUS, MIN_BONUS
from app.rulesets.gsb.checks import check
from app.rulesets.gsb.schema import Tables, Troop

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: a leader's bonus, added to the melee die or missile difference of the unit he is with:
#: his own when set, else the rules' by his name (the ruleset's ``[leaders]`` data)
BONUS = LeaderField(
    "bonus",
    "Bonus",
    "number",
    help="Added to the unit's melee die or missile difference when he is with it",
    cli_help="Quincunx/GSB: +1 or +2 (none: the rules' default by name)",
    minimum=MIN_BONUS,
    maximum=MAX_BONUS,
    choices=(0, 1, 2, 3),
    applies=lambda rs: rs.leaders.gives_bonus(),
    by_rules=lambda rs, name: rs.leaders.bonus_by_name(name),
    undo="Set bonus of {leader} to {value}",
    card="title",
    sheet_width=0.07,
    cli_example="+1 or +2",
)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("gsb", __name__, "grown-slightly-bald", leader_fields=(BONUS,))
