"""The D3 Ancient Rules (a One-Hour Wargames variant): its schema (``schema``, ``checks``),
rules helpers and mechanics (``mechanics``). Importing the package loads its schema only
(``SCHEMA``, read by :class:`app.rules.engine.Engine`); the mechanics load when a battle, a
card or the odds need them."""

from app.rules.documents import DocumentOption, DocumentSpec
from app.rules.engine import Engine, EngineSchema, SideFlag
from app.rules.leaderfields import LeaderField
from app.rulesets.d3.checks import check
from app.rulesets.d3.schema import QUALITIES, Tables, Troop

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)

#: a side's chance-card deck to cut out, with the army, commander-quality and supply
#: substitutions applied (D3 Chance Cards); made by ``app.export.rulesets.d3``
CHANCE_CARDS = DocumentSpec(
    id="chance-cards",
    name="chance cards",
    title="Chance-card deck (D3)",
    action="C&hance cards…",
    tip="The D3 chance-card deck of a side, with its army, commander and supply substitutions",
    help="a D3 Ancients side's chance-card deck to cut out",
    side_help="army id (roman, carthaginian) or side (Rome, Carthage)",
    ruleset_help="a ruleset with chance cards (default: the first built-in one, d3-ancients)",
    options=(
        DocumentOption(
            "commander", "Commander", choices=QUALITIES, default="average", leader_field="quality"
        ),
        DocumentOption(
            "supply_problems",
            "Supply problems (a No Event becomes an Ammunition Shortage)",
            help="the side has supply problems",
        ),
    ),
)

#: a side with supply problems: its deck's No Event becomes an Ammunition Shortage
SUPPLY_PROBLEMS = SideFlag(
    "supply_problems", "Supply problems (D3)", "D3: the side(s) with supply problems"
)

#: the commander's quality (D3, Chance Cards: a good or poor commander changes the deck)
QUALITY = LeaderField(
    "quality",
    "Quality",
    "choice",
    help="A good or poor commander changes the side's chance-card deck",
    cli_help="D3 Ancients: the commander's quality (changes the chance-card deck)",
    default="average",
    choices=QUALITIES,
    undo="Make {leader} a {value} commander",
    card="stat",
)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine(
    "d3",
    __name__,
    "d3-ancients",
    has_chance_cards=True,
    documents=(CHANCE_CARDS,),
    side_flags=(SUPPLY_PROBLEMS,),
    leader_fields=(QUALITY,),
)
