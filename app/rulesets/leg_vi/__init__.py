"""Leg VI Carthago: its schema (``schema``, ``checks``), rules helpers and mechanics
(``mechanics``). Importing the package loads its schema only (``SCHEMA``, read by
:class:`app.rules.engine.Engine`); the mechanics load when a battle, a card or the odds need
them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.engine import Engine, EngineSchema
from app.rules.leaderfields import FieldValue, LeaderField
from app.rulesets.leg_vi.checks import check
from app.rulesets.leg_vi.schema import Troop
from app.rulesets.leg_vi.tables_schema import Tables

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables, check=check)


def _extra_actions(rs: Ruleset, exceptional: FieldValue | None) -> int:
    return (rs.leaders.actions_exceptional_bonus or 0) if exceptional else 0


#: an exceptional leader (Leg VI, Command: one more action than his rank gives)
EXCEPTIONAL = LeaderField(
    "exceptional",
    "Exceptional",
    "yes/no",
    help="An exceptional leader has one more action",
    cli_help="Leg VI: one more action (yes/no)",
    default=False,
    applies=lambda rs: bool(rs.leaders.actions_exceptional_bonus),
    editor_words=("no", "yes: one more action"),
    undo="Make {leader} {value}",
    undo_words=("not exceptional", "exceptional"),
    card="none",
    extra_actions=_extra_actions,
    sheet_width=0.1,
)

#: this engine, as the registry (:mod:`app.rulesets`) finds it
ENGINE = Engine("leg-vi", __name__, "leg-vi-carthago", leader_fields=(EXCEPTIONAL,))
